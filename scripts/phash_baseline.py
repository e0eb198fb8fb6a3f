"""The pHash baseline the benchmark compares against (train extra: imagehash + Pillow).

Modelled on the open-source magic_card_detector: card candidates at full resolution,
a 32x32-DCT perceptual hash of each rectified candidate (both ways up), nearest
reference hash by Hamming distance. Its accept threshold is fixed the same way as
ours, from views of the enrollment images alone, so the two are compared fairly.
"""

from __future__ import annotations

import random
from typing import Sequence

import cv2
import imagehash
import numpy as np
from PIL import Image

from vision.detect import ContourCardDetector, ContourDetectorSettings, rectify
from vision.interfaces import Candidate, CardResult, Reading
from vision.synth.augment import photographed

HASH_SIZE = 32


def phash(card: np.ndarray) -> np.ndarray:
    return imagehash.phash(Image.fromarray(cv2.cvtColor(card, cv2.COLOR_BGR2RGB)), hash_size=HASH_SIZE).hash.ravel()


class PhashBaseline:
    def __init__(self, cards: Sequence[np.ndarray], codes: Sequence[str], views: int = 12) -> None:
        # full resolution, and contours of edge maps only, as the original's thresholded segments
        self.detector = ContourCardDetector(ContourDetectorSettings(work_size=100_000, plain_table=False))
        self.codes = list(codes)
        self.hashes = np.stack([phash(c) for c in cards])
        rng = random.Random(0)
        own, other = [], []
        for i, card in enumerate(cards):
            for _ in range(views):
                d = self._distances(phash(photographed(card, rng)))
                own.append(d[i])
                other.append(np.min(np.delete(d, i)))
        self.threshold = (np.percentile(own, 98) + np.min(other)) / 2

    def _distances(self, h: np.ndarray) -> np.ndarray:
        return np.count_nonzero(self.hashes != h, axis=1)

    def recognize_file(self, data: bytes) -> list[CardResult]:
        return self.recognize(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))

    def recognize(self, image: np.ndarray) -> list[CardResult]:
        results = []
        for det in self.detector.detect(image):
            card = rectify(image, det.corners)
            upright, turned = (self._distances(phash(c)) for c in (card, cv2.rotate(card, cv2.ROTATE_180)))
            rotated = turned.min() < upright.min()
            d = turned if rotated else upright
            best = int(np.argmin(d))
            reading = Reading(self.codes[best] if d[best] <= self.threshold else None,
                              float(1 - d[best] / HASH_SIZE**2),
                              (Candidate(self.codes[best], float(-d[best])),), rotated)
            results.append(CardResult(np.roll(det.corners, 2, axis=0) if rotated else det.corners, reading))
        return results
