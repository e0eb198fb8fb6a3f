"""A second, independent look for decks whose cards print their own name.

On a Gargon or dugtungan deck in a design the identifier's close look barely resolves
(a value printed only small in the corners), the enrolled gallery often ranks the
right face first and still leaves it unnamed: its consistency test cannot tell a small
"3" from a small "8" well enough to rule out a forgotten look-alike. The printed reader
(vision/printed.py) reads the value itself. When the gallery leaves a card null and the
printed reader, sure of itself, names exactly the gallery's first candidate, two looks
that fail in different ways agree, and the card is named. A forgotten card stays null:
its gallery candidate is an enrolled look-alike, and the print says what it really is.
Only null readings are read again, so a deck the gallery names well costs nothing more.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from vision.interfaces import Reading


class PrintConfirmed:
    """`Identifier`: `gallery`'s readings, with a null one named where `printed`
    (a `vision.printed.PrintedReader` of the deck's game) names its first candidate."""

    def __init__(self, gallery, printed) -> None:
        self.gallery = gallery
        self.printed = printed
        self.card_size = gallery.card_size

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        readings = self.gallery.identify_many(cards)
        unnamed = [i for i, r in enumerate(readings) if r.code is None and r.candidates]
        for i, printed in zip(unnamed, self.printed.identify_many([cards[i] for i in unnamed])):
            first = readings[i].candidates[0].code
            if printed.code == first:
                # as sure as the less sure of the two looks: the gallery's own confidence
                # is under its bar by construction, the print's says how clear the token was
                readings[i] = dataclasses.replace(readings[i], code=first,
                                                  confidence=max(readings[i].confidence, printed.confidence))
        return readings
