"""Find card quadrilaterals on a table and cut each card out as an upright rectangle.

Why contours and not a learned detector: cards are flat, bright-or-dark-bordered
rectangles of a known aspect ratio, and a contour search over a few edge and
threshold maps finds them on wood, felt, cloth and white tables in a few milliseconds
on one core. Rounded corners and sleeves are handled by taking the minimum-area
rectangle of a contour's hull when it does not simplify to four points. Cards that
touch merge into one blob in some maps but stay apart in others; a blob that is
really two cards is dropped in favour of the cards it holds. A patterned cloth, a
phone or a sheet of paper closes into card-shaped outlines as readily as a card: a
small learned check of what lies on each side of every outline (vision/cardness.py)
removes those before one outline per card is chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.cardness import CardVerifier
from vision.geometry import CARD_ASPECT, NEXT, aspect, side_lengths
from vision.interfaces import CARD_SIZE, Detection
from vision.overlap import OverlapFinder, blobs_and_their_print, on_top

SMALLEST_IMAGE = 16        # px: a picture narrower than this holds no card (the smallest is 60 px tall)
TABLE_SCALE = 4            # the table's colour is judged at a quarter of the working size
TABLE_BIN = 12             # a and b levels per bin when finding a plain table's colour (lightness: three times as many), and its reach
PLAIN_TABLE_SHARE = 0.6    # a table is plain when colours near its commonest cover this much of the picture
OUTLINE_SAMPLES = 64       # points round a quadrilateral where its outline is looked for
MIN_STEP = 8               # least colour change (levels of a channel, across 3 pixels) at a card's edge
MIN_TABLE_DISTANCE = 10.0  # least Lab distance (lightness at half weight) from the table's colour
SIZE_SLACK = 1.5  # how many times nearer the typical card's size one region must be than the cards it holds to be one card
SPLIT_DETAIL = 400  # pixels: a blob larger than this is split from every n-th pixel, n to bring it under
SURFACE_CARDS = 4  # like-sized cards inside a quadrilateral that make it a surface they lie on, not a card
SURFACE_SHARE = 0.2  # ... each at most this share of it
FIT_SLACK = 0.03  # how much worse than a card's best-fitting quadrilateral its chosen one may fit


@dataclass(frozen=True)
class ContourDetectorSettings:
    work_size: int = 960          # longest side the search runs at (speed vs small cards)
    min_area: float = 0.003       # smallest card, as a share of the image area
    max_area: float = 0.9
    aspect_tolerance: float = 0.28  # allowed |short/long - CARD_ASPECT| (tilt stretches cards)
    min_fill: float = 0.8         # contour area over its quadrilateral's area
    plain_table: bool = True      # also look for what is not a plain table's colour (`_off_plain_table`)
    check_plain_tables: bool = True  # run the learned card check on plain tables too
    overlaps: bool = True         # look for the top cards of fans and piles (vision/overlap.py)


def _areas(quads: np.ndarray) -> np.ndarray:
    """(n,) areas of quadrilaterals (n, 4, 2), all at once (shoelace formula)."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=-1) - np.roll(x, -1, axis=-1) * y).sum(axis=-1))


