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

import cv2
import numpy as np

from vision.geometry import side_lengths


PEAKS_PER_LINE = 5


@dataclass(frozen=True)
class RefineSettings:
    samples: int = 28           # search lines per side
    span: float = 0.72          # share of each side searched (corners may be rounded)
    inward: float = 0.22        # how far inside the rough side to look, share of the short side
    outward: float = 0.05       # how far outside, share of the short side (plus 2 px)
    step: float = 1 / 200       # between samples along a search line, share of the short side (at least 0.5 px)
    slopes: int = 9             # candidate tilts of a side against the rough one
    max_tilt: float = 0.05      # largest tilt, in pixels of offset per pixel of side
    support: float = 0.45       # least share of search lines that must see the edge
    strength: float = 0.1       # least edge strength of a line, relative to the strongest
    contrast: float = 0.3       # least card-table contrast of a line, relative to the clearest
    min_contrast: float = 8.0   # least card-table contrast of a line, in colour levels


def refine_quad(image: np.ndarray, quad: np.ndarray, settings: RefineSettings = RefineSettings()) -> np.ndarray:
    """`quad` (4x2, any order around the card) moved onto the card's edges in `image`
    (BGR); the rough quad itself when a side finds no edge. Corners keep their order.

    Only the pixels along the search lines are read (no whole-image filtering), so it
    costs the same for a webcam frame and a 27-megapixel photo, and a live loop spends
    it only on cards it is about to identify, not on every card every frame."""
    quad = np.asarray(quad, np.float64)
    short = float(side_lengths(quad).min())
    searches = [_Search.search(image, quad, i, short, settings) for i in range(4)]
    # the table's colour: the far outer end of every search line, most of which is table
    table = np.median(np.concatenate([sr.profile[:, -3:].reshape(-1, 3) for sr in searches]), axis=0)
    # a side with no clear edge (a dark rim on a dark table) keeps its rough line
    lines = [sr.edge(table, settings) or sr.rough() for sr in searches]
    corners = [_intersect(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad.astype(np.float32)
    refined = np.array(corners)
    limit = (settings.inward + settings.outward) * short * 1.5 + 3
    if np.max(np.linalg.norm(refined - quad, axis=1)) > limit:
        return quad.astype(np.float32)
    return refined.astype(np.float32)


@dataclass(frozen=True)
class _Search:
    """Colour profiles across one side: row r runs along the outward normal at a point
    of the side, from `offsets[0]` (inside) to `offsets[-1]` (outside)."""

    p: np.ndarray
    q: np.ndarray
    normal: np.ndarray
    ts: np.ndarray
    offsets: np.ndarray
    profile: np.ndarray  # (rows, offsets, 3)

    @property
    def step(self) -> float:
        return float(self.offsets[1] - self.offsets[0])

    @property
    def length(self) -> float:
        return max(float(np.linalg.norm(self.q - self.p)), 1e-6)

    @property
    def direction(self) -> np.ndarray:
        return (self.q - self.p) / self.length

    @property
    def along(self) -> np.ndarray:
        """Where each search line crosses the side, in pixels from its middle."""
        return (self.ts - 0.5) * self.length

    @classmethod
    def search(cls, image: np.ndarray, quad: np.ndarray, i: int, short: float, s: RefineSettings) -> "_Search":
        p, q = quad[i], quad[(i + 1) % 4]
        d = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
        n = np.array([d[1], -d[0]])
        if np.dot(n, (p + q) / 2 - quad.mean(axis=0)) < 0:
            n = -n  # outward
        ts = np.linspace(0.5 - s.span / 2, 0.5 + s.span / 2, s.samples)
        step = max(0.5, s.step * short)
        offsets = np.arange(-s.inward * short, s.outward * short + 2 + step, step)
        grid = (p + ts[:, None] * (q - p))[:, None, :] + offsets[None, :, None] * n
        profile = cv2.remap(image, grid[..., 0].astype(np.float32), grid[..., 1].astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        # smoothed along each search line only: noise and JPEG blocks make no edges
        return cls(p, q, n, ts, offsets, cv2.GaussianBlur(profile, (5, 1), 0))

    def edge(self, table: np.ndarray, s: RefineSettings) -> tuple[np.ndarray, np.ndarray] | None:
        """(point, direction) of the card's edge along this side, or None if none is clear."""
        peaks = _peaks(np.linalg.norm(np.diff(self.profile, axis=1), axis=2))
        if peaks is None:
            return None
        rows, where, weight = peaks
        positions = self.offsets[0] + (where + 0.5) * self.step
        along = self.along[rows]
        best = _vote(along, positions, weight, rows, s, self._table_outside(table))
        if best is None:
            return None
        slope, offset = best
        # least squares through the points that voted for the line: sub-pixel, and its tilt
        near = np.abs(positions - (offset + slope * along)) < 1.5
        if np.count_nonzero(near) >= 3:
            slope, offset = _line_fit(along[near], positions[near], weight[near], (slope, offset))
        direction = self.direction + slope * self.normal
        return (self.p + self.q) / 2 + offset * self.normal, direction / np.linalg.norm(direction)

    def rough(self) -> tuple[np.ndarray, np.ndarray]:
        """The side as the contour gave it, as (point, direction)."""
        return (self.p + self.q) / 2, self.direction

    def _table_outside(self, table: np.ndarray):
        """For a line (slope, offset): how much more the colour just inside it differs
        from the table than the colour just outside it. A card's edge has the table
        outside and the card inside; a frame inside the card has card on both sides, a
        grain line on the table has table on both sides."""
        rows = np.arange(len(self.ts))
        along = self.along
        gap = max(1, int(round(2.5 / self.step)))
        far = np.linalg.norm(self.profile - table, axis=2)  # (rows, offsets)

        def contrast(slopes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
            at = np.round((offsets[:, None] + slopes[:, None] * along[None, :] - self.offsets[0]) / self.step).astype(int)
            inside = far[rows, np.clip(at - gap, 0, far.shape[1] - 1)]
            outside = far[rows, np.clip(at + gap, 0, far.shape[1] - 1)]
            # most of the line, not half: a row of table dots is table on most of its length
            return _percentile_30(inside - outside)
        return contrast


def _peaks(strength: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Local maxima of edge strength along each search line, sub-pixel by a parabola:
    (search line, position in samples, strength)."""
    top = float(strength.max())
    if top < 6.0:
        return None
    left, mid, right = strength[:, :-2], strength[:, 1:-1], strength[:, 2:]
    peak = (mid >= left) & (mid > right)
    # the few strongest maxima of each search line: the edge is among them, texture is not
    cut = np.sort(np.where(peak, mid, 0), axis=1)[:, -PEAKS_PER_LINE][:, None]
    rows, cols = np.nonzero(peak & (mid >= cut) & (mid > 0.08 * top))
    if not len(rows):
        return None
    a, b, c = left[rows, cols], mid[rows, cols], right[rows, cols]
    curvature = a - 2 * b + c
    shift = np.where(curvature < -1e-6, 0.5 * (a - c) / np.minimum(curvature, -1e-6), 0.0)
    return rows, cols + 1 + np.clip(shift, -0.5, 0.5), b


def _vote(along: np.ndarray, positions: np.ndarray, weight: np.ndarray, rows: np.ndarray,
          s: RefineSettings, contrast) -> tuple[float, float] | None:
    """(slope, offset) of the outermost straight line, seen by enough search lines, that
    has card inside and table outside. Every tilt is voted on at once (one histogram
    row per tilt): a side costs a few array operations, not a Python loop."""
    slopes = np.linspace(-s.max_tilt, s.max_tilt, s.slopes)
    at = positions[None, :] - slopes[:, None] * along[None, :]  # (tilts, points)
    lo = np.floor(at.min()) - 1
    bins = np.floor(at - lo).astype(int)
    width = int(bins.max()) + 2
    tilt = np.repeat(np.arange(s.slopes), len(positions))
    score = np.bincount(tilt * width + bins.ravel(), weights=np.tile(weight, s.slopes),
                        minlength=s.slopes * width).reshape(s.slopes, width)
    smooth = score[:, :-1] + score[:, 1:]  # two-pixel windows
    seen = np.zeros((s.slopes, s.samples, width), bool)
    seen[tilt, np.tile(rows, s.slopes), bins.ravel()] = True
    support = (seen[:, :, :-1] | seen[:, :, 1:]).mean(axis=1)
    padded = np.zeros((s.slopes, smooth.shape[1] + 2))
    padded[:, 1:-1] = smooth
    peaks = (smooth >= padded[:, :-2]) & (smooth >= padded[:, 2:]) & (support >= s.support)
    if not peaks.any():
        return None
    k_tilt, k_bin = np.nonzero(peaks & (smooth >= s.strength * smooth[peaks].max()))
    order = np.argsort(-smooth[k_tilt, k_bin])
    offsets, tilts = lo + k_bin[order] + 1, slopes[k_tilt[order]]
    distinct: list[int] = []  # the same line at neighbouring tilts counts once
    for i, offset in enumerate(offsets):
        if all(abs(offset - offsets[j]) > 2 for j in distinct):
            distinct.append(i)
    offsets, tilts = offsets[distinct], tilts[distinct]
    clear = contrast(tilts, offsets)
    usable = clear >= max(s.min_contrast, s.contrast * float(clear.max()))
    if not usable.any():
        return None
    outer = int(np.argmax(np.where(usable, offsets, -np.inf)))
    return float(tilts[outer]), float(offsets[outer])


def _line_fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, fallback: tuple[float, float]) -> tuple[float, float]:
    """(slope, offset) of y = slope * x + offset by least squares, each residual weighted
    by w (as np.polyfit's `w`, in closed form: polyfit's general solver cost more than
    the rest of a side's search); `fallback` when the x values do not spread."""
    w2 = w * w
    total = float(w2.sum())
    mx, my = float(w2 @ x) / total, float(w2 @ y) / total
    dx = x - mx
    spread = float(w2 @ (dx * dx))
    if spread < 1e-9:
        return fallback
    slope = float(w2 @ (dx * (y - my))) / spread
    return slope, my - slope * mx


def _percentile_30(values: np.ndarray) -> np.ndarray:
    """np.percentile(values, 30, axis=1) (linear interpolation), without its overhead on
    a few dozen short rows."""
    ordered = np.sort(values, axis=1)
    h = 0.3 * (values.shape[1] - 1)
    lo = int(h)
    hi = min(lo + 1, values.shape[1] - 1)
    return ordered[:, lo] + (h - lo) * (ordered[:, hi] - ordered[:, lo])


def _intersect(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (p, d), (q, e) = a, b
    matrix = np.array([d, -e]).T
    if abs(np.linalg.det(matrix)) < 1e-6:
        return None
    t, _ = np.linalg.solve(matrix, q - p)
    return p + t * d
