"""The events of a dugtungan table, as the live companion stores and replays them.

Chance is an input: a `Draw` or `Reveal` carries the card the camera saw (`None` for a
draw into a hand the camera cannot see). Every event is a frozen dataclass with a `kind`
and `to_dict()`, and `action_from_dict` rebuilds it from the event log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from rules.core import BadInput
from rules.event import ACTOR, Event, seat_name, upgrade
from rules.dugtungan.cards import parse_card
from rules.payload import expect, req


def _code(value: Any, path: str) -> str:
    return parse_card(value, path).code


def _codes(value: Any, path: str) -> tuple[str, ...]:
    return tuple(_code(v, f"{path}[{i}]") for i, v in enumerate(expect(value, list, path)))


def _seat(data: Mapping[str, Any], key: str = ACTOR) -> int:
    seat = req(data, key, int)
    if seat < 0:
        raise BadInput(key, "must not be negative")
    return seat


def _maybe_code(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _code(data[key], key)


@dataclass(frozen=True)
class Reveal(Event):
    """The top card of the draw deck turned up as the new PAMATO (at the start, or after a
    dead card)."""

    card: str
    kind: ClassVar[str] = "reveal"

    def describe(self, players: Sequence[str]) -> str:
        return f"The PAMATO is {self.card}"


@dataclass(frozen=True)
class Draw(Event):
    """BUNOT: one card from the draw deck into a hand; `card` is None when unseen."""

    player: int
    card: str | None = None
    kind: ClassVar[str] = "draw"
    secret: ClassVar[tuple[str, ...]] = ("card",)

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} draws" + (f" {self.card}" if self.card else "")


@dataclass(frozen=True)
class Dugtong(Event):
    """A word around the PAMATO (its cards in order, the PAMATO among them), then a new
    PAMATO from the hand; `pamato` is None only when the word emptied the hand."""

    player: int
    word: tuple[str, ...]
    pamato: str | None
    kind: ClassVar[str] = "dugtong"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        word = ''.join(self.word)
        return f"{who} makes {word}; new PAMATO {self.pamato}" if self.pamato else f"{who} makes {word}"


@dataclass(frozen=True)
class Todas(Event):
    """A word from the hand alone, the TODAS card in it; the PAMATO stays in play."""

    player: int
    word: tuple[str, ...]
    kind: ClassVar[str] = "todas"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} makes {''.join(self.word)} with TODAS"


@dataclass(frozen=True)
class Pass(Event):
    """The player does not (or cannot) dugtong; the PAMATO stays for the next player."""

    player: int
    kind: ClassVar[str] = "pass"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} passes"


@dataclass(frozen=True)
class Sapaw(Event):
    """Any player, in turn or not, re-lays the word on the table with cards inserted;
    `word` is the whole new word in order."""

    player: int
    word: tuple[str, ...]
    kind: ClassVar[str] = "sapaw"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"SAPAW by {who}: {''.join(self.word)}"


@dataclass(frozen=True)
class Pitik(Event):
    """The player who laid a PITIK PAMATO names `target`, who draws one card from the
    layer's hand (`card`, None when unseen)."""

    player: int
    target: int
    card: str | None = None
    kind: ClassVar[str] = "pitik"
    secret: ClassVar[tuple[str, ...]] = ("card",)

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} makes {seat_name(players, self.target)} take {self.card or 'a card'} (PITIK)"


@dataclass(frozen=True)
class Reshuffle(Event):
    """The deck ran out and the table chose to shuffle every bank into a new deck."""

    kind: ClassVar[str] = "reshuffle"

    def describe(self, players: Sequence[str]) -> str:
        return "The banks are shuffled into a new deck"


@dataclass(frozen=True)
class ScoreLetters(Event):
    """The deck ran out and the table chose to score the letters left in hand; `hands`
    are the hands shown, one list of codes per seat."""

    hands: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "score-letters"

    def describe(self, players: Sequence[str]) -> str:
        return "The letters left in hand are scored"


@dataclass(frozen=True)
class Challenge(Event):
    """The table voted on a word: accepted joins the house list, refused is rejected."""

    word: str
    accepted: bool
    kind: ClassVar[str] = "challenge"

    def describe(self, players: Sequence[str]) -> str:
        return f"The table {'accepts' if self.accepted else 'rejects'} {self.word}"


Action = Reveal | Draw | Dugtong | Todas | Pass | Sapaw | Pitik | Reshuffle | ScoreLetters | Challenge


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild a stored event (of any format); BadInput naming the field when it is malformed."""
    data = upgrade(expect(data, dict, "action"))
    kind = data.get("kind")
    if kind == Reveal.kind:
        return Reveal(_code(req(data, "card", str), "card"))
    if kind == Draw.kind:
        return Draw(_seat(data), _maybe_code(data, "card"))
    if kind == Dugtong.kind:
        return Dugtong(_seat(data), _codes(req(data, "word", list), "word"), _maybe_code(data, "pamato"))
    if kind == Todas.kind:
        return Todas(_seat(data), _codes(req(data, "word", list), "word"))
    if kind == Pass.kind:
        return Pass(_seat(data))
    if kind == Sapaw.kind:
        return Sapaw(_seat(data), _codes(req(data, "word", list), "word"))
    if kind == Pitik.kind:
        return Pitik(_seat(data), _seat(data, "target"), _maybe_code(data, "card"))
    if kind == Reshuffle.kind:
        return Reshuffle()
    if kind == ScoreLetters.kind:
        hands = req(data, "hands", list)
        return ScoreLetters(tuple(_codes(h, f"hands[{i}]") for i, h in enumerate(hands)))
    if kind == Challenge.kind:
        word = req(data, "word", str).strip()
        if not word.isalpha():
            raise BadInput("word", "must be letters only")
        return Challenge(word.upper(), req(data, "accepted", bool))
    kinds = ", ".join(k.kind for k in (Reveal, Draw, Dugtong, Todas, Pass, Sapaw, Pitik, Reshuffle,
                                       ScoreLetters, Challenge))
    raise BadInput("kind", f"unknown dugtungan event {kind!r}; one of {kinds}")
