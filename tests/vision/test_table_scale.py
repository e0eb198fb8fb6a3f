"""How large a card lying on the table looks at each place of the frame, under a camera's tilt."""

import cv2
import numpy as np
import pytest

from vision.detect import _polygon_area
from vision.table_scale import TableScale

# a camera above the near edge of the table, tilted: the far side of the frame shows the table smaller
TILT = cv2.getPerspectiveTransform(np.float32([[0, 0], [1280, 0], [1280, 720], [0, 720]]),
                                   np.float32([[330, 40], [950, 40], [1280, 720], [0, 720]]))


def laid(x: float, y: float, angle: float = 0.0) -> np.ndarray:
    """The frame outline of a 63x88 card lying at (x, y) on the table plane (plane pixels), turned."""
    half = np.array([[-63, -88], [63, -88], [63, 88], [-63, 88]], np.float64) / 2 * 1.6
    a = np.radians(angle)
    flat = half @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) + (x, y)
    return cv2.perspectiveTransform(flat[None].astype(np.float32), TILT)[0].astype(np.float64)


def size(outline: np.ndarray) -> float:
    return _polygon_area(outline) ** 0.5


SPOTS = [(200, 150, 10), (640, 120, 80), (1080, 160, 30), (250, 400, 0), (700, 380, 45), (1050, 420, 120),
         (400, 620, 15), (900, 600, 70)]


@pytest.mark.parametrize("x, y", [(640, 650), (150, 560), (1150, 550), (640, 480)])
def test_the_tilt_is_fitted_from_the_cards_lying_on_the_table(x, y):
    """Near the camera a card looks larger than the table's median card, as fitted."""
    outlines = [laid(*spot) for spot in SPOTS]
    truth = laid(x, y, 20)
    assert size(truth) > np.median([size(o) for o in outlines])
    assert TableScale(outlines).size(truth.mean(axis=0)) == pytest.approx(size(truth), rel=0.04)


def test_far_from_the_camera_the_size_is_never_told_smaller_than_the_median():
    """Where the fit says smaller, parts of cards may be what bent it: a held card there
    is told only at 1.2x the median card, and a card laid there is never taken for held."""
    outlines = [laid(*spot) for spot in SPOTS]
    truth = laid(640, 40, 20)
    median = float(np.median([size(o) for o in outlines]))
    assert size(truth) < median
    assert TableScale(outlines).size(truth.mean(axis=0)) == pytest.approx(median)


def test_near_and_far_cards_differ_enough_that_one_size_for_all_would_be_wrong():
    near, far = size(laid(640, 680)), size(laid(640, 60))
    assert near > 1.3 * far


def test_a_card_outlined_short_does_not_bend_the_fit():
    outlines = [laid(*spot) for spot in SPOTS]
    centre = outlines[4].mean(axis=0)
    outlines[4] = centre + 0.75 * (outlines[4] - centre)  # half its area: a card partly covered
    truth = laid(640, 650, 20)
    assert TableScale(outlines).size(truth.mean(axis=0)) == pytest.approx(size(truth), rel=0.04)


def test_with_few_cards_or_cards_in_a_row_the_largest_stands_for_every_place():
    few = [laid(*spot) for spot in SPOTS[:3]]
    row = [laid(200 + 150 * i, 400) for i in range(7)]  # a word of touching cards
    for outlines in (few, row):
        largest = max(size(o) for o in outlines)
        assert TableScale(outlines).size(np.array([640.0, 700.0])) == pytest.approx(largest)


def test_far_from_every_card_the_fit_stays_within_the_sizes_seen():
    outlines = [laid(*spot) for spot in SPOTS]
    sizes = [size(o) for o in outlines]
    for centre in ([-3000.0, 5000.0], [5000.0, -3000.0], [640.0, 3000.0]):
        assert np.median(sizes) - 1e-6 <= TableScale(outlines).size(np.array(centre)) <= max(sizes) * 1.25 + 1e-6


def test_no_cards_no_scale():
    assert not TableScale([])
