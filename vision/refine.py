"""Fit each side of a rough card quadrilateral to the card's own straight edge.

Why: contours give a card's box only roughly. A table dot, a wood grain or a glare
spot touching the card joins its blob, and the box around the hull grows by that much;
a rounded corner or a blurred edge moves it by a few pixels. A card cut out a few per
cent off is a different picture to every identifier that compares where things are on
the card (and the printed value moves out of the reader's view). The card's edge,
unlike what touches it, is one straight line along the whole side, so each side is
searched along its normal at many points, the edge points vote for a straight line,
and the outermost well-supported line wins (inner frames and panels are straight too,
but lie inside the card). Corners are the intersections of the four fitted lines, to
a fraction of a pixel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.geometry import NEXT, corners_of_sides, side_lengths


PEAKS_PER_LINE = 5
SMALLEST = 8  # px: a quad's shortest side under this is left as it is (its search lines hold too few samples)
MIN_TABLE_SHARE = 0.25  # least share of a card's search lines that must end off other cards to judge its table by them


@dataclass(frozen=True)
class RefineSettings:
    samples: int = 28           # search lines per side (at most 64: `_votes` keeps one bit per line)
    span: float = 0.72          # share of each side searched (corners may be rounded)
    inward: float = 0.22        # how far inside the rough side to look, share of the short side
    outward: float = 0.05       # how far outside, share of the short side (plus 2 px)
    step: float = 1 / 200       # between samples along a search line, share of the short side (at least 0.5 px)
    slopes: int = 9             # candidate tilts of a side against the rough one
    max_tilt: float = 0.05      # largest tilt, in pixels of offset per pixel of side
    support: float = 0.45       # least share of search lines that must see the edge
    strength: float = 0.1       # least edge strength of a line, relative to the strongest
    contrast: float = 0.15      # least card-table contrast of a line, relative to the clearest
    min_contrast: float = 8.0   # least card-table contrast of a line, in colour levels


def refine_quad(image: np.ndarray, quad: np.ndarray, settings: RefineSettings = RefineSettings()) -> np.ndarray:
    """`quad` (4x2, any order around the card) moved onto the card's edges in `image`
    (BGR); the rough quad itself when a side finds no edge. Corners keep their order."""
    return refine_quads(image, [quad], settings)[0]


def refine_quads(image: np.ndarray, quads: Sequence[np.ndarray] | np.ndarray,
                 settings: RefineSettings = RefineSettings()) -> list[np.ndarray]:
    """`refine_quad` of every quad, all their sides searched together, as one array each
    step: a side alone is a few dozen short rows, where NumPy's per-call overhead, not
    arithmetic, is the cost.

    Only the pixels along the search lines are read (no whole-image filtering), so it
    costs the same for a webcam frame and a 27-megapixel photo, and a live loop spends
    it only on cards it is about to identify, not on every card every frame."""
    if not len(quads):
        return []
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    shorts = np.array([float(side_lengths(q).min()) for q in quads])
    out = [quad.astype(np.float32) for quad in quads]
    fit = np.flatnonzero(shorts >= SMALLEST)  # a few pixels across leave no room for a search
    if not len(fit):
        return out
    quads, shorts = quads[fit], shorts[fit]
    sides = _Sides.search(image, quads, shorts, settings)
    points, directions = sides.edges(_table_colours(sides, quads), settings)
    corners = corners_of_sides(points.reshape(-1, 4, 2), directions.reshape(-1, 4, 2))
    limits = (settings.inward + settings.outward) * shorts * 1.5 + 3
    moved = np.sqrt(((np.nan_to_num(corners, nan=np.inf) - quads) ** 2).sum(axis=2)).max(axis=1)
    for i, fitted, far, limit in zip(fit, corners, moved, limits):
        if far <= limit:
            out[i] = fitted.astype(np.float32)
    return out


def _table_colours(sides: "_Sides", quads: np.ndarray) -> np.ndarray:
    """(n, 3) each card's table colour: the median of the far outer ends of its search
    lines, leaving out those that end on another of `quads`. Cards laid in a tight grid
    have a neighbour's border within the outer reach of their sides; at a webcam's
    resolution the neighbour's border colour taken for the table's turns the card's own
    edge into a line with "table" inside. A card with too few ends off other cards
    (one in the middle of the grid) takes the table seen past every card's free ends."""
    n = len(quads)
    free = ~_on_other_quads(sides.outer_points.reshape(n, -1, 2), quads)
    ends = sides.outer_ends.reshape(n, free.shape[1], -1, 3)  # (card, search line, sample, colour)
    if not np.any(free):  # every end on another card: nothing better than them all
        return np.median(ends.reshape(n, -1, 3), axis=1)
    per_sample = np.repeat(free, ends.shape[2], axis=1)
    tables = _median_where(ends.reshape(n, -1, 3), per_sample)
    hemmed = np.count_nonzero(free, axis=1) < MIN_TABLE_SHARE * free.shape[1]
    tables[hemmed] = _median_where(ends.reshape(1, -1, 3), per_sample.reshape(1, -1))[0]
    return tables