def _with_outer_edges(quads: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """The check's verdicts (n,) with every outline it refused put back where it closely
    encloses one it accepted (the kept one at least 30% of its area, centre inside: an art panel): the
    check judges an outline by what lies either side of it, and a card with a printed
    frame on a plain table can look more card-like at the frame than at its own edge
    (an enrollment photo read at the frame cuts every shot short). Which of the two is
    the card's edge stays `_suppress`'s choice, which takes the outer one."""
    refused, accepted = quads[~cards].astype(np.float64), quads[cards].astype(np.float64)
    if not len(refused) or not len(accepted):
        return cards
    outer, inner = _areas(refused)[:, None], _areas(accepted)[None, :]
    centres = accepted.mean(axis=1)  # (m, 2)
    # a centre inside a convex quadrilateral lies on the same side of all four edges
    start, edge = refused[:, None, :, :], np.roll(refused, -1, axis=1)[:, None, :, :] - refused[:, None, :, :]
    offset = centres[None, :, None, :] - start
    cross = edge[..., 0] * offset[..., 1] - edge[..., 1] * offset[..., 0]  # (k, m, 4)
    inside = (cross > 0).all(axis=2) | (cross < 0).all(axis=2)
    kept = cards.copy()
    kept[np.flatnonzero(~cards)] = (inside & (inner >= 0.3 * outer) & (inner < outer)).any(axis=1)
    return kept


def order_clockwise(corners: np.ndarray) -> np.ndarray:
    """Clockwise corners (image y down) starting at a corner of a short side.

    The start is the short side nearer the top of the image, so an upright card starts
    at its own top-left; an upside-down card is fixed later by the identifier.
    """
    return _ordered_clockwise(np.asarray(corners, dtype=np.float32).reshape(1, 4, 2))[0]


def _ordered_clockwise(quads: np.ndarray) -> np.ndarray:
    """`order_clockwise` of every one of (n, 4, 2) float32 quadrilaterals at once: a
    frame's search orders ~70 candidates, and one at a time was a twentieth of it."""
    n = np.arange(len(quads))[:, None]
    centre = quads.mean(axis=1, keepdims=True)
    angles = np.arctan2(quads[..., 1] - centre[..., 1], quads[..., 0] - centre[..., 0])
    pts = quads[n, np.argsort(angles, axis=1)]  # clockwise on screen because y grows downwards
    d = pts[:, NEXT] - pts
    sides = np.sqrt((d * d).sum(axis=2))
    # side i joins corner i and i+1; the card's top is a short side
    turn = (sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]).astype(int)
    pts = pts[n, (np.arange(4)[None, :] + turn[:, None]) % 4]
    # of the two short sides (0-1 and 2-3), start on the one nearer the image top
    turn = 2 * (pts[:, 0, 1] + pts[:, 1, 1] > pts[:, 2, 1] + pts[:, 3, 1])
    return pts[n, (np.arange(4)[None, :] + turn[:, None]) % 4]


def _upright(size: tuple[int, int], inset: float = 0.0) -> np.ndarray:
    """The corners of a rectified card of `size`, clockwise from its top-left: the
    centres of its corner pixels, or `inset` of a pixel outside them."""
    w, h = size
    lo, right, bottom = -inset, w - 1 + inset, h - 1 + inset
    return np.array([[lo, lo], [right, lo], [right, bottom], [lo, bottom]], np.float32)


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = CARD_SIZE,
            inset: float = 0.0) -> np.ndarray:
    """The card inside `corners` (clockwise from its top-left) warped to an upright `size`
    (`inset`: see `_upright`)."""
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), _upright(size, inset))
    return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


