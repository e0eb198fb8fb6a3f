"""The cell-by-cell check of a card against the winner's print (vision/verify.py)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.interfaces import CARD_SIZE
from vision.template import details
from vision.verify import COARSE, FINE, Grid, PrintCells, consistency

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
    return details([cv2.resize(card, (CARD_SIZE[0] // 2, CARD_SIZE[1] // 2), interpolation=cv2.INTER_AREA)])[0]


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
