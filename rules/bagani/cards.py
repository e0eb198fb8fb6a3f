"""Bagani card facts: card codes, colours, shapes, Halimaw kinds and the deck in play.

The rulebook prints the rules but not every card: the split of the 55 Bagani cards and
most Halimaw stats are on the physical cards only. The catalogue (`rules/data/bagani.json`)
holds what the book prints and marks the rest unknown (null); a deck file of the same
shape fills the gaps, so the engine never guesses a number it was not given.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Mapping

from rules.catalogue import load_catalogue
from rules.core import BadInput
from rules.payload import expect, items, obj, one_of, opt, req

_CATALOGUE = load_catalogue("bagani")

COLOURS: tuple[str, ...] = tuple(_CATALOGUE["colours"])
SHAPES: tuple[str, ...] = tuple(_CATALOGUE["shapes"])
BIYAYA: str = _CATALOGUE["biyaya"]["code"]
BIYAYA_NAME: str = _CATALOGUE["biyaya"]["name"]
REGIONS: Mapping[str, str] = {c: v["region"] for c, v in _CATALOGUE["colours"].items()}
ATTACKS: Mapping[str, Mapping[str, str]] = _CATALOGUE["attacks"]
SARIMAW: str = _CATALOGUE["halimaw"]["last"]

NATURAL_CODES: tuple[str, ...] = tuple(f"{c}-{s}" for s in SHAPES for c in COLOURS)
CARD_CODES: frozenset[str] = frozenset(NATURAL_CODES + (BIYAYA,))
_PARTS: Mapping[str, tuple[str, str]] = {
    f"{c}-{s}": (c, s) for s in SHAPES for c in COLOURS}


def colour_of(code: str) -> str:
    return _PARTS[code][0]


def shape_of(code: str) -> str:
    return _PARTS[code][1]


def read_card(value: Any, path: str) -> str:
    """A Bagani card code, or BadInput naming `path`."""
    expect(value, str, path)
    if value not in CARD_CODES:
        raise BadInput(path, f"unknown card code {value!r}; expected <colour>-<shape> "
                             f"such as 'blue-circle', or '{BIYAYA}'")
    return value


def read_cards(value: Any, path: str) -> list[str]:
    return items(expect(value, list, path), path, read_card)


def read_colour(value: Any, path: str) -> str:
    return one_of(value, COLOURS, path, "colour")


def read_attack(value: Any, path: str) -> str:
    return one_of(value, ATTACKS, path, "attack")


MAX_STAT = 20  # a physical deck holds 5 of each card; no Lakas or DP the book prints comes near it


def _read_at_least(value: Any, path: str, least: int = 0) -> int:
    """An integer from `least` (counts may be 0, a Lakas may not) to MAX_STAT, so a deck
    file cannot make a 400-card hand possible or the final-hand search unbounded."""
    expect(value, int, path)
    if not least <= value <= MAX_STAT:
        raise BadInput(path, f"must be {least} to {MAX_STAT}, not {value}")
    return value


@dataclass(frozen=True)
class Halimaw:
    """One Halimaw kind; None marks a stat nobody has told the engine yet."""

    name: str
    color: str | None = None
    lakas: int | None = None
    dp: int | None = None
    attacks: tuple[str, ...] | None = None

    def unknown(self) -> list[str]:
        """The names of the stats still unknown, as a person would say them."""
        labels = {"color": "colour", "lakas": "Lakas", "dp": "DP", "attacks": "attack"}
        return [label for key, label in labels.items() if getattr(self, key) is None]

    def filled_from(self, other: "Halimaw") -> "Halimaw":
        """This kind with its unknown stats taken from `other` (same name)."""
        return replace(self, **{k: getattr(other, k) for k in ("color", "lakas", "dp", "attacks")
                                if getattr(self, k) is None})

    def conflicts(self, other: "Halimaw") -> list[str]:
        """Stats both know but disagree on."""
        return [k for k in ("color", "lakas", "dp", "attacks")
                if getattr(self, k) is not None and getattr(other, k) is not None
                and getattr(self, k) != getattr(other, k)]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "color": self.color, "lakas": self.lakas, "dp": self.dp,
                "attacks": None if self.attacks is None else list(self.attacks)}


def read_halimaw(value: Any, path: str) -> Halimaw:
    """A Halimaw object `{"name", "color"?, "lakas"?, "dp"?, "attacks"?}`; absent = unknown."""
    data = obj(value, path)
    name = req(data, "name", str, path).strip()
    if not name:
        raise BadInput(f"{path}.name", "must not be empty")
    color = data.get("color")
    attacks = opt(data, "attacks", list, None, path)
    return Halimaw(
        name=name,
        color=None if color is None else read_colour(color, f"{path}.color"),
        lakas=(None if data.get("lakas") is None
               else _read_at_least(data["lakas"], f"{path}.lakas", 1)),
        dp=None if data.get("dp") is None else _read_at_least(data["dp"], f"{path}.dp"),
        attacks=None if attacks is None else tuple(items(attacks, f"{path}.attacks", read_attack)),
    )


@dataclass(frozen=True)
class Deck:
    """The physical deck in play: Bagani card counts and the Halimaw deck.

    `halimaw_cards` counts Halimaw cards by name; `unnamed_halimaw` counts cards whose
    name nobody gave (the catalogue knows only the names the rulebook prints).
    """

    bagani_cards: Mapping[str, int]
    kinds: Mapping[str, Halimaw]
    halimaw_cards: Mapping[str, int]
    unnamed_halimaw: int

    @property
    def bagani_total(self) -> int:
        return sum(self.bagani_cards.values())

    @property
    def halimaw_total(self) -> int:
        return sum(self.halimaw_cards.values()) + self.unnamed_halimaw

    def kind(self, name: str) -> Halimaw:
        """What the deck knows about `name` (all unknown for a name it has never heard)."""
        return self.kinds.get(name) or Halimaw(name)

    def learn(self, halimaw: Halimaw) -> "Deck":
        """This deck with `halimaw`'s stats remembered, so later copies need no retelling."""
        kinds = dict(self.kinds)
        kinds[halimaw.name] = halimaw.filled_from(self.kind(halimaw.name))
        return replace(self, kinds=kinds)


