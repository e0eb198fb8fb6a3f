"""The learned card check of contour candidates: cards stay, cloth squares go."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cardness import FEATURES, quad_features
from vision.detect import ContourCardDetector, order_clockwise
from scripts.lib.evaluate import TruthCard, match_by_centre
from vision.synth.faces import game_face

SQUARE = (70, 50)  # a checked cloth's squares, shaped like a card lying sideways


def _checked_table_with_cards() -> tuple[np.ndarray, list[np.ndarray]]:
    """A red and white checked cloth whose squares close into card-shaped boxes, with
    two game cards lying on it, one turned."""
    y, x = np.mgrid[0:720, 0:1280]
    red = ((x // SQUARE[0]) + (y // SQUARE[1])) % 2 == 0
    image = np.where(red[..., None], (60, 60, 200), (235, 235, 235)).astype(np.uint8)
    cards = []
    for code, (cx, cy), angle in (("red-14", (400, 330), 0.0), ("blue-3", (880, 380), 25.0)):
        face = game_face("gargon", code)
        corners = order_clockwise(cv2.boxPoints(((cx, cy), (180, 252), angle)))
        fh, fw = face.shape[:2]
        matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]), corners)
        warped = cv2.warpPerspective(face, matrix, (1280, 720))
        mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), matrix, (1280, 720)) > 127
        image[mask] = warped[mask]
        cards.append(corners)
    return image, cards


def test_features_are_finite_and_an_empty_list_has_none():
    image, cards = _checked_table_with_cards()
    features = quad_features(image, np.stack(cards), np.ones(2, np.float32))
    assert features.shape == (2, FEATURES) and np.isfinite(features).all()
    assert quad_features(image, np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32)).shape == (0, FEATURES)


def test_the_squares_of_a_checked_cloth_are_not_cards_and_the_cards_on_it_are():
    image, cards = _checked_table_with_cards()
    truth = [TruthCard(str(i), tuple(c.mean(0))) for i, c in enumerate(cards)]
    unchecked = ContourCardDetector(verifier=None).detect(image)
    assert len(unchecked) > 100  # without the check, the squares are cards
    found = ContourCardDetector().detect(image)
    match = match_by_centre([d.corners for d in found], truth)
    assert len(match.pairs) == len(cards)
    assert len(found) - len(cards) <= 0.02 * len(unchecked)  # (no square of the 182 is left today)
