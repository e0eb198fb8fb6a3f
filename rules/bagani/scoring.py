"""Bagani end scoring: Halimaw DP, Tagapagtanggol awards, final-hand combos, winners.

One function scores every table, so the `score` command and the live tracker's totals
can never disagree. Awards follow the book: strictly most of a colour 7 DP, exactly two
tied 3 DP each, three or more tied nobody; Sansinukob 7 DP to everyone with all five.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rules.bagani.cards import COLOURS, REGIONS
from rules.bagani.combos import Combo, best_hand
from rules.bagani.options import Options
from rules.core import PlayerScore, ScoreResult, best_by

AWARD_DP = 7
SHARED_AWARD_DP = 3
SANSINUKOB = "sansinukob"


@dataclass(frozen=True)
class Defeated:
    """A defeated Halimaw as scoring needs it."""

    name: str
    color: str
    dp: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "color": self.color, "dp": self.dp}


@dataclass(frozen=True)
class PlayerTable:
    """What one player has in front of them at the end; `hand` None when not shown."""

    name: str
    defeated: tuple[Defeated, ...]
    hand: tuple[str, ...] | None = None


def award_title(award: str) -> str:
    if award == SANSINUKOB:
        return "Tagapagtanggol ng Sansinukob"
    return f"Tagapagtanggol of the {REGIONS[award]} ({award})"


def colour_awards(tables: Sequence[PlayerTable]) -> list[dict[str, int]]:
    """Per player, award -> DP for every award they receive."""
    awards: list[dict[str, int]] = [{} for _ in tables]
    for colour in COLOURS:
        counts = [sum(1 for d in t.defeated if d.color == colour) for t in tables]
        most = max(counts, default=0)
        holders = [i for i, c in enumerate(counts) if c == most]
        if most == 0 or len(holders) > 2:
            continue
        for i in holders:
            awards[i][colour] = AWARD_DP if len(holders) == 1 else SHARED_AWARD_DP
    for i, table in enumerate(tables):
        if {d.color for d in table.defeated} >= set(COLOURS):
            awards[i][SANSINUKOB] = AWARD_DP
    return awards


def _hand_combos(hand: tuple[str, ...] | None, options: Options) -> tuple[Combo, ...]:
    return () if hand is None else best_hand(hand, options)


def score_tables(game: str, tables: Sequence[PlayerTable], options: Options) -> ScoreResult:
    """The contract's score result; winners by DP, then awards received, then Halimaw."""
    awards = colour_awards(tables)
    players = []
    keys = []
    for table, won in zip(tables, awards):
        combos = _hand_combos(table.hand, options)
        halimaw_dp = sum(d.dp for d in table.defeated)
        hand_ap = sum(c.ap for c in combos)
        total = halimaw_dp + sum(won.values()) + 2 * hand_ap
        players.append(PlayerScore(table.name, total, {
            "halimaw_dp": halimaw_dp,
            "halimaw": [d.to_dict() for d in table.defeated],
            "awards": [{"award": a, "title": award_title(a), "dp": dp} for a, dp in won.items()],
            "awards_dp": sum(won.values()),
            "hand_combos": [c.to_dict() for c in combos],
            "hand_ap": hand_ap,
            "hand_dp": 2 * hand_ap,
            "hand_shown": table.hand is not None,
        }))
        keys.append((total, len(won), len(table.defeated)))
    return ScoreResult(game, tuple(players), best_by([p.name for p in players], keys))
