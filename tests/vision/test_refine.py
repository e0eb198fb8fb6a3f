"""Fitting a rough card quadrilateral to the card's own edges (vision/refine.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.refine import refine_quad, refine_quads

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


def test_a_find_a_few_pixels_across_is_left_as_it_is_and_the_cards_beside_it_are_fitted():
    """A speck the detector or a whole-card guess outlines in a small frame (640x360) has
    no room for a search: it crashed the batch, and with it the whole frame's read."""
    speck = np.float32([[100, 100], [102, 100], [102, 103], [100, 103]])
    shifted = CARD + np.float32([4, -3])
    (alone,) = refine_quads(_table(), [speck])
    fitted_speck, fitted_card = refine_quads(_table(), [speck, shifted])
    assert np.allclose(alone, speck) and np.allclose(fitted_speck, speck) and _error(fitted_card) < 0.006


def test_no_edge_at_all_leaves_the_quad_as_it_was():
    flat = np.full((720, 960, 3), 128, np.uint8)
    assert np.allclose(refine_quad(flat, CARD), CARD)


def test_a_side_lined_with_cloth_motifs_half_its_length_still_finds_the_cards_edge():
    """A dense polka-dot cloth: motifs under the card's bottom edge line 40% of it just
    outside, one of them the colour of the card's rim, and the box is grown round them.
    Outside the edge it is table along only 60% of the side; inside, card along all of it."""
    image = np.full((720, 960, 3), (150, 130, 70), np.uint8)  # blue cloth
    bottom, down = CARD[3] - CARD[2], np.float32([0.08, 1.0])  # the side from corner 2 to 3, and outward
    for t, colour in ((0.3, (44, 81, 121)), (0.62, (0, 190, 90))):
        centre = CARD[2] + t * bottom + 12 * down
        cv2.circle(image, tuple(int(v) for v in centre), 16, colour, -1)
    cv2.fillConvexPoly(image, CARD.astype(np.int32), (44, 81, 121))  # the card on top: a brown rim
    inner = CARD.mean(axis=0) + 0.93 * (CARD - CARD.mean(axis=0))
    cv2.fillConvexPoly(image, inner.astype(np.int32), (160, 200, 220))  # beige face
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    grown = CARD.copy()
    grown[2:] += 30 * down  # the bottom side pushed out past the motifs
    refined = refine_quad(image, grown)
    assert _error(grown) > 0.05 and _error(refined) < 0.01, _error(refined)



def _grid(gap: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Black-bordered cards (a grey frame, a pale text box low down) in a tight 3 x 3
    grid on a white table, at about a webcam's size (157 x 220 px): a neighbour's
    black border lies `gap` pixels past each side, within the edge fit's outer reach."""
    image = np.full((3 * 220 + 2 * gap + 80, 3 * 157 + 2 * gap + 80, 3), 232, np.uint8)
    cards = []
    for row in range(3):
        for column in range(3):
            x, y = 40 + column * (157 + gap), 40 + row * (220 + gap)
            card = np.float32([[x, y], [x + 157, y], [x + 157, y + 220], [x, y + 220]])
            cv2.rectangle(image, (x, y), (x + 157, y + 220), (25, 25, 25), -1)
            cv2.rectangle(image, (x + 8, y + 8), (x + 149, y + 212), (150, 150, 150), -1)
            cv2.rectangle(image, (x + 16, y + 150), (x + 141, y + 196), (215, 220, 200), -1)
            cards.append(card)
    return cv2.GaussianBlur(image, (0, 0), 1.0), cards


def test_cards_in_a_tight_grid_are_fitted_to_their_own_edges_not_to_a_frame_inside():
    """The far ends of the search lines past two sides of each card lie on its
    neighbours' black borders: taken for the table, they make the card's own black
    border look like table and its inner frame like the card's edge."""
    image, cards = _grid(gap=6)
    rough = [card + np.float32([2, -2]) for card in cards]
    refined = refine_quads(image, rough)
    errors = [float(np.linalg.norm(r - c, axis=1).max()) for r, c in zip(refined, cards)]
    assert max(errors) < 2.0, errors


def test_outlines_of_one_card_are_fitted_apart_as_each_would_be_alone():
    """Other outlines of the same card lie on it: fitted together, a card's outline takes
    the ends of its search lines on them for another card's, and the table's colour from
    what is left (vision/recognize.py: `_fitted_apart`)."""
    from vision.recognize import _fitted_apart

    image = _table()
    centre = CARD.mean(axis=0)
    grown, shrunk = centre + 1.08 * (CARD - centre), centre + 0.8 * (CARD - centre)
    other = CARD + np.float32([400, 150])
    tries = [(0, grown), (0, shrunk), (1, other), (0, CARD + np.float32([3, 3]))]
    fitted = _fitted_apart(image, tries)
    assert [i for i, _ in fitted] == [0, 0, 1, 0]
    alone = [refine_quads(image, [quad])[0] for _, quad in tries]
    for (_, quad), single in zip(fitted, alone):
        assert np.allclose(quad, single, atol=1e-3)
