"""Name a rectified card against an enrolled gallery, or say honestly that it is unknown.

Ranking is nearest neighbour (cosine) over the gallery's embeddings. The open-set
decision needs two things, each with a threshold fixed per deck from the enrollment
images alone (vision/deck.py): the embedding similarity (it sees colour, so red-14 is
not blue-14) and the keypoint inliers against the best candidate's enrolled shot
(vision/verify.py: it sees the picture, so a Swamp is not an Island). A card that is
not in the deck must come back as None, never as its look-alike. The card is tried as given and turned 180 degrees; the better-matching
view tells which detected corner is the card's own top-left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import cv2
import numpy as np

from vision.interfaces import Candidate, Reading
from vision.verify import CardFeatures, OrbVerifier


class Embedder(Protocol):
    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors for n rectified BGR cards."""


@dataclass(frozen=True)
class Gallery:
    """Enrolled faces: one row per shot; several rows may share a code."""

    codes: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), unit rows
    features: tuple[CardFeatures, ...]  # keypoints of each shot, for verification
    threshold: float  # least embedding similarity to accept
    min_inliers: float  # least verified keypoint matches to accept

    def per_code(self, sims: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Codes and (n_queries, n_codes) similarities, best shot per code, from
        (n_queries, n_shots) similarities."""
        names = sorted(set(self.codes))
        columns = [np.max(sims[:, [i for i, c in enumerate(self.codes) if c == name]], axis=1) for name in names]
        return names, np.stack(columns, axis=1)


def confidence(similarity: float, threshold: float, inliers: int, min_inliers: float) -> float:
    """0..1, above 0.5 exactly when both tests pass: the weaker of the two margins,
    each squashed so that a clear pass reads near 1."""
    by_embedding = 1 / (1 + np.exp(-(similarity - threshold) * 20))
    by_keypoints = 1 / (1 + np.exp(-(inliers - min_inliers) / max(0.25 * min_inliers, 1.0)))
    return float(min(by_embedding, by_keypoints))


class GalleryIdentifier:
    """`Identifier` over an enrolled `Gallery` with an ONNX `Embedder` and a keypoint verifier."""

    def __init__(self, gallery: Gallery, embedder: Embedder, verifier: OrbVerifier | None = None,
                 top: int = 3) -> None:
        self.gallery = gallery
        self.embedder = embedder
        self.verifier = verifier or OrbVerifier()
        self.top = top

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        """One reading per rectified card; every card and its 180-degree turn go
        through the network in one batch, then the best candidate is verified."""
        if not cards:
            return []
        views = [v for card in cards for v in (card, cv2.rotate(card, cv2.ROTATE_180))]
        shot_sims = self.embedder.embed(views) @ self.gallery.embeddings.T
        names, code_sims = self.gallery.per_code(shot_sims)
        readings: list[Reading] = []
        for k in range(len(cards)):
            view, shot = np.unravel_index(int(np.argmax(shot_sims[2 * k:2 * k + 2])), (2, shot_sims.shape[1]))
            similarity = float(shot_sims[2 * k + view, shot])
            inliers = self.verifier.inliers(self.verifier.features(views[2 * k + view]), self.gallery.features[shot])
            accepted = similarity >= self.gallery.threshold and inliers >= self.gallery.min_inliers
            scores = code_sims[2 * k + view]
            readings.append(Reading(
                code=self.gallery.codes[shot] if accepted else None,
                confidence=confidence(similarity, self.gallery.threshold, inliers, self.gallery.min_inliers),
                candidates=tuple(Candidate(names[i], round(float(scores[i]), 4)) for i in np.argsort(-scores)[: self.top]),
                rotated=bool(view == 1)))
        return readings
