"""Enrollment: show each card once, see what was cut out, confirm, next, then save.

The same flow serves `companion enroll` (a folder of photos) and the web app's enroll
page (one camera frame per card, with the cut-out shown for confirmation), so it is
a small stateful object rather than a function over a folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from rules.payload import BadInput
from vision.deck import DeckProfile, calibrate
from vision.detect import SMALLEST_IMAGE, order_clockwise, rectify
from vision.embed import OnnxEmbedder, file_sha256
from vision.interfaces import CardDetector
from vision.refine import refine_quad


def card_nearest_centre(image: np.ndarray, detector: CardDetector) -> np.ndarray:
    """Corners of the card nearest the image centre; the whole image when no card is
    found (a scan or a tight crop of one card has no table around it).

    An enrollment photo is a close-up: the card fills much of it, and at the detector's
    working size its own print (art frame, text box) can break its outline into pieces
    that enclose nothing card-shaped. When nothing is found, the photo is searched again
    at half size, where the outline closes and the print blurs away."""
    h, w = image.shape[:2]
    corners = [d.corners for d in detector.detect(image)]
    if not corners:
        half = cv2.resize(image, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        corners = [d.corners * (w / half.shape[1], h / half.shape[0]) for d in detector.detect(half)]
    if not corners:
        return order_clockwise(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32))
    centre = np.array([w / 2, h / 2])
    return refine_quad(image, min(corners, key=lambda c: float(np.linalg.norm(c.mean(axis=0) - centre))))


@dataclass
class Enrollment:
    """Shots collected so far. `add` returns the rectified card so a person can confirm it."""

    game: str
    detector: CardDetector
    codes: list[str] = field(default_factory=list)
    cards: list[np.ndarray] = field(default_factory=list)

    def add(self, image: np.ndarray, code: str, corners: np.ndarray | None = None) -> np.ndarray:
        """`corners` when the caller has already found the card (and shown it); BadInput
        for a picture too small to show one."""
        height, width = image.shape[:2]
        if min(height, width) < SMALLEST_IMAGE:
            raise BadInput("photo", f"a {width}x{height} px picture is too small to show a card")
        card = rectify(image, card_nearest_centre(image, self.detector) if corners is None else corners)
        self.codes.append(code)
        self.cards.append(card)
        return card

    def undo(self) -> None:
        """Drop the last shot (the person did not confirm it)."""
        if self.codes:
            self.codes.pop()
            self.cards.pop()

    def profile(self, embedder: OnnxEmbedder) -> DeckProfile:
        if not self.cards:
            raise ValueError("no card enrolled yet")
        gallery, stats = calibrate(self.cards, self.codes, embedder)
        return DeckProfile(self.game, gallery, file_sha256(embedder.model), stats)
