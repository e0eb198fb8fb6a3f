"""The cards of a fan or a pile that are whole enough to read, from the straight edges
inside the blob the contour search found round them.

Why: the contours of cards that overlap close round the whole fan or pile, a region no
card-shaped test accepts, and the cards inside it share no closed outline of their own.
But a card lying on top shows its own edge all round, and a card at least nine tenths
visible still shows two opposite corners: two straight edges meeting at a corner, and
across the card two more running back the other way. So inside each such blob the
straight segments are found (OpenCV's line segment detector, on the blob's box only),
pairs of them meeting near their ends at about a right angle are taken as corners, and
two corners facing each other across a card-shaped quadrilateral make a hypothesis.
A hypothesis is kept where the edge map runs along most of each of its four sides
(a card lower in the pile has part of its outline hidden, and a quadrilateral joined
from the corners of two different cards cuts across their faces) and no seam runs
right across it (two touching cards side by side make a card-shaped block). After the
learned card check, `blobs_and_their_print` drops the box round a fan whose top card
was found, and `on_top` the card beneath of two that overlap by more than whole cards
can.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.geometry import CARD_ASPECT, aspect

LSD_SCALE = 0.5  # the segment detector's own resampling of the image
LSD_PIXELS = 40_000  # most pixels it reads a box at
BENEATH = 0.15   # overlap, as a share of the smaller card, above which one of two cards lies under the other
NESTED = 0.85    # ... up to this share (one inside the other: `_suppress` chooses)
TOP_SHARE = 0.8  # a fan or pile is larger than its top card by more than 1 / this
BLOB_CARDS = 8   # a fan or pile is smaller than this many of its cards
LOOSE = 0.3      # a blob's box has a side that edges (widened by 2 pixels) run along less than this
SEAMS = (1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4)  # where seams between cards cross the blocks of a row or grid
PRINT_SHARE = 0.6  # what lies in a fan or pile and is smaller than this share of its top card is print


@dataclass(frozen=True)
class OverlapSettings:
    min_segment: float = 0.25     # shortest segment, as a share of the smallest card's short side
    corner_reach: float = 0.12    # how far a corner may lie from a segment's end, as a share of that segment's length
    corner_slack: float = 4.0     # ... plus this many pixels (a rounded corner cuts its sides short)
    right_angle: float = 35.0     # degrees two sides of a corner may differ from square (tilt skews them)
    parallel: float = 25.0        # degrees opposite sides may differ from parallel
    aspect_tolerance: float = 0.2  # allowed |short/long - CARD_ASPECT|
    side_samples: int = 24        # points along each side where the edge map is looked up
    min_support: float = 0.75     # share of each side's points that must lie on an edge
    max_blobs: int = 8            # blobs searched per frame, the largest first
    max_finds: int = 4            # best-supported cards kept per blob (each costs the card check and the choice)
    max_segments: int = 60        # the longest segments of a blob that corners are looked for among
    min_solidity: float = 0.6     # least share of its convex hull a blob of overlapping cards fills


def _segments(gray: np.ndarray, box: tuple[int, int, int, int], shortest: float) -> np.ndarray:
    """(n, 2, 2) straight segments at least `shortest` long inside `box` of `gray`, in
    image pixels, found at half resolution (a quarter of the time; the corners are
    placed to a pixel or two, which the edge fit after detection corrects), or less
    where the box is large (at most LSD_PIXELS then: the cards that fill a large box
    have long sides, and a card's contour run into a patterned cloth's motifs made
    a box most of a photo wide, textured all over, which cost more than the rest of
    the detection)."""
    x, y, w, h = box
    scale = min(LSD_SCALE, float(np.sqrt(LSD_PIXELS / max(w * h, 1))))
    lines = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD, scale).detect(
        np.ascontiguousarray(gray[y:y + h, x:x + w]))[0]
    if lines is None:
        return np.empty((0, 2, 2), np.float32)
    segs = lines.reshape(-1, 2, 2) + np.array([x, y], np.float32)
    length = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    return segs[length >= shortest]


def _longest(segs: np.ndarray, most: int) -> np.ndarray:
    """The `most` longest of `segs` (n, 2, 2): a card's sides are the longest straight
    lines on it, and corners among n segments cost n squared."""
    if len(segs) <= most:
        return segs
    length = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    return segs[np.argpartition(-length, most)[:most]]


def _corners(segs: np.ndarray, s: OverlapSettings) -> tuple[np.ndarray, np.ndarray]:
    """Where two segments meet at about a right angle, near an end of each or one's end on
    the other: (m, 2) points and (m, 2, 2) the unit directions from each along its two
    sides, into the card."""
    a, b = segs[:, 0], segs[:, 1]
    d = b - a
    length = np.linalg.norm(d, axis=1)
    u = d / length[:, None]
    i, j = _pairs(len(segs))
    cos = np.abs((u[i] * u[j]).sum(axis=1))
    square = cos < np.sin(np.radians(s.right_angle))
    i, j = i[square], j[square]
    # intersection of the two lines: a_i + t u_i = a_j + r u_j
    cross = u[i, 0] * u[j, 1] - u[i, 1] * u[j, 0]
    offset = a[j] - a[i]
    t = (offset[:, 0] * u[j, 1] - offset[:, 1] * u[j, 0]) / cross
    r = (offset[:, 0] * u[i, 1] - offset[:, 1] * u[i, 0]) / cross
    point = a[i] + t[:, None] * u[i]
    reach_i, reach_j = s.corner_reach * length[i] + s.corner_slack, s.corner_reach * length[j] + s.corner_slack
    # near either end of each segment, not inside it (a T where one card's edge meets another's side)
    i_start, i_end = np.abs(t) <= reach_i, np.abs(t - length[i]) <= reach_i
    j_start, j_end = np.abs(r) <= reach_j, np.abs(r - length[j]) <= reach_j
    i_ends, j_ends = i_start | i_end, j_start | j_end
    # or one ends on the other's middle: a card's corner where a collinear edge runs on
    # past it (the tops of an overlapping row are one straight line), either way along it
    i_on, j_on = (t > 0) & (t < length[i]), (r > 0) & (r < length[j])
    dir_i = np.where(i_start[:, None], u[i], -u[i])
    dir_j = np.where(j_start[:, None], u[j], -u[j])
    corner = i_ends & j_ends
    ends_on_j, ends_on_i = i_ends & j_on & ~j_ends, j_ends & i_on & ~i_ends
    points = np.concatenate([point[corner], point[ends_on_j], point[ends_on_j], point[ends_on_i], point[ends_on_i]])
    first = np.concatenate([dir_i[corner], dir_i[ends_on_j], dir_i[ends_on_j], u[i][ends_on_i], -u[i][ends_on_i]])
    second = np.concatenate([dir_j[corner], u[j][ends_on_j], -u[j][ends_on_j], dir_j[ends_on_i], dir_j[ends_on_i]])
    return points, np.stack([first, second], axis=1)


@lru_cache(maxsize=64)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """np.triu_indices(n, 1), kept: it builds an n x n mask each time, a fifth of `_corners`
    (whose segments are at most `max_segments`, so few sizes are ever kept)."""
    pairs = np.triu_indices(n, 1)
    for half in pairs:
        half.flags.writeable = False
    return pairs


def _cross2(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    return p[..., 0] * q[..., 1] - p[..., 1] * q[..., 0]


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Where the line through p along u meets the line through q along v (all (n, 2))."""
    t = _cross2(q - p, v) / _cross2(u, v)
    return p + t[:, None] * u