class CardCutter:
    """Cards of one image as `rectify` cuts them at CARD_SIZE, shrunk to `size` (CARD_SIZE
    divided by a whole number, as an identifier reads them) by averaging blocks: the
    look enrolled shots are given, so a card and its shot are made alike.

    A large card is cut more cheaply: straight at `size`, from a copy of the image halved
    (2x2 blocks averaged) as often as leaves the card at least `size`, so the warp
    shrinks it by under two and averages what it skips (a bilinear warp reads only the
    four pixels round each point, and a card shrunk more in one warp comes out
    aliased); its pixels are placed where the blocks of the cut at CARD_SIZE would
    have their centres. That reads a quarter of the samples: cutting at CARD_SIZE was a
    tenth of the time on a 40-card photo. Halved copies are made on first use and kept
    for the next card."""

    def __init__(self, image: np.ndarray, size: tuple[int, int] = CARD_SIZE) -> None:
        self.image = image
        self.size = size
        self._shrink = CARD_SIZE[0] // size[0]
        if (size[0] * self._shrink, size[1] * self._shrink) != CARD_SIZE:
            raise ValueError(f"cards are cut at CARD_SIZE {CARD_SIZE} divided by a whole number, not at {size}")
        self._levels = [image]

    def __call__(self, corners: np.ndarray) -> np.ndarray:
        """The card inside `corners` (clockwise from its top-left), upright at `size`."""
        corners = np.asarray(corners, np.float32)
        short = float(side_lengths(corners).min())
        if self._shrink == 1 or short < CARD_SIZE[0]:
            card = rectify(self.image, corners)
            return card if self._shrink == 1 else cv2.resize(card, self.size, interpolation=cv2.INTER_AREA)
        k = self._level(int(short / self.size[0]).bit_length() - 1)  # halvings that leave it at least `size`
        # pixel i of a halved copy covers pixels 2i and 2i + 1, its centre at 2i + 0.5;
        # a block of n pixels of the cut at CARD_SIZE has its centre (n - 1) / 2 past its first
        return rectify(self._levels[k], (corners + 0.5) / 2 ** k - 0.5, self.size,
                       inset=(self._shrink - 1) / (2 * self._shrink))

    def _level(self, k: int) -> int:
        """The image halved k times, made now if not yet, or as often as it can be: which."""
        while len(self._levels) <= k and min(self._levels[-1].shape[:2]) >= 2:
            last = self._levels[-1]
            h, w = last.shape[0] // 2, last.shape[1] // 2
            self._levels.append(cv2.resize(last[: 2 * h, : 2 * w], (w, h), interpolation=cv2.INTER_AREA))
        return min(k, len(self._levels) - 1)


