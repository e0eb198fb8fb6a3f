"""Geometric verification: does the card really show the same picture as the enrolled one?

Embeddings rank the gallery well but cannot tell a known card from an unknown one
that shares its layout (a Swamp looks like an Island to any global descriptor).
Keypoints that match where they should on the card can: the same face gives dozens,
a different picture in the same frame gives a handful. It costs a few
milliseconds, so only the embedding's best candidate is verified, never the gallery.
Keypoints are on grey levels, so colour twins (red-14 vs blue-14) are left to the
embedding, which sees colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.interfaces import CARD_SIZE

MIN_MATCHES = 6
TOLERANCE = 0.08  # of the card width: how far corner error may move a keypoint


@dataclass(frozen=True)
class CardFeatures:
    points: np.ndarray       # (n, 2) float32, pixels of the rectified card
    descriptors: np.ndarray  # (n, 32) uint8 ORB descriptors


class OrbVerifier:
    def __init__(self, features: int = 150) -> None:
        self.orb = cv2.ORB_create(nfeatures=features, scaleFactor=1.2, nlevels=4, edgeThreshold=15,
                                  patchSize=15, fastThreshold=10)
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)

    def features(self, card: np.ndarray) -> CardFeatures:
        keypoints, descriptors = self.orb.detectAndCompute(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), None)
        if descriptors is None:
            return CardFeatures(np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8))
        return CardFeatures(np.float32([k.pt for k in keypoints]), descriptors)

    def inliers(self, query: CardFeatures, enrolled: CardFeatures, turned: bool = False) -> int:
        """Matches (ratio test) that sit where they should on the card.

        Both cards are rectified to CARD_SIZE, so the same face puts the same keypoint
        at the same place (or the opposite place when the card lies `turned` 180
        degrees): no homography needs estimating, only a tolerance for corner error.
        That is faster than RANSAC and stricter, since look-alike frames match nothing
        where their pictures differ.
        """
        if len(query.descriptors) < MIN_MATCHES or len(enrolled.descriptors) < MIN_MATCHES:
            return 0
        pairs = self.matcher.knnMatch(query.descriptors, enrolled.descriptors, k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.8 * p[1].distance]
        if not good:
            return 0
        here = query.points[[m.queryIdx for m in good]]
        there = enrolled.points[[m.trainIdx for m in good]]
        if turned:
            here = np.float32([CARD_SIZE[0] - 1, CARD_SIZE[1] - 1]) - here
        return int(np.count_nonzero(np.linalg.norm(here - there, axis=1) < TOLERANCE * CARD_SIZE[0]))
