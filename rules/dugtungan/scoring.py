"""End scoring: the letters left in each hand, and the fewest wins.

A card counts the letters of its syllable (NG is 2, SA:+DOS is 2); a hand, the letters of
the cards seen in it (a card the camera has not seen counts once it is shown). The lowest
total wins and a tie shares the win. The tracker's scores and the `score` request are
both this module's, so the table and the command line never count differently.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from rules.core import PlayerScore, ScoreResult
from rules.dugtungan.cards import Card, parse_card

GAME = "dugtungan"
MIN_PLAYERS, MAX_PLAYERS = 2, 8


@lru_cache(maxsize=1024)
def known_card(code: str) -> Card:
    """The card of a code already validated (when its event or request was read)."""
    return parse_card(code, "card")


def letters(hand: Sequence[str | None]) -> int:
    """Letters of the seen cards of a hand: its score."""
    return sum(known_card(c).letters for c in hand if c is not None)


def score_hands(names: Sequence[str], hands: Sequence[Sequence[str | None]]) -> ScoreResult:
    """Each player's letters left in hand (`None`: a card not seen) and the fewest's names."""
    totals = [letters(hand) for hand in hands]
    players = tuple(PlayerScore(name, total, {
        "cards": len(hand), "unseen": sum(1 for c in hand if c is None),
        "letters": [known_card(c).letters for c in hand if c is not None]})
        for name, total, hand in zip(names, totals, hands))
    low = min(totals, default=0)
    return ScoreResult(GAME, players, tuple(n for n, t in zip(names, totals) if t == low))
