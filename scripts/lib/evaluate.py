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

from companion.config import Settings


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
    """truth.json of ../shared/data/realphotos (or realphotos-dev, less its "ignore"
    entries), with names turned into codes."""
    raw = json.loads((folder / "truth.json").read_text())
    return {photo: [TruthCard(c["name"].replace(" ", "-"), (float(c["center"][0]), float(c["center"][1])))
                    for c in cards if not c.get("ignore")] for photo, cards in raw.items()}


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


def without_gallery(photo: str, results: Sequence, cards: Sequence[TruthCard], gallery: set[int],
                    deck_photo: str = "alpha_deck.jpg") -> tuple[list, list[TruthCard]]:
    """The test part of a real photo: the enrolled instances are neither test cards nor
    false detections, so they and the predictions on them are dropped."""
    if photo != deck_photo:
        return list(results), list(cards)
    match = match_by_centre([r.corners for r in results], cards)
    taken = {p for p, t in match.pairs if t in gallery}
    return ([r for p, r in enumerate(results) if p not in taken],
            [c for i, c in enumerate(cards) if i not in gallery])


def one_shot_shots(folder: Path, deck_photo: str = "alpha_deck.jpg", half: int | None = None
                   ) -> list[tuple[str, np.ndarray]]:
    """The enrollment photos of the one-shot protocol: around each gallery card, a crop
    of the deck photo one card-row high, or `half` pixels each way from its centre on a
    photo of scattered cards (neighbours show at the edges, as the enroll contract
    allows; the card nearest the centre is the one enrolled)."""
    truth = real_photo_truth(folder)
    photos = folder / "photos" if (folder / "photos").is_dir() else folder  # realphotos-dev keeps them there
    image = cv2.imread(str(photos / deck_photo), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"{photos / deck_photo}: no photo to cut the gallery from")
    half = int(0.6 * _row_height(truth[deck_photo])) if half is None else half
    shots = []
    for index, code in one_shot_gallery(truth, deck_photo).items():
        x, y = (int(v) for v in truth[deck_photo][index].center)
        shots.append((code, image[max(0, y - half):y + half, max(0, x - half):x + half].copy()))
    return shots


def _row_height(cards: Sequence[TruthCard]) -> float:
    ys = sorted({round(c.center[1]) for c in cards})
    gaps = [b - a for a, b in zip(ys, ys[1:]) if b - a > 20]
    return float(min(gaps)) if gaps else 1.0


TABLE_CONFIDENCE: float = Settings.confidence  # the live table's default bar: below it a reading becomes a question


@dataclass
class Tally:
    """Running counts for detection, naming, open-set rejection and corner order.

    `enrolled` cards count as named right when the code matches; cards outside the
    deck count as rejected when the code is None. A card counts for corner order when
    it was found and its first corner is nearest the truth's own top-left.
    """

    truth: int = 0
    predicted: int = 0
    found: int = 0
    enrolled: int = 0
    ranked_right: int = 0
    named_right: int = 0
    named_right_confidently: int = 0
    unenrolled: int = 0
    rejected: int = 0
    wrongly_named: int = 0
    with_corners: int = 0
    corners_right: int = 0
    images: int = 0
    images_right: int = 0

    def add(self, results: Sequence, truth: Sequence[TruthCard], deck: set[str],
            truth_corners: Sequence[np.ndarray] | None = None) -> Match:
        """Score one image. `results` are CardResults (corners, reading)."""
        match = match_by_centre([r.corners for r in results], truth)
        self.images += 1
        self.truth += len(truth)
        self.predicted += len(results)
        self.found += len(match.pairs)
        all_right = not match.unmatched_truth and not match.unmatched_predictions
        for card in truth:
            if card.code in deck:
                self.enrolled += 1
            else:
                self.unenrolled += 1
        for p, t in match.pairs:
            reading, code = results[p].reading, truth[t].code
            if code in deck:
                self.ranked_right += bool(reading.candidates and reading.candidates[0].code == code)
                right = reading.code == code
                self.named_right += right
                self.named_right_confidently += right and reading.confidence >= TABLE_CONFIDENCE
            else:
                right = reading.code is None
                self.rejected += right
            self.wrongly_named += reading.code is not None and reading.code != code
            if truth_corners is not None:
                self.with_corners += 1
                distances = np.linalg.norm(truth_corners[t] - results[p].corners[0], axis=1)
                ok = int(np.argmin(distances)) == 0
                self.corners_right += ok
                right = right and ok
            all_right = all_right and right
        self.images_right += all_right
        return match

    def summary(self) -> dict[str, float | int | None]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None
        return {"cards": self.truth, "detection_recall": share(self.found, self.truth),
                "detection_precision": share(self.found, self.predicted),
                "enrolled_cards": self.enrolled, "ranked_first_right": share(self.ranked_right, self.enrolled),
                "enrolled_accepted_and_right": share(self.named_right, self.enrolled),
                "enrolled_right_over_table_bar": share(self.named_right_confidently, self.enrolled),
                "unenrolled_cards": self.unenrolled, "unenrolled_rejected": share(self.rejected, self.unenrolled),
                "wrong_names": self.wrongly_named, "corners_in_order": share(self.corners_right, self.with_corners),
                "images": self.images, "images_fully_right": share(self.images_right, self.images)}


@dataclass(frozen=True)
class MarkedPhoto:
    """A photo's truth in the realphotos-dev format: cards to find, and places (a card
    mostly hidden, face down or cut by the frame) where a find is neither right nor wrong."""

    cards: tuple[TruthCard, ...]
    ignored: tuple[tuple[float, float], ...]


def marked_photo_truth(folder: Path) -> dict[str, MarkedPhoto]:
    """truth.json of ../shared/data/realphotos-dev."""
    raw = json.loads((folder / "truth.json").read_text())
    return {photo: MarkedPhoto(
        tuple(TruthCard(c["name"], (float(c["center"][0]), float(c["center"][1]))) for c in entries if not c.get("ignore")),
        tuple((float(c["center"][0]), float(c["center"][1])) for c in entries if c.get("ignore")))
        for photo, entries in raw.items()}


def detection_counts(quads: Sequence[np.ndarray], photo: MarkedPhoto) -> tuple[int, int, int]:
    """(cards, cards found, finds that count): the README's rule, a quad containing a
    centre, one to one and nearest first, ignored places taking part in the matching
    so a find there is neither a hit nor a false find."""
    places = list(photo.cards) + [TruthCard("", c) for c in photo.ignored]
    match = match_by_centre(quads, places)
    found = sum(t < len(photo.cards) for _, t in match.pairs)
    on_ignored = len(match.pairs) - found
    return len(photo.cards), found, len(quads) - on_ignored


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    a, b = np.float32(a).reshape(4, 2), np.float32(b).reshape(4, 2)
    shared, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - shared
    return float(shared / union) if union > 0 else 0.0
