"""Gargon cards: colours, values, codes like `red-14`, and the amulets each value carries.

The facts live in `rules/data/gargon.json` so that a deck whose amulets differ from our
house default can override them (`amulet_table`) without touching code. Everything that
reads a card from a request goes through `card_from_code`/`colour_from_name`, so a bad
code is always reported with the field it came from.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from rules.catalogue import load_catalogue
from rules.core import BadInput
from rules.payload import expect, items, one_of

GAME = "gargon"
_CATALOGUE = load_catalogue(GAME)

#: Colour -> creature, in the book's order.
CREATURES: Mapping[str, str] = dict(_CATALOGUE["colours"])
COLOURS: tuple[str, ...] = tuple(CREATURES)
VALUES: tuple[int, ...] = tuple(_CATALOGUE["values"])
HAND_SIZE: int = _CATALOGUE["hand_size"]
MIN_PLAYERS: int = _CATALOGUE["players"]["min"]
MAX_PLAYERS: int = _CATALOGUE["players"]["max"]
_COPIES: Mapping[int, int] = {int(v): n for v, n in _CATALOGUE["copies"].items()}
_VALUE_TEXT = re.compile(r"0|[1-9][0-9]?", re.ASCII)


@dataclass(frozen=True, order=True)
class Card:
    """One Gargon card. Ordered by colour then value, which only serves stable output."""

    colour: str
    value: int

    @property
    def code(self) -> str:
        return f"{self.colour}-{self.value}"

    def __str__(self) -> str:
        return self.code


def copies(value: int) -> int:
    """How many cards of `value` each colour has: two 0s, one of everything else."""
    return _COPIES.get(value, 1)


def full_deck() -> tuple[Card, ...]:
    """All 102 cards, 0s twice."""
    return tuple(Card(c, v) for c in COLOURS for v in VALUES for _ in range(copies(v)))


def colour_from_name(name: Any, path: str) -> str:
    """A colour name from a request; BadInput naming `path` for anything else."""
    return one_of(name, COLOURS, path, "colour")


def card_from_code(code: Any, path: str) -> Card:
    """The card for a code like `red-14`; BadInput naming `path` when it is no Gargon card."""
    expect(code, str, path)
    colour, dash, value = code.rpartition("-")
    if not dash or colour not in CREATURES:
        raise BadInput(path, f"unknown card code {code!r}; a colour ({', '.join(COLOURS)}), "
                             f"a dash and a value {VALUES[0]}-{VALUES[-1]}, e.g. 'red-14'")
    number = value_number(value)
    if number is None:
        raise BadInput(path, f"unknown card code {code!r}: values run {VALUES[0]} to {VALUES[-1]}, "
                             "written in plain digits without a leading zero")
    return Card(colour, number)


def value_number(text: str) -> int | None:
    """The card value `text` writes in ASCII digits with no leading zero ("7", "14"); None
    otherwise, so "07", "²" or an Arabic-Indic "٣" never pass for a value."""
    if not _VALUE_TEXT.fullmatch(text) or int(text) not in VALUES:
        return None
    return int(text)


def cards_from_codes(codes: Any, path: str) -> tuple[Card, ...]:
    """Each code of a list read with `card_from_code`, errors naming `path[i]`."""
    return tuple(items(expect(codes, (list, tuple), path), path, card_from_code))


def too_many_copies(cards: Iterable[Card]) -> Card | None:
    """A card seen more often than the deck holds it, if any (two players cannot both hold red-14)."""
    return next((card for card, n in Counter(cards).items() if n > copies(card.value)), None)


def amulet_table(overrides: Any = None, path: str = "amulets") -> Mapping[int, int]:
    """Amulets per value: the catalogue's table with a deck's `{"value": amulets}` over it."""
    table = {int(v): n for v, n in _CATALOGUE["amulets"].items()}
    if overrides is None:
        return table
    expect(overrides, dict, path)
    for key, amulets in overrides.items():
        where = f"{path}.{key}"
        number = value_number(key)
        if number is None:
            raise BadInput(where, f"no such card value; values run {VALUES[0]} to {VALUES[-1]}")
        if expect(amulets, int, where) < 0:
            raise BadInput(where, "amulets cannot be negative")
        table[number] = amulets
    return table


def spoken_list(words: Sequence[str], last: str = "and") -> str:
    """'red', 'red and blue', 'red, blue and yellow': lists as a person says them."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
