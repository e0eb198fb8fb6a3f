"""Every game's events share one stored shape (rules/event.py): the acting seat is
`player`, `to_dict` is the dataclass fields under `kind`, and each event says its own
log line. Logs stored in format 1 (Gargon and dugtungan named the actor `seat`) replay
unchanged: the golden logs in data/golden/ were recorded in that format and kept so."""

from __future__ import annotations

import json

import pytest
from game_drivers import GOLDEN

from rules.event import ACTOR, Event, upgrade
from rules.registry import game_spec

LOGS = sorted(GOLDEN.glob("*.json"))


def _events(game: str) -> list[dict]:
    return [e for path in LOGS if path.name.startswith(game + "-")
            for e in json.loads(path.read_text("utf-8"))["events"]]


@pytest.mark.parametrize("game", ["gargon", "dugtungan"])
def test_a_format_1_log_replays_to_its_stored_scores(game: str) -> None:
    log = json.loads(next(p for p in LOGS if p.name.startswith(game + "-")).read_text("utf-8"))
    assert any("seat" in e and ACTOR not in e for e in log["events"]), "the golden log is still format 1"
    spec = game_spec(game)
    state = spec.new_game(log["players"], log["options"], log["setup"])
    for event in log["events"]:
        state = state.apply(spec.action_from_dict(event))
    assert state.scores().to_dict() == log["scores"]


@pytest.mark.parametrize("game", ["bagani", "gargon", "dugtungan", "lagim"])
def test_every_stored_event_reads_back_in_format_2_and_describes_itself(game: str) -> None:
    spec = game_spec(game)
    players = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fe", "Gil", "Hal"]
    for stored in _events(game):
        event = spec.action_from_dict(stored)
        assert isinstance(event, Event)
        written = event.to_dict()
        assert "seat" not in written and written == {**upgrade(stored), **written}
        assert spec.action_from_dict(written) == event
        line = event.describe(players)
        assert line and "?" not in line, (stored, line)


@pytest.mark.parametrize("game, stored, heard", [
    ("bagani", {"kind": "draw", "player": 0, "source": "deck", "card": "red-circle"}, "Ana draws from the deck"),
    ("bagani", {"kind": "draw", "player": 0, "source": "row", "card": "red-circle"}, "Ana draws red-circle from the row"),
    ("dugtungan", {"kind": "draw", "player": 1, "card": "KA"}, "Ben draws"),
    ("dugtungan", {"kind": "pitik", "player": 1, "target": 0, "card": "KA"}, "Ben makes Ana take a card (PITIK)"),
])
def test_the_whole_table_hears_no_card_only_its_player_saw(game: str, stored: dict, heard: str) -> None:
    event = game_spec(game).action_from_dict(stored)
    assert event.told().describe(["Ana", "Ben"]) == heard
    assert event.told().told() == event.told()
