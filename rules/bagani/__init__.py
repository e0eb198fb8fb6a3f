"""Bagani: the Card Game.

One module per role, the same roles as every game's package: `cards` (the deck and a
deck file), `combos` (combos and the final-hand optimiser), `attack` (the attack step),
`scoring` (end scoring), `events` (what happens at the table), `state` (the tracker),
`options` (house switches) and `contract` (the JSON `score`/`check` requests).
"""

from __future__ import annotations

from rules.bagani.contract import GAME, MIN_PLAYERS, Options, action_from_dict, check, new_game, score
from rules.bagani.schema import event_schema
from rules.bagani.state import BaganiState
from rules.spec import GameSpec

SPEC = GameSpec(name=GAME, title="Bagani",
                goal="Most Dangal Points (DP) wins", unit="DP",
                min_players=MIN_PLAYERS, max_players=None, lowest_wins=False,
                printed_cards=False, options=Options, new_game=new_game, score=score, check=check,
                action_from_dict=action_from_dict, event_schema=event_schema)

__all__ = ["GAME", "SPEC", "Options", "BaganiState", "action_from_dict", "check", "new_game", "score"]
