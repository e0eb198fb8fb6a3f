"""Each game's events as forms: what the host page draws so nobody types JSON.

An event schema lists, per game, every event kind a host can enter or correct, each
with its fields in the order a person fills them in: a seat, one card or several from a
named pick-list, a choice, a number with limits, a yes/no. The form a page builds from
it produces exactly the event `action_from_dict` reads, so the rules stay the only
judge of what is legal. Pick-lists carry the facts the rulebook (or the table's deck
file) prints, so choosing a Halimaw fills in its colour, Lakas, DP and attacks, and a
Lagim card's list shows only the cards that can stand there (a Forest card attacks,
a Lakas defends, a Kontra equips).

The schema depends on the game in play (its deck, its seats), so it is built from a
state, not stored: `event_schema(game, state)`.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.core import GameState
from rules.registry import game_spec

Field = dict[str, Any]
Schema = dict[str, Any]


def seat(key: str = "player", label: str = "Player") -> Field:
    return {"key": key, "type": "seat", "label": label}


def card(key: str, list_: str, label: str, optional: bool = False, new: str | None = None) -> Field:
    """One card from a pick-list; with `new` (what such a card is, for the host), also one
    the list does not hold, named as typed: a deck's own card the book never names."""
    field = {"key": key, "type": "card", "list": list_, "label": label, "optional": optional}
    if new is not None:
        field["new"] = new
    return field


def cards(key: str, list_: str, label: str, least: int = 0, most: int | None = None,
          optional: bool = False) -> Field:
    """Several cards from one pick-list, in the order tapped (a word's order matters)."""
    return {"key": key, "type": "cards", "list": list_, "label": label, "min": least, "max": most,
            "optional": optional}


def groups(key: str, list_: str, label: str, item: str) -> Field:
    """A list of card lists (Bagani's combos), each built like `cards`."""
    return {"key": key, "type": "groups", "list": list_, "label": label, "item": item}


def per_seat(key: str, list_: str, label: str, optional: bool = False) -> Field:
    """One list of cards per seat, in seat order (final hands, cards turned up);
    `optional`: every list left empty means not shown (null), not empty hands."""
    return {"key": key, "type": "per_seat", "list": list_, "label": label, "optional": optional}


def choice(key: str, label: str, options: Sequence[tuple[Any, str]], optional: bool = False) -> Field:
    return {"key": key, "type": "choice", "label": label, "optional": optional,
            "options": [{"value": v, "label": text} for v, text in options]}


def number(key: str, label: str, least: int, most: int, optional: bool = False) -> Field:
    return {"key": key, "type": "number", "label": label, "min": least, "max": most, "optional": optional}


def event(kind: str, label: str, *fields: Field) -> dict[str, Any]:
    return {"kind": kind, "label": label, "fields": list(fields)}


def entry(code: Any, label: str, **facts: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"code": code, "label": label}
    if facts:
        entry["facts"] = facts
    return entry


def event_schema(game: str, state: GameState) -> Schema:
    """The forms of `game`'s events for the game as `state` stands (its deck, its seats)."""
    return {"game": game, **game_spec(game).event_schema(state)}
