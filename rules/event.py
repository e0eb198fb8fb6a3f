"""The one shape of every game's events.

An event is a frozen dataclass with a class-level `kind`; `to_dict()` is its stored
form, `{"kind": ..., <field>: ...}` with tuples as lists, the seat that acts always
under the key `player` (an index in seat order); `describe(players)` is its line in the
scoreboard's log, with seats named, and `told()` the event as the whole table may
hear it (no card only its player saw). Each game's `action_from_dict` reads the stored
form back, so a game replays from its event log.

Stored events have a format: format 1 (logs written before this module) named the
acting seat `seat` in Gargon and dugtungan. `upgrade` reads such an event as format 2,
so old logs and golden games replay unchanged; the game database rewrites its stored
events in format 2 once (`companion.store`, schema version 2).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Mapping, Sequence

ACTOR = "player"
EVENT_FORMAT = 2
_FORMAT_1_ACTOR = "seat"


def json_ready(value: Any) -> Any:
    """Tuples as lists and nested records by their own `to_dict`, so the JSON reads back."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_ready(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


@dataclasses.dataclass(frozen=True)
class Event:
    """The base of every game's events: the stored envelope and the log line."""

    kind: ClassVar[str]
    #: Fields naming cards that only the acting player saw (a drawn card, a starting
    #: hand): the log the whole table reads and hears leaves them out.
    secret: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **{f.name: json_ready(getattr(self, f.name)) for f in dataclasses.fields(self)}}

    def describe(self, players: Sequence[str]) -> str:
        """One line for the scoreboard's log, e.g. "Ana defeats the Higante (3 DP)"."""
        raise NotImplementedError(f"{type(self).__name__} does not describe itself")

    def told(self) -> Event:
        """The event as everyone at the table may hear it: its secret fields unknown."""
        return dataclasses.replace(self, **{name: None for name in self.secret})


def upgrade(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored event in the current format: a format-1 event's `seat` becomes `player`."""
    if isinstance(data, Mapping) and _FORMAT_1_ACTOR in data and ACTOR not in data:
        return {(ACTOR if k == _FORMAT_1_ACTOR else k): v for k, v in data.items()}
    return data


def seat_name(players: Sequence[str], seat: Any) -> str:
    """The name of the player in `seat` for a log line; "?" for a seat out of range."""
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"
