"""The cell-by-cell check of a card against the winner's print (vision/verify.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.chroma import colour_cells
from vision.identify import Gallery, Ranking, halved, margin
from vision.interfaces import CARD_SIZE
from vision.template import details
from vision.verify import BLURS, COARSE, FINE, Grid, PrintCells, blur_level, blurred, consistency, sharpness

BLACK, BLUE = (20, 20, 20), (170, 60, 20)


def _card(corner: str, ink: tuple[int, int, int] = BLACK) -> np.ndarray:
    """A pale card with a large centre motif and its value printed small in two corners,
    as a design that prints the value only there (the `pips` face family) does."""
    w, h = CARD_SIZE
    card = np.full((h, w, 3), 235, np.uint8)
    cv2.rectangle(card, (6, 6), (w - 7, h - 7), (40, 40, 160), 3)
    cv2.circle(card, (w // 2, h // 2), 50, (40, 40, 160), 6)
    cv2.line(card, (w // 2 - 35, h // 2 + 35), (w // 2 + 35, h // 2 - 35), (40, 120, 40), 5)
    for x, y, turned in ((36, 46, False), (w - 36, h - 46, True)):
        mark = np.full((36, 30, 3), 235, np.uint8)
        cv2.putText(mark, corner, (3, 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 2, cv2.LINE_AA)
        mark = mark[::-1, ::-1] if turned else mark
        card[y - 18: y + 18, x - 15: x + 15] = mark
    return card


def _detail(card: np.ndarray) -> np.ndarray:
    return details(halved([card]))[0]


def _blurred(card: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(card, (0, 0), 1.2)


def test_fine_cells_tell_a_corner_value_the_coarse_cells_pass():
    shot = _detail(_card("8"))
    true, lookalike = _detail(_blurred(_card("8"))), _detail(_blurred(_card("3")))
    coarse, fine = PrintCells.of(shot, COARSE), PrintCells.of(shot, FINE)
    # the coarse cells barely tell the look-alike from a true card a little blurred ...
    assert consistency(true, coarse) - consistency(lookalike, coarse) < 0.02
    # ... the fine ones tell them apart
    assert consistency(true, fine) - consistency(lookalike, fine) > 0.15
    assert consistency(true, fine) > 0.95


def test_fine_cells_weigh_the_colour_of_the_print():
    shot = _detail(_card("8", BLUE))
    true, black = _detail(_blurred(_card("8", BLUE))), _detail(_blurred(_card("8", BLACK)))
    fine = PrintCells.of(shot, FINE)
    unweighted = PrintCells.of(shot, Grid(cell=8, stride=4, percentile=3, shift=1))
    assert consistency(true, fine) > 0.85
    assert consistency(black, fine) < consistency(black, unweighted) - 0.05


def test_fine_cells_forgive_an_alignment_a_pixel_off():
    shot = _detail(_card("8"))
    moved = np.roll(_detail(_blurred(_card("8"))), 1, axis=1)
    fixed = PrintCells.of(shot, Grid(cell=8, stride=4, percentile=3, chroma=2.0))
    assert consistency(moved, PrintCells.of(shot, FINE)) > consistency(moved, fixed) + 0.1


def test_a_card_is_perfectly_consistent_with_its_own_shot():
    shot = _detail(_card("8"))
    for grid in (COARSE, FINE):
        assert consistency(shot, PrintCells.of(shot, grid)) > 0.999


def _gallery(min_fine: float) -> Gallery:
    """Two shots that differ only in the corner value; the coarse cells refuse every card."""
    shots = halved([_card("8"), _card("3")])
    unit = np.eye(2, 4, dtype=np.float32)
    return Gallery(("x-8", "x-3"), unit, unit, unit, unit, details(shots), colour_cells(shots), threshold=0.0,
                   min_consistency=1.01, min_colours=np.zeros(2, np.float32), min_fine=min_fine)


def _ranking(card: np.ndarray) -> Ranking:
    """`card` read as the first shot, x-8, over every other test's threshold."""
    return Ranking((0, 1), (0.9, 0.5), (0.9, 0.5), consistency=0.97, colour=1.0, warp=np.eye(3),
                   aligned=_detail(_blurred(card)))


def test_a_card_the_coarse_cells_refuse_is_named_only_when_the_fine_cells_pass_it():
    gallery = _gallery(min_fine=0.9)
    assert margin(_ranking(_card("8")), gallery) >= 0
    assert margin(_ranking(_card("3")), gallery) < 0  # the forgotten look-alike
    assert margin(_ranking(_card("8")), _gallery(min_fine=float("inf"))) < 0  # a deck with no fine cut


def test_a_blurred_card_meets_its_shot_blurred_as_much():
    """A card shrunk in the frame or out of focus has lost its finest print: its
    sharpness says how much, and it is checked against its shot blurred to match."""
    shot = _detail(_card("8"))
    levels = tuple(sharpness(blurred(shot, level)) for level in range(len(BLURS)))
    assert list(levels) == sorted(levels, reverse=True)
    assert blur_level(sharpness(shot), levels) == 0
    assert blur_level(sharpness(_detail(cv2.GaussianBlur(_card("8"), (0, 0), 5.0))), levels) == len(BLURS) - 1
