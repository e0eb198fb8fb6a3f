"""Faults on the real server (real processes, real files): each ends in a clear state and
one clear log line, and nothing already recorded is lost or set aside."""

from __future__ import annotations

import http.client
import importlib.util
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
import pytest

from tests.companion.servers import Server, refused

RUN = ["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"]
NOBODY = 65534


def renames(folder: Path) -> list[str]:
    """Every name the log recorded for seat 0, read straight from the file."""
    with sqlite3.connect(folder / "games.db") as raw:
        return [data for (data,) in raw.execute(
            "SELECT json_extract(data, '$.name') FROM events WHERE type='rename' ORDER BY game_id, seq")]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stored_lines(folder: Path) -> list[tuple]:
    """Every game and every line of every log, as the file holds them."""
    with sqlite3.connect(folder / "games.db") as raw:
        return [*raw.execute("SELECT * FROM games"), *raw.execute("SELECT * FROM events ORDER BY game_id, seq")]


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A data folder another user can reach (pytest's own are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-faults-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def unprivileged(folder: Path) -> list[str]:
    """As root, permissions bind nobody: run the server as `nobody`, owning the folder."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions cannot be tested")
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def a_game_in(folder: Path) -> None:
    server = Server(RUN, folder)
    assert server.host("rename", {"seat": 0, "name": "Ana R."})[0] == 200
    server.stop()


# -- crashes ---------------------------------------------------------------------------

@pytest.mark.slow
def test_kill_9_during_bursts_of_writes_loses_and_repeats_nothing(tmp_path):
    acknowledged: list[str] = []
    sent = 0
    for crash in range(3):
        server = Server(RUN, tmp_path)
        pending = f"crash {crash - 1} last" if crash else None
        if pending:  # the request the crash cut off is sent again with its key
            assert server.host("rename", {"seat": 0, "name": pending}, key=pending)[0] == 200
            acknowledged.append(pending)
        stop = threading.Event()

        def write(stop: threading.Event = stop, server: Server = server) -> None:  # this round's, not a later one's
            nonlocal sent
            while not stop.is_set():
                name = f"Ana {sent}"
                sent += 1
                try:
                    if server.host("rename", {"seat": 0, "name": name}, key=name)[0] == 200:
                        acknowledged.append(name)
                except (OSError, urllib.error.URLError, http.client.HTTPException):  # a reply the kill cut off
                    return

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(0.6)
        server.kill()
        stop.set()
        writer.join(10)
        crashed = Server(RUN, tmp_path)  # a resend of an acknowledged write changes nothing
        assert crashed.host("rename", {"seat": 0, "name": acknowledged[-1]}, key=acknowledged[-1])[0] == 200
        in_flight = f"Ana {sent - 1}"  # cut off by the crash: stored or not, the resend makes it once
        if in_flight not in acknowledged:
            assert crashed.host("rename", {"seat": 0, "name": in_flight}, key=in_flight)[0] == 200
            acknowledged.append(in_flight)
        assert crashed.host("rename", {"seat": 0, "name": f"crash {crash} last"}, key=f"crash {crash} last")[0] == 200
        crashed.kill()
    recorded = renames(tmp_path)
    assert len(acknowledged) > 30
    assert sorted(set(acknowledged) - set(recorded)) == []  # nothing acknowledged is lost
    assert len(recorded) == len(set(recorded))  # nothing is recorded twice


@pytest.mark.slow
def test_ending_a_bagani_game_before_its_setup_never_wedges_the_server(tmp_path):
    bagani = ["run", "--game", "bagani", "--camera", "none", "--players", "Ana,Ben"]
    server = Server(bagani, tmp_path)
    status, state = server.host("end")
    assert status == 200 and state["status"] == "finished"
    assert server.state()["status"] == "finished"
    server.stop()
    again = Server(bagani, tmp_path)  # a new game, since the old one is over
    assert again.state()["status"] == "playing" and again.state()["game_id"] == 2
    again.stop()
    fresh = Server([*bagani, "--new"], tmp_path)
    assert fresh.state()["game_id"] == 3
    fresh.stop()


# -- the database file and its folder --------------------------------------------------

def test_a_read_only_database_is_refused_in_one_line_and_kept(shared_folder):
    a_game_in(shared_folder)
    before = (shared_folder / "games.db").read_bytes()
    prefix = unprivileged(shared_folder)
    (shared_folder / "games.db").chmod(0o444)
    line = one_line(refused(RUN, shared_folder, prefix))
    assert "games.db: the game database is read-only" in line
    assert (shared_folder / "games.db").read_bytes() == before
    assert not list(shared_folder.glob("games.db.corrupt-*"))


def test_a_read_only_data_folder_is_refused_in_one_line(shared_folder):
    a_game_in(shared_folder)
    prefix = unprivileged(shared_folder)
    shared_folder.chmod(0o555)
    line = one_line(refused(RUN, shared_folder, prefix))
    assert f"{shared_folder}: the data folder is read-only" in line
    shared_folder.chmod(0o755)


def test_a_database_another_program_holds_locked_is_waited_for_not_set_aside(tmp_path):
    a_game_in(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        f"db = sqlite3.connect({str(tmp_path / 'games.db')!r}, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(3); db.close()\n")],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    server = Server(RUN, tmp_path)
    try:
        assert server.host_state()["players"][0]["name"] == "Ana R."
        assert not list(tmp_path.glob("games.db.corrupt-*"))
    finally:
        server.stop()
        holder.wait(10)


def test_two_servers_on_one_data_folder_the_second_refuses(tmp_path):
    first = Server(RUN, tmp_path)
    try:
        line = one_line(refused(RUN, tmp_path))
        assert f"another table-companion server (pid {first.process.pid}) uses this data folder" in line
        assert first.host("rename", {"seat": 1, "name": "Ben B."})[0] == 200
    finally:
        first.stop()
    Server(RUN, tmp_path).stop()  # the lock went with the first server


def test_a_truncated_database_is_set_aside_with_one_line(tmp_path):
    a_game_in(tmp_path)
    path = tmp_path / "games.db"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    server = Server(RUN, tmp_path)
    try:
        (aside,) = tmp_path.glob("games.db.corrupt-*[0-9]")
        lines = [line for line in server.output().splitlines() if "games.db" in line]
        assert len(lines) == 1 and "unreadable" in lines[0] and str(aside) in lines[0]
        assert server.state()["status"] == "playing"
    finally:
        server.stop()


def test_a_log_line_that_is_not_json_is_refused_in_one_line_and_kept(tmp_path):
    a_game_in(tmp_path)
    with sqlite3.connect(tmp_path / "games.db") as raw:  # a line cut short, as a lying disk leaves one
        raw.execute("""INSERT INTO events (game_id, seq, at, type, data) VALUES (1, 2, 0, 'rename', '{"seat": 0, "na')""")
    before = stored_lines(tmp_path)
    line = one_line(refused(RUN, tmp_path))
    assert f"{tmp_path / 'games.db'}: game 1 event 2: not JSON" in line
    assert stored_lines(tmp_path) == before and len(before) == 3 and "Ana R." in before[1][-1]
    assert not list(tmp_path.glob("games.db.corrupt-*"))


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    """A 2 MB tmpfs: a disk that fills up."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root): {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_refuses_writes_clearly_and_loses_nothing(small_disk, tmp_path):
    server = Server(RUN, small_disk, log_dir=tmp_path)
    try:
        assert server.host("rename", {"seat": 0, "name": "Ana before"})[0] == 200
        filler = small_disk / "filler"
        with open(filler, "wb") as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
            except OSError:
                pass
        statuses = [server.host("rename", {"seat": 0, "name": f"Ana {'x' * 3000} {i}"[:40]})[0] for i in range(40)]
        assert 503 in statuses
        status, body = server.host("rename", {"seat": 0, "name": "Ana full"})
        assert status == 503 and "nothing was recorded" in body["error"] and "full" in body["error"]
        assert "a host write was not recorded: database or disk is full" in server.output()
        filler.unlink()
        assert server.host("rename", {"seat": 0, "name": "Ana after"})[0] == 200
        assert server.host_state()["players"][0]["name"] == "Ana after"
    finally:
        server.stop()
    recorded = renames(small_disk)
    assert recorded[0] == "Ana before" and recorded[-1] == "Ana after" and "Ana full" not in recorded


# -- the camera ------------------------------------------------------------------------

def pictures(folder: Path, count: int) -> Path:
    folder.mkdir()
    for i in range(count):
        cv2.imwrite(str(folder / f"{i:04d}.jpg"), np.full((240, 320, 3), 90, np.uint8))
    return folder


def camera_settles(server: Server, *states: str, within: float = 30.0) -> dict[str, str]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        camera = server.state()["camera"]
        if camera["state"] in states:
            return camera
        time.sleep(0.2)
    raise AssertionError(f"camera still {server.state()['camera']}\n{server.output()}")


def camera_run(source: Path | str) -> list[str]:
    return ["run", "--game", "gargon", "--camera", str(source), "--players", "Ana,Ben,Carla"]


def test_a_camera_source_that_ends_stops_the_loop_and_says_so(tmp_path):
    server = Server(camera_run(pictures(tmp_path / "shots", 3)), tmp_path)
    try:
        camera = camera_settles(server, "ended")
        assert "no more frames" in camera["reason"]
        spent = cpu_seconds(server.process.pid)
        time.sleep(2.0)
        assert cpu_seconds(server.process.pid) - spent < 0.5  # no busy loop at the end
        assert "Camera: ended" in server.host_page()
        assert server.output().count("companion.camera: camera") == 2  # ok, then ended
        assert server.host("action", {"action": {"kind": "play", "player": 0, "colours": ["red"]}})[0] == 200
    finally:
        server.stop()


def test_a_picture_folder_that_vanishes_ends_the_camera(tmp_path):
    shots = pictures(tmp_path / "shots", 400)
    server = Server(camera_run(shots), tmp_path)
    try:
        camera_settles(server, "ok")
        shutil.rmtree(shots)
        assert "no more frames" in camera_settles(server, "ended")["reason"]
    finally:
        server.stop()


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="this machine has the Pi camera")
def test_a_camera_that_cannot_work_here_fails_and_the_host_page_says_why(tmp_path):
    """The Pi camera on a machine without its library (a file or device that is not there
    at all is a typing mistake, refused at start with one line: tests/test_cli_people.py)."""
    server = Server(camera_run("picamera"), tmp_path)
    try:
        camera = camera_settles(server, "failed")
        assert "picamera2" in camera["reason"] and "by hand" in camera["reason"]
        assert "Camera: failed" in server.host_page()
        assert "companion.camera: camera" in server.output()
    finally:
        server.stop()


def test_a_camera_that_cannot_be_reached_is_retried_with_a_growing_wait(tmp_path):
    server = Server(camera_run("rtsp://127.0.0.1:9/table"), tmp_path)
    try:
        camera = camera_settles(server, "retrying", within=10)
        assert camera["reason"]
        spent = cpu_seconds(server.process.pid)
        time.sleep(2.0)
        assert cpu_seconds(server.process.pid) - spent < 0.5
        assert "Camera: retrying" in server.host_page()
        assert "camera rtsp://127.0.0.1:9/table: retrying" in server.output()
    finally:
        server.stop()
