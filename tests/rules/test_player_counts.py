"""`score` and `check` hold each request to the number of players its game seats.

Gargon's box says 3 to 5 players, Lagim's set-up table runs from "2 - 3 players" to
"5 - 6 players". A table larger than the game seats is refused; a smaller one is scored,
but no winner is named for a game that could not be played (one player alone never wins).
"""

from __future__ import annotations

import pytest

from rules import bagani, dugtungan, gargon
from rules.core import BadInput


def _gargon(players: int) -> dict:
    return gargon.score({"players": [{"name": f"P{i}", "won": ["red-13"] if i == 0 else []}
                                     for i in range(players)]})


def test_gargon_scores_three_to_five_players() -> None:
    """Gargon's rules: "for 3 to 5 players" (RULES-NOTES: "Gargon 3-5")."""
    assert _gargon(3)["winners"] == ["P0"] and "note" not in _gargon(3)
    with pytest.raises(BadInput, match="Gargon is for 3 to 5 players, not 6"):
        _gargon(6)
    two = _gargon(2)
    assert two["winners"] == [] and "no winner is named for 2" in two["note"]


def test_gargon_checks_a_round_of_three_to_five_plays() -> None:
    with pytest.raises(BadInput, match="Gargon is for 3 to 5 players, not 2") as caught:
        gargon.check({"check": "play", "plays": [["red"], None]})
    assert caught.value.field == "plays"
    with pytest.raises(BadInput, match="not 6"):
        gargon.check({"check": "battle", "players": list("ABCDEF"), "revealed": {"A": ["red-1"]}})


@pytest.mark.parametrize("score", [
    lambda: bagani.score({"players": [{"name": "Ana", "defeated": [], "hand": ["blue-circle"] * 2}]}),
    lambda: dugtungan.score({"players": [{"name": "Ana", "hand": ["BA"]}]}),
])
def test_one_player_alone_is_never_named_a_winner(score) -> None:
    answer = score()
    assert answer["winners"] == [] and "no winner is named for 1" in answer["note"]
