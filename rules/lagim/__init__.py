"""Lagim, the Filipino folklore card game.

One module per role, the same roles as every game's package: `cards` (the catalogue and
a deck file's printed levels), `battle` (one battle's verdict), `position` (where every
card and coin is), `turns` (what each event does), `events` (what happens at the table),
`state` (set-up and the tracker), `options` (house switches) and `contract` (the JSON
`score`/`check` requests).
"""

from __future__ import annotations

from rules.lagim.contract import GAME, check, score
from rules.lagim.events import action_from_dict
from rules.lagim.options import Options
from rules.lagim.state import LagimState, new_game

__all__ = ["GAME", "Options", "LagimState", "action_from_dict", "check", "new_game", "score"]
