"""Gargon's events: what happens at the table, as the tracker applies and the log stores them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from rules.core import BadInput
from rules.gargon.cards import cards_from_codes, colour_from_name
from rules.payload import expect

PILES = (1, 2)


@dataclass(frozen=True)
class Play:
    """A seat lays cards face down; the colours show on their backs."""

    seat: int
    colours: tuple[str, ...]
    kind: ClassVar[str] = "play"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "colours": list(self.colours)}


@dataclass(frozen=True)
class Pass:
    """A seat passes and draws; `draws` names the pile (1 or 2) of each card drawn."""

    seat: int
    draws: tuple[int, ...]
    kind: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "draws": list(self.draws)}


@dataclass(frozen=True)
class Reveal:
    """All played cards turned face up: one list of codes per seat, empty for a pass."""

    cards: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "reveal"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [list(codes) for codes in self.cards]}


@dataclass(frozen=True)
class ChooseBattle:
    """The chooser names the colour fought next."""

    seat: int
    colour: str
    kind: ClassVar[str] = "battle"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "colour": self.colour}


@dataclass(frozen=True)
class Draw:
    """A replacement card drawn after losing a card in battle, from pile 1 or 2."""

    seat: int
    pile: int
    kind: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "pile": self.pile}


Action = Play | Pass | Reveal | ChooseBattle | Draw


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild a stored event; BadInput naming the field when it is malformed."""
    expect(data, dict, "action")
    kind = data.get("kind")
    if kind == Play.kind:
        colours = expect(data.get("colours"), list, "colours")
        return Play(_seat_field(data), tuple(colour_from_name(c, f"colours[{i}]")
                                             for i, c in enumerate(colours)))
    if kind == Pass.kind:
        draws = expect(data.get("draws"), list, "draws")
        return Pass(_seat_field(data), tuple(read_pile(p, f"draws[{i}]") for i, p in enumerate(draws)))
    if kind == Reveal.kind:
        cards = expect(data.get("cards"), list, "cards")
        return Reveal(tuple(tuple(c.code for c in cards_from_codes(codes, f"cards[{i}]"))
                            for i, codes in enumerate(cards)))
    if kind == ChooseBattle.kind:
        return ChooseBattle(_seat_field(data), colour_from_name(data.get("colour"), "colour"))
    if kind == Draw.kind:
        return Draw(_seat_field(data), read_pile(data.get("pile"), "pile"))
    kinds = ", ".join(k.kind for k in (Play, Pass, Reveal, ChooseBattle, Draw))
    raise BadInput("kind", f"unknown Gargon event {kind!r}; one of {kinds}")


def _seat_field(data: Mapping[str, Any]) -> int:
    seat = expect(data.get("seat"), int, "seat")
    if seat < 0:
        raise BadInput("seat", "must not be negative")
    return seat


def read_pile(value: Any, path: str) -> int:
    """A draw pile's number, 1 or 2."""
    if expect(value, int, path) not in PILES:
        raise BadInput(path, "draw piles are numbered 1 and 2")
    return value
