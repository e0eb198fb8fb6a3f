"""dugtungan cards: a printed syllable, sometimes an action, and the default deck.

A card code is the printed syllable in capitals (1 to 3 letters), with the action after a
colon when the card carries one: `BA`, `NG`, `SA:+DOS`. A card printed with an action and
no syllable is written as the action alone (`+DOS`, as in the contract): it can be laid
as a PAMATO but spells nothing. Any such code is valid input; the deck list in `rules/data/dugtungan.json` serves recognition and dealing, never refuses a
card the table holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from rules.catalogue import load_catalogue
from rules.core import BadInput
from rules.payload import expect

_SYLLABLE = re.compile(r"[A-ZÑ]{1,3}")


def actions() -> dict[str, str]:
    """Action name -> what it does, from the catalogue."""
    return dict(load_catalogue("dugtungan")["actions"])


@dataclass(frozen=True, order=True)
class Card:
    syllable: str
    action: str | None = None

    @property
    def code(self) -> str:
        if self.action:
            return f"{self.syllable}:{self.action}" if self.syllable else self.action
        return self.syllable

    @property
    def letters(self) -> int:
        """Letters printed in the syllable: the card's score left in hand (NG is 2)."""
        return len(self.syllable)

    @property
    def text(self) -> str:
        """The syllable as it is spelled inside a word (lower case, like the lexicon)."""
        return self.syllable.lower().replace("ñ", "n")


def parse_card(value: Any, path: str) -> Card:
    """The card written `value`; BadInput naming `path` when it is no card code."""
    code = expect(value, str, path).strip().upper()
    if code in actions():
        return Card("", code)
    syllable, _, action = code.partition(":")
    if not _SYLLABLE.fullmatch(syllable):
        raise BadInput(path, f"unknown card code {value!r}: a syllable of 1 to 3 letters, "
                             "optionally ':ACTION', or an action alone such as +DOS")
    if action and action not in actions():
        raise BadInput(path, f"unknown action {action!r} in {value!r}; one of {', '.join(actions())}")
    return Card(syllable, action or None)


def parse_cards(values: Any, path: str) -> tuple[Card, ...]:
    return tuple(parse_card(v, f"{path}[{i}]") for i, v in enumerate(expect(values, list, path)))


def spell(cards: Sequence[Card]) -> str:
    """The word the cards make, lower case (the lexicon's spelling)."""
    return "".join(c.text for c in cards)


def show(cards: Sequence[Card]) -> str:
    """The word as the table reads it aloud: HABAG."""
    return "".join(c.syllable for c in cards)


def deck_counts(raw: Mapping[str, Any] | None = None, path: str = "deck") -> dict[Card, int]:
    """Card -> copies: the default deck, or a deck file's `{code: count}` in its place."""
    source = load_catalogue("dugtungan")["deck"] if raw is None else expect(raw, dict, path)
    counts: dict[Card, int] = {}
    for code, count in source.items():
        card = parse_card(code, f"{path}.{code}")
        counts[card] = counts.get(card, 0) + expect(count, int, f"{path}.{code}")
        if count < 0:
            raise BadInput(f"{path}.{code}", "count must not be negative")
    return counts
