"""A card's printed detail as small band-pass images: what tells red-14 from red-15.

The embedding model sees layout and colour well but, trained briefly on synthetic
cards, barely sees which value or syllable is printed (it ranks Gargon values right
about one time in four). A plain template of the cut-out card does see it, once the
card is cut out at its own edges (vision/refine.py): in Lab, band-pass filtered (a
difference of Gaussians keeps strokes and edges, and drops the light's slow changes
across the card), the correlation of two templates says how alike their print is.

Two sizes, for two jobs. `templates` (36x50, unit rows) is compared with every shot
of the deck in one matrix product, to shortlist a few candidates. `details` (72x100)
is compared with those few only, once aligned onto them (vision/alignment.py), since
the edge fit leaves 1-4% of corner error and a digit's stroke is not much wider: at
36x50 an 8 and a 0 correlate at 0.99, at 72x100 aligned they do not.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

TEMPLATE_SIZE = (36, 50)  # width, height
FINE_SIGMA = 0.7          # pixels of the template: keeps strokes
COARSE_SIGMA = 2.25       # pixels of the template: what is slower than this is light, not print
DETAIL_SIZE = (72, 100)
DETAIL_SIGMAS = (0.8, 3.0)


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
