"""Sampu's one event: a player adds to the count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from rules.core import BadInput
from rules.event import ACTOR, Event, seat_name
from rules.payload import obj, req

MOST = 3  # the most a player may add in one turn


@dataclass(frozen=True)
class Add(Event):
    player: int
    amount: int
    kind: ClassVar[str] = "add"

    def describe(self, players: Sequence[str]) -> str:
        return f"{seat_name(players, self.player)} adds {self.amount}"


def read_amount(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MOST:
        raise BadInput(path, f"must be 1 to {MOST}")
    return value


def action_from_dict(data: Mapping[str, Any]) -> Add:
    data = obj(data, "action")
    if data.get("kind") != Add.kind:
        raise BadInput("kind", f"unknown Sampu event {data.get('kind')!r}; one of add")
    player = req(data, ACTOR, int)
    if player < 0:
        raise BadInput(ACTOR, "must not be negative")
    return Add(player, read_amount(data.get("amount"), "amount"))
