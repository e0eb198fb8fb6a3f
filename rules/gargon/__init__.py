"""Gargon (Amigo, 2001).

One module per role, the same roles as every game's package: `cards` (the deck and its
amulets), `play` (what a play may be), `battle` (one colour's battles), `scoring` (end
scoring), `events` (what happens at the table), `state` (the tracker), `options` (house
switches) and `contract` (the JSON `score`/`check` requests).
"""

from __future__ import annotations

from rules.gargon.cards import MAX_PLAYERS, MIN_PLAYERS
from rules.gargon.contract import GAME, Options, action_from_dict, check, new_game, score
from rules.gargon.schema import event_schema
from rules.gargon.state import GargonState
from rules.spec import GameSpec

SPEC = GameSpec(name=GAME, title="Gargon",
                goal="Most points wins", unit="points",
                min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, lowest_wins=False,
                printed_cards=True, options=Options, new_game=new_game, score=score, check=check,
                action_from_dict=action_from_dict, event_schema=event_schema)

__all__ = ["GAME", "SPEC", "Options", "GargonState", "action_from_dict", "check", "new_game", "score"]
