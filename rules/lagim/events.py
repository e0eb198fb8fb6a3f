"""The events of a Lagim table, as the camera and the host report them.

Each is a frozen dataclass with a `kind` and `to_dict()` that `action_from_dict` reads
back, so the companion's event log replays a game. Seats are indices in turn order.
Cards are named as printed (`"Kapre"`); cards the camera cannot see (Baryo cards drawn
into a hand, Defence cards face-down) are counted, and named only when revealed: in a
battle, an offering or a Special Kontra spell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Sequence

from rules.core import BadInput
from rules.event import Event, seat_name
from rules.lagim.cards import parse_level, roman
from rules.payload import expect, items, obj, opt, req


def _names(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """A required list of card names."""
    return tuple(items(req(raw, key, list), key, lambda v, p: expect(v, str, p)))


def _maybe_names(raw: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    """An optional list of card names; None when absent."""
    return None if raw.get(key) is None else _names(raw, key)


def _seat(raw: Mapping[str, Any], key: str) -> int:
    seat = req(raw, key, int)
    if seat < 0:
        raise BadInput(key, "must be a seat number from 0")
    return seat


@dataclass(frozen=True)
class _Action(Event):
    """Every Lagim event names the Baryo that acts."""

    player: int


@dataclass(frozen=True)
class DrawBaryo(_Action):
    """A Baryo card drawn into the hand: Twilight's draw, or Dawn's RECUPERATE."""

    kind: ClassVar[str] = "draw_baryo"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} draws a Baryo card"


@dataclass(frozen=True)
class BuildDefence(_Action):
    """Cards laid face-down on the defence line: new Defenders (Lakas or Special Kontra)
    and Kontra equipped to Defenders."""

    kind: ClassVar[str] = "build_defence"
    defenders: int = 0
    equips: int = 0

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} builds the defence ({self.defenders} defenders, {self.equips} Kontra)"


@dataclass(frozen=True)
class ForestAttack(_Action):
    """Midnight: the Forest card drawn face-up onto the player's own Baryo."""

    kind: ClassVar[str] = "forest_attack"
    card: str = ""

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{self.card} attacks {who}'s Baryo"


@dataclass(frozen=True)
class RevealedDefender:
    """A Defender turned face-up to battle, with the Kontra equipped to it."""

    name: str
    equip: tuple[str, ...] = ()


@dataclass(frozen=True)
class Battle(_Action):
    """Defenders engage: the attack or raid on the player's Baryo, or at Dawn (REPEL) the
    Dwellers of `archetype`. `split` names the cards an Agimat separates from the stack."""

    kind: ClassVar[str] = "battle"
    defenders: tuple[RevealedDefender, ...] = ()
    archetype: str | None = None
    split: tuple[str, ...] | None = None

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} battles with {', '.join(d.name for d in self.defenders)}"


@dataclass(frozen=True)
class Standby(_Action):
    """No battle: the arriving Forest cards become Dwellers."""

    kind: ClassVar[str] = "standby"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} stands by"


@dataclass(frozen=True)
class Hasik(_Action):
    """Dawn raid: captured Lagim (and Hiwaga) of one archetype onto `target`'s Baryo;
    `summoned` is the Lagim searched from the Forest Deck by two Full Moon Lagim."""

    kind: ClassVar[str] = "hasik"
    target: int = 0
    cards: tuple[str, ...] = ()
    summoned: str | None = None

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} raids {seat_name(players, self.target)} with {', '.join(self.cards)} (HASIK)"


@dataclass(frozen=True)
class Pagtauli(_Action):
    """Counter-raid: the raided player adds one captured Hiwaga of the stack's archetype
    and sends the stack to the raider's Baryo."""

    kind: ClassVar[str] = "pagtauli"
    hiwaga: str = ""

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} sends the raid back with {self.hiwaga} (PAGTAULI)"


