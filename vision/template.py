"""A card's printed detail as one small vector: what tells red-14 from red-15.

The embedding model sees layout and colour well but, trained briefly on synthetic
cards, barely sees which value or syllable is printed (it ranks Gargon values right
about one time in four). A plain template of the cut-out card does see it, once the
card is cut out at its own edges (vision/refine.py): at 36x50 pixels in Lab, band-pass
filtered (a difference of Gaussians keeps strokes and edges, and drops the light's
slow changes across the card), normalised to a unit vector, the dot product of two
templates is their correlation. Measured on generated tables (EVAL_SEED): templates
name Gargon 0.84 and dugtungan 0.82 of cards first where the embedding names 0.27 and
0.36; the embedding stays better on picture cards (Bagani, Lagim) and real photos, so
the identifier uses both (vision/identify.py: SIMILARITY_WEIGHTS).
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

TEMPLATE_SIZE = (36, 50)  # width, height
FINE_SIGMA = 0.7          # pixels of the template: keeps strokes
COARSE_SIGMA = 2.25       # pixels of the template: what is slower than this is light, not print


def templates(cards: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 36*50*3) float32 unit rows, one per upright BGR card."""
    rows = []
    for card in cards:
        lab = cv2.cvtColor(cv2.resize(card, TEMPLATE_SIZE, interpolation=cv2.INTER_AREA),
                           cv2.COLOR_BGR2LAB).astype(np.float32)
        band = cv2.GaussianBlur(lab, (0, 0), FINE_SIGMA) - cv2.GaussianBlur(lab, (0, 0), COARSE_SIGMA)
        row = band.ravel()
        rows.append(row / max(float(np.linalg.norm(row)), 1e-6))
    return np.array(rows, np.float32).reshape(len(rows), TEMPLATE_SIZE[0] * TEMPLATE_SIZE[1] * 3)
