"""The host page at phone size (390x844) before and after the camera names a card it
could not name at first: its question, then the log with the question closed by camera.

The real table, web app and Debian's Chromium; the camera's two observations (the card
unknown, then "named" on a later look, as vision/track.py reports them) are handed to
the table directly, over a generated frame of a green cloth and one card, so the
question shows its cut-out. The page is served by a plain threaded server and loaded
again after the second observation. Prints JSON: the files written.

    .venv/bin/python scripts/experiments/named_later_screens.py [--out docs/live]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import threading
from pathlib import Path

import cv2
import numpy as np
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.config import Settings  # noqa: E402
from companion.server import build_services, close_services  # noqa: E402
from companion.web import create_app  # noqa: E402
from vision.observations import Observation, seat_zone  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TOKEN = "screenshot"
CARD = ((400.0, 300.0), (526.0, 300.0), (526.0, 476.0), (400.0, 476.0))


def cloth_with_a_card() -> np.ndarray:
    frame = np.full((960, 1280, 3), (40, 110, 50), np.uint8)
    cv2.fillConvexPoly(frame, np.int32(CARD), (245, 245, 245))
    cv2.putText(frame, "7", (435, 420), cv2.FONT_HERSHEY_DUPLEX, 3.0, (30, 30, 200), 6)
    cv2.circle(frame, (463, 390), 26, (40, 40, 40), -1)  # a chip on it while it was first read
    return frame


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/live"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = dataclasses.replace(Settings(), data_dir=tmp, speech=False, host_token=TOKEN)
        services = build_services(settings, Path(tmp) / "games.db", "http://127.0.0.1")
        server = make_server("127.0.0.1", 0, create_app(services), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}"
        table = services.table
        table.start_game("gargon", ["Ana", "Ben", "Carla"], setup={"piles": [6, 6]})
        table.view.publish(cloth_with_a_card())
        unknown = Observation("appeared", 1, None, 0.31, CARD, seat_zone(0), 0.0, 0.3,
                              candidates=(("red-7", 0.31), ("red-1", 0.22), ("yellow-7", 0.12)))
        shots = {}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
                page = browser.new_page(viewport=PHONE, bypass_csp=True)  # (its waits evaluate script)
                table.observe(unknown)
                page.goto(f"{url}/host?token={TOKEN}")
                page.wait_for_function("[...document.querySelectorAll('.question img.cutout')].some(i => i.naturalWidth)")
                shots["asked"] = args.out / "host-named-later-asked-390x844.png"
                page.screenshot(path=str(shots["asked"]))
                table.observe(dataclasses.replace(unknown, kind="named", code="red-7", confidence=0.93,
                                                  last_seen=2.3, candidates=(("red-7", 0.93),)))
                page.reload()  # (the phones' push stream is uvicorn's, not this plain server's)
                page.wait_for_function("document.getElementById('log').children.length > 0")
                page.evaluate("document.getElementById('log').scrollIntoView({block: 'center'})")
                shots["named"] = args.out / "host-named-later-named-390x844.png"
                page.screenshot(path=str(shots["named"]))
                browser.close()
        finally:
            server.shutdown()
            close_services(services)
    print(json.dumps({name: str(path) for name, path in shots.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
