"""Is a card-shaped quadrilateral a card? A small learned check of each contour candidate.

Why: a contour search finds every closed card-shaped outline, and a checked cloth's
squares, a floral cloth's petals, a phone, a sheet of paper or a mat close into such
outlines as readily as cards do. What tells them apart is not the outline's shape but
what lies on each side of it: a card's edge is one straight, unbroken step all round
from a table that looks alike on all four sides, to a printed face that looks unlike
the table; a cloth square is as alike to what is around it as to itself. Those cues are
measured on each candidate cut out upright with a margin of table round it, and a
small two-layer network (weights in models/card_verifier.json, trained by
scripts/train_verifier.py on candidates of the training table kinds and card families
of scripts/detector_world.py only) weighs them. All candidates of an image are
measured together, so the check costs about a tenth of a millisecond per candidate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.model_files import MODELS_DIR
from vision.geometry import aspect

DEFAULT_VERIFIER = MODELS_DIR / "card_verifier.json"
CARD_W, CARD_H = 24, 32  # the card's size in a cut-out
MARGIN = 6               # table round it, pixels of the cut-out on every side
STRIP = 2                # width of the strips either side of each edge
GRID = (3, 4)            # cells across and down the card for the layout of its print
STEP_LEVEL = 12.0        # Lab distance across an edge that counts as a step


def _cutouts(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Each quadrilateral (n, 4, 2; clockwise from a corner of a short side) cut out upright
    at CARD_W x CARD_H with MARGIN round it, from a copy of the image shrunk so the card
    is at most about twice the cut-out (a plain warp reads only 4 pixels per point)."""
    size = (CARD_W + 2 * MARGIN, CARD_H + 2 * MARGIN)
    target = np.array([[MARGIN, MARGIN], [MARGIN + CARD_W, MARGIN], [MARGIN + CARD_W, MARGIN + CARD_H],
                       [MARGIN, MARGIN + CARD_H]], np.float32)
    levels = [image]
    out = np.empty((len(quads), size[1], size[0], 3), np.uint8)
    for i, quad in enumerate(quads):
        short = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))
        k = max(0, int(short / (2 * CARD_W)).bit_length() - 1)
        while len(levels) <= k:
            levels.append(cv2.pyrDown(levels[-1]))
        matrix = cv2.getPerspectiveTransform(np.float32(quad) / 2 ** k, target)
        out[i] = cv2.warpPerspective(levels[k], matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def _masks() -> dict[str, np.ndarray]:
    """Boolean masks of the cut-out: the card, its core, the table ring round it, and for
    each side (top, right, bottom, left) the strip just inside and just outside it."""
    h, w = CARD_H + 2 * MARGIN, CARD_W + 2 * MARGIN
    y, x = np.mgrid[0:h, 0:w]
    x0, y0, x1, y1 = MARGIN, MARGIN, MARGIN + CARD_W, MARGIN + CARD_H
    card = (x >= x0) & (x < x1) & (y >= y0) & (y < y1)
    core = (x >= x0 + 4) & (x < x1 - 4) & (y >= y0 + 4) & (y < y1 - 4)
    along_x, along_y = (x >= x0 + 2) & (x < x1 - 2), (y >= y0 + 2) & (y < y1 - 2)
    inside = [along_x & (y >= y0) & (y < y0 + STRIP), along_y & (x < x1) & (x >= x1 - STRIP),
              along_x & (y < y1) & (y >= y1 - STRIP), along_y & (x >= x0) & (x < x0 + STRIP)]
    outside = [along_x & (y < y0) & (y >= y0 - STRIP), along_y & (x >= x1) & (x < x1 + STRIP),
               along_x & (y >= y1) & (y < y1 + STRIP), along_y & (x < x0) & (x >= x0 - STRIP)]
    corners = [(x < x0) & (y < y0), (x >= x1) & (y < y0), (x >= x1) & (y >= y1), (x < x0) & (y >= y1)]
    return {"card": card, "core": core, "ring": ~card, "inside": np.stack(inside), "outside": np.stack(outside),
            "corners": np.stack(corners)}


MASKS = _masks()


def _side_profiles(lab: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """(n, length, 3) colours along side `side`, averaged over the strip just inside and
    the strip just outside it."""
    x0, y0, x1, y1 = MARGIN, MARGIN, MARGIN + CARD_W, MARGIN + CARD_H
    if side == 0:
        return lab[:, y0:y0 + STRIP, x0 + 2:x1 - 2].mean(axis=1), lab[:, y0 - STRIP:y0, x0 + 2:x1 - 2].mean(axis=1)
    if side == 2:
        return lab[:, y1 - STRIP:y1, x0 + 2:x1 - 2].mean(axis=1), lab[:, y1:y1 + STRIP, x0 + 2:x1 - 2].mean(axis=1)
    if side == 1:
        return lab[:, y0 + 2:y1 - 2, x1 - STRIP:x1].mean(axis=2), lab[:, y0 + 2:y1 - 2, x1:x1 + STRIP].mean(axis=2)
    return lab[:, y0 + 2:y1 - 2, x0:x0 + STRIP].mean(axis=2), lab[:, y0 + 2:y1 - 2, x0 - STRIP:x0].mean(axis=2)


def _masked_stats(values: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation per channel of (n, h, w, c) `values` over `mask`."""
    picked = values[:, mask]
    return picked.mean(axis=1), picked.std(axis=1)


def quad_features(image: np.ndarray, quads: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """(n, FEATURES) measurements of candidates (n, 4, 2) of `image`, with the contour
    search's score of each (fill minus aspect error)."""
    n = len(quads)
    if n == 0:
        return np.zeros((0, FEATURES), np.float32)
    patches = _cutouts(image, quads)
    lab: np.ndarray = cv2.cvtColor(patches.reshape(-1, patches.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(patches.shape)
    lab = lab.astype(np.float32)
    lab[..., 0] *= 0.5  # light falls off across a table and glares on it; colour holds
    grey = lab[..., 0]
    gx, gy = np.gradient(grey, axis=2), np.gradient(grey, axis=1)
    energy = np.abs(gx) + np.abs(gy)
    card_mean, card_std = _masked_stats(lab, MASKS["card"])
    ring_mean, ring_std = _masked_stats(lab, MASKS["ring"])
    core_mean, core_std = _masked_stats(lab, MASKS["core"])
    steps, runs, table_sides = [], [], []
    for side in range(4):
        inside, outside = _side_profiles(lab, side)
        step = np.sqrt(((inside - outside) ** 2).sum(axis=2))
        steps.append(step.mean(axis=1))
        runs.append((step > STEP_LEVEL).mean(axis=1))
        table_sides.append(outside.mean(axis=1))
    steps_sorted, runs_sorted = np.sort(np.stack(steps, 1), 1), np.sort(np.stack(runs, 1), 1)
    sides = np.stack(table_sides, 1)  # (n, 4, 3): the table beside each side
    table_spread = np.sqrt(((sides - sides.mean(axis=1, keepdims=True)) ** 2).sum(axis=2)).max(axis=1)
    # the table diagonally off each corner: on a plain or grained table it is the table
    # beside the sides; on a checked cloth it is the colour of the square itself
    corners = np.stack([lab[:, m].mean(axis=1) for m in MASKS["corners"]], 1)  # (n, 4, 3)
    corner_to_core = np.sort(np.sqrt(((corners - core_mean[:, None]) ** 2).sum(axis=2)), 1)
    corner_to_sides = np.sqrt(((corners - sides.mean(axis=1, keepdims=True)) ** 2).sum(axis=2)).max(axis=1)
    texture_card = energy[:, MASKS["core"]].mean(axis=1)
    texture_ring = energy[:, MASKS["ring"]].mean(axis=1)
    gw, gh = GRID
    cells = energy[:, MARGIN:MARGIN + CARD_H, MARGIN:MARGIN + CARD_W].reshape(n, gh, CARD_H // gh, gw, CARD_W // gw)
    cells = cells.mean(axis=(2, 4)).reshape(n, -1)
    cells = cells / (cells.mean(axis=1, keepdims=True) + 1.0)
    area = np.array([abs(float(cv2.contourArea(q))) for q in quads]) / (image.shape[0] * image.shape[1])
    aspects = np.array([aspect(q) for q in quads])
    features = np.column_stack([
        card_std, ring_std, core_std,
        np.sqrt(((card_mean - ring_mean) ** 2).sum(axis=1)),
        np.sqrt(((core_mean - ring_mean) ** 2).sum(axis=1)),
        np.abs(card_mean - ring_mean),
        steps_sorted, runs_sorted, table_spread, corner_to_core, corner_to_sides,
        np.log1p(texture_card), np.log1p(texture_ring), np.log1p(texture_card) - np.log1p(texture_ring),
        cells, np.log(area), aspects, scores,
    ])
    return features.astype(np.float32)


BLANK_CELL = 4         # pixels of a cut-out's side per cell of its middle whose means are compared
BLANK_STD = 1.0        # Lab spread (lightness halved) of those means under which a cut-out's middle is blank ...
BLANK_DISTANCE = 8.0   # ... Lab distance from its mean under which a pixel of the ring round it is of its colour ...
BLANK_SHARE = 0.4      # ... and share of the ring's pixels of its colour from which the middle is the table's own


def _cutout(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """One quadrilateral cut out as `_cutouts` cuts it, from its own neighbourhood only,
    averaged over whole blocks down to at least twice the cut-out first (`_cutouts`
    halves the whole frame for the first card as large, more than a frame's few cards
    cost; a fractional area filter costs five times a whole one)."""
    size = (CARD_W + 2 * MARGIN, CARD_H + 2 * MARGIN)
    target = np.array([[MARGIN, MARGIN], [MARGIN + CARD_W, MARGIN], [MARGIN + CARD_W, MARGIN + CARD_H],
                       [MARGIN, MARGIN + CARD_H]], np.float32)
    centre = quad.mean(axis=0)
    reach = np.abs(quad - centre).max(axis=0) * (1 + 2 * MARGIN / CARD_W) + 2
    x0, y0 = np.maximum(np.floor(centre - reach), 0).astype(int)
    x1, y1 = np.maximum(np.minimum(np.ceil(centre + reach), [image.shape[1], image.shape[0]]).astype(int), [x0 + 1, y0 + 1])
    short = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))
    n = max(1, min(int(short / (2 * CARD_W)), x1 - x0, y1 - y0))
    w, h = (x1 - x0) // n, (y1 - y0) // n
    roi = image[y0:y0 + h * n, x0:x0 + w * n]
    if n > 1:
        roi = cv2.resize(roi, (w, h), interpolation=cv2.INTER_AREA)
    # pixel i of the averaged copy covers pixels n i .. n i + n - 1, its centre at n i + (n - 1) / 2
    local = ((quad.astype(np.float32) - np.array([x0, y0], np.float32)) - (n - 1) / 2) / n
    matrix = cv2.getPerspectiveTransform(local.astype(np.float32), target)
    return cv2.warpPerspective(roi, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def blank_of_table(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(n,) whether each quadrilateral (clockwise from a corner of a short side) holds
    nothing but the colour round it: its middle (half its width and height, where an
    outline a little off a box's printed line still leaves only the box's inside) is
    even (its cells alike, `BLANK_STD`), and a good part of the ring of table round it
    is of the middle's colour (`BLANK_SHARE` of its pixels within `BLANK_DISTANCE`, each
    pixel averaged with its neighbours against a cloth's grain). Such is an empty box
    printed on a mat, a floor tile, a patch of bare felt the card-core network takes for
    a card by its outline; every card face, back and sleeve prints something, or differs
    from the table it lies on. A share, not the ring's mean: the ring of a patch of felt
    near the mat's edge reaches onto the table beyond (a real blackjack photo), and a
    true card's ring of two colours may average to its own (training world, against
    the ring's mean within BLANK_DISTANCE: 17 of 50 false finds of the joint detector
    doubted instead of 5, none of 727 cards instead of 1;
    scripts/experiments/find_rules.py)."""
    spread, share = blank_measures(image, quads)
    return (spread < BLANK_STD) & (share >= BLANK_SHARE)


def blank_measures(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) each quadrilateral's middle's spread and (n,) the share of the ring round it
    of the middle's colour, as `blank_of_table` judges them."""
    if not len(quads):
        return np.zeros(0), np.zeros(0)
    patches = np.stack([_cutout(image, q) for q in np.asarray(quads, np.float32)])
    lab: np.ndarray = cv2.cvtColor(patches.reshape(-1, patches.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(patches.shape).astype(np.float32)
    lab[..., 0] *= 0.5  # as `quad_features` weighs lightness
    n, (dx, dy) = len(quads), (CARD_W // 4, CARD_H // 4)
    core = lab[:, MARGIN + dy:MARGIN + CARD_H - dy, MARGIN + dx:MARGIN + CARD_W - dx]  # the middle half each way
    # the core's cells' means: a table's grain and a camera's noise average out in them, a print does not
    rows, columns = core.shape[1] // BLANK_CELL, core.shape[2] // BLANK_CELL
    cells = core.reshape(n, rows, BLANK_CELL, columns, BLANK_CELL, 3).mean(axis=(2, 4))
    smooth = np.stack([cv2.blur(patch, (3, 3)) for patch in lab])
    ring = np.ones(lab.shape[1:3], bool)
    ring[MARGIN:MARGIN + CARD_H, MARGIN:MARGIN + CARD_W] = False
    middle = core.reshape(n, -1, 3).mean(axis=1)
    alike = np.sqrt(((smooth[:, ring] - middle[:, None]) ** 2).sum(axis=2)) < BLANK_DISTANCE
    return cells.reshape(n, -1, 3).std(axis=1).mean(axis=1), alike.mean(axis=1)


FEATURES = 3 * 3 + 2 + 3 + 4 + 4 + 1 + 4 + 1 + 3 + GRID[0] * GRID[1] + 3


@dataclass(frozen=True)
class CardVerifier:
    """The trained check: standardised features, a few networks of one hidden layer and a
    logistic output each (trained alike from different starting weights; their mean
    probability varies less from one training to the next than any one of them), and the
    least mean probability a candidate must reach."""

    mean: np.ndarray      # (FEATURES,)
    scale: np.ndarray     # (FEATURES,)
    hidden_w: np.ndarray  # (nets, FEATURES, hidden)
    hidden_b: np.ndarray  # (nets, hidden)
    out_w: np.ndarray     # (nets, hidden)
    out_b: np.ndarray     # (nets,)
    threshold: float

    @classmethod
    def load(cls, path: Path = DEFAULT_VERIFIER) -> "CardVerifier":
        data = json.loads(path.read_text())
        arrays = {k: np.asarray(data[k], np.float32) for k in ("mean", "scale", "hidden_w", "hidden_b", "out_w", "out_b")}
        return cls(**arrays, threshold=float(data["threshold"]))

    def probability(self, features: np.ndarray) -> np.ndarray:
        hidden = np.maximum(((features - self.mean) / self.scale) @ self.hidden_w + self.hidden_b[:, None], 0)
        logits = (hidden * self.out_w[:, None]).sum(axis=2) + self.out_b[:, None]
        return (1 / (1 + np.exp(-logits))).mean(axis=0)

    def cards(self, image: np.ndarray, quads: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """Which of the candidates (n, 4, 2 in `image`'s pixels) are cards."""
        return self.probability(quad_features(image, quads, scores)) >= self.threshold