def _median_where(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """(n, c) the median over axis 1 of (n, k, c) `values` where `keep` (n, k): one sort
    of all rows, with the left-out values sorted past the end (np.median row by row
    added 3 ms, a tenth of the whole edge fit, on a 40-card photo)."""
    ordered = np.sort(np.where(keep[..., None], values, np.inf), axis=1)
    count = np.count_nonzero(keep, axis=1)
    below = np.take_along_axis(ordered, ((count - 1) // 2)[:, None, None], axis=1)[:, 0]
    above = np.take_along_axis(ordered, (count // 2)[:, None, None], axis=1)[:, 0]
    return (below + above) / 2


def _on_other_quads(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(n, m) for each quad's m points, whether it lies inside another of the n convex
    `quads`; each quad tests only the points inside its bounding box."""
    n, m = points.shape[:2]
    xs, ys = points[..., 0].ravel(), points[..., 1].ravel()
    inside = np.zeros(n * m, bool)
    lows, highs = quads.min(axis=1), quads.max(axis=1)
    for j, quad in enumerate(quads):
        box = (xs >= lows[j, 0]) & (xs <= highs[j, 0]) & (ys >= lows[j, 1]) & (ys <= highs[j, 1])
        box[j * m:(j + 1) * m] = False  # its own search lines end outside it
        near = np.flatnonzero(box)
        if near.size:
            edges = quad[NEXT] - quad
            dx, dy = xs[near, None] - quad[None, :, 0], ys[near, None] - quad[None, :, 1]
            cross = edges[None, :, 0] * dy - edges[None, :, 1] * dx
            inside[near] |= np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1)
    return inside.reshape(n, m)


@dataclass(frozen=True)
class _Sides:
    """Colour profiles across every side of every quad (side 4j + i runs from corner i
    to corner i + 1 of quad j): profile[k, r] runs along the outward normal of side k at
    one point of it, inward to outward, in steps of step[k] pixels from start[k]. A
    side's own search ends at `count[k]` samples; the rest of its row is not read."""

    p: np.ndarray           # (k, 2) where each side starts
    q: np.ndarray           # (k, 2) where it ends
    normal: np.ndarray      # (k, 2) outward unit normals
    start: np.ndarray       # (k,) offset of each search line's first sample, pixels from the side
    step: np.ndarray        # (k,) pixels between samples
    count: np.ndarray       # (k,) samples of each side's own search
    profile: np.ndarray     # (k, samples, m, 3)
    directions: np.ndarray  # (k, 2) unit vectors from each side's start to its end
    along: np.ndarray       # (k, samples) where each search line crosses its side, in pixels from its middle

    @classmethod
    def search(cls, image: np.ndarray, quads: np.ndarray, shorts: np.ndarray, s: RefineSettings) -> "_Sides":
        p = quads.reshape(-1, 2)
        q = quads[:, NEXT].reshape(-1, 2)
        lengths = np.maximum(np.sqrt(((q - p) ** 2).sum(axis=1)), 1e-6)
        d = (q - p) / lengths[:, None]
        n = np.stack([d[:, 1], -d[:, 0]], axis=1)
        centres = np.repeat(quads.mean(axis=1), 4, axis=0)
        n[np.einsum("ij,ij->i", n, (p + q) / 2 - centres) < 0] *= -1  # outward
        ts = np.linspace(0.5 - s.span / 2, 0.5 + s.span / 2, s.samples)
        short = np.repeat(shorts, 4)
        step = np.maximum(0.5, s.step * short)
        start = -s.inward * short
        count = np.floor((s.outward * short + 2 + step - start) / step - 1e-9).astype(int) + 1  # np.arange's length
        # a side searched over fewer samples than the longest repeats its own last ones
        # mirrored past its end, as the smoothing below mirrors at the end of a row
        samples = np.arange(int(count.max()))[None, :]
        samples = np.where(samples < count[:, None], samples, 2 * (count[:, None] - 1) - samples)
        offsets = start[:, None] + step[:, None] * samples  # (k, m)
        # x and y of every sample, each built as its own contiguous float32 map
        points = p[:, None, :] + ts[None, :, None] * (q - p)[:, None, :]  # (k, samples, 2) where each line crosses
        xs, ys = ((points[:, :, None, c] + offsets[:, None, :] * n[:, None, None, c]).astype(np.float32)
                  .reshape(len(p) * s.samples, offsets.shape[1]) for c in (0, 1))
        profile: np.ndarray = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        # smoothed along each search line only: noise and JPEG blocks make no edges
        profile = cv2.GaussianBlur(profile, (5, 1), 0).reshape(len(p), s.samples, offsets.shape[1], 3)
        return cls(p, q, n, start, step, count, profile, d, (ts[None, :] - 0.5) * lengths[:, None])

    @property
    def outer_ends(self) -> np.ndarray:
        """(k, samples, 3, 3) the last three samples of each side's own search."""
        last = self.count[:, None] - 3 + np.arange(3)[None, :]
        return np.take_along_axis(self.profile, last[:, None, :, None], axis=2)

    @property
    def outer_points(self) -> np.ndarray:
        """(k, samples, 2) where each search line's own search ends, in the image."""
        middle = (self.p + self.q) / 2
        reach = self.start + (self.count - 2) * self.step  # the middle of the last three samples
        return (middle[:, None, :] + self.along[..., None] * self.directions[:, None, :]
                + (reach[:, None, None] * self.normal[:, None, :]))

    def edges(self, tables: np.ndarray, s: RefineSettings) -> tuple[np.ndarray, np.ndarray]:
        """Each side's edge as (k, 2) points and unit directions; a side with no clear
        edge (a dark rim on a dark table) keeps its rough line. The edge points of all
        sides vote at once (`_votes`), every side's candidate lines are judged at once,
        and each side takes its outermost clear line, fitted to the points that voted
        for it: all sides together, as a side's own arrays are a few dozen numbers."""
        k = len(self.p)
        strength = _length(np.diff(self.profile, axis=2))
        strength *= np.arange(strength.shape[2])[None, None, :] < self.count[:, None, None] - 1  # nothing beyond its search
        side, rows, where, weight = _peaks(strength)
        positions = self.start[side] + (where + 0.5) * self.step[side]
        along = self.along[side, rows]
        votes = _votes(side, rows, along, positions, weight, k, s)
        far = _length(self.profile - np.repeat(tables, 4, axis=0)[:, None, None, :])  # how unlike the table
        owner, slopes, offsets = votes.candidates(s)
        clear = self._table_outside(far, owner, slopes, offsets)
        clearest = np.full(k, -np.inf)
        np.maximum.at(clearest, owner, clear)
        usable = clear >= np.maximum(s.min_contrast, s.contrast * clearest[owner])
        outermost = np.full(k, -np.inf)
        np.maximum.at(outermost, owner, np.where(usable, offsets, -np.inf))
        chosen = np.flatnonzero(usable & (offsets == outermost[owner]))
        found, first = np.unique(owner[chosen], return_index=True)  # the first of a side's equally outer lines
        slope, offset = np.zeros(k), np.zeros(k)
        slope[found], offset[found] = slopes[chosen[first]], offsets[chosen[first]]
        # least squares through the points that voted for the line: sub-pixel, and its tilt
        near = np.isin(side, found) & (np.abs(positions - (offset[side] + slope[side] * along)) < 1.5)
        slope, offset = _line_fits(side, along, positions, np.where(near, weight * weight, 0.0),
                                   np.bincount(side[near], minlength=k) >= 3, (slope, offset))
        directions = self.directions + slope[:, None] * self.normal
        return ((self.p + self.q) / 2 + offset[:, None] * self.normal,
                directions / np.sqrt((directions ** 2).sum(axis=1))[:, None])

    def _table_outside(self, far: np.ndarray, side: np.ndarray, slopes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """For lines (slopes, offsets) of sides `side`: how much more the colour just
        inside each differs from the table than the colour just outside it. A card's
        edge has the table outside and the card inside; a frame inside the card has card
        on both sides, a grain line on the table has table on both sides."""
        along, step, start = self.along[side], self.step[side][:, None], self.start[side][:, None]
        gap = np.maximum(1, np.round(2.5 / self.step)).astype(int)[side][:, None]
        last = self.count[side][:, None] - 1  # each side's own search only
        at = np.round((offsets[:, None] + slopes[:, None] * along - start) / step).astype(int)
        rows, sides = np.arange(along.shape[1])[None, :], side[:, None]
        inside = far[sides, rows, np.clip(at - gap, 0, last)]
        outside = far[sides, rows, np.clip(at + gap, 0, last)]
        # inside: the card along most of the line, not half (a row of table dots is
        # table on most of its length); outside: the table along half of it (cloth
        # motifs may touch a card's edge along much of its length)
        return _percentile_30(inside) - np.median(outside, axis=1)


def _peaks(strength: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Local maxima of edge strength along each search line of each side, sub-pixel by a
    parabola: (side, search line, position in samples, strength). A side whose strongest
    change is faint has none."""
    top = strength.max(axis=(1, 2))[:, None, None]
    left, mid, right = strength[..., :-2], strength[..., 1:-1], strength[..., 2:]
    peak = (mid >= left) & (mid > right)
    # the few strongest maxima of each search line: the edge is among them, texture is not
    cut = np.partition(np.where(peak, mid, 0), -PEAKS_PER_LINE, axis=2)[..., -PEAKS_PER_LINE][..., None]
    side, rows, cols = np.nonzero(peak & (mid >= cut) & (mid > 0.08 * top) & (top >= 6.0))
    a, b, c = left[side, rows, cols], mid[side, rows, cols], right[side, rows, cols]
    curvature = a - 2 * b + c
    shift = np.where(curvature < -1e-6, 0.5 * (a - c) / np.minimum(curvature, -1e-6), 0.0)
    return side, rows, cols + 1 + np.clip(shift, -0.5, 0.5), b


@dataclass(frozen=True)
class _Votes:
    """The edge points' votes for straight lines, per side, tilt and offset: every tilt
    of every side is one histogram row."""

    slopes: np.ndarray   # (tilts,)
    lo: np.ndarray       # (sides,) offset of each side's first bin
    smooth: np.ndarray   # (sides, tilts, bins) strength in two-pixel windows
    support: np.ndarray  # (sides, tilts, bins) share of search lines with a point in the window

    def candidates(self, s: RefineSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every side's candidate lines as (side, slope, offset), grouped by side: the
        local maxima of its votes that enough search lines see and that are not faint
        beside its strongest. The same line at neighbouring tilts counts once: strongest
        first, each taking the offsets within 2 pixels of it (offsets are whole bins)."""
        smooth = self.smooth
        padded = np.pad(smooth, ((0, 0), (0, 0), (1, 1)))
        peaks = (smooth >= padded[..., :-2]) & (smooth >= padded[..., 2:]) & (self.support >= s.support)
        top = np.where(peaks, smooth, -np.inf).max(axis=(1, 2))
        side, k_tilt, k_bin = np.nonzero(peaks & (smooth >= s.strength * top[:, None, None]))
        values = smooth[side, k_tilt, k_bin]
        bounds = np.searchsorted(side, np.arange(len(smooth) + 1))
        keep: list[int] = []
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            order = a + np.argsort(-values[a:b])
            taken = bytearray(smooth.shape[2] + 5)
            for j, at in zip(order.tolist(), k_bin[order].tolist()):
                if not taken[at + 2]:
                    keep.append(j)
                    taken[at: at + 5] = b"\x01" * 5
        chosen = np.array(keep, int)
        return side[chosen], self.slopes[k_tilt[chosen]], self.lo[side[chosen]] + k_bin[chosen] + 1


def _votes(side: np.ndarray, rows: np.ndarray, along: np.ndarray, positions: np.ndarray, weight: np.ndarray,
           sides: int, s: RefineSettings) -> _Votes:
    slopes = np.linspace(-s.max_tilt, s.max_tilt, s.slopes)
    at = positions[None, :] - slopes[:, None] * along[None, :]  # (tilts, points)
    lowest = np.full(sides, np.inf)
    np.minimum.at(lowest, side, at.min(axis=0))
    lo = np.floor(np.where(np.isfinite(lowest), lowest, 0.0)) - 1
    bins = np.floor(at - lo[side][None, :]).astype(int)
    width = int(bins.max()) + 2 if bins.size else 2
    tilt = np.arange(s.slopes)[:, None]
    index = ((side[None, :] * s.slopes + tilt) * width + bins).ravel()
    score = np.bincount(index, weights=np.broadcast_to(weight, at.shape).ravel(),
                        minlength=sides * s.slopes * width).reshape(sides, s.slopes, width)
    # which search lines have a point in each bin, as the bits of one word per bin: a
    # boolean (side, tilt, search line, bin) array counted across its search lines cost
    # a tenth of the whole edge fit on a 40-card photo
    seen = np.zeros((sides, s.slopes, width), np.uint64)
    np.bitwise_or.at(seen, (np.broadcast_to(side, at.shape), np.broadcast_to(tilt, at.shape), bins),
                     np.broadcast_to(np.left_shift(np.uint64(1), rows.astype(np.uint64)), at.shape))
    support = np.bitwise_count(seen[..., :-1] | seen[..., 1:]) / s.samples
    return _Votes(slopes, lo, score[..., :-1] + score[..., 1:], support)


def _line_fits(group: np.ndarray, x: np.ndarray, y: np.ndarray, w2: np.ndarray, fit: np.ndarray,
               fallback: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(slope, offset) per group of y = slope * x + offset by least squares, each point
    weighted by w2 (np.polyfit's `w`, squared), for the groups where `fit`; the
    `fallback` arrays elsewhere, and where a group's x values do not spread."""
    n = len(fit)
    total = np.bincount(group, w2, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        mx, my = np.bincount(group, w2 * x, n) / total, np.bincount(group, w2 * y, n) / total
        dx = x - mx[group]
        spread = np.bincount(group, w2 * dx * dx, n)
        slope = np.bincount(group, w2 * dx * (y - my[group]), n) / spread
    fit = fit & (spread >= 1e-9)
    return np.where(fit, slope, fallback[0]), np.where(fit, my - slope * mx, fallback[1])


def _length(colours: np.ndarray) -> np.ndarray:
    """np.linalg.norm(colours, axis=-1) of colour triples, channel by channel: NumPy's
    reduction over an axis of three costs several times the arithmetic."""
    b, g, r = colours[..., 0], colours[..., 1], colours[..., 2]
    return np.sqrt(b * b + g * g + r * r)


def _percentile_30(values: np.ndarray) -> np.ndarray:
    """np.percentile(values, 30, axis=1) (linear interpolation), without its overhead on
    a few dozen short rows."""
    ordered = np.sort(values, axis=1)
    h = 0.3 * (values.shape[1] - 1)
    lo = int(h)
    hi = min(lo + 1, values.shape[1] - 1)
    return ordered[:, lo] + (h - lo) * (ordered[:, hi] - ordered[:, lo])
