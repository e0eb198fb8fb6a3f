"""Outlines of the whole card round a find that stopped at a band printed across it
(vision/extend.py)."""

from __future__ import annotations

import cv2
import numpy as np

from scripts.lib.evaluate import quad_iou
from vision.detect import CARD_ASPECT
from vision.extend import whole_card_outlines


def _card(h: float = 200.0, angle: float = 20.0, centre: tuple[float, float] = (400.0, 300.0)) -> np.ndarray:
    w = h * CARD_ASPECT
    box = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    return (box @ np.array([[c, s], [-s, c]], np.float32) + np.array(centre, np.float32)).astype(np.float32)


def _part(card: np.ndarray, top: float, bottom: float) -> np.ndarray:
    """The part of `card` between `top` and `bottom` (shares of its length)."""
    q0, q1, q2, q3 = card
    return np.array([q0 + top * (q3 - q0), q1 + top * (q2 - q1), q1 + bottom * (q2 - q1), q0 + bottom * (q3 - q0)],
                    np.float32)


def test_a_find_that_stopped_at_a_band_across_either_end_has_the_whole_card_among_its_outlines():
    card = _card()
    for top, bottom in ((0.0, 0.82), (0.18, 1.0)):
        outlines = whole_card_outlines(_part(card, top, bottom))
        assert len(outlines) == 2
        assert max(quad_iou(o, card) for o in outlines) > 0.97


def test_a_find_that_stopped_at_a_band_down_one_side_is_widened():
    card = _card(angle=-35.0)
    side = np.array([card[0], card[0] + 0.8 * (card[1] - card[0]), card[3] + 0.8 * (card[2] - card[3]), card[3]],
                    np.float32)
    assert max(quad_iou(o, card) for o in whole_card_outlines(side)) > 0.97


def test_a_find_of_a_cards_shape_is_read_as_it_is():
    assert whole_card_outlines(_card()) == []
    assert whole_card_outlines(np.roll(_card(angle=70.0), 1, axis=0)) == []


def test_the_whole_card_is_found_in_the_finds_own_perspective():
    """A card seen at a tilt: its far end looks shorter, and the part missing there too.
    (Under a strong tilt the find's shape no longer tells a part from a card.)"""
    card = _card(h=240.0, angle=0.0)
    tilt = cv2.getPerspectiveTransform(np.array([[0, 0], [800, 0], [800, 600], [0, 600]], np.float32),
                                       np.array([[60, 30], [740, 30], [800, 600], [0, 600]], np.float32))
    seen = cv2.perspectiveTransform(card.reshape(1, 4, 2), tilt)[0]
    part = cv2.perspectiveTransform(_part(card, 0.15, 1.0).reshape(1, 4, 2), tilt)[0]
    assert max(quad_iou(o, seen) for o in whole_card_outlines(part)) > 0.95


def test_a_whole_card_starts_at_a_short_side_however_its_part_was_read():
    """A part nearly square is read from either corner (vision/recognize.py); the card it
    would be part of is cut out from its short side either way, not turned on its side."""
    card = _card(angle=10.0)
    part = _part(card, 0.0, 0.75)
    for start in (0, 1):
        for outline in whole_card_outlines(np.roll(part, -start, axis=0)):
            sides = np.linalg.norm(outline - np.roll(outline, -1, axis=0), axis=1)
            assert sides[0] < sides[1]
        assert max(quad_iou(o, card) for o in whole_card_outlines(np.roll(part, -start, axis=0))) > 0.97
