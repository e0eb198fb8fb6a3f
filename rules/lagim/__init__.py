"""Lagim, the Filipino folklore card game.

One module per role, the same roles as every game's package: `cards` (the catalogue and
a deck file's printed levels), `battle` (one battle's verdict), `scoring` (standings and the coins' limits), `position` (where every
card and coin is), `turns` (what each event does), `events` (what happens at the table),
`state` (set-up and the tracker), `options` (house switches) and `contract` (the JSON
`score`/`check` requests).
"""

from __future__ import annotations

from rules.lagim.contract import check, score
from rules.lagim.events import action_from_dict
from rules.lagim.options import Options
from rules.lagim.schema import event_schema
from rules.lagim.scoring import GAME, MAX_PLAYERS, MIN_PLAYERS, SPIRIT_PATH_COINS
from rules.lagim.state import LagimState, new_game
from rules.spec import GameSpec

SPEC = GameSpec(name=GAME, title="Lagim",
                goal=f"First to fill the Spirit Path ({SPIRIT_PATH_COINS} coins) wins, or the last Baryo standing",
                unit="coins",
                min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, lowest_wins=False,
                printed_cards=False, options=Options, new_game=new_game, score=score, check=check,
                action_from_dict=action_from_dict, event_schema=event_schema)

__all__ = ["GAME", "SPEC", "Options", "LagimState", "action_from_dict", "check", "new_game", "score"]
