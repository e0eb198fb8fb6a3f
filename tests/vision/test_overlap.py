"""The top cards of fans and piles, found from straight edges (vision/overlap.py)."""

from __future__ import annotations

import cv2
import numpy as np

from scripts.lib.evaluate import quad_iou
from vision.detect import ContourCardDetector
from vision.overlap import OverlapFinder, OverlapSettings, _on_quads, _seam, blobs_and_their_print, on_top

TABLE = (60, 110, 70)


def _card(image: np.ndarray, quad: np.ndarray, face: tuple[int, int, int], rim: tuple[int, int, int] = (25, 25, 25)) -> None:
    """A card of one colour with a rim and a pale print panel, drawn over what is there."""
    cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), rim, cv2.LINE_AA)
    centre = quad.mean(axis=0)
    for share, colour in ((0.92, face), (0.45, (225, 225, 225))):
        cv2.fillConvexPoly(image, np.round(centre + share * (quad - centre)).astype(np.int32), colour, cv2.LINE_AA)


def _box(cx: float, cy: float, angle: float, height: float = 180) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (height * 63 / 88, height), angle)).astype(np.float32)


def _table() -> np.ndarray:
    rng = np.random.default_rng(5)
    return np.clip(rng.normal(0, 3, (540, 960, 3)) + TABLE, 0, 255).astype(np.uint8)


def _pile() -> tuple[np.ndarray, np.ndarray]:
    """Three cards, each turned on the one below: a blob no card-shaped test accepts,
    and the top card whole; the picture and the top card's outline."""
    image = _table()
    for cx, cy, angle, face in ((430, 270, 0, (40, 60, 200)), (470, 250, 35, (200, 120, 40)), (520, 280, 70, (60, 170, 200))):
        top = _box(cx, cy, angle)
        _card(image, top, face)
    return image, top


def test_the_top_card_of_a_pile_is_found_and_not_the_blob_round_it():
    image, top = _pile()
    found = [d.corners for d in ContourCardDetector().detect(image)]
    assert any(quad_iou(q, top) > 0.85 for q in found)
    area = cv2.contourArea(top)
    assert not [q for q in found if cv2.contourArea(q) > 1.3 * area], "a blob round several cards was reported"


def test_the_finder_looks_only_inside_the_blobs_it_is_given():
    image, top = _pile()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 20, 60), np.ones((3, 3), np.uint8))
    finder = OverlapFinder(OverlapSettings())
    blob = cv2.findContours((cv2.absdiff(image, np.uint8(TABLE)).max(axis=2) > 30).astype(np.uint8),
                            cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    inside = finder.find(gray, edges, list(blob), 1500.0, 0.9 * gray.size)
    assert any(quad_iou(q, top) > 0.85 for q, _ in inside)
    assert finder.find(gray, edges, [], 1500.0, 0.9 * gray.size) == []


def test_two_cards_side_by_side_have_a_seam_and_one_card_has_none():
    image = _table()
    left, right = _box(400, 270, 0), _box(400 + 180 * 63 / 88, 270, 0)
    _card(image, left, (40, 60, 200), rim=(40, 60, 200))  # touching, the seam where one colour meets another
    _card(image, right, (160, 200, 230), rim=(160, 200, 230))
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 20, 60), np.ones((3, 3), np.uint8))
    both = np.float32(cv2.boxPoints(cv2.minAreaRect(np.concatenate([left, right]))))
    seams = _seam(np.stack([both, left]), edges, 24)
    assert seams[0] > 0.9 and seams[1] < 0.5


def test_points_of_the_unit_square_land_where_the_perspective_puts_them():
    quad = np.float32([[100, 100], [300, 120], [280, 300], [90, 280]])
    uv = np.float32([[0.5, 0], [0.3, 0.7], [1, 1], [0.5, 0.5]])
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad)
    expected = cv2.perspectiveTransform(uv[None], matrix)[0]
    assert np.allclose(_on_quads(quad[None], uv)[0], expected, atol=1e-3)


def test_of_two_cards_overlapping_the_one_whose_edge_runs_on_is_on_top():
    image = _table()
    below, above = _box(430, 270, 0), _box(500, 280, 20)
    _card(image, below, (40, 60, 200))
    _card(image, above, (200, 120, 40))
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 20, 60), np.ones((3, 3), np.uint8))
    assert on_top(np.stack([below, above]), edges).tolist() == [False, True]
    apart = np.stack([_box(200, 270, 0), _box(700, 270, 0)])
    assert on_top(apart, edges).tolist() == [True, True]


def test_a_loose_box_round_a_found_card_goes_and_a_card_keeps_its_print():
    image, top = _pile()
    edges = cv2.dilate(cv2.Canny(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 20, 60), np.ones((3, 3), np.uint8))
    box = np.float32(cv2.boxPoints(cv2.minAreaRect(np.concatenate([top, _box(430, 270, 0)]))))  # cuts across the table
    centre = top.mean(axis=0)
    panel = centre + 0.45 * (top - centre)  # the top card's pale print panel
    quads = np.stack([box, top, panel]).astype(np.float32)
    drop = blobs_and_their_print(quads, np.array([False, True, True]), edges, OverlapSettings())
    assert drop.tolist() == [True, False, True]
