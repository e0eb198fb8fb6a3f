"""The last look before a card is named: is it the winner's print everywhere on the card?

Whole-card correlation says how alike two prints are on the whole, and a forgotten
look-alike (GI where only DI and GA are enrolled, red-0 where only red-8 is) is alike
on the whole: it differs in one letter or one stroke. Aligned onto the winner's shot
(vision/alignment.py), a card of the winning face matches it in every small part of
the card, while a look-alike does not match where the two faces differ. So the
measure is the low end (the grid's percentile) of the correlations of overlapping
cells that hold print: glare or a fingertip over a cell or two is what the
percentile forgives.

Measured on generated tables (EVAL_SEED, cards cut out by the pipeline): aligned, the
measure of true Gargon cards stays above 0.79 and that of forgotten ones below 0.59,
where whole-card closeness of the two overlaps.

Two grids. COARSE (16-pixel cells) is the test every card takes. It sees a value
printed large, but a value printed only small in the corners fills a sliver of a
16-pixel cell: on a deck in that design, forgotten look-alikes of another value
(green-3 for the enrolled green-8) reach 0.98, and the deck's cut rises so high that
true cards a little blurred are refused. FINE (8-pixel cells, each at its best
shift of up to a pixel, the colour of the print weighed twice) is the second
chance of a card COARSE refuses: it sees the corner value (those look-alikes fall
to 0.65) and a value printed in another colour (a white-7 read against a blue-7),
but a little blur or print cut off at the card's edge costs it more, so it only
adds to COARSE and never replaces it (replacing it was measured: real photos lost
ten of 38 names, models/README.md).

A card small in the frame or out of focus has lost its finest print, and a sharp
shot's cells then disagree with it where they agree with each other. So the card
is met by its shot blurred as much as it is (`sharpness`, `blur_level`: one of
BLURS), and the cuts it must pass there are fixed at enrollment from views met at
that level (vision/deck.py), forgotten look-alikes blurred alike among them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.alignment import MARGIN

PRINT_SHARE = 0.1  # a cell holds print when its energy is at least this share of the 90th percentile
BLURS = (0.0, 1.0, 2.0)  # sigmas (pixels of a detail image) a shot is blurred by to meet a card as blurred


@dataclass(frozen=True)
class Grid:
    """How a card is compared with a shot cell by cell."""

    cell: int          # pixels of a 72x100 detail image
    stride: int        # cells overlap by half, so a difference is never split between two cells
    percentile: float  # of the print-holding cells' correlations: the few worst are forgiven
    chroma: float = 1.0  # weight of the colour channels (Lab a, b) against lightness
    shift: int = 0     # pixels each cell may move to meet the shot: an alignment off by a pixel here and there

    @property
    def shifts(self) -> list[tuple[int, int]]:
        """Every shift, (0, 0) first: the cells that hold print are judged there."""
        span = range(-self.shift, self.shift + 1)
        return sorted(((dy, dx) for dy in span for dx in span), key=lambda s: s != (0, 0))

    @cached_property
    def channel_sum(self) -> np.ndarray:
        """Sums a product of two weighted images over channels (cv2.transform): the
        weights enter squared, and no image needs weighing."""
        return np.array([[1.0, self.chroma ** 2, self.chroma ** 2]], np.float32)


COARSE = Grid(cell=16, stride=8, percentile=10)  # about a printed digit's stroke pattern
FINE = Grid(cell=8, stride=4, percentile=3, chroma=2.0, shift=1)  # about a corner index's stroke


@dataclass(frozen=True)
class PrintCells:
    """What comparing cards with one shot cell by cell needs from the shot, worked out
    once per shot rather than once per card."""

    grid: Grid
    inner: np.ndarray   # the shot's detail image inside MARGIN
    sums: np.ndarray    # (rows, columns, 3) each cell's sum, channel by channel
    energy: np.ndarray  # (rows, columns) each cell's sum of squared deviations from its mean, over channels (weighted)

    @classmethod
    def of(cls, shot: np.ndarray, grid: Grid = COARSE) -> "PrintCells":
        inner = _inside_margin(shot)
        rows, columns = _cells(inner.shape, grid)
        sums, squares = (_box(x, grid)[::grid.stride, ::grid.stride][:rows, :columns]
                         for x in (inner, _dot(inner, inner, grid)))
        return cls(grid, inner, sums, squares - _dot(sums, sums, grid) / grid.cell ** 2)


def consistency(aligned: np.ndarray, shot: PrintCells) -> float:
    """The grid's percentile of the correlations between `aligned` (a detail image
    aligned onto the shot) and the shot over cells that hold print in either, each
    cell at its best shift (the cells that hold print judged unshifted): near 1 when
    the print matches everywhere, low when some part of the card is not the shot's.
    Products are summed over channels before cells are: one plane to sum, not three."""
    grid = shot.grid
    m, cell, stride = grid.shift, grid.cell, grid.stride
    card = _inside_margin(aligned, m)  # the inside, and `m` pixels round it for the shifts
    sums, squares = _box(card, grid), _box(_dot(card, card, grid), grid)  # of a cell at every place
    rows, columns = shot.energy.shape
    h, w = shot.inner.shape[:2]
    best = None
    for dy, dx in grid.shifts:
        y, x = m + dy, m + dx
        card_sums = sums[y::stride, x::stride][:rows, :columns]
        products = _box(_dot(card[y: y + h, x: x + w], shot.inner, grid), grid)[::stride, ::stride][:rows, :columns]
        covariance = products - _dot(card_sums, shot.sums, grid) / cell ** 2
        energy = squares[y::stride, x::stride][:rows, :columns] - _dot(card_sums, card_sums, grid) / cell ** 2
        correlation = covariance / np.sqrt(np.maximum(energy * shot.energy, 1e-12))
        if best is None:
            best, held = correlation, np.maximum(energy, shot.energy).ravel()
        else:
            np.maximum(best, correlation, out=best)
    assert best is not None  # every grid has the shift (0, 0), first
    printed = best.ravel()[held > PRINT_SHARE * _order_statistic(held, 90)]
    return _order_statistic(printed, grid.percentile) if len(printed) else 0.0


def blurred(shot: np.ndarray, level: int) -> np.ndarray:
    """A shot's detail image as blurred as BLURS[level] says."""
    sigma = BLURS[level]
    return cv2.GaussianBlur(shot, (0, 0), sigma) if sigma else shot