@dataclass(frozen=True)
class Angkla(_Action):
    """Dawn: captured Hiwaga anchored on a same-archetype Dweller of `target`."""

    kind: ClassVar[str] = "angkla"
    target: int = 0
    cards: tuple[str, ...] = ()

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} anchors {', '.join(self.cards)} on {seat_name(players, self.target)} (ANGKLA)"


@dataclass(frozen=True)
class SacrificeDarkCoin(_Action):
    """Dawn spell: a Dark Soul Coin to the Coin Vessel captures 2 of the player's own
    Dwellers or 2 cards from the Forest Deck."""

    kind: ClassVar[str] = "sacrifice_dark_coin"
    dwellers: tuple[str, ...] = ()
    from_deck: tuple[str, ...] = ()

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} sacrifices a Dark Soul Coin"


@dataclass(frozen=True)
class BaryoOffering(_Action):
    """Dawn spell: 1 Lakas and 4 different Kontra from the hand to the Resting Pile buy a
    Dark Soul Coin."""

    kind: ClassVar[str] = "baryo_offering"
    lakas: str = ""
    kontra: tuple[str, ...] = ()

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} makes a Baryo offering"


@dataclass(frozen=True)
class SpecialKontra(_Action):
    """Dawn spell: a Special Kontra played alone from the hand (Gasera), then discarded."""

    kind: ClassVar[str] = "special_kontra"
    card: str = ""

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} casts {self.card}"


@dataclass(frozen=True)
class SwitchDefence(_Action):
    """Twilight: face-down line cards taken back into the hand (`back_defenders`,
    `back_equips`) and others laid from the hand ("add more defense cards or switch them
    with new Baryo cards from your hand, on your next turn")."""

    kind: ClassVar[str] = "switch_defence"
    back_defenders: int = 0
    back_equips: int = 0
    defenders: int = 0
    equips: int = 0

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} switches defence cards with cards from the hand"


@dataclass(frozen=True)
class Salag(_Action):
    """SALAG (block): a nullifying card from the hand laid on the arriving Forest cards
    (Midnight, or a raid) or, at Dawn, on the Dwellers of `archetype`, with `wielder` the
    Lakas Defender turned face-up to wield it (an Agimat needs none). The stack is held,
    its abilities blocked, until the player repels it on their next turn."""

    kind: ClassVar[str] = "salag"
    nullifier: str = ""
    wielder: str | None = None
    archetype: str | None = None

    def describe(self, players: Sequence[str]) -> str:
        wielder = f", wielded by {self.wielder}" if self.wielder else ""
        return f"{seat_name(players, self.player)} casts SALAG with {self.nullifier}{wielder}"


@dataclass(frozen=True)
class Reap(_Action):
    """A Lagim card's REAP ability, as the host or the camera records it: `card`, on
    `target`'s Baryo, steals a Soul Coin from that stash onto the Spirit Path of `player`,
    the reaper. Recorded when it happens, whoever's move it is."""

    kind: ClassVar[str] = "reap"
    card: str = ""
    target: int = 0

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{self.card} reaps a Soul Coin from {seat_name(players, self.target)} for {who}"


@dataclass(frozen=True)
class Disable(_Action):
    """A Forest card's DISABLE ability, as recorded: `card`, a Dweller of `player`'s Baryo,
    disables `defenders` of its Defenders, "turned horizontally and cannot be used until
    the Forest card disabler is captured or eliminated"."""

    kind: ClassVar[str] = "disable"
    card: str = ""
    defenders: int = 1

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{self.card} disables {self.defenders} of {who}'s Defenders"


@dataclass(frozen=True)
class EndPhase(_Action):
    """Moves on when the phase's draw cannot happen (the deck is empty and cannot be
    reshuffled): Twilight skips the Forest attack, Dawn ends the turn."""

    kind: ClassVar[str] = "end_phase"

    def describe(self, players: Sequence[str]) -> str:
        who = seat_name(players, self.player)
        return f"{who} ends the phase"


