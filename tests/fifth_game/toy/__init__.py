"""Sampu, a toy fifth game: players take turns adding 1, 2 or 3 to a shared count, and
whoever brings it to exactly ten wins.

It exists to show what a new game costs: this package (events, state, contract,
options, schema and its `SPEC`) plus one line in `rules/registry.py`. The test beside it
adds that line at run time and plays the game through the command line and the live
table.
"""

from __future__ import annotations

from tests.fifth_game.toy.contract import check, score
from tests.fifth_game.toy.events import action_from_dict
from tests.fifth_game.toy.options import Options
from tests.fifth_game.toy.schema import event_schema
from tests.fifth_game.toy.state import GAME, MAX_PLAYERS, MIN_PLAYERS, new_game
from rules.spec import GameSpec

SPEC = GameSpec(name=GAME, title="Sampu", goal="Bring the count to exactly ten", unit="wins",
                min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, lowest_wins=False, printed_cards=False,
                options=Options, new_game=new_game, score=score, check=check,
                action_from_dict=action_from_dict, event_schema=event_schema)
