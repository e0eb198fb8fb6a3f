"""The last look before a card is named: is it the winner's print everywhere on the card?

Whole-card correlation says how alike two prints are on the whole, and a forgotten
look-alike (GI where only DI and GA are enrolled, red-0 where only red-8 is) is alike
on the whole: it differs in one letter or one stroke. Aligned onto the winner's shot
(vision/alignment.py), a card of the winning face matches it in every small part of
the card, while a look-alike does not match where the two faces differ. So the
measure is the low end (PERCENTILE) of the correlations of overlapping cells that
hold print: glare or a fingertip over a cell or two is what the percentile forgives.

Measured on generated tables (EVAL_SEED, cards cut out by the pipeline): aligned, the
measure of true Gargon cards stays above 0.79 and that of forgotten ones below 0.59,
where whole-card closeness of the two overlaps.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.alignment import MARGIN

CELL = 16          # pixels of a 72x100 detail image: about a printed digit's stroke pattern
STRIDE = 8         # cells overlap by half, so a difference is never split between two cells
PERCENTILE = 10    # of the print-holding cells' correlations: the few worst are forgiven
PRINT_SHARE = 0.1  # a cell holds print when its energy is at least this share of the 90th percentile


@dataclass(frozen=True)
class PrintCells:
    """What comparing cards with one shot cell by cell needs from the shot, worked out
    once per shot rather than once per card."""

    inner: np.ndarray   # the shot's detail image inside MARGIN
    sums: np.ndarray    # (rows, columns, 3) each cell's sum, channel by channel
    energy: np.ndarray  # (rows, columns) each cell's sum of squared deviations from its mean, over channels

    @classmethod
    def of(cls, shot: np.ndarray) -> "PrintCells":
        inner = _inside_margin(shot)
        return cls(inner, *_sums_and_energy(inner))


def consistency(aligned: np.ndarray, shot: PrintCells) -> float:
    """The PERCENTILE-th lowest correlation between `aligned` (a detail image aligned
    onto the shot) and the shot over cells that hold print in either: near 1 when the
    print matches everywhere, low when some part of the card is not the shot's."""
    a = _inside_margin(aligned)
    sa, energy_a = _sums_and_energy(a)
    covariance = (_cell_sums(a * shot.inner) - sa * shot.sums / CELL ** 2).sum(axis=2)
    correlation = (covariance / np.sqrt(np.maximum(energy_a * shot.energy, 1e-12))).ravel()
    energy = np.maximum(energy_a, shot.energy).ravel()
    printed = correlation[energy > PRINT_SHARE * _order_statistic(energy, 90)]
    return _order_statistic(printed, PERCENTILE) if len(printed) else 0.0


def _inside_margin(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.ascontiguousarray(image[MARGIN: h - MARGIN, MARGIN: w - MARGIN])


def _sums_and_energy(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's sums channel by channel, and its sum of squared deviations from its
    mean over all channels (`PrintCells.sums`, `PrintCells.energy`)."""
    sums = _cell_sums(image)
    return sums, (_cell_sums(image * image) - sums * sums / CELL ** 2).sum(axis=2)


def _cell_sums(image: np.ndarray) -> np.ndarray:
    """Each channel's sum over every CELL x CELL cell wholly inside `image`, STRIDE apart."""
    rows, columns = image.shape[0] - CELL + 1, image.shape[1] - CELL + 1
    sums = cv2.boxFilter(image, -1, (CELL, CELL), normalize=False, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
    return sums[:rows:STRIDE, :columns:STRIDE]


def _order_statistic(values: np.ndarray, percent: float) -> float:
    """The value `percent` of the way up the sorted values (np.percentile's 'lower'
    method, without its overhead on a few dozen values)."""
    k = int(percent / 100 * (len(values) - 1))
    return float(np.partition(values, k)[k])
