"""Which card detector a frame goes through: one place for `companion recognize`, the live
table, enrollment and the benchmarks to ask, so a comparison runs the very detector the
app runs.

`learned` (vision/learned_detect.py) is the default: on the held-out generated world and
on real photos it finds the cards the contour detector merges, misses or invents (see
models/README.md, "Card detection at real tables"). `contour` (vision/detect.py) stays
for comparison and for a model-less build.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from vision.interfaces import CardDetector, Detection

DetectorKind = Literal["joint", "learned", "contour"]
DETECTOR_KINDS: tuple[DetectorKind, ...] = ("joint", "learned", "contour")


def card_detector(kind: DetectorKind = "joint") -> CardDetector:
    if kind == "contour":
        from vision.detect import ContourCardDetector

        return ContourCardDetector()
    from vision.learned_detect import JointCardDetector, LearnedCardDetector

    return LearnedCardDetector() if kind == "learned" else JointCardDetector()


def closer_detector(detector: CardDetector) -> CardDetector:
    """The detector for a closer look at a crop round one unsure card (vision/recognize.py):
    a joint detector's contour half, whose finds follow a card's own edge at full size;
    the network has judged the frame already, and a crop costs it a frame's time."""
    from vision.learned_detect import JointCardDetector

    return detector.contour if isinstance(detector, JointCardDetector) else detector


def sure_and_doubted(detector: CardDetector, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
    """The cards `detector` is sure of, and the finds it doubts (a joint detector's contour
    finds the network sees no card in): a still photo's reader keeps a doubted find
    only where its deck names it (vision/recognize.py)."""
    from vision.learned_detect import JointCardDetector

    if isinstance(detector, JointCardDetector):
        return detector.sure_and_doubted(image)
    return detector.detect(image), []
