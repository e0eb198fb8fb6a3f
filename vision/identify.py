"""Name a rectified card against an enrolled gallery, or say honestly that it is unknown.

Ranking is nearest neighbour over the gallery's shots, by a similarity that weighs
two views of a card: the ONNX embedding (layout, colour, pictures) and a band-pass
template of the cut-out (vision/template.py: the printed value or syllable). The open-set
decision needs three things, each with a threshold fixed per deck from the enrollment
images alone (vision/deck.py): the similarity (it sees colour, so red-14 is not
blue-14), the keypoint inliers against the best candidate's enrolled shot
(vision/verify.py: it sees the picture, so a Swamp is not an Island), and a lead over
every other enrolled code (a forgotten card's look-alikes tie with each other). A card
that is not in the deck must come back as None, never as its look-alike. Each shot is
enrolled both ways up, so one look at the card finds both its name and which detected
corner is its own top-left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol, Sequence

import numpy as np

from vision.interfaces import Candidate, Reading
from vision.template import templates
from vision.verify import CardFeatures, OrbVerifier


RUNNER_UP_MARGIN = 0.5  # in units of a true match's usual margin (Gallery.score)
SIMILARITY_WEIGHTS = (1 / 3, 2 / 3)  # embedding, template: measured best on generated tables (vision/template.py)


class Embedder(Protocol):
    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors for n rectified BGR cards."""


@dataclass(frozen=True)
class Gallery:
    """Enrolled faces: one row per shot; several rows may share a code."""

    codes: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), unit rows
    turned: np.ndarray  # (n, d), the same shots turned 180 degrees
    templates: np.ndarray  # (n, t), unit rows (vision/template.py)
    turned_templates: np.ndarray  # (n, t), the same shots turned 180 degrees
    features: tuple[CardFeatures, ...]  # keypoints of each shot, for verification
    threshold: float  # least similarity (embedding and template, SIMILARITY_WEIGHTS) to accept
    min_inliers: float  # least verified keypoint matches to accept
    typical: tuple[float, float] = (1.0, 100.0)  # a true match's usual (similarity, inliers)
    min_lead: float = 0.0  # least similarity lead of the named code over every other code

    def score(self, similarity: float, inliers: int) -> float:
        """Both margins over their thresholds, each in units of a true match's usual
        margin, summed: colour twins tie on keypoints and differ in similarity, cards
        that differ in one printed value tie on similarity and differ in keypoints."""
        return ((similarity - self.threshold) / max(self.typical[0] - self.threshold, 0.05)
                + (inliers - self.min_inliers) / max(self.typical[1] - self.min_inliers, 5.0))

    @cached_property
    def _both_ways(self) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings and templates of every shot, upright then turned, as (dim, 2n)
        matrices, built once per deck rather than once per frame."""
        by_embedding, by_template = SIMILARITY_WEIGHTS
        return (np.ascontiguousarray(by_embedding * np.concatenate([self.embeddings, self.turned]).T),
                np.ascontiguousarray(by_template * np.concatenate([self.templates, self.turned_templates]).T))

    def similarities(self, embeddings: np.ndarray, templates: np.ndarray) -> np.ndarray:
        """(n_queries, 2 n_shots) from the queries' embeddings and templates: columns
        n_shots.. are the turned shots."""
        by_embedding, by_template = self._both_ways
        return embeddings @ by_embedding + templates @ by_template

    def per_code(self, sims: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Codes and (n_queries, n_codes) similarities, best shot per code, from
        (n_queries, 2 n_shots) similarities."""
        names = sorted(set(self.codes))
        n = len(self.codes)
        columns = [np.max(sims[:, [i + t for i, c in enumerate(self.codes) if c == name for t in (0, n)]], axis=1)
                   for name in names]
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
                 top: int = 3, verify: int = 5) -> None:
        self.gallery = gallery
        self.embedder = embedder
        self.verifier = verifier or OrbVerifier()
        self.top = top
        self.verify = verify  # codes verified by keypoints: the embedding's shortlist

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        """One reading per rectified card: one batch through the network shortlists
        `verify` codes, keypoints check each, the best that passes both tests wins."""
        if not cards:
            return []
        shot_sims = self.gallery.similarities(self.embedder.embed(cards), templates(cards))
        names, code_sims = self.gallery.per_code(shot_sims)
        n = len(self.gallery.codes)
        readings: list[Reading] = []
        for k, card in enumerate(cards):
            features = self.verifier.features(card)
            shortlist: list[tuple[int, float, int]] = []  # (column, similarity, inliers)
            for column in (int(c) for c in np.argsort(-shot_sims[k])):  # each code's best shot
                shot = column % n
                if any(self.gallery.codes[c % n] == self.gallery.codes[shot] for c, _, _ in shortlist):
                    continue
                shortlist.append((column, float(shot_sims[k, column]),
                                  self.verifier.inliers(features, self.gallery.features[shot], turned=column >= n)))
                if len(shortlist) == self.verify:
                    break
            passing = sorted((c for c in shortlist
                              if c[1] >= self.gallery.threshold and c[2] >= self.gallery.min_inliers),
                             key=lambda c: -self.gallery.score(c[1], c[2]))
            # accept only with a margin over a runner-up that passes too (two faces that
            # both fit, e.g. values 12 and 10, mean we cannot tell: say so)
            accepted = bool(passing) and (len(passing) == 1 or self.gallery.score(*passing[0][1:])
                                          - self.gallery.score(*passing[1][1:]) >= RUNNER_UP_MARGIN)
            column, similarity, inliers = passing[0] if passing else shortlist[0]  # else the favourite, unaccepted
            shot = column % n
            scores = code_sims[k]
            # and only if no other enrolled face comes close: a card that was never
            # enrolled has enrolled look-alikes that tie with each other (red-14 left
            # out: red-15 and blue-14 both come close), an enrolled card stands out
            mine = names.index(self.gallery.codes[shot])
            accepted = accepted and float(scores[mine] - np.max(np.delete(scores, mine), initial=-1.0)) >= self.gallery.min_lead
            readings.append(Reading(
                code=self.gallery.codes[shot] if accepted else None,
                confidence=confidence(similarity, self.gallery.threshold, inliers, self.gallery.min_inliers),
                candidates=tuple(Candidate(names[i], round(float(scores[i]), 4)) for i in np.argsort(-scores)[: self.top]),
                rotated=bool(column >= n)))
        return readings
