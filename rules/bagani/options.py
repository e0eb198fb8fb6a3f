"""Bagani house defaults and advanced rules, each a switch a table can flip.

RULES-NOTES marks where the rulebook is silent (how far a Biyaya ni Apo may stand in);
the book's "Advanced competitive rules" are optional, so each is a switch that starts off.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _doc(text: str, default: bool) -> bool:
    return field(default=default, metadata={"doc": text})


@dataclass(frozen=True)
class Options:
    biyaya_fills_colour_slots: bool = _doc(
        "in a Bagani ni Apo, Biyaya beyond the one it needs may stand in for missing colours "
        "(off: five coloured cards and exactly one Biyaya)", True)
    biyaya_only_combos: bool = _doc(
        "a combo made only of Biyaya ni Apo cards counts", True)
    hand_limit: bool = _doc(
        "advanced: with more than 8 cards after drawing, discard down to 8 before putting "
        "down combos", False)
    reveal_after_attack: bool = _doc(
        "new Halimaw are revealed only after the attack step, so at most 4 fall in a turn "
        "(off: a defeated Halimaw is replaced at once and may be hit with the AP left)", True)
    final_round: bool = _doc(
        "advanced: after Sarimaw falls, play on to the last seat so everyone has equal turns",
        False)
    random_sarimaw: bool = _doc(
        "advanced: Sarimaw is shuffled among the last 4 Halimaw instead of being last", False)
    remove_four_halimaw: bool = _doc(
        "advanced: 4 random Halimaw are removed unseen before the game", False)