def _hypotheses(points: np.ndarray, rays: np.ndarray, s: OverlapSettings, min_area: float,
                max_area: float) -> np.ndarray:
    """(k, 4, 2) card-shaped quadrilaterals from pairs of corners facing each other across
    them: each corner's two sides run back from the other corner, parallel to its own."""
    i, j = np.triu_indices(len(points), 1)
    if not len(i):
        return np.empty((0, 4, 2), np.float32)
    parallel = -np.cos(np.radians(s.parallel))
    # each corner lies within the other's angle (whichever of j's sides runs against which of i's)
    ri, gap = rays[i], points[j] - points[i]
    spread = _cross2(ri[:, 0], ri[:, 1])
    within = np.flatnonzero((_cross2(ri[:, 0], gap) * spread > 0) & (_cross2(gap, ri[:, 1]) * spread > 0))
    i, j, ri = i[within], j[within], ri[within]
    rays_j = rays[j]
    # j's first side runs against i's first or second side; the other pair likewise
    quads = []
    for swap in (False, True):
        rj = rays_j[:, ::-1] if swap else rays_j
        keep = ((ri[:, 0] * rj[:, 0]).sum(axis=1) < parallel) & ((ri[:, 1] * rj[:, 1]).sum(axis=1) < parallel)
        if not keep.any():
            continue
        pi, pj, ui, uj = points[i[keep]], points[j[keep]], ri[keep], rj[keep]
        # i, its first side's end (where j's second side's line crosses it), j, then the other
        quad = np.stack([pi, _meet(pi, ui[:, 0], pj, uj[:, 1]), pj, _meet(pi, ui[:, 1], pj, uj[:, 0])], axis=1)
        quads.append(quad)
    if not quads:
        return np.empty((0, 4, 2), np.float32)
    quads_all = np.concatenate(quads).astype(np.float32)
    sides = np.linalg.norm(np.roll(quads_all, -1, axis=1) - quads_all, axis=2)
    a, b = sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]
    ratio = np.minimum(a, b) / np.maximum(np.maximum(a, b), 1e-6)
    x, y = quads_all[..., 0], quads_all[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    ok = (np.abs(ratio - CARD_ASPECT) <= s.aspect_tolerance) & (area >= min_area) & (area <= max_area)
    return quads_all[ok]


def _support(quads: np.ndarray, edges: np.ndarray, samples: int) -> np.ndarray:
    """(k,) the least share, over a quadrilateral's four sides, of points along the side
    (its ends left out: corners round off) that lie on an edge of `edges`."""
    h, w = edges.shape
    steps = np.linspace(0.1, 0.9, samples, dtype=np.float32)[None, None, :, None]
    start, end = quads[:, :, None, :], np.roll(quads, -1, axis=1)[:, :, None, :]
    points = start + steps * (end - start)  # (k, 4, samples, 2)
    x = np.clip(np.round(points[..., 0]).astype(np.int32), 0, w - 1)
    y = np.clip(np.round(points[..., 1]).astype(np.int32), 0, h - 1)
    inside = (points[..., 0] >= 0) & (points[..., 0] < w) & (points[..., 1] >= 0) & (points[..., 1] < h)
    return ((edges[y, x] > 0) & inside).mean(axis=2).min(axis=1)


def _on_quads(quads: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """(k, m, 2) the points `uv` (m, 2) of the unit square, (0, 0) at corner 0 and (1, 0)
    at corner 1, placed on each quadrilateral (k, 4, 2) as perspective places them
    (Heckbert's square-to-quadrilateral mapping, all at once)."""
    x, y = quads[..., 0].astype(np.float64).T, quads[..., 1].astype(np.float64).T  # (4, k)
    sx, sy = x[0] - x[1] + x[2] - x[3], y[0] - y[1] + y[2] - y[3]
    dx1, dx2, dy1, dy2 = x[1] - x[2], x[3] - x[2], y[1] - y[2], y[3] - y[2]
    den = dx1 * dy2 - dx2 * dy1
    den = np.where(np.abs(den) > 1e-9, den, 1e-9)
    g, h = (sx * dy2 - dx2 * sy) / den, (dx1 * sy - sx * dy1) / den
    a, b, c = x[1] - x[0] + g * x[1], x[3] - x[0] + h * x[3], x[0]
    d, e, f = y[1] - y[0] + g * y[1], y[3] - y[0] + h * y[3], y[0]
    u, v = uv[None, :, 0], uv[None, :, 1]
    w = g[:, None] * u + h[:, None] * v + 1
    return np.stack([(a[:, None] * u + b[:, None] * v + c[:, None]) / w,
                     (d[:, None] * u + e[:, None] * v + f[:, None]) / w], axis=-1)


def _seam(quads: np.ndarray, edges: np.ndarray, samples: int) -> np.ndarray:
    """(k,) the largest share, over lines right across a quadrilateral parallel to its
    sides at SEAMS of the way, of points that lie on an edge of `edges`: two cards side
    by side, or a square block of a grid of touching cards, make one card-shaped
    quadrilateral with edges all round, and the seams between the cards run right
    across it there; a card's own print seldom runs straight and edge to edge along one."""
    if not len(quads):
        return np.zeros(0)
    t = np.linspace(0.1, 0.9, samples)
    lines = [np.stack([np.full_like(t, f), t], axis=1) for f in SEAMS] + [np.stack([t, np.full_like(t, f)], axis=1) for f in SEAMS]
    points = _on_quads(quads, np.concatenate(lines))  # (k, lines * samples, 2)
    h, w = edges.shape
    x = np.clip(np.round(np.nan_to_num(points[..., 0])).astype(np.int64), 0, w - 1)
    y = np.clip(np.round(np.nan_to_num(points[..., 1])).astype(np.int64), 0, h - 1)
    return (edges[y, x] > 0).reshape(len(quads), len(lines), samples).mean(axis=2).max(axis=1)


def _distinct(quads: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The best-supported of hypotheses that are the same card (corners all within a
    tenth of its short side of each other), best first."""
    order = np.argsort(-scores, kind="stable")
    apart = np.abs(quads[:, None] - quads[None, :]).max(axis=(2, 3))  # (k, k) the farthest corner
    reach = 0.1 * np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2).min(axis=1)
    kept: list[int] = []
    for k in order.tolist():
        if not (apart[k, kept] < reach[k]).any():
            kept.append(k)
    return quads[kept], scores[kept]


class OverlapFinder:
    """Cards inside blobs of overlapping cards, by straight edges (module docstring)."""

    def __init__(self, settings: OverlapSettings | None = None) -> None:
        self.settings = settings or OverlapSettings()

    def find(self, gray: np.ndarray, edges: np.ndarray, blobs: list[np.ndarray],
             min_area: float, max_area: float) -> list[tuple[np.ndarray, float]]:
        """Card quadrilaterals (with a score, as `ContourCardDetector` scores its own) inside
        `blobs` (contours of `gray`'s pixels); `edges`: the binary edge map they are
        checked against; `min_area`, `max_area`: a card's size bounds in pixels."""
        s = self.settings
        blobs = _solid(blobs, s.min_solidity)[: int(s.max_blobs)]
        if not blobs:
            return []
        boxes = np.array([cv2.boundingRect(b) for b in blobs])
        h, w = gray.shape
        pad = 4
        lo = np.maximum(boxes[:, :2] - pad, 0)
        hi = np.minimum(boxes[:, :2] + boxes[:, 2:] + pad, (w, h))
        shortest = s.min_segment * np.sqrt(min_area * CARD_ASPECT)
        whole = np.r_[lo.min(axis=0), hi.max(axis=0)]
        at_once = np.prod(whole[2:] - whole[:2]) < np.prod(hi - lo, axis=1).sum()  # one search over all, or one per blob
        if at_once:
            everywhere = _segments(gray, (int(whole[0]), int(whole[1]), int(whole[2] - whole[0]), int(whole[3] - whole[1])), shortest)
            middles = everywhere.mean(axis=1)
        found: list[tuple[np.ndarray, float]] = []
        for blob, (x0, y0), (x1, y1) in zip(blobs, lo.tolist(), hi.tolist()):
            if at_once:
                segs = everywhere[(middles[:, 0] >= x0) & (middles[:, 0] <= x1) & (middles[:, 1] >= y0) & (middles[:, 1] <= y1)]
            else:
                segs = _segments(gray, (x0, y0, x1 - x0, y1 - y0), shortest)
            if len(segs) < 4:
                continue
            points, rays = _corners(_longest(segs, int(s.max_segments)), s)
            quads = _hypotheses(points, rays, s, min_area, min(max_area, cv2.contourArea(blob)))
            if not len(quads):
                continue
            support = _support(quads, edges, s.side_samples)
            best = np.argsort(-support, kind="stable")[: 8 * int(s.max_finds)]  # near-duplicates many
            best = best[support[best] >= s.min_support]
            quads, support = _distinct(quads[best], support[best])
            quads = quads[_seam(quads, edges, s.side_samples) < s.min_support][: int(s.max_finds)]
            # scored as a contour that fills its quadrilateral: `_suppress` then prefers the
            # outer of a card's near-duplicates, as it does for contours, not the best-supported
            found += [(q, 1.0 - abs(aspect(q) - CARD_ASPECT)) for q in quads]
        return found


def _solid(blobs: list[np.ndarray], solidity: float) -> list[np.ndarray]:
    """The blobs that may be overlapping cards, largest first, one of each near-duplicate
    (an edge map's ring has an inside and an outside contour; two maps find one blob):
    those filling at least `solidity` of their hull (not table texture, a hand or
    clutter)."""
    kept: list[np.ndarray] = []
    boxes: list[tuple[int, int, int, int]] = []
    for blob in sorted(blobs, key=cv2.contourArea, reverse=True):
        area = cv2.contourArea(blob)
        if area < solidity * cv2.contourArea(cv2.convexHull(blob)):
            continue
        x, y, w, h = cv2.boundingRect(blob)
        if any(abs(x - a) + abs(y - b) + abs(x + w - a - c) + abs(y + h - b - d) < 0.1 * (w + h) for a, b, c, d in boxes):
            continue
        kept.append(blob)
        boxes.append((x, y, w, h))
    return kept


def _inside(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Which of `points` (..., 2) lie inside the convex quadrilaterals `quads` (..., 4, 2),
    the two broadcast against each other."""
    edge = np.roll(quads, -1, axis=-2) - quads
    cross = _cross2(edge, points[..., None, :] - quads)  # (..., 4)
    return np.asarray((cross > 0).all(axis=-1) | (cross < 0).all(axis=-1))


def on_top(quads: np.ndarray, edges: np.ndarray, samples: int = 64) -> np.ndarray:
    """(n,) False for each of the card quadrilaterals (n, 4, 2) that lies under another:
    two cards at least nine tenths visible overlap by at most a tenth, so of two finds
    overlapping by more (BENEATH of the smaller), one is a card mostly hidden (the
    visible part of a card lower in a fan, closed off by the edge of the card above)
    or a quadrilateral joined across two cards. The one on top is the one whose outline
    runs on through the other: the outline of a card beneath is hidden there. One
    nested in the other is `_suppress`'s to decide."""
    steps = np.linspace(0, 1, samples // 4, endpoint=False, dtype=np.float32)[None, :, None]
    outline = (quads[:, :, None, :] + steps * (np.roll(quads, -1, axis=1) - quads)[:, :, None, :]).reshape(len(quads), -1, 2)
    h, w = edges.shape
    x = np.clip(np.round(outline[..., 0]).astype(np.int32), 0, w - 1)
    y = np.clip(np.round(outline[..., 1]).astype(np.int32), 0, h - 1)
    on_edge = edges[y, x] > 0  # (n, samples)
    areas = np.array([cv2.contourArea(q) for q in quads.astype(np.float32)])
    top = np.ones(len(quads), bool)
    lo, hi = quads.min(axis=1), quads.max(axis=1)  # only quadrilaterals whose boxes meet can overlap
    meet = np.triu(((lo[:, None] < hi[None]) & (lo[None] < hi[:, None])).all(axis=2), 1)
    for i, j in zip(*np.nonzero(meet)):
        least = BENEATH * min(areas[i], areas[j])
        common, _ = cv2.intersectConvexConvex(quads[i].astype(np.float32), quads[j].astype(np.float32))
        if common <= least or common > NESTED * min(areas[i], areas[j]):
            continue
        in_j, in_i = _inside(outline[i], quads[j]), _inside(outline[j], quads[i])
        seen_i = on_edge[i][in_j].mean() if in_j.any() else 1.0
        seen_j = on_edge[j][in_i].mean() if in_i.any() else 1.0
        top[j if seen_i >= seen_j else i] = False
    return top


def blobs_and_their_print(quads: np.ndarray, straight: np.ndarray, edges: np.ndarray,
                          settings: OverlapSettings) -> np.ndarray:
    """(n,) True for the candidates to drop, where a card the straight-edge search found
    (`straight`) lies inside a larger quadrilateral (by more than a card peeking out
    from under it, 1 / TOP_SHARE, and less than a mat or a sheet the cards lie on,
    BLOB_CARDS: `_suppress`'s surface rule knows those). If the larger has a side that
    `edges` mostly do not run along (LOOSE), it is the box round a fan or a pile, cutting across the table
    between its cards: it goes, and so does what lies in it and is much smaller than
    the card (PRINT_SHARE: art panels and title bars of the cards beneath, which the
    box, kept, had hidden from `_suppress` as print inside a card). Otherwise the
    larger is a card with its edge all round (if a pixel or two off), and what the
    search found inside it is its print (an art panel, a text box): that goes."""
    areas = np.array([cv2.contourArea(q) for q in quads.astype(np.float32)])
    drop = np.zeros(len(quads), bool)
    loose = _support(quads, cv2.dilate(edges, np.ones((5, 5), np.uint8)), settings.side_samples) < LOOSE
    cards = np.flatnonzero(straight)
    # (k, n): card i's centre inside quadrilateral j, j larger by the shares above
    holds = (_inside(quads[cards].mean(axis=1)[:, None, :], quads[None])
             & (areas[None, :] * TOP_SHARE > areas[cards, None]) & (areas[None, :] < BLOB_CARDS * areas[cards, None]))
    for k, j in zip(*np.nonzero(holds)):
        i = int(cards[k])
        common, _ = cv2.intersectConvexConvex(quads[i].astype(np.float32), quads[j].astype(np.float32))
        if common < NESTED * areas[i]:
            continue
        if loose[j]:
            drop[j] = True
            drop |= (areas < PRINT_SHARE * areas[i]) & _inside(quads.mean(axis=1), quads[j])
        elif not straight[j]:
            drop[i] = True
    return drop



