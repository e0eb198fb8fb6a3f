// Camera set-up: try a camera source; the marker sheet, then a photo of the table for the seats.
"use strict";
(() => {
  const csrf = document.getElementById("csrf").content;
  const $ = (id) => document.getElementById(id);
  const showError = (text) => { $("host-error").hidden = !text; $("host-error").textContent = text || ""; };

  $("camera-try").onclick = async () => {
    $("camera-result").textContent = "Trying the camera…";
    const response = await fetch("/api/host/camera/source", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ source: $("camera-source").value }) });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) { showError(data.error || "refused"); $("camera-result").textContent = ""; return; }
    showError(null);
    $("camera-frame").src = data.image;
    $("camera-frame").hidden = false;
    const [width, height] = data.size;
    const small = width * height < data.asked[0] * data.asked[1]
      ? ` Its pictures are ${width}x${height}, smaller than the ${data.asked[0]}x${data.asked[1]} a camera is asked ` +
        "for: cards come out small and are named less often; bring the camera closer or use a better one." : "";
    $("camera-result").textContent = (data.live ? `Kept: ${data.source} (${width}x${height}). The table's camera uses it now.`
      : `Kept: ${data.source} (${width}x${height}). The table uses it from its next start ` +
        "(it was started with another camera set).") + small;
  };
  $("seats-count").onchange = () => {
    $("seats-sheet").href = "/host/markers.png?seats=" + encodeURIComponent($("seats-count").value);
  };
  const calibrate = async (address, photo) => {
    const form = new FormData();
    form.append("seats", $("seats-count").value);
    if (photo) form.append("photo", photo);
    $("seats-result").textContent = "Looking for the markers…";
    const response = await fetch(address, {
      method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf }, body: form });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    $("seats-photo").value = "";
    if (!response.ok) { showError(data.error || "refused"); $("seats-result").textContent = ""; return; }
    showError(null);
    $("seats-drawn").src = data.image;
    $("seats-drawn").hidden = false;
    $("seats-result").textContent = `Saved: ${data.seats} seats. ` +
      (data.live ? "The table's camera uses them now." : "The camera uses them from its next start.");
  };
  $("seats-camera").onclick = () => calibrate("/api/host/seats/calibrate?from=camera", null);
  $("seats-photo").onchange = () => {
    const file = $("seats-photo").files[0];
    if (file) calibrate("/api/host/seats/calibrate", file);
  };
})();
