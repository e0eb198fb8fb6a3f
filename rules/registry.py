"""Which games exist: the one list every other part of the program reads.

Each entry names a package whose `SPEC` is the game's `GameSpec`; the command line, the
live table, the configuration and the benchmarks all take their game list from here.
"""

from __future__ import annotations

import importlib

from rules.core import BadInput
from rules.spec import GameSpec

GAMES: dict[str, str] = {
    "bagani": "rules.bagani",
    "gargon": "rules.gargon",
    "dugtungan": "rules.dugtungan",
    "lagim": "rules.lagim",
}


def game_spec(name: object, field: str = "game") -> GameSpec:
    """The spec of the game `name`; BadInput naming `field` for anything else."""
    if not isinstance(name, str) or name not in GAMES:
        raise BadInput(field, f"unknown game {name!r}; one of {', '.join(GAMES)}")
    spec = importlib.import_module(GAMES[name]).SPEC
    assert isinstance(spec, GameSpec) and spec.name == name, f"{GAMES[name]}.SPEC is not {name}'s GameSpec"
    return spec


def game_names() -> tuple[str, ...]:
    """Every game, in the order menus list them."""
    return tuple(GAMES)
