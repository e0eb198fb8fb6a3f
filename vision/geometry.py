"""Quadrilateral arithmetic shared by detection, edge fitting, recognition and tracking.

A card is four corners in order around it. Detection, the edge fit, recognition, the
tracker and the recording layout all ask for its side lengths or its short-over-long
aspect; one definition keeps "which side is side i" the same everywhere."""

from __future__ import annotations

import numpy as np

NEXT = [1, 2, 3, 0]  # the corner after each corner, going round
CARD_ASPECT = 63 / 88  # short side over long side of a standard card


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """Length of side i, from corner i to corner i + 1 (wrapping), of a 4x2 quadrilateral."""
    d = quad[NEXT] - quad
    return np.sqrt((d * d).sum(axis=1))


def aspect(quad: np.ndarray) -> float:
    """Short over long, from the two pairs of opposite sides (1 for a square)."""
    sides = side_lengths(quad)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return float(min(a, b) / max(a, b))