@dataclass(frozen=True)
class Printed(Event):
    """What a card prints that the book does not: its entity level and moon alignment, told
    by the host the first time the game needs them (the facts a deck file would give), so a
    table with no deck file still plays. Nobody acts: it is a fact about the deck, not a move."""

    kind: ClassVar[str] = "printed"
    card: str = ""
    level: int | None = None
    moon: str | None = None

    def describe(self, players: Sequence[str]) -> str:
        facts = ([f"level {roman(self.level)}"] if self.level is not None else []) + (
            [f"moon {self.moon}"] if self.moon is not None else [])
        return f"{self.card} is printed with {' and '.join(facts)}"


def _printed(raw: Mapping[str, Any]) -> Printed:
    level = raw.get("level")
    printed = Printed(req(raw, "card", str), None if level is None else parse_level(level, "level"),
                      opt(raw, "moon", str, None))
    if printed.level is None and printed.moon is None:
        raise BadInput("level", "give the card's printed level, its moon alignment, or both")
    return printed


def _defender(value: Any, path: str) -> RevealedDefender:
    raw = obj(value, path)
    equip: list[Any] = opt(raw, "equip", list, [], path)
    return RevealedDefender(req(raw, "name", str, path),
                            tuple(items(equip, f"{path}.equip", lambda v, p: expect(v, str, p))))


_READERS: dict[str, Callable[[Mapping[str, Any], int], Any]] = {
    "draw_baryo": lambda r, p: DrawBaryo(p),
    "build_defence": lambda r, p: BuildDefence(p, opt(r, "defenders", int, 0), opt(r, "equips", int, 0)),
    "forest_attack": lambda r, p: ForestAttack(p, req(r, "card", str)),
    "battle": lambda r, p: Battle(p, tuple(items(req(r, "defenders", list), "defenders", _defender)),
                                  opt(r, "archetype", str, None), _maybe_names(r, "split")),
    "standby": lambda r, p: Standby(p),
    "hasik": lambda r, p: Hasik(p, _seat(r, "target"), _names(r, "cards"), opt(r, "summoned", str, None)),
    "pagtauli": lambda r, p: Pagtauli(p, req(r, "hiwaga", str)),
    "angkla": lambda r, p: Angkla(p, _seat(r, "target"), _names(r, "cards")),
    "sacrifice_dark_coin": lambda r, p: SacrificeDarkCoin(p, _maybe_names(r, "dwellers") or (),
                                                          _maybe_names(r, "from_deck") or ()),
    "baryo_offering": lambda r, p: BaryoOffering(p, req(r, "lakas", str), _names(r, "kontra")),
    "special_kontra": lambda r, p: SpecialKontra(p, req(r, "card", str)),
    "end_phase": lambda r, p: EndPhase(p),
    "switch_defence": lambda r, p: SwitchDefence(p, opt(r, "back_defenders", int, 0), opt(r, "back_equips", int, 0),
                                                 opt(r, "defenders", int, 0), opt(r, "equips", int, 0)),
    "salag": lambda r, p: Salag(p, req(r, "nullifier", str), opt(r, "wielder", str, None),
                                opt(r, "archetype", str, None)),
    "reap": lambda r, p: Reap(p, req(r, "card", str), _seat(r, "target")),
    "disable": lambda r, p: Disable(p, req(r, "card", str), opt(r, "defenders", int, 1)),
}


def action_from_dict(data: Mapping[str, Any]) -> Any:
    """The action `data` describes (as `to_dict` wrote it); BadInput names a wrong field."""
    raw = obj(data, "action")
    kind = req(raw, "kind", str)
    if kind == Printed.kind:
        return _printed(raw)
    if kind not in _READERS:
        raise BadInput("kind", f"unknown Lagim action {kind!r}; one of {', '.join([*_READERS, Printed.kind])}")
    return _READERS[kind](raw, _seat(raw, "player"))


LagimAction = (DrawBaryo | BuildDefence | ForestAttack | Battle | Standby | Hasik | Pagtauli | Angkla
               | SacrificeDarkCoin | BaryoOffering | SpecialKontra | EndPhase | SwitchDefence | Salag | Reap
               | Disable | Printed)
