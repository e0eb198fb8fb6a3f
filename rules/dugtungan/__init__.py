"""dugtungan (dug2ngan), the Tagalog word game.

One module per role, the same roles as every game's package: `cards` (the deck),
`lexicon` and `morphology` (which words are Tagalog), `words` (a word's verdict),
`finder` (the move finder), `scoring` (end scoring), `events` (what happens at the
table), `state` (the table), `options` (house switches) and `contract` (the JSON
`score`/`check` requests).
"""

from __future__ import annotations

from rules.dugtungan.contract import GAME, Options, action_from_dict, check, new_game, score
from rules.dugtungan.schema import event_schema
from rules.dugtungan.scoring import MAX_PLAYERS, MIN_PLAYERS
from rules.dugtungan.state import DugtunganState
from rules.spec import GameSpec

SPEC = GameSpec(name=GAME, title="dugtungan",
                goal="Lowest wins: the fewest letters left in hand", unit="letters",
                min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, lowest_wins=True,
                printed_cards=True, options=Options, new_game=new_game, score=score, check=check,
                action_from_dict=action_from_dict, event_schema=event_schema)

__all__ = ["GAME", "SPEC", "Options", "DugtunganState", "action_from_dict", "check", "new_game", "score"]
