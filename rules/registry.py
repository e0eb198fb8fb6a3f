"""Which module plays which game: the one place a game name is looked up."""

from __future__ import annotations

import importlib
from typing import cast

from rules.core import BadInput, GameRules

GAMES: dict[str, str] = {
    "bagani": "rules.bagani",
    "gargon": "rules.gargon",
    "dugtungan": "rules.dugtungan",
    "lagim": "rules.lagim",
}


def game_rules(name: object, field: str = "game") -> GameRules:
    """The engine module for `name`; BadInput naming `field` for anything else."""
    if not isinstance(name, str) or name not in GAMES:
        raise BadInput(field, f"unknown game {name!r}; one of {', '.join(GAMES)}")
    return cast(GameRules, importlib.import_module(GAMES[name]))