def sharpness(detail: np.ndarray) -> float:
    """The share of a detail image's lightness (inside MARGIN) that a blur of one pixel
    takes away: what a card small in the frame, or out of focus, has lost."""
    light = np.ascontiguousarray(_inside_margin(detail)[..., 0])
    rest = light - cv2.GaussianBlur(light, (0, 0), 1.0)
    return float((rest * rest).sum()) / max(float((light * light).sum()), 1e-9)


def blur_level(card: float, shot: tuple[float, ...]) -> int:
    """The level of BLURS whose blurred shot's `sharpness` (`shot`, one per level) is
    nearest the card's, by ratio."""
    return int(np.argmin([abs(np.log(max(card, 1e-9) / max(s, 1e-9))) for s in shot]))


def _inside_margin(image: np.ndarray, pad: int = 0) -> np.ndarray:
    """The image inside MARGIN and `pad` pixels beyond."""
    h, w = image.shape[:2]
    return np.ascontiguousarray(image[MARGIN - pad: h - MARGIN + pad, MARGIN - pad: w - MARGIN + pad])


def _cells(shape: tuple[int, ...], grid: Grid) -> tuple[int, int]:
    """Rows and columns of the cells wholly inside an image of `shape`, `grid.stride` apart."""
    return (shape[0] - grid.cell) // grid.stride + 1, (shape[1] - grid.cell) // grid.stride + 1


def _dot(a: np.ndarray, b: np.ndarray, grid: Grid) -> np.ndarray:
    """(h, w) the product of two (h, w, 3) arrays summed over channels as `grid` weighs them."""
    return cv2.transform(cv2.multiply(a, b), grid.channel_sum)


def _box(image: np.ndarray, grid: Grid) -> np.ndarray:
    """Sums over the grid's cell with its top-left at every pixel (past the image's
    end, what of the cell lies inside)."""
    return cv2.boxFilter(image, -1, (grid.cell, grid.cell), normalize=False, anchor=(0, 0),
                         borderType=cv2.BORDER_CONSTANT)


def _order_statistic(values: np.ndarray, percent: float) -> float:
    """The value `percent` of the way up the sorted values (np.percentile's 'lower'
    method, without its overhead on a few dozen values)."""
    k = int(percent / 100 * (len(values) - 1))
    return float(np.partition(values, k)[k])
