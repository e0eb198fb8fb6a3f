"""Lagim's cards: the rulebook's catalogue merged with what a deck file prints.

The rulebook lists every card's name, count, kind and archetype but prints entity
levels, moon alignments and abilities only on the cards themselves (Sigbin, level V, is
the one exception). So the catalogue leaves them unknown and a deck file, in the same
shape as `rules/data/lagim.json`, fills them in; a battle that needs an unknown level
says which card's level to enter instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

from rules.catalogue import load_catalogue
from rules.core import BadInput
from rules.payload import items, obj, opt, req

MAX_LEVEL = 20  # the book's highest printed level is Sigbin's V; XX leaves room for a deck's own


def _roman(n: int) -> str:
    """`n` (1 to 39) in standard Roman numerals."""
    ones = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
    return "X" * (n // 10) + ones[n % 10]


_ROMAN = tuple(_roman(n) for n in range(1, MAX_LEVEL + 1))


def roman(level: int) -> str:
    """A level as the card prints it ("IV"); 0, which no card prints, as "0"."""
    return _ROMAN[level - 1] if level > 0 else "0"


def parse_level(value: Any, path: str) -> int:
    """An entity level: a whole number 0 to MAX_LEVEL, or the Roman numeral printed on the
    card written the standard way ("IV", never "IIII", "VX" or "L")."""
    if isinstance(value, str):
        numeral = value.strip().upper()
        if numeral not in _ROMAN:
            raise BadInput(path, f"{value!r} is not a level: write a Roman numeral I to "
                                 f"{_ROMAN[-1]} as printed, or a whole number")
        return _ROMAN.index(numeral) + 1
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(path, f"must be a whole number or a Roman numeral, got {value!r}")
    if not 0 <= value <= MAX_LEVEL:
        raise BadInput(path, f"must be 0 to {MAX_LEVEL}, not {value}")
    return value


@dataclass(frozen=True)
class CardInfo:
    """One card face. `archetypes` has two entries only for the book's Mortal/Warrior equips."""

    name: str
    deck: str  # "forest" or "baryo": the pile it is shuffled into
    kind: str  # lagim, hiwaga, lakas or kontra
    archetypes: tuple[str, ...]
    count: int
    level: int | None
    moon: str | None
    ability: str | None
    nullifies: bool
    limited_edition: bool

    @property
    def archetype(self) -> str:
        """The archetype a stack or a match is judged by (the first one listed)."""
        return self.archetypes[0]

    @property
    def full_moon(self) -> bool:
        return (self.moon or "").strip().lower() == "full"

    def fits(self, archetype: str) -> bool:
        """Whether this Kontra may be equipped to a Lakas of `archetype` (Special fits all)."""
        return "special" in self.archetypes or archetype in self.archetypes


def _card(raw: Mapping[str, Any]) -> CardInfo:
    return CardInfo(
        name=raw["name"], deck=raw["deck"], kind=raw["kind"], archetypes=tuple(raw["archetypes"]),
        count=raw["count"], level=raw["level"], moon=raw["moon"], ability=raw["ability"],
        nullifies=raw["nullifies"], limited_edition=raw["limited_edition"])


@dataclass(frozen=True)
class Deck:
    """Every card face a table plays with, looked up by name (case does not matter)."""

    cards: Mapping[str, CardInfo]

    def __iter__(self) -> Iterator[CardInfo]:
        return iter(self.cards.values())

    def find(self, name: str) -> CardInfo | None:
        return self.cards.get(name.strip().casefold())

    def base_set(self, deck: str) -> list[CardInfo]:
        """The faces shuffled into the Forest or Baryo deck of the base game set."""
        return [c for c in self if c.deck == deck and not c.limited_edition]


def catalogue_deck() -> Deck:
    """The rulebook's cards with nothing the book does not print."""
    raw = load_catalogue("lagim")
    return Deck({c["name"].casefold(): _card(c) for c in raw["cards"]})


def forest_archetypes() -> tuple[str, ...]:
    return tuple(load_catalogue("lagim")["forest_archetypes"])


def baryo_archetypes() -> tuple[str, ...]:
    return tuple(load_catalogue("lagim")["baryo_archetypes"])


def load_deck(raw: Mapping[str, Any] | None, path: str = "setup.deck") -> Deck:
    """The catalogue with a deck file's printed facts applied over it.

    `raw` is `{"cards": [{"name": "Kapre", "level": "IV", "moon": "full"}, ...]}`; each entry
    may give level, moon, ability and (for the Mortal/Warrior equips) one archetype.
    """
    deck = catalogue_deck()
    if raw is None:
        return deck
    entries = req(obj(raw, path), "cards", list, path)
    cards = dict(deck.cards)
    for entry in items(entries, f"{path}.cards", lambda v, p: (obj(v, p), p)):
        cards.update(_printed(deck, *entry))
    return Deck(cards)


def _printed(deck: Deck, entry: Mapping[str, Any], path: str) -> dict[str, CardInfo]:
    name = req(entry, "name", str, path)
    known = deck.find(name)
    if known is None:
        raise BadInput(f"{path}.name", f"unknown Lagim card {name!r}")
    level = entry.get("level")
    archetypes = known.archetypes
    if entry.get("archetype") is not None:
        chosen = req(entry, "archetype", str, path).strip().lower()
        if chosen not in known.archetypes:
            raise BadInput(f"{path}.archetype", f"{known.name} is {' or '.join(known.archetypes)}, "
                                                f"not {chosen!r}")
        archetypes = (chosen,)
    return {known.name.casefold(): replace(
        known, archetypes=archetypes,
        level=known.level if level is None else parse_level(level, f"{path}.level"),
        moon=opt(entry, "moon", str, known.moon, path),
        ability=opt(entry, "ability", str, known.ability, path))}
