"""Which card detector a frame goes through: one place for `companion recognize`, the live
table, enrollment and the benchmarks to ask, so a comparison runs the very detector the
app runs.

`joint` (vision/learned_detect.py) is the default: on the held-out generated world and
on real photos it finds the cards the contour detector merges, misses or invents (see
models/README.md, "Card detection at real tables"). The live table runs it too, as
`live_detector()` (vision/live_detect.py): its network looks again only when the table
has changed and settled, and its last view judges the contour finds of the frames in
between. `contour` (vision/detect.py) stays for comparison and for a model-less build.
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


def live_detector() -> CardDetector:
    """The joint detector for a stream of frames of one table (the live table, the demo):
    one per camera loop, as it keeps the network's last view of that table."""
    from vision.live_detect import LiveJointDetector

    return LiveJointDetector()


def closer_detector(detector: CardDetector) -> CardDetector:
    """The detector for a closer look at a crop round one unsure card (vision/recognize.py):
    a joint detector's contour half, whose finds follow a card's own edge at full size;
    the network has judged the frame already, and a crop costs it a frame's time."""
    from vision.learned_detect import JointCardDetector
    from vision.live_detect import LiveJointDetector

    if isinstance(detector, LiveJointDetector):
        return detector.joint.contour
    return detector.contour if isinstance(detector, JointCardDetector) else detector


def sure_and_doubted(detector: CardDetector, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
    """The cards `detector` is sure of, and the finds it doubts (a joint detector's contour
    finds the network sees no card in): a still photo's reader keeps a doubted find
    only where its deck names it (vision/recognize.py), the live table's tracker only
    a track whose reader names it (vision/track.py)."""
    from vision.learned_detect import JointCardDetector
    from vision.live_detect import LiveJointDetector

    if isinstance(detector, (JointCardDetector, LiveJointDetector)):
        return detector.sure_and_doubted(image)
    return detector.detect(image), []
