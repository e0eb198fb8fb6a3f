"""The host's camera set-up page at phone size (390x844): after trying a camera whose pictures
are smaller than the 1280x720 a camera is asked for (a folder of 640x360 frames stands in for
a webcam left at its default), docs/camera-setup-small-camera-390x844.png; and the seats
calibrated from what the table's camera sees (a folder of frames of a table with seat
markers, the table's camera), docs/camera-setup-seats-390x844.png.

    .venv/bin/python scripts/experiments/camera_setup_screen.py [--out docs]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from screenshot_host import CHROMIUM, PHONE, TOKEN, free_port, state, wait_for  # noqa: E402
from scripts.lib.scripted import seat_table  # noqa: E402
from vision.synth.tables import game_table  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp())
    frames = data / "frames"
    frames.mkdir()
    table = game_table("gargon", 7, 1).scenes[0].image
    cv2.imwrite(str(frames / "0001.jpg"), cv2.resize(table, (640, 360), interpolation=cv2.INTER_AREA))
    markers = data / "markers"
    markers.mkdir()
    seats = seat_table(seed=2, seats=4).image
    for k in range(600):  # the table's camera: read on for a minute or so
        cv2.imwrite(str(markers / f"{k:04d}.jpg"), seats)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "COMPANION_HOST_TOKEN": TOKEN, "COMPANION_SPEECH": "false", "COMPANION_HOST": "127.0.0.1",
           "XDG_CONFIG_HOME": str(data / "config")}
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--game", "gargon", "--camera", str(markers),
                               "--port", str(port), "--data-dir", str(data)], env=env, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shot = Path(args.out) / "camera-setup-small-camera-390x844.png"
    try:
        wait_for(lambda: state(url), 60, "the server")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            page = browser.new_page(viewport=PHONE, bypass_csp=True)  # (its waits evaluate script)
            page.goto(f"{url}/host?token={TOKEN}")
            page.goto(f"{url}/host/camera-setup")
            page.fill("#camera-source", str(frames))
            page.click("#camera-try")
            page.wait_for_function("document.getElementById('camera-result').textContent.startsWith('Kept')")
            page.evaluate("document.getElementById('camera-result').scrollIntoView({block: 'center'})")
            page.screenshot(path=str(shot))
            print(page.locator("#camera-result").text_content())
            page.fill("#seats-count", "4")
            page.click("#seats-camera")
            page.wait_for_function("document.getElementById('seats-result').textContent.startsWith('Saved')")
            page.wait_for_function("document.getElementById('seats-drawn').naturalWidth > 0")
            page.evaluate("document.getElementById('seats-photo-heading').scrollIntoView({block: 'start'})")
            page.screenshot(path=str(Path(args.out) / "camera-setup-seats-390x844.png"))
            print(page.locator("#seats-result").text_content())
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
