"""End scoring: colour bonuses, amulets multiplied by 0s, winners.

Per colour the single player with the most won cards gets +10; several tied for most get
+5 each. Amulets on won cards count per colour, times (1 + the 0s of that colour the
player won): one 0 doubles, both triple. A player's score depends only on everyone's won
cards, never on seat order.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from rules.core import PlayerScore, ScoreResult, best_by
from rules.gargon.cards import COLOURS, GAME, Card
from rules.gargon.options import Options

SOLE_MOST_BONUS = 10
SHARED_MOST_BONUS = 5


def colour_bonuses(won: Sequence[Sequence[Card]]) -> list[dict[str, int]]:
    """For each player, the bonus per colour they score (colours without a bonus left out)."""
    bonuses: list[dict[str, int]] = [{} for _ in won]
    for colour in COLOURS:
        counts = [sum(1 for c in cards if c.colour == colour) for cards in won]
        most = max(counts, default=0)
        if most == 0:
            continue
        leaders = [p for p, n in enumerate(counts) if n == most]
        for p in leaders:
            bonuses[p][colour] = SOLE_MOST_BONUS if len(leaders) == 1 else SHARED_MOST_BONUS
    return bonuses


def colour_amulets(cards: Sequence[Card], amulets: Mapping[int, int]) -> dict[str, dict[str, int]]:
    """Per colour won: cards, 0s held, amulets printed and amulets scored."""
    result: dict[str, dict[str, int]] = {}
    for colour, count in Counter(c.colour for c in cards).items():
        mine = [c for c in cards if c.colour == colour]
        zeros = sum(1 for c in mine if c.value == 0)
        printed = sum(amulets[c.value] for c in mine)
        result[colour] = {"cards": count, "zeros": zeros, "printed_amulets": printed,
                          "amulets": printed * (1 + zeros)}
    return result


def score_won(names: Sequence[str], won: Sequence[Sequence[Card]], amulets: Mapping[int, int],
              options: Options) -> ScoreResult:
    """Totals and winners from each player's won cards (players keep their order)."""
    players: list[PlayerScore] = []
    for name, cards, bonus in zip(names, won, colour_bonuses(won)):
        colours = colour_amulets(cards, amulets)
        for colour, entry in colours.items():
            entry["bonus"] = bonus.get(colour, 0)
        amulet_points = sum(entry["amulets"] for entry in colours.values())
        bonus_points = sum(bonus.values())
        ordered = {c: colours[c] for c in COLOURS if c in colours}
        players.append(PlayerScore(name, bonus_points + amulet_points, {
            "bonus": bonus_points, "amulets": amulet_points, "cards": len(cards),
            "colours": ordered}))
    keys = [(p.total,) if options.shared_win else (p.total, len(cards))
            for p, cards in zip(players, won)]
    return ScoreResult(GAME, tuple(players), best_by(names, keys))
