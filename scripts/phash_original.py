"""The open-source pHash card detector's own recipe, as the benchmark's main baseline.

The issue's figures for "the open-source pHash detector" (about 1 s a photo here,
detection 0.983 / 1.0) are those of tmikonen/magic_card_detector's pipeline, which
finds cards its own way, at full size. scripts/phash_baseline.py puts the same kind
of hash over *our* detector instead, so its time mostly measures our detector; this
module rebuilds the original pipeline step by step from its description (our code,
not a copy of theirs), so the benchmark can say how we compare with the tool people
use today:

- the photo at full size, its lightness evened by CLAHE (clip 2, 8x8 tiles);
- grey level thresholded at 70, every contour (a tree of them), largest first,
  stopping below a tenth of the first card's area or a thousandth of the photo;
- each contour's convex hull bounded by its least-area quadrilateral: hull sides
  shorter than 15% of its perimeter are dropped by extending their neighbours, then
  every four of the remaining sides are tried;
- kept as a card when the hull fills the quadrilateral's corners (rounded corners
  leave under 35% of each corner's triangle empty), it is no sliver, and it is
  at least a tenth of the first card's area;
- the card cut out, shrunk by up to 22% times its corners' emptiness, and its
  32x32-DCT pHash taken at 0, 90, 180 and 270 degrees against every reference; a
  name is accepted when the nearest reference stands out from the others by more
  than 4 standard deviations of their distances (its open-set decision);
- a candidate inside a recognised card is skipped, and of two recognised ones that
  overlap by more than half the lower score is dropped.

Where a step can be done more cheaply with the same result we did so (a right-angle
turn by np.rot90 rather than a spline rotation; polygon areas and overlaps by
OpenCV rather than shapely), so if anything this baseline is faster than the
original. One addition in the baseline's favour: an unrecognised candidate inside or
mostly over another candidate is dropped too (the original draws every unrecognised
one), so its art box does not count against its detection precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

import cv2
import imagehash
import numpy as np
from PIL import Image

from vision.interfaces import Candidate, CardResult, Reading

HASH_SIZE = 32
THRESHOLD_LEVEL = 70       # grey level the photo is thresholded at
SIDE_CUTOFF = 0.15         # hull sides shorter than this share of the perimeter are dropped
CORNER_REGION = 0.9        # a corner's triangle: from the corner to this share of the way from the centre
MAX_CORNER_EMPTINESS = 0.35
CROP_PER_EMPTINESS = 0.22
MAX_FORM_FACTOR = 0.33     # area / (perimeter x shortest side): a card is about 0.29
SEPARATION = 4.0           # standard deviations the nearest reference must stand out by
SMALLEST_SHARE = 1 / 1000  # of the photo: where the search for cards stops


def _even_light(image: np.ndarray) -> np.ndarray:
    clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
    lightness, a, b = cv2.split(cv2.cvtColor(image, cv2.COLOR_BGR2LAB))
    return cv2.cvtColor(cv2.merge((clahe.apply(lightness), a, b)), cv2.COLOR_LAB2BGR)


def _hash(card: np.ndarray) -> np.ndarray:
    image = Image.fromarray(cv2.cvtColor(card, cv2.COLOR_BGR2RGB))
    return imagehash.phash(image, hash_size=HASH_SIZE).hash.ravel()


def _by_angle(points: np.ndarray) -> np.ndarray:
    centre = points.mean(axis=0)
    return points[np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))]


def _meet(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray | None:
    """Where the line through a0, a1 meets the line through b0, b1; None if parallel."""
    da, db = a1 - a0, b1 - b0
    cross = da[0] * db[1] - da[1] * db[0]
    if abs(cross) < 1e-12:
        return None
    t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / cross
    return a0 + t * da


def _simplified(hull: np.ndarray) -> np.ndarray:
    """The hull with its short sides dropped, each by extending its two neighbours."""
    points = hull.astype(np.float64)
    while len(points) > 4:
        n = len(points)
        sides = np.linalg.norm(np.roll(points, -1, axis=0) - points, axis=1)
        k = int(np.argmin(sides))
        if sides[k] >= SIDE_CUTOFF * sides.sum():
            break
        corner = _meet(points[k - 1], points[k], points[(k + 1) % n], points[(k + 2) % n])
        if corner is None:
            break
        points[k] = corner
        points = np.delete(points, (k + 1) % n, axis=0)
    return points


def _bounding_quad(hull: np.ndarray) -> np.ndarray | None:
    """The least-area quadrilateral, made of four of the simplified hull's sides, that
    holds the whole hull."""
    points = _by_angle(_simplified(hull))
    n = len(points)
    centre = points.mean(axis=0)
    inner = centre + 0.9999 * (points - centre)
    best, best_area = None, np.inf
    for chosen in combinations(range(n), 4):
        corners = [_meet(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n])
                   for i, j in zip(chosen, chosen[1:] + chosen[:1])]
        if any(c is None for c in corners):
            continue
        quad = _by_angle(np.array(corners))
        contour = quad.astype(np.float32).reshape(-1, 1, 2)
        if all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) > 0 for x, y in inner):
            area = abs(cv2.contourArea(contour))
            if area < best_area:
                best, best_area = quad, area
    return best


def _corner_emptiness(hull: np.ndarray, quad: np.ndarray) -> float:
    """The share of the quadrilateral's corner triangles the hull leaves empty."""
    centre = quad.mean(axis=0)
    quad_area = hull_area = 0.0
    hull32 = hull.astype(np.float32).reshape(-1, 1, 2)
    for k in range(4):
        corner = quad[k]
        inner = centre + CORNER_REGION * (corner - centre)
        across = inner + np.array([-(corner - centre)[1], (corner - centre)[0]])
        ends = [_meet(inner, across, corner, quad[k - 1]), _meet(inner, across, corner, quad[(k + 1) % 4])]
        if any(e is None for e in ends):
            return 1.0
        triangle = np.array([ends[0], ends[1], corner], np.float32).reshape(-1, 1, 2)
        quad_area += abs(cv2.contourArea(triangle))
        hull_area += cv2.intersectConvexConvex(triangle, hull32)[0]
    return 1.0 - hull_area / max(quad_area, 1e-9)


