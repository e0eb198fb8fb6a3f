"""How large a card lying on the table looks at each place of the frame.

A card held in a hand above the table is nearer the camera than the cards lying on it,
so it looks larger: 1.3x at a hand 15 cm under a camera 65 cm above the table. The
tracker asks this how large a card of the table would look where a newcomer lies.

Cards of one deck are one size on the table plane; the camera's tilt alone makes them
look larger near it. For a plane seen through a pinhole camera the area a small patch
covers in the image, to the power 1/3, is an affine function of where it lies in the
image (the image-to-plane homography's Jacobian determinant is c / w^3, w affine in the
pixel's coordinates), so that cube root is fitted as a + b x + c y over the cards lying
on the table: one robust refit drops cards partly covered or outlined short. With fewer
than six cards, or cards in a line, the tilt is not fitted (four cards, one outlined short,
made a card at the frame's corner look 1.3x the size it would have there): the largest of
them stands for every place. A fit is trusted to say where cards look larger, never
smaller than the cards' median (outlines of parts of cards pull it down where they lie,
and a card held above the table that goes untold is a move nobody made, where a card
laid that is taken for held waits), nor more than 1.25x the largest seen (far from
every card it is a guess).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from vision.detect import _polygon_area

FITTED = 6          # cards needed to fit the tilt
OUTLIER = 0.08      # a card this far off the first fit (share of it) is left out of the second
GUESS = 1.25       # the most a fitted size may lie beyond the largest seen
SPREAD = 0.08       # least spread of the cards across their narrowest direction (RMS, thousands of pixels)


class TableScale:
    """Fitted to the outlines of cards lying on the table; `size` says how large another
    would look (the square root of its area, pixels) at a place of the frame."""

    def __init__(self, outlines: Sequence[np.ndarray]) -> None:
        quads = [np.asarray(o, np.float64).reshape(4, 2) for o in outlines]
        self._centres = np.array([q.mean(axis=0) for q in quads]).reshape(-1, 2)
        self._roots = np.array([max(_polygon_area(q), 1.0) ** (1 / 3) for q in quads])
        self._plane = self._fit() if len(self._roots) >= FITTED else None
        sizes = self._roots ** 1.5
        self._median = float(np.median(sizes)) if len(sizes) else 0.0
        self._largest = float(sizes.max()) if len(sizes) else 0.0

    def __bool__(self) -> bool:
        return len(self._roots) > 0

    def _fit(self) -> np.ndarray | None:
        """a, b, c of the cube root of area as a + b x + c y (x, y in thousands of pixels),
        or None where the cards lie too nearly in a line to tell a tilt."""
        design = np.column_stack([np.ones(len(self._roots)), self._centres / 1000.0])
        spread = np.linalg.svd(design[:, 1:] - design[:, 1:].mean(axis=0), compute_uv=False)[-1] / np.sqrt(len(design))
        if spread < SPREAD:
            return None
        plane = np.linalg.lstsq(design, self._roots, rcond=None)[0]
        kept = np.abs(self._roots - design @ plane) <= OUTLIER * design @ plane
        if kept.sum() >= FITTED:
            plane = np.linalg.lstsq(design[kept], self._roots[kept], rcond=None)[0]
        return plane

    def size(self, centre: np.ndarray) -> float:
        """The square root of the area of a card lying on the table at `centre`."""
        if self._plane is None:
            return self._largest
        a, b, c = (float(v) for v in self._plane)
        size = max(a + (b * float(centre[0]) + c * float(centre[1])) / 1000.0, 1.0) ** 1.5
        return min(max(size, self._median), self._largest * GUESS)
