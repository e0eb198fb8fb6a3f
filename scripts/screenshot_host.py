"""Pictures of the host page at phone size (390x844) for docs/: a camera question and the camera view.

Starts `companion demo --answer-myself` (the generated table read by the real vision, every
question left to the host); Debian's Chromium says "not a card" to the first question (the
stray thing the demo lays first), taps "Yes" on questions about several cards until one is
about one card, photographs it (its cut-out, the camera's guesses, "none of these", "not a
card"), then the camera's picture with its cards outlined. Prints JSON: the files and their sizes.

    .venv/bin/python scripts/screenshot_host.py [--game bagani] [--out docs]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
TOKEN = "screenshot"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def state(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/state", timeout=5) as response:
        return json.load(response)


def wait_for(test, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = test()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.3)
    raise SystemExit(f"screenshot_host: {what} did not come within {timeout:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gargon")
    parser.add_argument("--out", default="docs")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    data = Path(tempfile.mkdtemp())
    env = {**os.environ, "COMPANION_HOST_TOKEN": TOKEN, "COMPANION_SPEECH": "false", "COMPANION_HOST": "127.0.0.1",
           "XDG_CONFIG_HOME": str(data / "config")}
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "demo", "--game", args.game, "--speed", "4",
                               "--answer-myself", "--once", "--port", str(port), "--data-dir", str(data)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: state(url)["questions"], 120, "a question")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            page = browser.new_page(viewport=PHONE, bypass_csp=True)  # (its waits evaluate script)
            page.goto(f"{url}/host?token={TOKEN}")
            page.wait_for_function("document.getElementById('camera-img').naturalWidth > 0", timeout=15000)
            page.wait_for_function("[...document.querySelectorAll('.question img.cutout')].some(i => i.naturalWidth)")
            shots = {}
            for turn in range(20):  # "not a card" to the stray, then "Yes" until a question is about one card
                first = page.locator("#question-list .question").first
                first.wait_for(timeout=60000)
                if turn and first.locator("button.none-of-these").count():
                    break
                number = first.get_attribute("data-question")
                first.locator("button.not-card" if turn == 0 else "button.choice, button.dismiss").first.click()
                page.wait_for_function(f"!document.getElementById('question-{number}')")
            page.wait_for_function("[...document.querySelectorAll('.question img.cutout')].some(i => i.naturalWidth)")
            for name, top in (("question", "questions"), ("camera", "camera-title")):  # at once: a question
                page.evaluate(f"document.getElementById('{top}').scrollIntoView({{block: 'start'}})")  # may close
                page.evaluate("window.scrollBy(0, -70)")  # below the sticky bar
                shots[name] = out / f"host-{name}-390x844.png"
                page.screenshot(path=str(shots[name]))
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    print(json.dumps({name: {"file": str(path), "bytes": path.stat().st_size} for name, path in shots.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
