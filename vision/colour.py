"""The colour of a card (Gargon suits, Bagani colours), read under any room light.

Colour is part of a card's identity (a red 14 and a blue 14 differ in nothing else),
and it is what room light distorts most: a warm bulb turns white cards yellow and
blue cards violet, a window on one side casts blue over half the table. So the card
is white-balanced against itself first: its brightest grey parts (the printed white
border and panels of these cards, the white numeral of a dark card) are known to be
white, and a white level fitted as a plane across the card per channel removes both a
uniform cast and one that drifts from one side of the card to the other. The colour is
then the hue most of the card's saturated pixels agree on.

A card with almost no saturated ink is white, unless its ink is thin: many decks print
the suit colour nowhere but in the value, a light numeral on pale paper, a few per cent
of the card that blends into the paper when the card is read small. So before calling a
card white its ink is looked at on its own, at twice the size: each pixel against the
paper just around it (a closing wider than a stroke), which also leaves out what the
plane could not balance (glare, a tinted paper). Where coloured strokes are a fair
share of all the ink, the card is the colour they agree on; a white card's dark ink
and a dark panel's noise are not coloured.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np

#: OpenCV hue (0-180) of each printed colour, as the cards print them.
HUES = {"red": 0.0, "yellow": 26.0, "green": 63.0, "blue": 106.0, "violet": 140.0}
GARGON_COLOURS = ("white", "blue", "violet", "red", "yellow", "green")
BAGANI_COLOURS = ("yellow", "blue", "red", "green", "violet")

WORK_SIZE = (45, 63)        # the card is read small: a colour fill or ring needs no detail
INSET = 0.08                # each edge's share left out: a cut-out card's edge may show table
WHITE_SHARE = 0.15          # the brightest share of pixels taken to be printed white
BRIGHT_FLOOR = 0.5          # ... at least this share of the brightest grey: a dark card's white is its numeral
MIN_SATURATION = 90         # of 255, after balancing: ink, not a tinted white
MIN_CHROMA = 40             # of 255, channel spread: ink, not a dark panel's noise or an additive cast
MIN_COLOURED_SHARE = 0.04   # below this much saturated ink a card's thin ink decides (below)
# thin ink: strokes read at twice WORK_SIZE against the paper around them
STROKE_SIZE = (90, 126)
STROKE_KERNEL = 7           # pixels at STROKE_SIZE: wider than a printed stroke, so closing it leaves the paper
PAPER_FLOOR = 0.75          # of the white: no darker paper (inside a dark panel the closing finds none)
MIN_ABSORPTION = 0.2        # ink: some channel reflects under 0.8 of its paper
COLOURFUL = 0.35            # coloured ink: its channels' spread is this share of its absorption (black: ~0)
MIN_STROKE_SHARE = 0.2      # coloured strokes' share of all the ink that makes a card coloured, not white
MIN_STROKE_PIXELS = 0.001   # ... and their least share of the card's area
CORNER = (0.4, 0.3)         # width, height share of the trimmed card where a corner index sits
CLIPPED = 250.0             # of 256 (+1): a channel the camera has clipped ...
UNEVEN_CLIP = 15.0          # ... while another is this much darker: the paper's colour is unknown there
MIN_CORNER_SHARE = 0.1      # coloured strokes' share of the ink in both opposite corners that makes a card coloured


@dataclass(frozen=True)
class ColourReading:
    """`colour` is None when no allowed colour wins clearly; `scores` are each allowed
    colour's share of the card's saturated ink, or of its coloured strokes when the ink
    is thin (white: 1 for a card with neither, else 0)."""

    colour: str | None
    confidence: float
    scores: tuple[tuple[str, float], ...]


def _inner(card: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The card without its edges (float32, +1 so no channel is 0) at `size`."""
    h, w = card.shape[:2]
    dy, dx = round(INSET * h), round(INSET * w)
    return cv2.resize(card[dy:h - dy, dx:w - dx], size, interpolation=cv2.INTER_AREA).astype(np.float32) + 1.0


@lru_cache(maxsize=4)
def _grid(size: tuple[int, int]) -> np.ndarray:
    """(h, w, 3): 1, x and y (-0.5 to 0.5) at each pixel of an image of `size`."""
    grid_y, grid_x = np.mgrid[0:size[1], 0:size[0]].astype(np.float32)
    grid = np.stack([np.ones_like(grid_x), grid_x / size[0] - 0.5, grid_y / size[1] - 0.5], axis=-1)
    grid.flags.writeable = False
    return grid


def white_level(card: np.ndarray) -> np.ndarray:
    """(3, 3): per channel, the white level across the card as a plane (1, x, y), fitted
    at WORK_SIZE (a plane needs no detail)."""
    image = _inner(card, WORK_SIZE)
    b, g, r = cv2.split(image)  # channel by channel: numpy reduces a 3-long axis slowly
    brightness = b + g + r
    # the white is bright and grey: on a dark card the brightest share may be coloured
    # ink (a violet ring round a white numeral), which must not be taken for white
    greyness = np.minimum(np.minimum(b, g), r) / np.maximum(np.maximum(b, g), r)
    greyish = greyness >= np.quantile(greyness, 0.5)
    grey_brightness = brightness[greyish]
    white = greyish & (brightness >= max(np.quantile(grey_brightness, 1 - 2 * WHITE_SHARE),
                                         BRIGHT_FLOOR * np.quantile(grey_brightness, 0.99)))
    planes, *_ = np.linalg.lstsq(_grid(WORK_SIZE)[white], image[white], rcond=None)
    return planes


