"""Name a rectified card against an enrolled gallery, or say honestly that it is unknown.

Ranking is nearest neighbour (cosine) over the gallery's embeddings. The open-set
decision is a threshold on that similarity, fixed per deck from the enrollment images
alone (vision/deck.py): a card that is not in the deck must come back as None, never
as its look-alike. The card is tried as given and turned 180 degrees; the better-matching
view tells which detected corner is the card's own top-left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import cv2
import numpy as np

from vision.interfaces import Candidate, Reading


class Embedder(Protocol):
    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors for n rectified BGR cards."""


@dataclass(frozen=True)
class Gallery:
    """Enrolled faces: one row per shot; several rows may share a code."""

    codes: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), unit rows
    threshold: float

    def best_per_code(self, queries: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Codes and (n_queries, n_codes) similarities, best shot per code."""
        sims = queries @ self.embeddings.T
        names = sorted(set(self.codes))
        columns = [np.max(sims[:, [i for i, c in enumerate(self.codes) if c == name]], axis=1) for name in names]
        return names, np.stack(columns, axis=1)


def confidence(similarity: float, threshold: float) -> float:
    """A similarity mapped to 0..1 with the accept threshold at 0.5: easy to read, monotone."""
    return float(1 / (1 + np.exp(-(similarity - threshold) * 20)))


class GalleryIdentifier:
    """`Identifier` over an enrolled `Gallery` with an ONNX `Embedder`."""

    def __init__(self, gallery: Gallery, embedder: Embedder, top: int = 3) -> None:
        self.gallery = gallery
        self.embedder = embedder
        self.top = top

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        """One reading per rectified card; every card and its 180-degree turn go
        through the network in one batch."""
        if not cards:
            return []
        views = [v for card in cards for v in (card, cv2.rotate(card, cv2.ROTATE_180))]
        names, sims = self.gallery.best_per_code(self.embedder.embed(views))
        readings: list[Reading] = []
        for k in range(len(cards)):
            block = sims[2 * k:2 * k + 2]
            view, best = np.unravel_index(int(np.argmax(block)), block.shape)
            scores = block[view]
            order = np.argsort(-scores)[: self.top]
            top_score = float(scores[best])
            readings.append(Reading(
                code=names[best] if top_score >= self.gallery.threshold else None,
                confidence=confidence(top_score, self.gallery.threshold),
                candidates=tuple(Candidate(names[i], round(float(scores[i]), 4)) for i in order),
                rotated=bool(view == 1)))
        return readings
