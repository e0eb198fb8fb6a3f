"""The events of a dugtungan table, as the live companion stores and replays them.

Chance is an input: a `Draw` or `Reveal` carries the card the camera saw (`None` for a
draw into a hand the camera cannot see). Every event is a frozen dataclass with a `kind`
and `to_dict()`, and `action_from_dict` rebuilds it from the event log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from rules.core import BadInput
from rules.dugtungan.cards import parse_card
from rules.payload import expect, req


def _code(value: Any, path: str) -> str:
    return parse_card(value, path).code


def _codes(value: Any, path: str) -> tuple[str, ...]:
    return tuple(_code(v, f"{path}[{i}]") for i, v in enumerate(expect(value, list, path)))


def _seat(data: Mapping[str, Any], key: str = "seat") -> int:
    seat = req(data, key, int)
    if seat < 0:
        raise BadInput(key, "must not be negative")
    return seat


def _maybe_code(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _code(data[key], key)


@dataclass(frozen=True)
class Reveal:
    """The top card of the draw deck turned up as the new PAMATO (at the start, or after a
    dead card)."""

    card: str
    kind: ClassVar[str] = "reveal"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "card": self.card}


@dataclass(frozen=True)
class Draw:
    """BUNOT: one card from the draw deck into a hand; `card` is None when unseen."""

    seat: int
    card: str | None = None
    kind: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "card": self.card}


@dataclass(frozen=True)
class Dugtong:
    """A word around the PAMATO (its cards in order, the PAMATO among them), then a new
    PAMATO from the hand; `pamato` is None only when the word emptied the hand."""

    seat: int
    word: tuple[str, ...]
    pamato: str | None
    kind: ClassVar[str] = "dugtong"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "word": list(self.word), "pamato": self.pamato}


@dataclass(frozen=True)
class Todas:
    """A word from the hand alone, the TODAS card in it; the PAMATO stays in play."""

    seat: int
    word: tuple[str, ...]
    kind: ClassVar[str] = "todas"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "word": list(self.word)}


@dataclass(frozen=True)
class Pass:
    """The player does not (or cannot) dugtong; the PAMATO stays for the next player."""

    seat: int
    kind: ClassVar[str] = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class Sapaw:
    """Any player, in turn or not, re-lays the word on the table with cards inserted;
    `word` is the whole new word in order."""

    seat: int
    word: tuple[str, ...]
    kind: ClassVar[str] = "sapaw"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "word": list(self.word)}


@dataclass(frozen=True)
class Pitik:
    """The player who laid a PITIK PAMATO names `target`, who draws one card from the
    layer's hand (`card`, None when unseen)."""

    seat: int
    target: int
    card: str | None = None
    kind: ClassVar[str] = "pitik"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "target": self.target, "card": self.card}


@dataclass(frozen=True)
class Reshuffle:
    """The deck ran out and the table chose to shuffle every bank into a new deck."""

    kind: ClassVar[str] = "reshuffle"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class ScoreLetters:
    """The deck ran out and the table chose to score the letters left in hand; `hands`
    are the hands shown, one list of codes per seat."""

    hands: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "score-letters"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "hands": [list(h) for h in self.hands]}


@dataclass(frozen=True)
class Challenge:
    """The table voted on a word: accepted joins the house list, refused is rejected."""

    word: str
    accepted: bool
    kind: ClassVar[str] = "challenge"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "word": self.word, "accepted": self.accepted}


Action = Reveal | Draw | Dugtong | Todas | Pass | Sapaw | Pitik | Reshuffle | ScoreLetters | Challenge


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild a stored event; BadInput naming the field when it is malformed."""
    expect(data, dict, "action")
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
