"""The fifth-game count: a toy game (Sampu, in `toy/`) is registered through its one
`GameSpec` and played through the command line and the live table (the real `companion`
server, Flask, SQLite). Outside its package it needs one line in `rules/registry.py`,
which `launch.py` (and, in this process, `monkeypatch`) adds at run time; no other
file of the program lists games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from rules import registry
from tests.companion.servers import Server

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LAUNCH = [sys.executable, str(HERE / "launch.py")]
PROGRAM = ("companion", "rules", "vision", "scripts")


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(registry.GAMES, "toy", "tests.fifth_game.toy")
    yield


# Tables keyed by game that hold a game's own content, not the list of games; a new game
# may add to them and plays without them (Sampu does).
PER_GAME_CONTENT = {
    "vision/synth/faces.py": "the card faces vision draws, for games the camera reads",
    "vision/printed.py": "the tokens the printed-card model was trained on",
    "scripts/bench_printed.py": "the games that model reads, benchmarked",
    "companion/web/game_words.py": "the words of each game's own cards on the scoreboard",
}


def test_the_game_list_is_kept_in_one_file() -> None:
    """A fifth game touches one file outside its package: no file of the program but the
    registry lists the games (three game names in a row, as items or as keys), besides
    the tables of per-game content above."""
    name = '"(?:bagani|gargon|dugtungan|lagim)"(?::[^,\\n]*)?'
    listing = re.compile(r",\s*".join([name] * 3))
    holders = {path.relative_to(ROOT).as_posix() for package in PROGRAM
               for path in (ROOT / package).rglob("*.py") if listing.search(path.read_text("utf-8"))}
    assert holders - set(PER_GAME_CONTENT) == {"rules/registry.py"}


def test_the_registry_serves_the_toy_game_everywhere(toy: None) -> None:
    from companion.adapters import adapter_for, playable_games
    from companion.web.game_setup import option_fields
    from companion.web.game_words import goals

    assert "toy" in registry.game_names() and "toy" in playable_games()
    assert goals()["toy"] == ("Bring the count to exactly ten", "wins")
    assert [f.name for f in option_fields("toy")] == ["target"]
    assert adapter_for("toy").recordings() == ()


def _cli(tmp_path: Path, command: str, payload: object) -> subprocess.CompletedProcess[str]:
    request = tmp_path / f"{command}.json"
    request.write_text(json.dumps(payload))
    return subprocess.run([*LAUNCH, sys.executable, "-m", "companion.cli", command, str(request)],
                          capture_output=True, text=True, timeout=60)


def test_the_command_line_scores_and_checks_the_toy_game(tmp_path: Path) -> None:
    scored = _cli(tmp_path, "score", {"game": "toy", "players": [{"name": "Ana", "wins": 2},
                                                                 {"name": "Ben", "wins": 3}]})
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["winners"] == ["Ben"]
    checked = _cli(tmp_path, "check", {"game": "toy", "check": "add", "count": 8, "amount": 3})
    assert json.loads(checked.stdout) == {"valid": False, "reason": "8 + 3 = 11, past 10"}
    bad = _cli(tmp_path, "check", {"game": "toy", "check": "add", "count": 8, "amount": 4})
    assert bad.returncode == 2 and "amount: must be 1 to 3" in bad.stderr and "Traceback" not in bad.stderr


def test_the_live_table_plays_the_toy_game_from_its_event_forms(tmp_path: Path) -> None:
    server = Server(["start"], tmp_path, prefix=LAUNCH)
    try:
        assert "toy" in server.host_page()
        assert server.host("start", {"game": "toy", "players": ["Ana", "Ben"]})[0] == 200
        with urllib.request.urlopen(server.url + "/api/schema", timeout=5) as response:
            schema = json.load(response)
        form = schema["events"][0]
        assert (schema["game"], form["kind"]) == ("toy", "add")
        assert [f["key"] for f in form["fields"]] == ["player", "amount"]
        for seat, amount in [(0, 3), (1, 3), (0, 2), (1, 2)]:  # 3, 6, 8, 10: Ben reaches ten
            assert server.host("action", {"action": {"kind": "add", "player": seat, "amount": amount}})[0] == 200
        status, refused = server.host("action", {"action": {"kind": "add", "player": 0, "amount": 1}})
        assert status != 200, refused
        state = server.state()
        assert state["winners"] == ["Ben"] and state["state"]["count"] == 10
        assert any(line["text"] == "Ben adds 2" for line in state["log"])
    finally:
        server.stop()
