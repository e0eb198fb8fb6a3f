"""Gargon's events: what happens at the table, as the tracker applies and the log stores them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from rules.core import BadInput
from rules.event import ACTOR, Event, seat_name, upgrade
from rules.gargon.cards import cards_from_codes, colour_from_name
from rules.payload import expect

PILES = (1, 2)


@dataclass(frozen=True)
class Play(Event):
    """A seat lays cards face down; the colours show on their backs."""

    player: int
    colours: tuple[str, ...]
    kind: ClassVar[str] = "play"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} plays {', '.join(self.colours)} face down"


@dataclass(frozen=True)
class Pass(Event):
    """A seat passes and draws; `draws` names the pile (1 or 2) of each card drawn."""

    player: int
    draws: tuple[int, ...]
    kind: ClassVar[str] = "pass"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} passes and draws {len(self.draws)} ({', '.join(f'pile {p}' for p in self.draws)})"


@dataclass(frozen=True)
class Reveal(Event):
    """All played cards turned face up: one list of codes per seat, empty for a pass."""

    cards: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "reveal"

    def describe(self, players: Sequence[str]) -> str:
        shown = "; ".join(f"{seat_name(players, i)} {', '.join(c)}" for i, c in enumerate(self.cards) if c)
        return f"Cards turned up: {shown}"


@dataclass(frozen=True)
class ChooseBattle(Event):
    """The chooser names the colour fought next."""

    player: int
    colour: str
    kind: ClassVar[str] = "battle"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} chooses the {self.colour} battle"


@dataclass(frozen=True)
class Draw(Event):
    """A replacement card drawn after losing a card in battle, from pile 1 or 2."""

    player: int
    pile: int
    kind: ClassVar[str] = "draw"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} draws a replacement from pile {self.pile}"


Action = Play | Pass | Reveal | ChooseBattle | Draw


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild a stored event (of any format); BadInput naming the field when it is malformed."""
    data = upgrade(expect(data, dict, "action"))
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
    seat = expect(data.get(ACTOR), int, ACTOR)
    if seat < 0:
        raise BadInput(ACTOR, "must not be negative")
    return seat


def read_pile(value: Any, path: str) -> int:
    """A draw pile's number, 1 or 2."""
    if expect(value, int, path) not in PILES:
        raise BadInput(path, "draw piles are numbered 1 and 2")
    return value
