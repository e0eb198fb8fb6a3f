"""Set up the camera from the phone: which camera, and where everyone sits.

The camera source is tried before it is kept: one frame is read from it and shown, so
a wrong device or a typo in a stream address shows at once, not at the next start.
Seats are calibrated as `companion markers --calibrate` does, with the picture coming
from the table's camera or the host's phone: the seat markers are found and the photo comes back with each
seat's zone drawn on it, so the host sees whether the camera will give a card to the
right player. Both are kept in the data folder (`companion.camera_files`) and used where
the settings name none, at once: the live camera restarts with them.
"""

from __future__ import annotations

import math
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from companion.camera import source_problem
from companion.camera_files import CAMERA_FILE, ZONES_FILE, table_camera
from companion.web.auth import csrf_token, host_required, is_host
from companion.web.lookup import restart_camera, services
from companion.web.photos import png_data_url, uploaded_photo
from rules.core import BadInput

bp = Blueprint("camera_setup", __name__)

SHOWN_WIDTH = 960               # the drawn zones come back at this width
FIRST_FRAME_SECONDS = 5.0       # how long a camera source being tried may take to give a frame


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


def _seats(raw: Any) -> int:
    from vision.zones import check_seats

    try:
        seats = int(raw)
    except (TypeError, ValueError):
        raise BadInput("seats", "must be a whole number") from None
    check_seats(seats)
    return seats


@bp.route("/host/camera-setup")
def page() -> Any:
    if not is_host():
        return redirect(url_for("auth.login"))
    players = len(services().table.snapshot()["players"]) or 4
    data_dir = services().store.path.parent
    return render_template("camera_setup.html", csrf=csrf_token(), seats=max(2, players),
                           camera=table_camera("auto", data_dir))


@bp.route("/host/markers.png")
def sheet() -> Any:
    """The printable A4 sheet of seat markers (at 150 dpi: a phone prints it as well)."""
    import cv2

    from vision.markers import marker_sheet

    if not is_host():
        return redirect(url_for("auth.login"))
    ok, data = cv2.imencode(".png", marker_sheet(_seats(request.args.get("seats", 4)), dpi=150))
    return Response(data.tobytes(), mimetype="image/png",
                    headers={"Content-Disposition": "inline; filename=seat-markers.png"})


@bp.route("/api/host/camera/source", methods=["POST"])
@host_required
def camera_source() -> Response:
    """Try a camera source (one frame, shown) and keep it as the table's camera."""
    import cv2

    from companion.camera import source_spec
    from vision.sources import open_source

    source = str((request.get_json(silent=True) or {}).get("source", "")).strip()
    if not source or source == "none":
        raise BadInput("source", "name a camera: auto, a webcam number, a device, a stream address, "
                       "a video file or a picture folder")
    problem = source_problem(source)
    if problem:
        raise BadInput("source", problem)
    try:
        frames = open_source(source_spec(source), services().camera_size)
    except ValueError as exc:
        raise BadInput("source", str(exc)) from None
    try:
        frame = frames.read(timeout=FIRST_FRAME_SECONDS)
    finally:
        frames.close()
    if frame is None:
        raise BadInput("source", f"no picture from {source} in {FIRST_FRAME_SECONDS:.0f} s "
                       "(unplugged, or in use by the running table?)")
    (services().store.path.parent / CAMERA_FILE).write_text(source + "\n", encoding="utf-8")
    scale = SHOWN_WIDTH / frame.shape[1]
    shown = cv2.resize(frame, (SHOWN_WIDTH, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    height, width = frame.shape[:2]
    return jsonify({"source": source, "image": png_data_url(shown), "size": [width, height],
                    "asked": list(services().camera_size), "live": restart_camera() == source})


def _drawn(image: Any, zones: Any, seats: int) -> str:
    """The photo with the centre region and the lines between seats' zones, as a PNG data URL."""
    import cv2

    scale = SHOWN_WIDTH / image.shape[1]
    shown = cv2.resize(image, (SHOWN_WIDTH, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    cx, cy = (c * scale for c in zones.centre)
    reach = 2 * max(shown.shape[:2])
    order = sorted(range(seats), key=lambda k: zones.seat_angles[k])
    for n, k in enumerate(order):  # a zone ends halfway to the next seat round the table
        a, b = zones.seat_angles[k], zones.seat_angles[order[(n + 1) % seats]]
        mid = a + (math.remainder(b - a, math.tau) % math.tau) / 2
        cv2.line(shown, (round(cx), round(cy)), (round(cx + reach * math.cos(mid)), round(cy + reach * math.sin(mid))),
                 (255, 255, 255), 3, cv2.LINE_AA)
    for k in range(seats):
        at = (round(cx + 0.6 * min(shown.shape[:2]) / 2 * math.cos(zones.seat_angles[k])) - 40,
              round(cy + 0.6 * min(shown.shape[:2]) / 2 * math.sin(zones.seat_angles[k])))
        cv2.putText(shown, f"Seat {k + 1}", at, cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(shown, f"Seat {k + 1}", at, cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA)
    cv2.circle(shown, (round(cx), round(cy)), round(zones.centre_radius * scale), (80, 200, 255), 3, cv2.LINE_AA)
    return png_data_url(shown)


@bp.route("/api/host/seats/calibrate", methods=["POST"])
@host_required
def calibrate() -> Response:
    """From a photo sent (`photo`), or with `?from=camera` from the table camera's own
    latest picture: the very view the zones are for, where a phone's photo is taken from
    beside the camera."""
    from vision.zones import marker_zones

    if request.args.get("from") == "camera":
        view = services().table.view
        image = view.frame()
        if image is None:
            raise BadInput("camera", f"no picture from the table's camera: {view.status()['problem']}")
    else:
        image = uploaded_photo()  # first: it allows the body a photo's size before the form is read
    seats = _seats(request.form.get("seats"))
    zones = marker_zones(image, seats)
    path = services().store.path.parent / ZONES_FILE
    zones.save(path)
    live = restart_camera() is not None
    return jsonify({"seats": seats, "zones": str(path), "image": _drawn(image, zones, seats), "live": live})
