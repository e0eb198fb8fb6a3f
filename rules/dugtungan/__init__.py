"""dugtungan (dug2ngan), the Tagalog word game.

One module per role, the same roles as every game's package: `cards` (the deck),
`lexicon` and `morphology` (which words are Tagalog), `words` (a word's verdict),
`finder` (the move finder), `events` (what happens at the table), `state` (the table),
`options` (house switches) and `contract` (the JSON `score`/`check` requests).
"""

from __future__ import annotations

from rules.dugtungan.contract import GAME, Options, action_from_dict, check, new_game, score

__all__ = ["GAME", "Options", "action_from_dict", "check", "new_game", "score"]
