"""Scoring predictions against ground truth, shared by the benchmark and the tests.

One matching rule everywhere (the real-photo README's): a predicted card is found when
its quadrilateral contains a truth centre, each truth card matched at most once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np


@dataclass(frozen=True)
class TruthCard:
    code: str
    center: tuple[float, float]


@dataclass(frozen=True)
class Match:
    """Pairs (prediction index, truth index), plus the leftovers on each side."""

    pairs: tuple[tuple[int, int], ...]
    unmatched_predictions: tuple[int, ...]
    unmatched_truth: tuple[int, ...]


def match_by_centre(quads: Sequence[np.ndarray], truth: Sequence[TruthCard]) -> Match:
    """Greedy one-to-one matching: each truth centre goes to the containing quad whose
    centre is nearest to it."""
    options = []
    for p, quad in enumerate(quads):
        contour = np.asarray(quad, np.float32).reshape(-1, 1, 2)
        centre = np.asarray(quad).mean(axis=0)
        for t, card in enumerate(truth):
            if cv2.pointPolygonTest(contour, card.center, False) >= 0:
                options.append((float(np.hypot(*(centre - card.center))), p, t))
    used_p: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for _, p, t in sorted(options):
        if p not in used_p and t not in used_t:
            used_p.add(p)
            used_t.add(t)
            pairs.append((p, t))
    return Match(tuple(pairs), tuple(i for i in range(len(quads)) if i not in used_p),
                 tuple(i for i in range(len(truth)) if i not in used_t))


def real_photo_truth(folder: Path) -> dict[str, list[TruthCard]]:
    """truth.json of ../shared/data/realphotos, with names turned into codes."""
    raw = json.loads((folder / "truth.json").read_text())
    return {photo: [TruthCard(c["name"].replace(" ", "-"), (float(c["center"][0]), float(c["center"][1])))
                    for c in cards] for photo, cards in raw.items()}


def one_shot_gallery(truth: dict[str, list[TruthCard]], deck_photo: str = "alpha_deck.jpg") -> dict[int, str]:
    """The real-photo protocol's enrollment: the first instance of each name in the deck
    photo, reading order (rows top to bottom, left to right). Returns truth index -> code."""
    cards = truth[deck_photo]
    row_height = _row_height(cards)
    order = sorted(range(len(cards)), key=lambda i: (round(cards[i].center[1] / row_height), cards[i].center[0]))
    gallery: dict[int, str] = {}
    for i in order:
        if cards[i].code not in gallery.values():
            gallery[i] = cards[i].code
    return gallery


def _row_height(cards: Sequence[TruthCard]) -> float:
    ys = sorted({round(c.center[1]) for c in cards})
    gaps = [b - a for a, b in zip(ys, ys[1:]) if b - a > 20]
    return float(min(gaps)) if gaps else 1.0


def precision_recall(found: int, predicted: int, truth: int) -> dict[str, float]:
    return {"recall": round(found / truth, 4) if truth else 1.0,
            "precision": round(found / predicted, 4) if predicted else 1.0}
