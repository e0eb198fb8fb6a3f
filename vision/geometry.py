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


def corners_of_sides(points: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """(n, 4, 2) corner i of each quad where the line of its side i - 1 meets that of its
    side i (lines: (n, 4, 2) points and directions); NaN where they run parallel."""
    p, d = points[:, [3, 0, 1, 2]], directions[:, [3, 0, 1, 2]]
    r = points - p
    e = directions
    det = e[..., 0] * d[..., 1] - d[..., 0] * e[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(np.abs(det) < 1e-6, np.nan, (e[..., 0] * r[..., 1] - r[..., 0] * e[..., 1]) / det)
    return p + t[..., None] * d


def moved_out(quad: np.ndarray, distance: float) -> np.ndarray:
    """A convex 4x2 `quad` with each side moved `distance` outward along its normal (the
    corners where the moved sides meet, in the same order); `quad` itself where two
    sides run parallel (a degenerate quad)."""
    quad = np.asarray(quad, np.float64)
    d = quad[NEXT] - quad
    d /= np.maximum(np.sqrt((d * d).sum(axis=1, keepdims=True)), 1e-9)
    normal = np.stack([d[:, 1], -d[:, 0]], axis=1)
    middles = (quad + quad[NEXT]) / 2
    normal[((middles - quad.mean(axis=0)) * normal).sum(axis=1) < 0] *= -1  # outward, whichever way round
    corners = corners_of_sides((quad + distance * normal)[None], d[None])[0]
    return (quad if np.isnan(corners).any() else corners).astype(np.float32)
