"""Fitting a rough card quadrilateral to the card's own edges (vision/refine.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.refine import refine_quad

CARD = np.float32([[300, 200], [480, 220], [455, 470], [275, 450]])  # clockwise, slightly turned


def _table(dots: bool = False) -> np.ndarray:
    image = np.full((720, 960, 3), (60, 110, 150), np.uint8)  # wood-ish
    if dots:
        for x in range(0, 960, 60):
            for y in range(0, 720, 60):
                cv2.circle(image, (x + 20, y + 20), 14, (200, 40, 160), -1)
    cv2.fillConvexPoly(image, CARD.astype(np.int32), (235, 235, 235))
    inner = CARD.mean(axis=0) + 0.75 * (CARD - CARD.mean(axis=0))
    cv2.fillConvexPoly(image, inner.astype(np.int32), (40, 40, 200))  # a red panel inside a white margin
    return cv2.GaussianBlur(image, (0, 0), 1.0)


def _error(quad: np.ndarray) -> float:
    """Mean corner distance, as a share of the card's long side."""
    return float(np.linalg.norm(quad - CARD, axis=1).mean() / np.linalg.norm(CARD[0] - CARD[3]))


def test_a_box_grown_by_what_touches_the_card_shrinks_back_to_its_edges():
    grown = CARD + 0.12 * (CARD - CARD.mean(axis=0))  # 12 % too big all round, like a dot merged in
    refined = refine_quad(_table(dots=True), grown)
    assert _error(grown) > 0.05 and _error(refined) < 0.01


def test_a_box_a_few_pixels_off_moves_onto_the_edges_not_onto_the_inner_panel():
    shifted = CARD + np.float32([4, -3])
    assert _error(refine_quad(_table(), shifted)) < 0.006


def test_the_corners_keep_their_order():
    rolled = np.roll(CARD + 3, 1, axis=0)
    assert np.linalg.norm(refine_quad(_table(), rolled) - np.roll(CARD, 1, axis=0), axis=1).max() < 2.5


def test_no_edge_at_all_leaves_the_quad_as_it_was():
    flat = np.full((720, 960, 3), 128, np.uint8)
    assert np.allclose(refine_quad(flat, CARD), CARD)
