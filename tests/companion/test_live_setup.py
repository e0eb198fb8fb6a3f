"""What the host sets up on the phone reaches the live table at once: the camera chosen,
the deck enrolled, a new game. The real server (`companion run`, camera setting `auto`
on a machine with no camera attached), a picture folder as the camera."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path
from typing import Any, Callable

import cv2
import pytest

from tests.companion.photos import card_photo
from tests.companion.servers import HOST_TOKEN, Server
from vision.observations import Observation, seat_zone
from vision.synth.recording import RecordedTable

BOX = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def filmed(game: str, code: str, folder: Path, seats: int, frames: int = 12) -> Path:
    """A picture folder: `code` lying face up in front of the first seat, photographed."""
    folder.mkdir()
    card = Observation("appeared", 1, code, 1.0, BOX, seat_zone(0), 0.0, 0.0)  # type: ignore[arg-type]
    table = RecordedTable(game, [card], seats, seed=3, size=(1280, 960))
    table.apply(card)
    for n in range(frames):
        cv2.imwrite(str(folder / f"{n:04d}.jpg"), table.frame())
    return folder


def until(server: Server, test: Callable[[dict[str, Any]], bool], what: str, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = server.state()
        if test(state):
            return state
        time.sleep(0.2)
    raise AssertionError(f"{what} did not happen in {timeout:.0f} s: {server.state()['camera']}\n{server.output()}")


def post_photo(server: Server, code: str, photo: bytes) -> int:
    boundary = "----companion-test"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"code\"\r\n\r\n{code}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"{code}.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + photo + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(server.url + "/api/host/enroll/shot", data=body, method="POST", headers={
        "Authorization": f"Bearer {HOST_TOKEN}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


@pytest.fixture
def table(tmp_path):
    if any(Path("/dev").glob("video*")):
        pytest.skip("a webcam is attached: the camera setting auto would use it")
    server = Server(["run", "--game", "gargon", "--players", "Ana,Ben,Carla"], tmp_path)
    yield server
    server.stop()


def test_a_camera_chosen_on_the_host_page_reads_the_live_table_at_once(table, tmp_path):
    assert table.state()["camera"] == {"state": "none", "reason": "no camera is attached"}
    folder = filmed("gargon", "red-9", tmp_path / "frames", seats=3)
    status, answer = table.host("camera/source", {"source": str(folder)})
    assert status == 200 and answer["live"] is True
    state = until(table, lambda s: any(c["code"] == "red-9" for c in s["table"]), "the card read")
    assert state["camera"]["state"] in ("ok", "ended")  # no restart of `companion run`


def test_a_deck_enrolled_on_the_host_page_is_the_live_cameras_at_once(table, tmp_path):
    folder = filmed("lagim", "Kapre", tmp_path / "frames", seats=2)
    assert table.host("camera/source", {"source": str(folder)})[0] == 200
    assert table.host("start", {"game": "lagim", "players": ["Ana", "Ben"]})[0] == 200
    state = until(table, lambda s: s["game"] == "lagim" and s["camera"]["state"] == "none", "the new game's camera")
    assert "no enrolled deck" in state["camera"]["reason"]  # the camera restarted for Lagim: it needs a deck
    assert table.host("enroll/start", {"game": "lagim"})[0] == 200
    for code in ("kapre", "duwende"):
        assert post_photo(table, code, card_photo("lagim", code)) == 200
        assert table.host("enroll/confirm")[0] == 200
    status, done = table.host("enroll/finish")
    assert status == 200 and done["live"] is True
    until(table, lambda s: any(c["code"] for c in s["table"]), "a card read with the new deck")
