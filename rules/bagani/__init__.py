"""Bagani: the Card Game.

One module per role, the same roles as every game's package: `cards` (the deck and a
deck file), `combos` (combos and the final-hand optimiser), `attack` (the attack step),
`scoring` (end scoring), `events` (what happens at the table), `state` (the tracker),
`options` (house switches) and `contract` (the JSON `score`/`check` requests).
"""

from __future__ import annotations

from rules.bagani.contract import GAME, Options, action_from_dict, check, new_game, score

__all__ = ["GAME", "Options", "action_from_dict", "check", "new_game", "score"]