def _form_factor(quad: np.ndarray) -> float:
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return abs(cv2.contourArea(quad.astype(np.float32))) / (sides.sum() * max(sides.min(), 1e-9))


def _cut_out(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quadrilateral warped to a rectangle as long as its longer sides (any way up)."""
    width = int(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3])))
    height = int(max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1])))
    target = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad.astype(np.float32), target),
                               (max(width, 1), max(height, 1)))


@dataclass
class _Candidate:
    quad: np.ndarray
    card: np.ndarray
    code: str | None = None
    score: float = 0.0
    turns: int = 0  # quarter turns the cut-out needed to match
    dropped: bool = False

    @property
    def contour(self) -> np.ndarray:
        return self.quad.astype(np.float32).reshape(-1, 1, 2)

    def area(self) -> float:
        return abs(cv2.contourArea(self.contour))

    def overlap(self, other: "_Candidate") -> float:
        return cv2.intersectConvexConvex(self.contour, other.contour)[0]

    def within(self, other: "_Candidate") -> bool:
        return self.overlap(other) >= 0.999 * self.area()


class OriginalPhashDetector:
    """The recipe above: `recognize_file` as our recognizer's, for the benchmark."""

    def __init__(self, cards: Sequence[np.ndarray], codes: Sequence[str]) -> None:
        self.codes = list(codes)
        self.hashes = np.stack([_hash(_even_light(card)) for card in cards])

    def recognize_file(self, data: bytes) -> list[CardResult]:
        return self.recognize(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))

    def recognize(self, image: np.ndarray) -> list[CardResult]:
        adjusted = _even_light(image)
        candidates = self._segment(adjusted)
        for candidate in candidates:
            if not any(o.code and not o.dropped and candidate.within(o) for o in candidates if o is not candidate):
                self._name(candidate)
        self._drop_fragments(candidates)
        return [self._result(c) for c in candidates if not c.dropped]

    def _segment(self, adjusted: np.ndarray) -> list[_Candidate]:
        gray = cv2.cvtColor(adjusted, cv2.COLOR_BGR2GRAY)
        _, binary = cv2.threshold(gray, THRESHOLD_LEVEL, 255, cv2.THRESH_BINARY)
        contours, _ = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
        image_area = gray.shape[0] * gray.shape[1]
        largest = None
        found = []
        for contour in sorted(contours, key=cv2.contourArea, reverse=True):
            hull = cv2.convexHull(contour).reshape(-1, 2)
            hull_area = cv2.contourArea(hull)
            if hull_area < SMALLEST_SHARE * image_area or (largest and hull_area < 0.1 * largest):
                break
            quad = _bounding_quad(hull) if len(hull) >= 4 else None
            if quad is None:
                continue
            area = abs(cv2.contourArea(quad.astype(np.float32)))
            emptiness = _corner_emptiness(hull, quad)
            if (0.1 * (largest or 0) < area < 0.99 * image_area and emptiness < MAX_CORNER_EMPTINESS
                    and _form_factor(quad) < MAX_FORM_FACTOR):
                largest = largest or area
                centre = quad.mean(axis=0)
                crop = min(1.0, 1.0 - emptiness * CROP_PER_EMPTINESS)
                found.append(_Candidate(quad, _cut_out(adjusted, centre + crop * (quad - centre))))
        return found

    def _name(self, candidate: _Candidate) -> None:
        separations = np.zeros(4)
        for turns in range(4):
            distances = np.count_nonzero(self.hashes != _hash(np.rot90(candidate.card, turns)), axis=1)
            nearest = distances.min()
            others = distances[distances > nearest]
            spread = others.std() if len(others) > 1 else 0.0
            separations[turns] = (others.mean() - nearest) / spread if spread > 0 else 0.0
            if separations[turns] > SEPARATION and int(np.argmax(separations)) == turns:
                candidate.code = self.codes[int(np.argmin(distances))]
                candidate.score = float(separations[turns] / SEPARATION)
                candidate.turns = turns
                return

    @staticmethod
    def _drop_fragments(candidates: list[_Candidate]) -> None:
        for a, b in combinations(candidates, 2):
            if a.dropped or b.dropped or a.overlap(b) <= 0.5 * min(a.area(), b.area()):
                continue
            if a.code and b.code:
                (a if a.score < b.score else b).dropped = True
            elif a.code or b.code:
                (b if a.code else a).dropped = True
            else:
                (a if a.area() < b.area() else b).dropped = True  # (our addition: the smaller of two unknowns)
        for c in candidates:
            if not c.dropped and not c.code and any(c.within(o) for o in candidates if o is not c and not o.dropped):
                c.dropped = True  # (our addition: an unknown inside another candidate)

    def _result(self, c: _Candidate) -> CardResult:
        reading = Reading(c.code, min(1.0, c.score), (Candidate(c.code, c.score),) if c.code else (), False)
        return CardResult(c.quad.astype(np.float32), reading)
