"""The colour of a card (Gargon suits, Bagani colours), read under any room light.

Colour is part of a card's identity (a red 14 and a blue 14 differ in nothing else),
and it is what room light distorts most: a warm bulb turns white cards yellow and
blue cards violet, a window on one side casts blue over half the table. So the card
is white-balanced against itself first: its brightest parts (the printed white border
and panels of these cards) are known to be white, and a white level fitted as a plane
across the card per channel removes both a uniform cast and one that drifts from one
side of the card to the other. The colour is then the hue most of the card's
saturated pixels agree on; a card with almost no saturated ink is white.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

#: OpenCV hue (0-180) of each printed colour, as the cards print them.
HUES = {"red": 0.0, "yellow": 26.0, "green": 63.0, "blue": 106.0, "violet": 140.0}
GARGON_COLOURS = ("white", "blue", "violet", "red", "yellow", "green")
BAGANI_COLOURS = ("yellow", "blue", "red", "green", "violet")

WORK_SIZE = (45, 63)        # the card is read small: colour needs no detail
INSET = 0.08                # each edge's share left out: a cut-out card's edge may show table
WHITE_SHARE = 0.15          # the brightest share of pixels taken to be printed white
MIN_SATURATION = 90         # of 255, after balancing: ink, not a tinted white
MIN_COLOURED_SHARE = 0.04   # below this much saturated ink a card reads as white


@dataclass(frozen=True)
class ColourReading:
    """`colour` is None when no allowed colour wins clearly; `scores` are each allowed
    colour's share of the card's saturated ink (white: 1 minus the inked share)."""

    colour: str | None
    confidence: float
    scores: tuple[tuple[str, float], ...]


def white_balanced(card: np.ndarray) -> np.ndarray:
    """`card` (BGR, edges trimmed) with the cast of the light removed, brightest printed
    white at 235."""
    h, w = card.shape[:2]
    dy, dx = round(INSET * h), round(INSET * w)
    inner = card[dy:h - dy, dx:w - dx]
    image = cv2.resize(inner, WORK_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0
    h, w = image.shape[:2]
    brightness = image.sum(axis=2)
    # the white is bright and grey: on a dark card the brightest share may be coloured
    # ink (a violet ring round a white numeral), which must not be taken for white
    greyness = image.min(axis=2) / image.max(axis=2)
    greyish = greyness >= np.quantile(greyness, 0.5)
    white = greyish & (brightness >= np.quantile(brightness[greyish], 1 - 2 * WHITE_SHARE))
    ys, xs = np.nonzero(white)
    design = np.column_stack([np.ones_like(xs), xs / w - 0.5, ys / h - 0.5]).astype(np.float32)
    grid_y, grid_x = np.mgrid[0:h, 0:w].astype(np.float32)
    everywhere = np.stack([np.ones_like(grid_x), grid_x / w - 0.5, grid_y / h - 0.5], axis=-1)
    level = np.empty_like(image)
    for channel in range(3):
        plane, *_ = np.linalg.lstsq(design, image[ys, xs, channel], rcond=None)
        level[..., channel] = everywhere @ plane
    return np.clip(image / np.maximum(level, 8.0) * 235.0, 0, 255).astype(np.uint8)


def _hue_distance(hue: np.ndarray, centre: float) -> np.ndarray:
    d = np.abs(hue - centre)
    return np.minimum(d, 180.0 - d)


def read_colour(card: np.ndarray, choices: Sequence[str] = GARGON_COLOURS, margin: float = 0.15) -> ColourReading:
    """The printed colour of a rectified card, one of `choices`.

    The winner must lead the runner-up by `margin` of the card's ink, else the answer is
    None and the scores say what was seen.
    """
    hsv = cv2.cvtColor(white_balanced(card), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    inked = (hsv[:, 1] >= MIN_SATURATION) & (hsv[:, 2] >= 60)
    share = float(inked.mean())
    hues = [name for name in choices if name in HUES]
    scores: dict[str, float] = {}
    if hues and inked.any():
        distances = np.stack([_hue_distance(hsv[inked, 0], HUES[name]) for name in hues])
        nearest = distances.argmin(axis=0)
        weights = hsv[inked, 1]
        for k, name in enumerate(hues):
            scores[name] = float(weights[nearest == k].sum() / weights.sum())
    if "white" in choices:
        if share < MIN_COLOURED_SHARE:
            scores = {name: 0.0 for name in scores}
        scores["white"] = 1.0 if share < MIN_COLOURED_SHARE else 0.0
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked:
        return ColourReading(None, 0.0, ())
    best, runner_up = ranked[0][1], (ranked[1][1] if len(ranked) > 1 else 0.0)
    colour = ranked[0][0] if best - runner_up >= margin else None
    return ColourReading(colour, round(best, 4), tuple((n, round(s, 4)) for n, s in ranked))
