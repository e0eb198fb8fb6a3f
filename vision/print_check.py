"""A deck's names checked against what the card prints, in the games whose cards name
themselves in print (a Gargon value and colour, a dugtungan syllable).

Why: the deck's identifier compares a card with the faces it was shown, and a face left
out of enrollment that looks like an enrolled one (dugtungan D in the same medallion as O,
TA beside YA) can pass its open-set tests. The printed-token reader (vision/printed.py)
reads the token itself and, by its margins, names almost no card wrong. Where it reads a
token other than the deck's name, the card is left null: a wrong name scores the table
wrong, a null only asks. Where it is unsure, the deck's name stands, unless the reader
finds another token far likelier (`PrintedToken.doubts`: a blurred left-out NU named HU,
MA named HA, each read unsure with the true token well ahead); a design whose print it
cannot read gives a flat reading, which doubts nothing, and loses nothing. A Gargon
card's colour is not checked, only its value: the deck tells colours apart from the
enrolled shots of the very design, the printed reader by a colour scheme it knows (on
the held-out heirloom family it read white as yellow and violet as blue, and so left
true cards null).

The two looks also join the other way: a card the deck refuses (its open-set tests fail
on faint print, a cast of light, a blur its cuts were not set for) whose first-ranked
face is what the reader reads, sure, in full (a Gargon value and its colour), is named:
two networks, one comparing with the deck's shots and one reading print, agree on one
face. A dugtungan syllable, which names its face by itself, needs only to be read
likelier than all other syllables together (PRINT_ALONE) where the deck ranks it first:
a pips-family YO the deck refused was read YO at 0.97, unsure only because neither
corner index alone was sure of it. Not a syllable printed bare that also comes with an
action word (LI beside LI:LAKTAW): the reader may miss the word where the deck's tests
caught it (a held-out LI:LAKTAW cut off short of its band was read LI by both). The
word itself, read, is not missed (a pips-family LI:LAKTAW the deck ranked first but
refused was read LI:LAKTAW at 0.996). And a refused card the reader is sure is another
face the deck enrolled (its wide look ranked the card behind a look-alike) is judged by
the deck as that face (`JudgingIdentifier.judged_as`), and named where it passes every
test there; or, failing them, where the print names the face by itself: a dugtungan
syllable the reader finds likelier than all others together. On the training families
the deck's look of such cards was no guide (a pips-family YO cut a pixel off the true
outline ranked NGI, KO, ... first and YO nowhere in its first eight) while the reader
read the syllable at 0.999; a Gargon value is not enough (its colour is the deck's to
tell). Measured in models/README.md ("Names checked by print").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from vision.interfaces import BatchIdentifier, Reading
from vision.printed import GAMES, PrintedReader, index_token

PRINT_ALONE = 0.5  # a syllable the reader finds likelier than all others together names an enrolled face the deck refused


@runtime_checkable
class JudgingIdentifier(Protocol):
    """An identifier that can test a card as one code it names (vision/identify.py)."""

    @property
    def codes(self) -> Sequence[str]: ...

    def judged_as(self, cards: Sequence[np.ndarray], codes: Sequence[str]) -> list[Reading]: ...


class PrintChecked:
    """`BatchIdentifier`: `identifier`'s readings, each name the printed reader reads
    otherwise turned null, each refused card whose first candidate it reads named, or,
    where `identifier` can judge a card as a given code, each refused card it passes as
    the face the reader reads (module docstring). `wordless`: the syllables printed bare
    that also come with an action word (LI beside LI:LAKTAW)."""

    def __init__(self, identifier: BatchIdentifier, reader: PrintedReader) -> None:
        self.identifier = identifier
        self.reader = reader
        self.card_size = identifier.card_size
        indices = Counter(index_token(reader.game, token) for token in reader.tokens)
        self.wordless = {token for token in reader.tokens
                         if indices[token] > 1 and index_token(reader.game, token) == token}

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        readings = self.identifier.identify_many(cards)
        named = [i for i, reading in enumerate(readings) if reading.code is not None]
        refused = [i for i, reading in enumerate(readings) if reading.code is None and reading.candidates]
        for i, printed in zip(named, self.reader.tokens_many([cards[i] for i in named])):
            code = readings[i].code
            assert code is not None
            token = self.reader.token_of(code)
            if (printed.token is not None and printed.token != token) or printed.doubts(token, self.reader.margin):
                readings[i] = replace(readings[i], code=None, confidence=0.0)
        asked: list[tuple[int, str, Reading]] = []
        for i, read in zip(refused, self.reader.identify_many([cards[i] for i in refused])):
            first = readings[i].candidates[0].code
            if self._agrees(read, first):
                readings[i] = replace(readings[i], code=first, confidence=read.candidates[0].score)
            elif read.code is not None and self.reader.token_of(read.code) not in self.wordless:
                asked.append((i, read.code, read))
        if asked and isinstance(self.identifier, JudgingIdentifier):
            enrolled = set(self.identifier.codes)
            for (i, code, read), judged in zip(asked, self.identifier.judged_as([cards[i] for i, _, _ in asked],
                                                                                [code for _, code, _ in asked])):
                if judged.code is not None:
                    readings[i] = judged
                elif code in enrolled and self._names_alone(read.confidence, code):
                    readings[i] = read
        return readings

    def _agrees(self, read: Reading, first: str) -> bool:
        """Whether the printed reading names the deck's first-ranked face `first`: read
        sure, or, for a face its print names by itself, read likelier than every other
        token together (PRINT_ALONE); never a syllable printed bare that the reader may
        have read without its action word."""
        if self.reader.token_of(first) in self.wordless or not read.candidates:
            return False
        return read.code == first or (read.candidates[0].code == first and self._names_alone(read.candidates[0].score, first))

    def _names_alone(self, confidence: float, code: str) -> bool:
        """Whether the print, read as `code` at `confidence`, names the face by itself: a
        dugtungan syllable (not a Gargon value, whose colour the reader reads from a scheme
        it knows), read likelier than every other token together (PRINT_ALONE)."""
        return self.reader.token_of(code) == code and confidence >= PRINT_ALONE


def checked_by_print(identifier: BatchIdentifier, game: str, threads: int = 1) -> BatchIdentifier:
    """A deck's identifier for `game`: checked by print where its cards print their names."""
    return PrintChecked(identifier, PrintedReader(game, threads=threads)) if game in GAMES else identifier