def white_balanced(card: np.ndarray, size: tuple[int, int] = WORK_SIZE, level: np.ndarray | None = None) -> np.ndarray:
    """`card` (BGR, edges trimmed) at `size`, with the cast of the light removed,
    brightest printed white at 235; `level`: the card's `white_level` if known."""
    planes = white_level(card) if level is None else level
    return np.clip(_inner(card, size) / np.maximum(_grid(size) @ planes, 8.0) * 235.0, 0, 255).astype(np.uint8)


def _hue_distance(hue: np.ndarray, centre: float) -> np.ndarray:
    d = np.abs(hue - centre)
    return np.minimum(d, 180.0 - d)


def _hue_shares(hue: np.ndarray, weight: np.ndarray, names: Sequence[str]) -> dict[str, float]:
    """Each colour's share of `weight`, every pixel going to the colour nearest its hue."""
    if not names or not hue.size:
        return {}
    nearest = np.stack([_hue_distance(hue, HUES[name]) for name in names]).argmin(axis=0)
    total = float(weight.sum())
    return {name: float(weight[nearest == k].sum() / total) for k, name in enumerate(names)}


def coloured_strokes(card: np.ndarray, level: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hues, weights) of a card's coloured strokes, none where its thin ink is not
    coloured. Each pixel is read against the paper around it and weighted by how much
    light it absorbs; the ink is coloured where coloured strokes are a fair share of it
    all, or of the ink in both of two opposite corners (where a design prints its
    indices: a large dark ornament elsewhere must not outweigh them)."""
    raw = _inner(card, STROKE_SIZE)
    planes = white_level(card) if level is None else level
    image = raw / np.maximum(_grid(STROKE_SIZE) @ planes, 8.0) * 236.0
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (STROKE_KERNEL, STROKE_KERNEL))
    paper = np.maximum(cv2.morphologyEx(image, cv2.MORPH_CLOSE, kernel), PAPER_FLOOR * 236.0)
    reflects = np.minimum(image / paper, 1.0)
    b, g, r = cv2.split(reflects)  # channel by channel: numpy reduces a 3-long axis slowly
    least = np.minimum(np.minimum(b, g), r)
    absorbs = np.where(least <= 1.0 - MIN_ABSORPTION, 1.0 - least, 0.0)  # 0: paper, not ink
    # where the camera clipped one channel of the paper and not the others, a faint dark
    # stroke keeps that channel and looks coloured: such strokes are ink, never coloured ink
    bright = cv2.split(cv2.dilate(raw, kernel))
    clipped = (np.maximum(np.maximum(*bright[:2]), bright[2]) >= CLIPPED) & \
        (np.minimum(np.minimum(*bright[:2]), bright[2]) < CLIPPED - UNEVEN_CLIP)
    coloured = (absorbs > 0) & ~clipped & (np.maximum(np.maximum(b, g), r) - least >= COLOURFUL * absorbs)
    none = np.empty(0, np.float32), np.empty(0, np.float32)
    if coloured.mean() < MIN_STROKE_PIXELS:
        return none
    w, h = STROKE_SIZE
    cw, ch = round(CORNER[0] * w), round(CORNER[1] * h)
    corners = [(slice(0, ch), slice(0, cw)), (slice(h - ch, h), slice(w - cw, w))]
    in_corners = min(_share(absorbs[c], coloured[c]) for c in corners)
    if _share(absorbs, coloured) < MIN_STROKE_SHARE and in_corners < MIN_CORNER_SHARE:
        return none
    hsv = cv2.cvtColor((reflects * 235).astype(np.uint8), cv2.COLOR_BGR2HSV)
    return hsv[..., 0][coloured].astype(np.float32), absorbs[coloured]


def _share(absorbs: np.ndarray, coloured: np.ndarray) -> float:
    """The coloured strokes' share of all the ink (by absorption) in a region."""
    total = float(absorbs.sum())
    return float(absorbs[coloured].sum()) / total if total > 0 else 0.0


def read_colour(card: np.ndarray, choices: Sequence[str] = GARGON_COLOURS, margin: float = 0.15) -> ColourReading:
    """The printed colour of a rectified card, one of `choices`.

    The winner must lead the runner-up by `margin` of the card's ink, else the answer is
    None and the scores say what was seen.
    """
    level = white_level(card)
    balanced = white_balanced(card, WORK_SIZE, level)
    hsv = cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    chroma = np.ptp(balanced.reshape(-1, 3).astype(np.int16), axis=1)
    inked = (hsv[:, 1] >= MIN_SATURATION) & (hsv[:, 2] >= 60) & (chroma >= MIN_CHROMA)
    hues = [name for name in choices if name in HUES]
    scores = _hue_shares(hsv[inked, 0], hsv[inked, 1], hues)
    if "white" in choices and inked.mean() < MIN_COLOURED_SHARE:
        stroke_hues, weights = coloured_strokes(card, level)
        scores = _hue_shares(stroke_hues, weights, hues) if stroke_hues.size else {name: 0.0 for name in hues}
        scores["white"] = 0.0 if stroke_hues.size else 1.0
    elif "white" in choices:
        scores["white"] = 0.0
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked:
        return ColourReading(None, 0.0, ())
    best, runner_up = ranked[0][1], (ranked[1][1] if len(ranked) > 1 else 0.0)
    colour = ranked[0][0] if best - runner_up >= margin else None
    return ColourReading(colour, round(best, 4), tuple((n, round(s, 4)) for n, s in ranked))
