"""`companion demo`, `run` and `start` through the real command line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from tests.companion.servers import Server


def companion(*args, tmp_path, **env):
    environ = {**os.environ, "COMPANION_SPEECH": "false", "XDG_CONFIG_HOME": str(tmp_path), **env}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args, "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, env=environ, timeout=30)


@pytest.mark.parametrize("args, line", [
    (["demo", "--game", "chess"], "companion: --game: chess: not playable; one of "),
    (["run", "--port", "70000"], "companion: --port: 70000: must be 1 to 65535"),
    (["demo", "--speed", "0"], "companion: --speed: 0.0: must be more than 0"),
    (["run", "--game", "gargon", "--players", "Ana", "--camera", "none"], "companion: --players: Ana: Gargon is for"),
])
def test_bad_options_end_with_one_line_and_status_2(tmp_path, args, line):
    done = companion(*args, tmp_path=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr


def test_a_port_in_use_is_one_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = companion("demo", "--port", str(port), tmp_path=tmp_path, COMPANION_HOST="127.0.0.1")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith(f"companion: --port: {port}: cannot listen")


def test_a_settings_mistake_stops_before_serving(tmp_path):
    done = companion("demo", tmp_path=tmp_path, COMPANION_PORT="eighty")
    assert done.returncode == 2
    assert "COMPANION_PORT = 'eighty': must be an integer" in done.stderr


def test_start_without_a_camera_serves_the_demo_and_prints_url_qr_and_host_link(tmp_path):
    server = Server(["start"], tmp_path)
    try:
        deadline = time.monotonic() + 90  # the first demo enrolls its generated deck before the game starts
        while (state := server.state())["game"] is None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert state["game"] == "bagani" and state["status"] == "playing"
        out = server.output()
        assert "starting the demo table instead" in out
        assert f":{server.port}/" in out and "█" in out
        assert "/host?token=host-secret" in out
    finally:
        server.stop()


def test_the_camera_says_why_it_cannot_run(tmp_path):
    from companion.camera import CameraSetup, camera_problem

    assert camera_problem(CameraSetup("none", "", "bagani")) == "the camera is switched off (camera = none)"
    assert camera_problem(CameraSetup("0", "", "bagani")).startswith("no enrolled deck")
    missing = tmp_path / "missing.npz"
    assert camera_problem(CameraSetup("0", str(missing), "bagani")) == f"the deck {missing} does not exist"
    zones = tmp_path / "zones.json"
    assert camera_problem(CameraSetup("0", "", "gargon", str(zones))) == (
        f"the zones file {zones} does not exist (companion markers --calibrate)")


def test_printed_games_need_no_deck_for_the_camera():
    from companion.camera import CameraSetup, camera_problem

    for game in ("gargon", "dugtungan"):
        assert camera_problem(CameraSetup("0", "", game)) is None  # an explicit source: no device probe
