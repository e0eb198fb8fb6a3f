"""Sampu's event as the host page's form."""

from __future__ import annotations

from rules.core import GameState
from rules.event_schema import Schema, event, number, seat
from tests.fifth_game.toy.events import MOST


def event_schema(state: GameState) -> Schema:
    return {"lists": {}, "events": [event("add", "Add to the count", seat(), number("amount", "Amount", 1, MOST))]}
