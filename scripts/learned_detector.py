"""Experiments with the learned detector (vision/learned_detect.py), not shipped: the
learned cards added to the contour detector's (`ContourPlusLearned`), and the learned
cards with outlines taken from the contour search (`LearnedSnappedToContours`).
scripts/experiments/learned_eval.py measures them.
"""

from __future__ import annotations

import numpy as np

from vision.detect import ContourCardDetector, _overlap, _polygon_area, order_clockwise
from vision.interfaces import Detection
from vision.learned_detect import LearnedCardDetector, unclaimed

class ContourPlusLearned:
    """The contour detector's cards, plus each learned card whose centre no contour
    holds and which overlaps none by over a third: what the network adds where
    contours fail (the top card of a fan), measured against each alone."""

    def __init__(self, learned: LearnedCardDetector, contour: ContourCardDetector | None = None) -> None:
        self.learned = learned
        self.contour = contour or ContourCardDetector()

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return self.contour.working_scale(shape)

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.contour.detect(image)
        return found + unclaimed(self.learned.detect(image), found)


class LearnedSnappedToContours:
    """The learned detector's cards, each outline replaced by the contour search's
    candidate quadrilateral that matches it best (IoU at least `min_iou`), where there
    is one: the network decides which cards there are (a checked cloth's squares are
    not cards to it; a fan's top card is), the contours give the card's exact edge,
    which the network's quarter-resolution maps only approximate."""

    def __init__(self, learned: LearnedCardDetector, contour: ContourCardDetector | None = None,
                 min_iou: float = 0.7) -> None:
        from vision.detect import ContourDetectorSettings

        self.learned = learned
        self.contour = contour or ContourCardDetector(ContourDetectorSettings(overlaps=False), verifier=None)
        self.min_iou = min_iou

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return self.contour.working_scale(shape)

    def detect(self, image: np.ndarray) -> list[Detection]:
        found = self.learned.detect(image)
        if not found:
            return []
        _, scale, quads, _, _ = self.contour.candidates(image)
        quads = quads / scale
        out = []
        for d in found:
            area = _polygon_area(d.corners)
            best, best_iou = None, self.min_iou
            for q in quads:
                shared = _overlap(d.corners, q)
                iou = shared / max(area + _polygon_area(q) - shared, 1.0)
                if iou >= best_iou:
                    best, best_iou = q, iou
            out.append(d if best is None else Detection(corners=order_clockwise(best), score=d.score))
        return out
