"""What the pages say about each game: how it is won, its unit, and its cards' faces.

The scoreboard draws standings and cards in the browser from each pushed state (so it
shows exactly what the server let viewers see, nothing more); this is the vocabulary it
draws with, read from the rules' own catalogues so a name is never written twice.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.bagani.cards import COLOURS as BAGANI_COLOURS
from rules.bagani.cards import SHAPES as BAGANI_SHAPES
from rules.bagani.combos import COMBO_AP
from rules.catalogue import load_catalogue
from rules.dugtungan.cards import actions as dugtungan_actions
from rules.lagim.scoring import SPIRIT_PATH_COINS
from rules.registry import game_names, game_spec

def goals() -> dict[str, tuple[str, str]]:
    """How each game is won, in the words a player would use, and the unit of its totals."""
    return {game: (game_spec(game).goal, game_spec(game).unit) for game in game_names()}


def combo_name(code: str) -> str:
    """`bagani-ni-apo` -> `Bagani ni Apo`, `pair` -> `Pair`: the names on the rule card."""
    words = code.split("-")
    return " ".join([words[0].capitalize()] + [w if w in ("ni", "ng") else w.capitalize() for w in words[1:]])


@cache
def page_words() -> dict[str, Any]:
    """Every game's goal, unit and card facts, as the pages' script reads them (JSON)."""
    bagani = load_catalogue("bagani")
    lagim = load_catalogue("lagim")
    return {
        "games": {spec.name: {"goal": spec.goal, "unit": spec.unit, "lowest_wins": spec.lowest_wins}
                  for spec in map(game_spec, game_names())},
        "bagani": {"colours": {c: bagani["colours"][c]["region"] for c in BAGANI_COLOURS},
                   "shapes": list(BAGANI_SHAPES), "biyaya": bagani["biyaya"],
                   "combos": {code: combo_name(code) for code in COMBO_AP}},
        "gargon": {"colours": dict(load_catalogue("gargon")["colours"])},
        "dugtungan": {"actions": sorted(dugtungan_actions())},
        "lagim": {"cards": {card["name"].casefold(): {"name": card["name"], "deck": card["deck"],
                                                        "level": card.get("level")}
                            for card in lagim["cards"]},
                  "spirit_path": SPIRIT_PATH_COINS},
    }
