"""The events of a Bagani game, as the camera and the host report them.

Each event is a frozen dataclass with a `kind` and a JSON round trip, so the companion
can log events and replay a game after a crash. Chance is part of the event: a draw or a
reveal carries the card that was seen. A card drawn from the face-down deck may be
unknown (None): at a real table nobody but its owner sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from rules.bagani.cards import Halimaw, read_card, read_cards, read_halimaw
from rules.core import BadInput
from rules.event import Event, seat_name
from rules.payload import expect, items, obj, req

ROW, DECK = "row", "deck"


def _read_player(data: Mapping[str, Any]) -> int:
    player = req(data, "player", int)
    if player < 0:
        raise BadInput("player", "must be a seat number, 0 or more")
    return player


def _maybe_card(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    return None if value is None else read_card(value, key)


def _read_hands(value: Any, path: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(read_cards(h, f"{path}[{i}]")) for i, h in
                 enumerate(expect(value, list, path)))


@dataclass(frozen=True)
class Setup(Event):
    """The face-up rows at the start; `hands` only when every starting hand is known."""

    bagani: tuple[str, ...]
    halimaw: tuple[Halimaw, ...]
    hands: tuple[tuple[str, ...], ...] | None = None
    kind: ClassVar[str] = "setup"
    secret: ClassVar[tuple[str, ...]] = ("hands",)

    def describe(self, players: Sequence[str]) -> str:
        return f"Face-up rows: {', '.join(self.bagani)}; Halimaw {', '.join(h.name for h in self.halimaw)}"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Setup":
        hands = data.get("hands")
        return cls(tuple(read_cards(req(data, "bagani", list), "bagani")),
                   tuple(items(req(data, "halimaw", list), "halimaw", _read_halimaw_ref)),
                   None if hands is None else _read_hands(hands, "hands"))


def _read_halimaw_ref(value: Any, path: str) -> Halimaw:
    """A Halimaw named by a string (stats from the deck) or an object with stats."""
    if isinstance(value, str):
        return read_halimaw({"name": value}, path)
    return read_halimaw(value, path)


@dataclass(frozen=True)
class Draw(Event):
    """Step 1: one draw, from the face-up row (card required) or the deck top."""

    player: int
    source: str
    card: str | None = None
    kind: ClassVar[str] = "draw"
    secret: ClassVar[tuple[str, ...]] = ("card",)

    def told(self) -> Event:
        return self if self.source == "row" else super().told()  # the face-up row is seen by all

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} draws {self.card} from the row" if self.source == "row" else f"{who} draws from the deck"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Draw":
        source = req(data, "source", str)
        if source not in (ROW, DECK):
            raise BadInput("source", f"must be '{ROW}' or '{DECK}'")
        card = _maybe_card(data, "card")
        if source == ROW and card is None:
            raise BadInput("card", "missing: a draw from the face-up row names the card")
        return cls(_read_player(data), source, card)


@dataclass(frozen=True)
class Refill(Event):
    """A card from the deck top filling an empty face-up slot."""

    card: str
    kind: ClassVar[str] = "refill"

    def describe(self, players: Sequence[str]) -> str:
        return f"{self.card} fills the face-up row"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Refill":
        return cls(read_card(req(data, "card", str), "card"))


@dataclass(frozen=True)
class Discard(Event):
    """The 8-card hand limit: one card discarded after drawing (None: not seen)."""

    player: int
    card: str | None = None
    kind: ClassVar[str] = "discard"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} discards {self.card or 'a card'}"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Discard":
        return cls(_read_player(data), _maybe_card(data, "card"))


@dataclass(frozen=True)
class PutDown(Event):
    """Step 2: combos put down from the hand; their AP joins the turn's pool."""

    player: int
    combos: tuple[tuple[str, ...], ...]
    kind: ClassVar[str] = "combos"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} puts down {'; '.join(', '.join(c) for c in self.combos)}"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PutDown":
        return cls(_read_player(data), _read_hands(req(data, "combos", list), "combos"))


@dataclass(frozen=True)
class Defeat(Event):
    """Step 2: AP from the pool spent on one face-up Halimaw."""

    player: int
    halimaw: str
    kind: ClassVar[str] = "defeat"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} defeats {self.halimaw}"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Defeat":
        return cls(_read_player(data), req(data, "halimaw", str))


@dataclass(frozen=True)
class Done(Event):
    """The end of step 2 (a pass when nothing was put down); unused AP is lost."""

    player: int
    kind: ClassVar[str] = "done"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} ends the attack step"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Done":
        return cls(_read_player(data))


@dataclass(frozen=True)
class Reveal(Event):
    """Step 3: the next Halimaw turned face up; stats the deck lacks may come with it."""

    halimaw: Halimaw
    kind: ClassVar[str] = "reveal"

    def describe(self, players: Sequence[str]) -> str:
        return f"{self.halimaw.name} is revealed"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Reveal":
        return cls(_read_halimaw_ref(req(data, "halimaw", (str, dict)), "halimaw"))


@dataclass(frozen=True)
class Show(Event):
    """A whole hand seen by the table (a reveal-hands attack): it replaces what was unseen."""

    player: int
    cards: tuple[str, ...]
    kind: ClassVar[str] = "show"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} shows {', '.join(self.cards)}"


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Show":
        return cls(_read_player(data), tuple(read_cards(req(data, "cards", list), "cards")))


@dataclass(frozen=True)
class End(Event):
    """The game is scored; `hands` are the final hands shown, in seat order."""

    hands: tuple[tuple[str, ...], ...] | None = None
    kind: ClassVar[str] = "end"

    def describe(self, players: Sequence[str]) -> str:
        if not self.hands:
            return "The game is scored"
        return "Final hands: " + "; ".join(f"{seat_name(players, i)}: {', '.join(h) or 'no cards'}"
                                           for i, h in enumerate(self.hands))


    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "End":
        hands = data.get("hands")
        return cls(None if hands is None else _read_hands(hands, "hands"))


Action = Setup | Draw | Refill | Discard | PutDown | Defeat | Done | Reveal | Show | End
_KINDS = {cls.kind: cls for cls in
          (Setup, Draw, Refill, Discard, PutDown, Defeat, Done, Reveal, Show, End)}


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """The event stored as `data` (its `to_dict()`); BadInput naming the field otherwise."""
    data = obj(data, "action")
    kind = req(data, "kind", str)
    if kind not in _KINDS:
        raise BadInput("kind", f"unknown Bagani event {kind!r}; one of {', '.join(_KINDS)}")
    return _KINDS[kind].from_dict(data)

