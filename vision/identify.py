"""Name a rectified card against an enrolled gallery, or say honestly that it is unknown.

Two looks. A wide one ranks every shot of the gallery by a similarity that weighs the
ONNX embedding (layout, colour, pictures) and a small band-pass template of the
cut-out (vision/template.py), and keeps a shortlist of the best few codes. A close one
compares the card's print at twice that size, aligned, with each shortlisted shot
(`closeness`), whole and without its printed rim (a rim the colour of the table
hides the card's edge, and the cut-out then follows the rim's inner edge): the winner
is the best similarity plus closeness.

The open-set decision asks two things, each with a threshold fixed per deck from the
enrollment images alone (vision/deck.py): a floor on similarity (something that is
not one of this deck's cards at all), and the winner's lead. The lead is how much closer the
card is to the winner than to each other shortlisted face, measured in units of how
much those two faces differ from each other: a card of the winning face leads by
about its closeness (near 1) whatever its look-alikes, while a forgotten card sits
between its enrolled look-alikes (red-14 left out: red-15 and blue-14) and leads
none of them by much of their difference. A card that is not in the deck must come
back as None, never as its look-alike. Each shot is enrolled both ways up, so one
look at the card finds both its name and which detected corner is its own top-left.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol, Sequence

import cv2
import numpy as np

from vision.interfaces import Candidate, Reading
from vision.template import closeness, details, inner_templates, templates

SIMILARITY_WEIGHTS = (1 / 3, 2 / 3)  # embedding, template: measured best on generated tables (vision/template.py)
DETAIL_WEIGHT = 2.0  # closeness against similarity in the final ranking (measured on generated tables)
SHORTLIST = 5  # codes the close look compares: the right one is among the wide look's best 5 for 0.96-1.0 of cards
RIM = 3  # pixels of a 72-pixel-wide detail image: a printed border of 4% of the card's width, the usual
LEAD_FLOOR = 0.05  # least difference between two faces a lead is measured in (two identical shots lead nobody)


class Embedder(Protocol):
    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors for n rectified BGR cards."""


@dataclass(frozen=True)
class Ranking:
    """A shortlist in order of similarity plus closeness, and the winner's lead."""

    columns: tuple[int, ...]  # gallery columns: shot index, plus n_shots when turned
    similarity: tuple[float, ...]
    closeness: tuple[float, ...]
    lead: float

    def score(self, i: int) -> float:
        return self.similarity[i] + DETAIL_WEIGHT * self.closeness[i]


