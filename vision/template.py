"""A card's printed detail as small band-pass images: what tells red-14 from red-15.

The embedding model sees layout and colour well but, trained briefly on synthetic
cards, barely sees which value or syllable is printed (it ranks Gargon values right
about one time in four). A plain template of the cut-out card does see it, once the
card is cut out at its own edges (vision/refine.py): in Lab, band-pass filtered (a
difference of Gaussians keeps strokes and edges, and drops the light's slow changes
across the card), the correlation of two templates says how alike their print is.

Two sizes, for two jobs. `templates` (36x50, unit rows) is compared with every shot
of the deck in one matrix product, to shortlist a few candidates. `details` (72x100)
is compared with those few only (`closeness`), at the best of a few pixels' shift,
since the edge fit leaves 1-2% of corner error and a digit's stroke is not much wider:
at 36x50 an 8 and a 0 correlate at 0.99, at 72x100 aligned they do not. Measured on
generated tables (EVAL_SEED): the close look lifts the right card ranked first from
0.85 to 0.98 in Gargon and from 0.80 to 0.93 in dugtungan.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

TEMPLATE_SIZE = (36, 50)  # width, height
FINE_SIGMA = 0.7          # pixels of the template: keeps strokes
COARSE_SIGMA = 2.25       # pixels of the template: what is slower than this is light, not print
DETAIL_SIZE = (72, 100)
DETAIL_SIGMAS = (0.8, 3.0)
DETAIL_SHIFT = 4          # pixels of a detail image (5% of the card's width) searched either way


def _band_pass(card: np.ndarray, size: tuple[int, int], fine: float, coarse: float) -> np.ndarray:
    lab = cv2.cvtColor(cv2.resize(card, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.GaussianBlur(lab, (0, 0), fine) - cv2.GaussianBlur(lab, (0, 0), coarse)


def templates(cards: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 36*50*3) float32 unit rows, one per upright BGR card."""
    rows = [_band_pass(card, TEMPLATE_SIZE, FINE_SIGMA, COARSE_SIGMA).ravel() for card in cards]
    rows = [row / max(float(np.linalg.norm(row)), 1e-6) for row in rows]
    return np.array(rows, np.float32).reshape(len(rows), TEMPLATE_SIZE[0] * TEMPLATE_SIZE[1] * 3)


def details(cards: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 100, 72, 3) float32 band-pass Lab images, one per upright BGR card."""
    out = np.empty((len(cards), DETAIL_SIZE[1], DETAIL_SIZE[0], 3), np.float32)
    for i, card in enumerate(cards):
        out[i] = _band_pass(card, DETAIL_SIZE, *DETAIL_SIGMAS)
    return out


def inner_templates(shots: np.ndarray) -> np.ndarray:
    """(k, 3 * 92 * 64) float32 unit rows from k detail images: each one's inner part
    (DETAIL_SHIFT pixels in from every side), channel by channel less its mean, laid
    out as `closeness` compares it. A deck's shots are turned into these once."""
    m = DETAIL_SHIFT
    inner = shots[:, m:-m, m:-m].transpose(0, 3, 1, 2).reshape(len(shots), 3, -1)
    rows = (inner - inner.mean(axis=2, keepdims=True)).reshape(len(shots), -1)
    return np.ascontiguousarray(rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6), np.float32)


def closeness(query: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """For each row of `inner` (`inner_templates`), its correlation with the detail image
    `query` at the best shift of up to DETAIL_SHIFT pixels: 1 for the same print, lower
    the more the print differs.

    This is OpenCV's TM_CCOEFF_NORMED, done for all the rows at once: every shifted
    window of the query is one row of a matrix, so one matrix product correlates them
    all (one call of matchTemplate per pair cost twice as much in call overhead).
    """
    m = DETAIL_SHIFT
    h, w = query.shape[:2]
    ih, iw = h - 2 * m, w - 2 * m
    planes = np.ascontiguousarray(query.transpose(2, 0, 1))
    windows = sliding_window_view(planes, (ih, iw), axis=(1, 2)).transpose(1, 2, 0, 3, 4).reshape((2 * m + 1) ** 2, -1)
    sums, squares = cv2.integral2(query, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)

    def window_total(table: np.ndarray) -> np.ndarray:
        return table[ih:, iw:] - table[:-ih, iw:] - table[ih:, :-iw] + table[:-ih, :-iw]

    # each window's spread, channel by channel about its own mean, as the template's is
    energy = (window_total(squares) - window_total(sums) ** 2 / (ih * iw)).sum(axis=2).ravel()
    return ((windows @ inner.T) / np.sqrt(np.maximum(energy, 1e-12))[:, None]).max(axis=0)
