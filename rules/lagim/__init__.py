"""Lagim, the Filipino folklore card game: the engine the companion and the CLI call.

The rules live in small modules, each with one job: `lagim_cards` (the catalogue and a
deck file's printed levels), `lagim_battle` (one battle's verdict), `lagim_judge` (the
JSON contract's `check` and `score`), `lagim_table` (a position), `lagim_turns` (what
each event does) and `lagim_tracker` (set-up and the shared GameState interface).
"""

from __future__ import annotations

from rules.lagim_actions import action_from_dict
from rules.lagim_judge import GAME, check, score
from rules.lagim_options import Options
from rules.lagim_tracker import LagimState, new_game

__all__ = ["GAME", "Options", "LagimState", "action_from_dict", "check", "new_game", "score"]