def _catalogue_kinds() -> dict[str, Halimaw]:
    return {k["name"]: read_halimaw(k, "catalogue") for k in _CATALOGUE["halimaw"]["kinds"]}


def _bagani_split(per_colour_shape: int, biyaya: int) -> dict[str, int]:
    return {**{code: per_colour_shape for code in NATURAL_CODES}, BIYAYA: biyaya}


def _read_bagani_split(value: Any, path: str) -> dict[str, int]:
    data = obj(value, path)
    if "cards" in data:
        cards = obj(data["cards"], f"{path}.cards")
        split = {code: 0 for code in CARD_CODES}
        for code, count in cards.items():
            split[read_card(code, f"{path}.cards")] = _read_at_least(count, f"{path}.cards.{code}")
        return split
    default = _CATALOGUE["bagani_deck"]
    return _bagani_split(
        _read_at_least(opt(data, "per_colour_shape", int, default["per_colour_shape"], path),
                       f"{path}.per_colour_shape"),
        _read_at_least(opt(data, "biyaya", int, default["biyaya"], path), f"{path}.biyaya"))


def _read_halimaw_cards(value: Any, path: str, kinds: dict[str, Halimaw]
                        ) -> tuple[dict[str, int], int]:
    """Fill `kinds` from a deck's Halimaw list; return (counts by name, unnamed count)."""
    counts: Counter[str] = Counter()
    unnamed = 0
    for i, entry in enumerate(expect(value, list, path)):
        where = f"{path}[{i}]"
        count = _read_at_least(opt(obj(entry, where), "count", int, 1, where), f"{where}.count", 1)
        if entry.get("name") is None:
            unnamed += count
            continue
        card = read_halimaw(entry, where)
        known = kinds.get(card.name)
        kinds[card.name] = card if known is None else card.filled_from(known)
        counts[card.name] += count
    return dict(counts), unnamed


def read_deck(value: Any = None, path: str = "deck") -> Deck:
    """The deck described by a deck file's JSON (None: the catalogue's default deck).

    A deck file may give `"bagani": {"per_colour_shape": 5, "biyaya": 5}` or
    `"bagani": {"cards": {"blue-circle": 5, ..., "biyaya": 5}}`, and `"halimaw"`: a list
    of `{"name", "color", "lakas", "dp", "attacks", "count"}` (an entry with a null name
    stands for cards not described). Anything it leaves out comes from the catalogue.
    """
    data = {} if value is None else obj(value, path)
    default = _CATALOGUE["bagani_deck"]
    bagani = (_read_bagani_split(data["bagani"], f"{path}.bagani") if data.get("bagani") is not None
              else _bagani_split(default["per_colour_shape"], default["biyaya"]))
    kinds = _catalogue_kinds()
    listed = data.get("halimaw")
    counts, unnamed = _read_halimaw_cards(
        _CATALOGUE["halimaw"]["cards"] if listed is None else listed,
        "catalogue" if listed is None else f"{path}.halimaw", kinds)
    if counts.get(SARIMAW, 0) != 1:
        raise BadInput(f"{path}.halimaw", f"the Halimaw deck needs exactly one {SARIMAW}")
    return Deck(bagani_cards=bagani, kinds=kinds, halimaw_cards=counts, unnamed_halimaw=unnamed)


DEFAULT_DECK: Deck = read_deck()