def unrectify(points: np.ndarray, corners: np.ndarray, size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """`points` (n x 2) of a card rectified from `corners` to `size`, in the image's pixels."""
    matrix = cv2.getPerspectiveTransform(_upright(size), np.asarray(corners, np.float32))
    return cv2.perspectiveTransform(np.asarray(points, np.float32).reshape(1, -1, 2), matrix)[0]


def _polygon_area(pts: np.ndarray) -> float:
    return float(cv2.contourArea(pts.astype(np.float32)))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area of two convex quadrilaterals."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


@dataclass(frozen=True)
class _Contours:
    quads: list[tuple[np.ndarray, float]]  # card-shaped quadrilaterals with their scores
    blobs: list[np.ndarray]                # contours too large for a card and not card-shaped


@dataclass(frozen=True)
class _Search:
    """One image's candidates: its working copy and scale, the quadrilaterals (n, 4, 2)
    and their scores, whether the table is plain, the edge map, and which candidates the
    straight-edge search found (`vision/overlap.py`) rather than a contour."""
    small: np.ndarray
    scale: float
    quads: np.ndarray
    scores: np.ndarray
    plain: bool
    edges: np.ndarray
    straight: np.ndarray


class ContourCardDetector:
    """`CardDetector` over contours of several binary maps of the image."""

    def __init__(self, settings: ContourDetectorSettings | None = None,
                 verifier: CardVerifier | None | str = "default") -> None:
        self.settings = settings or ContourDetectorSettings()
        self.verifier = CardVerifier.load() if isinstance(verifier, str) else verifier
        self.overlaps = OverlapFinder()

    def detect(self, image: np.ndarray) -> list[Detection]:
        if min(image.shape[:2]) < SMALLEST_IMAGE:
            return []
        found = self._search(image)
        quads, scores, straight = found.quads, found.scores, found.straight
        if self.verifier is not None and len(quads) and not (found.plain and not self.settings.check_plain_tables):
            cards = _with_outer_edges(quads, self.verifier.cards(found.small, quads, scores))
            quads, scores, straight = quads[cards], scores[cards], straight[cards]
        if straight.any():
            blob = blobs_and_their_print(quads, straight, found.edges, self.overlaps.settings)
            quads, scores = quads[~blob], scores[~blob]
        kept = _suppress(list(zip(quads, scores.tolist())))
        if self.settings.overlaps and len(kept) > 1:
            kept = [k for k, top in zip(kept, on_top(np.array([q for q, _ in kept]), found.edges)) if top]
        ordered = _ordered_clockwise(np.array([q / found.scale for q, _ in kept], np.float32).reshape(-1, 4, 2))
        return [Detection(corners=q, score=score) for q, (_, score) in zip(ordered, kept)]

    def candidates(self, image: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, bool]:
        """The working copy of `image`, its scale, and the card-shaped quadrilaterals
        (n, 4, 2, clockwise from a corner of a short side, in the copy's pixels) the
        contour search finds inside the frame, with their scores: what the learned
        check (vision/cardness.py) and then `_suppress` choose from."""
        found = self._search(image)
        return found.small, found.scale, found.quads, found.scores, found.plain

    def _search(self, image: np.ndarray) -> "_Search":
        small, scale = _working_copy(image, self.settings.work_size)
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        found, plain, edges = self._candidates(small, gray)
        straight = self.overlaps.find(gray, edges, found.blobs,
                                      self.settings.min_area * small.shape[0] * small.shape[1],
                                      self.settings.max_area * small.shape[0] * small.shape[1]) if self.settings.overlaps else []
        every = found.quads + straight
        quads = _ordered_clockwise(np.array([q for q, _ in every], np.float32).reshape(-1, 4, 2))
        inside = _inside_frame(quads, small.shape)
        scores = np.array([s for _, s in every], np.float32)
        by_edges = np.arange(len(every)) >= len(found.quads)
        return _Search(small, scale, quads[inside], scores[inside], plain, edges, by_edges[inside])

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return min(1.0, self.settings.work_size / max(shape[:2]))

    def _maps(self, gray: np.ndarray, change: np.ndarray) -> list[np.ndarray]:
        """Binary maps whose enclosed regions may be cards: grey-level edges (of `gray`,
        the working copy's grey levels), the strongest colour change per pixel (`change`:
        a dark card on dark cloth, or a white card on a white table, differs from it in
        one channel more than in brightness)."""
        blurred = cv2.GaussianBlur(gray, (5, 5), 0)
        # thresholds low enough for the weakest of: edges typical of this picture (a
        # white card on a white table has weak edges in a bright image), or edges
        # typical of its brightness (a dark card on dark cloth beside bright cards)
        sample = blurred[::2, ::2]
        magnitude = np.abs(cv2.Sobel(sample, cv2.CV_16S, 1, 0)) + np.abs(cv2.Sobel(sample, cv2.CV_16S, 0, 1))
        high = min(float(np.clip(_percentile(magnitude, 90), 25, 200)), 0.66 * _percentile(sample, 50) + 20)
        edges = cv2.Canny(blurred, 0.4 * high, high)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        _, colour_edges = cv2.threshold(change, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        return [edges, colour_edges]

    def _candidates(self, small: np.ndarray, gray: np.ndarray) -> tuple["_Contours", bool, np.ndarray]:
        """Card-shaped quadrilaterals of the edge maps, and on a plain table of the map
        of what is not the table's colour (`_off_plain_table`), with the blobs of the edge
        maps that may be overlapping cards; whether the table is plain; the edge map. A glare spot is not the
        table's colour either, but it fades out where a card's edge is a step: those
        must have a colour step along most of their outline. `gray`: `small` in grey levels."""
        change = _colour_change(small)
        maps = self._maps(gray, change)
        blobs: list[np.ndarray] = []
        found = [quad for binary in maps for quad in self._from_map(binary, blobs)]
        off_table = _off_plain_table(small) if self.settings.plain_table else None
        if off_table is not None:
            found += [(q, score) for q, score in self._from_map(off_table) if _outlined(q, change)]
        return _Contours(found, blobs), off_table is not None, maps[0]

    def _from_map(self, binary: np.ndarray, blobs: list[np.ndarray] | None = None) -> list[tuple[np.ndarray, float]]:
        """Card-shaped quadrilaterals of the regions `binary` encloses; the regions too
        large to be one card and not even a quadrilateral are added to `blobs`: cards
        that overlap, not a row or grid of touching cards (a quadrilateral of another
        aspect, which `_split` and `_suppress` deal with, and whose square blocks would
        all look like cards to the straight-edge search)."""
        s = self.settings
        image_area = binary.shape[0] * binary.shape[1]
        found: list[tuple[np.ndarray, float]] = []
        contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        # areas without a Python step per contour: a cloth or a card's print makes tens of
        # thousands of tiny ones, of which a few hundred are big enough to be cards
        areas = np.fromiter(map(cv2.contourArea, contours), float, len(contours))
        for i in np.flatnonzero((areas >= s.min_area * image_area) & (areas <= s.max_area * image_area)).tolist():
            contour, area = contours[i], float(areas[i])
            quad = _quadrilateral(contour)
            scored = None if quad is None else self._card_like(quad, area)
            if quad is not None and scored is not None:
                found.append((quad, scored))
            elif area > 2 * s.min_area * image_area:
                found += self._split(contour)
                if blobs is not None and (quad is None or area < s.min_fill * _polygon_area(quad)):
                    blobs.append(contour)
        return found

    def _card_like(self, quad: np.ndarray, area: float) -> float | None:
        """A score if `quad` (holding a region of `area`) is shaped like a card, else None."""
        fill = area / max(_polygon_area(quad), 1.0)
        if fill < self.settings.min_fill or fill > 1.15:
            return None
        aspect_error = abs(aspect(quad) - CARD_ASPECT)
        return None if aspect_error > self.settings.aspect_tolerance else min(fill, 1.0) - aspect_error

    def _split(self, contour: np.ndarray) -> list[tuple[np.ndarray, float]]:
        """Cards inside a blob of touching cards: the blob's thick cores (where the
        distance to its edge is large) separate at the thin necks where cards touch;
        each core grown back by that distance is a card candidate."""
        blob_area = cv2.contourArea(contour)
        if blob_area < 0.6 * cv2.contourArea(cv2.convexHull(contour)):
            return []  # not a few cards side by side: table texture, a hand, clutter
        x, y, w, h = cv2.boundingRect(contour)
        mask = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(mask, [contour - (x - 1, y - 1)], -1, 255, -1)
        # the cores of a blob most of a frame wide (a cloth pattern, a close-up of a few
        # cards) are found from every `step`-th pixel: they are tens of pixels across,
        # and the distance transform of the whole blob was a fifth of a frame's search
        step = -(-max(w, h) // SPLIT_DETAIL)
        distance = cv2.distanceTransform(np.ascontiguousarray(mask[::step, ::step]), cv2.DIST_L2, 3) * step
        margin = 0.5 * float(distance.max())
        cores, _ = cv2.findContours((distance > margin).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not 2 <= len(cores) <= 4:
            return []
        found = []
        for core in cores:
            (cx, cy), (cw, ch), angle = cv2.minAreaRect(core.astype(np.float32) * step)
            quad = cv2.boxPoints(((cx + x - 1, cy + y - 1), (cw + 2 * margin, ch + 2 * margin), angle)).astype(np.float32)
            area = _covered(mask, (quad - (x - 1, y - 1)).astype(np.int32))
            scored = self._card_like(quad, area)
            if scored is not None and area > blob_area / (len(cores) + 2):
                found.append((quad, scored))
        return found


def _covered(mask: np.ndarray, corners: np.ndarray) -> float:
    """How many pixels of `mask` the convex polygon of whole-pixel `corners` covers,
    counted inside the polygon's bounding box only (a blob's core is a card in a box
    that may be most of a frame wide)."""
    h, w = mask.shape
    x0, y0 = np.maximum(corners.min(axis=0), 0).tolist()
    x1, y1 = np.minimum(corners.max(axis=0) + 1, (w, h)).tolist()
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, corners - np.array([x0, y0], np.int32), 255)
    return float(np.count_nonzero(inside & mask[y0:y1, x0:x1]))


def _working_copy(image: np.ndarray, work_size: int) -> tuple[np.ndarray, float]:
    """The image with its longest side at most `work_size`, and the scale it was shrunk
    by. Shrinking by more than half first averages whole blocks of n x n pixels (n a
    whole number, leaving at least `work_size`), then interpolates the rest: OpenCV's
    area filter costs three times as much at a fractional factor as at a whole one.
    The photo is trimmed to a multiple of n first, by under n pixels on the far sides."""
    longest = max(image.shape[:2])
    if longest <= work_size:
        return image, 1.0
    n = longest // work_size
    if n > 1:
        h, w = image.shape[0] // n, image.shape[1] // n
        image = cv2.resize(image[: h * n, : w * n], (w, h), interpolation=cv2.INTER_AREA)
    scale = work_size / max(image.shape[:2])
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR), scale / n


def _percentile(values: np.ndarray, percent: float) -> float:
    """np.percentile of small non-negative integers ('lower' method), by counting them:
    a histogram is a fraction of the cost of partitioning a whole image."""
    counts = np.cumsum(np.bincount(values.ravel()))
    return float(np.searchsorted(counts, percent / 100 * (counts[-1] - 1), side="right"))


def _off_plain_table(small: np.ndarray) -> np.ndarray | None:
    """Where the picture is not the colour of a plain table, or None when the table
    is not plain (wood grain, patterned cloth).

    A card printed dark with a black rim, on a dark cloth, has no edge strong enough
    for the edge maps: the rim vanishes into the cloth and its outline breaks, and
    only the bright art panel inside it is found. Yet its colour is not the cloth's.
    The table's colour is the commonest colour of the picture; on a plain table that
    colour covers most of it (not so on patterned cloth, whose motifs would join the
    cards they touch), and what differs from it by more than the table's own
    variation is cards, hands (not card-shaped) and glare (no print)."""
    h, w = small.shape[:2]
    tiny = cv2.cvtColor(cv2.resize(small, (w // TABLE_SCALE, h // TABLE_SCALE), interpolation=cv2.INTER_AREA),
                        cv2.COLOR_BGR2LAB)
    weights = np.array([0.5, 1.0, 1.0], np.float32)  # light falls off across a table; its hue holds
    sample = tiny[::2, ::2].reshape(-1, 3)
    keys = ((sample[:, 0] // (3 * TABLE_BIN)).astype(np.int32) * 32 + sample[:, 1] // TABLE_BIN) * 32 + sample[:, 2] // TABLE_BIN
    sample = sample.astype(np.float32) * weights
    near = keys == int(np.argmax(np.bincount(keys)))
    for _ in range(2):  # the commonest bin's colour, then everything near it (a bin's edge may cut the table in two)
        colour = sample[near].mean(axis=0)
        distance = np.sqrt(((sample - colour) ** 2).sum(axis=1))
        near = distance < TABLE_BIN
    if near.mean() < PLAIN_TABLE_SHARE:
        return None
    cut = max(MIN_TABLE_DISTANCE, 3 * float(np.median(distance[near])))
    difference = cv2.multiply(cv2.subtract(tiny.astype(np.float32), colour / weights), weights)
    smooth = cv2.resize(cv2.sqrt(cv2.transform(difference * difference, np.ones((1, 3), np.float32))), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    return cv2.compare(smooth, np.array([cut]), cv2.CMP_GT)  # 255 above the cut: a threshold's map, made as bytes in one pass


def _colour_change(small: np.ndarray) -> np.ndarray:
    """Per pixel, the strongest change of any colour channel across a 3x3 neighbourhood.
    The strongest of a pixel's three channels is a 1x3 dilation of its row of
    interleaved channels, read at every third byte: two passes over the frame where
    splitting the channels and taking their maximum pair by pair took four."""
    change = cv2.morphologyEx(cv2.GaussianBlur(small, (3, 3), 0), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    h, w = change.shape[:2]
    return np.ascontiguousarray(cv2.dilate(change.reshape(h, w * 3), np.ones((1, 3), np.uint8), anchor=(0, 0))[:, ::3])


def _outlined(quad: np.ndarray, change: np.ndarray) -> bool:
    """Whether the colour changes by at least MIN_STEP (the median over points all round
    `quad`) where its sides run: a card's edge is a step, a glare spot's a slow fade."""
    h, w = change.shape
    steps = np.linspace(0, 1, OUTLINE_SAMPLES // 4, endpoint=False)[:, None]
    points = np.concatenate([quad[i] + steps * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    x = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
    y = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
    return float(np.median(change[y, x])) >= MIN_STEP


def _inside_frame(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """For each of the (n, 4, 2) quadrilaterals, False where a side lies on the image
    border: what the frame cuts (a hand reaching in, the table itself in a tight crop)
    is not a card we can read."""
    h, w = shape[:2]
    slack = 0.01 * max(h, w)
    x, y = quads[..., 0], quads[..., 1]
    on_edge = (x < slack, x > w - 1 - slack, y < slack, y > h - 1 - slack)
    return (np.all([np.count_nonzero(edge, axis=1) < 2 for edge in on_edge], axis=0)
            & (x.min(axis=1) > -slack) & (y.min(axis=1) > -slack) & (x.max(axis=1) < w + slack) & (y.max(axis=1) < h + slack))


def _quadrilateral(contour: np.ndarray) -> np.ndarray | None:
    """Four corners of a convex, card-like contour; rounded corners fall back to minAreaRect."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.02 * perimeter, True)
    if len(approx) == 4:
        return approx.reshape(4, 2).astype(np.float32)
    if len(approx) > 8 or len(approx) < 4:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    # rounded corners fill their box; an ellipse (a motif on a cloth) fills only pi/4
    return box if cv2.contourArea(hull) > 0.86 * _polygon_area(box) else None


@dataclass(frozen=True)
class _Quad:
    corners: np.ndarray
    score: float
    area: float
    box: tuple[float, float, float, float]

    @classmethod
    def all_of(cls, corners: Sequence[np.ndarray], scores: Sequence[float]) -> list["_Quad"]:
        """One per quadrilateral, their bounding boxes worked out together (a 40-card
        photo has ~400 of them, and one at a time cost a third of `_suppress`)."""
        if not len(corners):
            return []
        quads = np.asarray(corners, np.float32).reshape(-1, 4, 2)
        lows, highs = quads.min(axis=1).tolist(), quads.max(axis=1).tolist()
        return [cls(q, s, _polygon_area(q), (x0, y0, x1, y1))
                for q, s, (x0, y0), (x1, y1) in zip(quads, scores, lows, highs)]

    def overlaps(self, other: "_Quad", least: float) -> bool:
        """Whether the two intersect over more than `least` (an area). Their bounding
        boxes' intersection bounds it, and settles most pairs of a tight grid (whose
        boxes touch at a neighbour's rim) without intersecting the quadrilaterals."""
        a, b = self.box, other.box
        w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
        return w > 0 and h > 0 and w * h > least and _overlap(self.corners, other.corners) > least


def _representative(group: list["_Quad"]) -> "_Quad":
    """The largest of a card's near-duplicate quadrilaterals that fits its contour about
    as well as the best one does: the outer edge of a card, not the inner edge of its
    border, but not a box grown around a table dot or grain line that touched the card
    (its contour then fills the box less well)."""
    best = max(q.score for q in group)
    return next(q for q in group if q.score >= best - FIT_SLACK)


def _neighbours(quads: list["_Quad"]) -> list[list[int]]:
    """For each quadrilateral, the others (in list order) whose bounding boxes meet its
    own: the only ones it can overlap. A 40-card photo has ~300 candidates, and asking
    every pair in Python cost more than finding them."""
    if not quads:
        return []
    x0, y0, x1, y1 = np.array([q.box for q in quads]).T
    meet = (x0[:, None] <= x1) & (x0 <= x1[:, None]) & (y0[:, None] <= y1) & (y0 <= y1[:, None])
    np.fill_diagonal(meet, False)
    return [np.flatnonzero(row).tolist() for row in meet]


def _tiled(quad: "_Quad", inner: list["_Quad"]) -> bool:
    """Whether two or more like-sized quadrilaterals among `inner` (all inside `quad`)
    tile it: the cards of a blob of touching cards (beside the blobs of some of them),
    or the halves of one card split at its art panel."""
    for k in inner:
        tiles = [t.area for t in inner if 0.7 * k.area < t.area < k.area / 0.7]
        if len(tiles) >= 2 and sum(tiles) > 0.75 * quad.area:
            return True
    return False


def _typical_area(quads: list["_Quad"], near: list[list[int]]) -> float | None:
    """The median area of the quadrilaterals inside no other and tiled by none: single
    cards, and the cards of one table are about one size. A tiled one may be two
    touching cards or one card in two halves, and which it is shows in how its size
    compares with the table's other cards. None when there are no others."""
    plain = []
    for i, q in enumerate(quads):
        others = [quads[j] for j in near[i]]
        if not any(q.area < o.area and o.overlaps(q, 0.7 * q.area) for o in others) and not _tiled(
                q, [k for k in others if k.area < q.area and k.overlaps(q, 0.7 * k.area)]):
            plain.append(q.area)
    return float(np.median(plain)) if plain else None


def _surface(quad: "_Quad", inner: list["_Quad"]) -> bool:
    """Whether `quad` is something cards lie on (a felt mat, a sheet of paper, a tray),
    not a card: it holds at least SURFACE_CARDS like-sized card-shaped quadrilaterals
    apart from each other, each a small share of it. A card's own print holds at most
    three (an art box, a text box, three symbols of a pattern card)."""
    small = [q for q in inner if q.area < SURFACE_SHARE * quad.area]
    if len(small) < SURFACE_CARDS:
        return False
    median = float(np.median([q.area for q in small]))
    alike = [q for q in small if 0.5 * median < q.area < 2 * median]
    apart = [q for q in alike if not any(o is not q and o.overlaps(q, 0.3 * q.area) for o in alike)]
    return len(apart) >= SURFACE_CARDS


def _suppress(candidates: list[tuple[np.ndarray, float]]) -> list[tuple[np.ndarray, float]]:
    """One quadrilateral per card.

    Near-duplicates (the same card from several maps, or a border's inner and outer
    edge) collapse to the largest. Of nested ones, the outer wins (an art box inside a
    card) unless like-sized inner ones tile it (two touching cards seen as one blob).
    """
    quads = sorted(_Quad.all_of([c for c, _ in candidates], [s for _, s in candidates]), key=lambda q: -q.area)
    near = _neighbours(quads)
    groups: dict[int, list[_Quad]] = {}  # by the index of each group's first (largest) quad
    for i, quad in enumerate(quads):
        for j in near[i]:
            if j in groups and quad.overlaps(quads[j], 0.68 * max(quad.area, quads[j].area)):
                groups[j].append(quad)
                break
        else:
            groups[i] = [quad]
    merged = _Quad.all_of([_representative(g).corners for g in groups.values()],
                          [max(q.score for q in g) + 0.01 * len(g) for g in groups.values()])
    near = _neighbours(merged)
    typical = _typical_area(merged, near)
    kept: list[int] = []  # nested: decide from the inside out
    for i in sorted(range(len(merged)), key=lambda i: merged[i].area):
        quad = merged[i]
        inside = [j for j in near[i] if j in kept and merged[j].overlaps(quad, 0.7 * merged[j].area)]
        areas = [merged[j].area for j in inside]
        if (len(inside) >= 2 and sum(areas) > 0.75 * quad.area and min(areas) > 0.7 * max(areas)
                and (typical is None or abs(np.log(np.mean(areas) / typical))
                     < abs(np.log(quad.area / typical)) + np.log(SIZE_SLACK))):
            continue  # a blob of several like-sized cards: keep the cards
        if _surface(quad, [merged[j] for j in inside]):
            continue  # a mat or a sheet the cards lie on
        kept = [k for k in kept if k not in inside] + [i]
    return [(merged[i].corners, merged[i].score) for i in kept]
