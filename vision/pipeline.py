"""The vision loop: a camera frame in, the table's changes (observations) out.

Detection runs every frame because it is cheap and is what tells a card is still
there; identification is slow, so the tracker calls it once per new card, on the
frame that confirms it. Everything runs on one thread: on a Raspberry Pi the other
cores belong to the web server, speech and the camera driver, and one predictable
thread keeps frame times even.
"""

from __future__ import annotations

import time
from typing import Callable, Iterator

import cv2
import numpy as np

from vision.detect import rectify
from vision.interfaces import CardDetector, FrameSource, Identifier
from vision.observations import Observation
from vision.track import Tracker, TrackerSettings, ZoneOf


class Pipeline:
    """detect -> track -> identify new tracks -> zone -> observations, on the caller's thread.

    The identifier should itself be built with one thread (e.g. an ONNX session with
    `intra_op_num_threads=1`); OpenCV is set to one thread here.
    """

    def __init__(self, detector: CardDetector, identifier: Identifier, zone_of: ZoneOf | None = None,
                 settings: TrackerSettings | None = None, max_card_length: float = 0.6) -> None:
        cv2.setNumThreads(1)
        self.detector = detector
        self.identifier = identifier
        self.tracker = Tracker(settings, zone_of)
        self.max_card_length = max_card_length

    def process(self, frame: np.ndarray, timestamp: float) -> list[Observation]:
        """One frame (BGR) taken at `timestamp` seconds; the observations it causes."""
        return self.tracker.update(self._cards(frame), timestamp,
                                   lambda corners: self.identifier.identify(rectify(frame, corners)))

    def _cards(self, frame: np.ndarray) -> list[np.ndarray]:
        """Detected quadrilaterals that can be a card seen from above the table.

        A camera that sees a table never sees one card longer than `max_card_length` of
        the frame's shorter side; bigger quadrilaterals are light falling across the
        table or the table split by an arm.
        """
        longest = self.max_card_length * min(frame.shape[:2])
        quads = [d.corners for d in self.detector.detect(frame)]
        return [q for q in quads if np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).max() <= longest]

    def run(self, source: FrameSource, stopped: Callable[[], bool],
            clock: Callable[[], float] = time.monotonic) -> Iterator[Observation]:
        """Observations from a live source, each frame stamped with `clock` as it arrives,
        until `stopped()`; a late frame is waited for, not fatal."""
        while not stopped():
            frame = source.read()
            if frame is not None:
                yield from self.process(frame, clock())
