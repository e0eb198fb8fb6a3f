"""One still image in, every card found and named: the core of `companion recognize`.

Detection, rectification and identification stay separate pieces (vision/detect.py,
vision/identify.py); this only wires them for a single frame. A quadrilateral that is
nearly square (a card seen under strong tilt) does not say which side is the short
one, so it is read both ways and the better match decides.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.deck import DeckProfile
from vision.detect import CARD_ASPECT, ContourCardDetector, rectify
from vision.embed import DEFAULT_MODEL, OnnxEmbedder
from vision.geometry import aspect
from vision.identify import GalleryIdentifier
from vision.imageio import decode
from vision.interfaces import BatchIdentifier, CardDetector, CardResult, Reading
from vision.refine import refine_quads

AMBIGUOUS_ASPECT = 0.5 * (CARD_ASPECT + 1)  # short/long above this: sides too alike to trust


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
        results = []
        for options in ways:
            corners, reading = max(((q, next(readings)) for q in options), key=lambda qr: _top_score(qr[1]))
            if reading.rotated:
                corners = np.roll(corners, 2, axis=0)
            results.append(CardResult(corners, reading))
        return results