@dataclass(frozen=True)
class Gallery:
    """Enrolled faces: one row per shot; several rows may share a code."""

    codes: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), unit rows
    turned: np.ndarray  # (n, d), the same shots turned 180 degrees
    templates: np.ndarray  # (n, t), unit rows (vision/template.py)
    turned_templates: np.ndarray  # (n, t), the same shots turned 180 degrees
    details: np.ndarray  # (n, 100, 72, 3) band-pass detail images (vision/template.py)
    threshold: float  # least similarity (embedding and template, SIMILARITY_WEIGHTS) to accept
    min_lead: float  # least lead of the winner over every other shortlisted face

    @cached_property
    def _both_ways(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Embeddings and templates of every shot, upright then turned, as (dim, 2n)
        matrices, and the detail images likewise, built once per deck rather than
        once per frame."""
        by_embedding, by_template = SIMILARITY_WEIGHTS
        return (np.ascontiguousarray(by_embedding * np.concatenate([self.embeddings, self.turned]).T),
                np.ascontiguousarray(by_template * np.concatenate([self.templates, self.turned_templates]).T),
                np.concatenate([self.details, np.ascontiguousarray(self.details[:, ::-1, ::-1])]))

    @cached_property
    def _inner(self) -> tuple[np.ndarray, np.ndarray]:
        """The shots' detail images (as `_both_ways`) as `inner_templates`, whole and
        with RIM pixels cut off every side and stretched back: a card as a cut-out that
        lost its rim shows it."""
        shots = self._both_ways[2]
        h, w = shots.shape[1:3]
        rimless = np.stack([cv2.resize(shot[RIM: h - RIM, RIM: w - RIM], (w, h)) for shot in shots])
        return inner_templates(shots), inner_templates(rimless)

    @cached_property
    def _between_shots(self) -> np.ndarray:
        """(2n, 2n) similarity of every shot (either way up) to every other: how far
        apart two faces are, the unit a lead is measured in."""
        return self.similarities(np.concatenate([self.embeddings, self.turned]),
                                 np.concatenate([self.templates, self.turned_templates]))

    def similarities(self, embeddings: np.ndarray, templates: np.ndarray) -> np.ndarray:
        """(n_queries, 2 n_shots) from the queries' embeddings and templates: columns
        n_shots.. are the turned shots."""
        by_embedding, by_template, _ = self._both_ways
        return embeddings @ by_embedding + templates @ by_template

    def ranked(self, similarities: np.ndarray, detail: np.ndarray, leave_out: str | None = None) -> Ranking:
        """The close look at one card: `similarities` is its row of `similarities`,
        `detail` its detail image; `leave_out` ranks as if that code had never been
        enrolled (how deck calibration sees a forgotten card)."""
        n = len(self.codes)
        columns: list[int] = []
        seen = {leave_out}
        for column in np.argsort(-similarities):  # each code's best shot, either way up
            code = self.codes[column % n]
            if code not in seen:
                seen.add(code)
                columns.append(int(column))
                if len(columns) == SHORTLIST:
                    break
        whole, rimless = self._inner
        close = closeness(detail, np.concatenate([whole[columns], rimless[columns]])).reshape(2, -1).max(axis=0)
        order = sorted(range(len(columns)), key=lambda i: -(similarities[columns[i]] + DETAIL_WEIGHT * close[i]))
        columns, near = [columns[i] for i in order], [float(close[i]) for i in order]
        scores = [similarities[c] + DETAIL_WEIGHT * value for c, value in zip(columns, near)]
        lead = min(((scores[0] - scores[i]) / max(self._apart(columns[0], c), LEAD_FLOOR)
                    for i, c in enumerate(columns[1:], start=1)), default=1.0)
        return Ranking(tuple(columns), tuple(float(similarities[c]) for c in columns), tuple(near), float(lead))

    def _apart(self, a: int, b: int) -> float:
        """How much less shot column `b` scores than `a` itself would, as a card of
        face `a` seen perfectly: the distance between the two faces, in score. A
        property of the deck, so each pair is measured once."""
        if (a, b) not in self._distances:
            between = self._between_shots
            self._distances[a, b] = float(between[a, a] + DETAIL_WEIGHT - between[a, b]
                                          - DETAIL_WEIGHT * closeness(self._both_ways[2][a], self._inner[0][[b]])[0])
        return self._distances[a, b]

    @cached_property
    def _distances(self) -> dict[tuple[int, int], float]:
        return {}


def confidence(similarity: float, lead: float, gallery: Gallery) -> float:
    """0..1, above 0.5 exactly when both tests pass: the weaker of the two margins,
    each squashed so that a clear pass reads near 1."""
    by_similarity = 1 / (1 + np.exp(-(similarity - gallery.threshold) * 20))
    by_lead = 1 / (1 + np.exp(-(lead - gallery.min_lead) * 10))
    return float(min(by_similarity, by_lead))


class GalleryIdentifier:
    """`Identifier` over an enrolled `Gallery` with an ONNX `Embedder`."""

    def __init__(self, gallery: Gallery, embedder: Embedder, top: int = 3) -> None:
        self.gallery = gallery
        self.embedder = embedder
        self.top = top

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        """One reading per rectified card: one batch through the network and one
        matrix product shortlist codes, the close look ranks them and measures the
        winner's lead."""
        if not cards:
            return []
        g = self.gallery
        shot_sims = g.similarities(self.embedder.embed(cards), templates(cards))
        n = len(g.codes)
        readings: list[Reading] = []
        for sims, detail in zip(shot_sims, details(cards)):
            ranking = g.ranked(sims, detail)
            column = ranking.columns[0]
            similarity = ranking.similarity[0]
            accepted = similarity >= g.threshold and ranking.lead >= g.min_lead
            readings.append(Reading(
                code=g.codes[column % n] if accepted else None,
                confidence=confidence(similarity, ranking.lead, g),
                candidates=tuple(Candidate(g.codes[c % n], round(ranking.score(i), 4))
                                 for i, c in enumerate(ranking.columns[: self.top])),
                rotated=bool(column >= n)))
        return readings
