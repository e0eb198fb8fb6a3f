"""One still image in, every card found and named: the core of `companion recognize`.

Detection, rectification and identification stay separate pieces (vision/detect.py,
vision/identify.py); this only wires them for a single frame. A quadrilateral that is
nearly square (a card seen under strong tilt) does not say which side is the short
one, so it is read both ways and the better match decides.

A card the identifier is unsure of is often one cut out a few per cent off (its rim
lost against a cloth of its colour, a cloth motif joined to its outline), and the
identifier's alignment onto its best candidate says where that candidate's face lies
in the cut-out (`Reading.outline`). Such a card is cut out again there and read once
more, and the clearer reading stands: for a card that is not the candidate, the
second look is judged by the same open-set tests as the first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.deck import DeckProfile
from vision.detect import CARD_ASPECT, ContourCardDetector, rectify, unrectify
from vision.embed import DEFAULT_MODEL, OnnxEmbedder
from vision.geometry import aspect, side_lengths
from vision.identify import GalleryIdentifier
from vision.imageio import decode
from vision.interfaces import BatchIdentifier, CardDetector, CardResult, Reading
from vision.refine import refine_quads

AMBIGUOUS_ASPECT = 0.5 * (CARD_ASPECT + 1)  # short/long above this: sides too alike to trust
RECUT_BELOW = 0.9   # confidence under which a card is cut out again along its candidate's face (a typical true card reads 0.95)
RECUT_MOVE = 0.03   # least move of a corner, as a share of the card's short side, worth a second cut
RECUT_LIMIT = 0.4   # a larger move is an alignment that lost its way, not a cut-out error


def _top_score(reading: Reading) -> float:
    return reading.candidates[0].score if reading.candidates else -1.0


class CardRecognizer:
    def __init__(self, detector: CardDetector, identifier: BatchIdentifier) -> None:
        self.detector = detector
        self.identifier = identifier

    @classmethod
    def for_deck(cls, deck: DeckProfile, model: Path = DEFAULT_MODEL, threads: int = 1) -> "CardRecognizer":
        return cls(ContourCardDetector(), GalleryIdentifier(deck.gallery, OnnxEmbedder(model, threads)))

    def recognize_file(self, data: bytes) -> list[CardResult] | None:
        """Every card in an encoded photo (decoded only as large as needed), corners in
        the photo's own pixels; None if it is not a picture."""
        image, factor = decode(data)
        if image is None:
            return None
        return [CardResult(r.corners * factor, r.reading) for r in self.recognize(image)]

    def recognize(self, image: np.ndarray) -> list[CardResult]:
        """Every card in a BGR image, corners clockwise from the card's own top-left."""
        quads = refine_quads(image, [d.corners for d in self.detector.detect(image)])
        ways = [[q] + ([np.roll(q, -1, axis=0)] if aspect(q) > AMBIGUOUS_ASPECT else []) for q in quads]
        flat = [q for options in ways for q in options]
        readings = iter(self.identifier.identify_many([rectify(image, q) for q in flat]))
        chosen = [max(((q, next(readings)) for q in options), key=lambda qr: _top_score(qr[1])) for options in ways]
        return [CardResult(np.roll(corners, 2, axis=0) if reading.rotated else corners, reading)
                for corners, reading in self._cut_again(image, chosen)]

    def _cut_again(self, image: np.ndarray, chosen: list[tuple[np.ndarray, Reading]]) -> list[tuple[np.ndarray, Reading]]:
        """Unsure cards cut out again where their best candidate's face lies, read in one
        batch; each keeps whichever of its two readings is the more confident."""
        again: dict[int, np.ndarray] = {}
        for i, (corners, reading) in enumerate(chosen):
            if reading.outline is None or (reading.code is not None and reading.confidence >= RECUT_BELOW):
                continue
            face = unrectify(reading.outline, corners)
            move = float(np.linalg.norm(face - corners, axis=1).max()) / max(float(side_lengths(corners).min()), 1.0)
            if RECUT_MOVE < move < RECUT_LIMIT:
                again[i] = face
        if not again:
            return chosen
        chosen = list(chosen)
        for (i, face), reading in zip(again.items(), self.identifier.identify_many([rectify(image, q) for q in again.values()])):
            if reading.confidence > chosen[i][1].confidence:
                chosen[i] = (face, reading)
        return chosen
