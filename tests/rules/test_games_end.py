"""Golden playthroughs and the promise that every game ends.

`data/golden/` holds one whole game per game and per option switched from its default,
as the event log the companion stores, with the final scores it must give. Each replays
here through `action_from_dict`; where the switch changes what the events mean
(`switch_shows`), the same events under the defaults must be refused or end elsewhere.
The property test plays random legal games of every engine, with real shuffled cards,
and each must reach its end within a bounded number of events.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game_drivers import (DRIVERS, GOLDEN, GOLDEN_GAMES, MAX_EVENTS, differs_under_defaults, golden_name,
                          longest_deck_pass, replay)

LOGS = sorted(GOLDEN.glob("*.json"))


def test_every_game_and_option_switch_has_a_golden_playthrough() -> None:
    assert {p.name for p in LOGS} == {golden_name(*game) for game in GOLDEN_GAMES}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_golden_game_replays_to_its_final_scores(path) -> None:
    log = json.loads(path.read_text("utf-8"))
    state = replay(log)
    assert state.is_terminal(), f"{path.name} does not reach the end"
    assert state.scores().to_dict() == log["scores"]
    assert log["scores"]["winners"], "a finished game names its winners"
    if log["switch_shows"]:
        assert differs_under_defaults(log, state)


PLAYERS = {"bagani": (2, 6), "gargon": (3, 5), "dugtungan": (2, 4), "lagim": (2, 6)}


@settings(max_examples=28, deadline=None)
@given(table=st.sampled_from(sorted(DRIVERS)).flatmap(lambda g: st.tuples(st.just(g), st.integers(*PLAYERS[g]))),
       seed=st.integers(0, 2 ** 32 - 1))
@example(table=("dugtungan", 3), seed=46)  # the table reshuffles 5 times: 942 events, no deck over 204
def test_random_legal_play_of_every_game_reaches_an_end(table: tuple[str, int], seed: int) -> None:
    game, players = table
    log = DRIVERS[game](seed, players, {})
    assert longest_deck_pass(log["events"]) < MAX_EVENTS[game], f"{game}: no end after {MAX_EVENTS[game]} events"
    assert replay(log).is_terminal()
