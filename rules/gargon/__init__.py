"""Gargon (Amigo, 2001).

One module per role, the same roles as every game's package: `cards` (the deck and its
amulets), `play` (what a play may be), `battle` (one colour's battles), `scoring` (end
scoring), `events` (what happens at the table), `state` (the tracker), `options` (house
switches) and `contract` (the JSON `score`/`check` requests).
"""

from __future__ import annotations

from rules.gargon.contract import GAME, Options, action_from_dict, check, new_game, score

__all__ = ["GAME", "Options", "action_from_dict", "check", "new_game", "score"]
