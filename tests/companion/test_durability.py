"""A crash loses nothing, and a broken database never stops the table (real server processes)."""

from __future__ import annotations

import pytest

from tests.companion.servers import Server

RUN = ["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"]
SHOWN = ("game", "game_id", "status", "players", "winners", "log", "questions", "current_player",
         "state", "accepted", "prompt")


def shown(state):
    return {key: state[key] for key in SHOWN}


@pytest.fixture
def server(tmp_path):
    started = Server(RUN, tmp_path)
    yield started
    started.stop()


def test_kill_9_mid_game_then_restart_shows_the_same_scoreboard_and_log(tmp_path, server):
    for action in ({"kind": "play", "player": 0, "colours": ["red", "blue"]},
                   {"kind": "play", "player": 1, "colours": ["red", "green"]},
                   {"kind": "pass", "player": 2, "draws": [1, 2]}):
        assert server.host("action", {"action": action})[0] == 200
    assert server.host("rename", {"seat": 2, "name": "Carla M."})[0] == 200
    assert server.host("undo")[0] == 200
    before = server.host_state()
    server.kill()
    again = Server(RUN, tmp_path)
    try:
        assert shown(again.host_state()) == shown(before)
        assert "resumed game 1 (gargon)" in again.output()
    finally:
        assert again.stop() == 0


def test_a_corrupt_database_gets_a_clear_message_and_a_fresh_file(tmp_path):
    (tmp_path / "games.db").write_bytes(b"scribbles, not SQLite " * 500)
    server = Server(RUN, tmp_path)
    try:
        assert server.state()["players"][0]["name"] == "Ana"
        (aside,) = tmp_path.glob("games.db.corrupt-*")
        lines = [line for line in server.output().splitlines() if "games.db" in line]
        assert len(lines) == 1 and "unreadable" in lines[0] and str(aside) in lines[0]
    finally:
        server.stop()
    second = Server(RUN, tmp_path)  # no crash loop: the fresh file starts cleanly
    try:
        assert second.state()["game_id"] == 1
        assert len(list(tmp_path.glob("games.db.corrupt-*"))) == 1
    finally:
        second.stop()


def test_a_missing_database_is_said_once_and_created(tmp_path, server):
    assert (tmp_path / "games.db").exists()
    assert server.output().count("no game database at") == 1


def test_sigterm_stops_the_server_cleanly(server):
    assert server.stop() == 0
