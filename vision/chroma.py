"""Where a card's colours are: what tells a red 14 from a blue 14, and a white card from a yellow one.

Everything else the identifier compares is band-pass (vision/template.py): strokes
and edges, with the light's slow changes, and with them flat colour, filtered out.
Two faces that differ only in colour (Gargon suits, Bagani colours) look alike there,
so a forgotten violet-circle aligns with the enrolled blue-circle cell for cell.
This is the colour half: a coarse map of the card's colour (9x12 cells), brought
under the light of the shot it is compared with (`relit`: the per-channel gains
that best carry the shot's cells onto the card's, as a warm bulb, a blue window or
a dim room multiply each channel, held to the ratios between channels a room's light
gives, so that no light turns violet print into blue, and one offset shared by every
channel, the white a haze or a veil of glare adds: without it a hazy Bagani
mansisilat of the generated scenes fell under its cut), then its chroma (Lab a and
b), less the chroma of the card's median cell. Before, only that median was
subtracted: a difference in Lab is no model of a light, and on the detector world's
training tables (scripts/experiments/ident_world.py, cards cut at their true
outlines) true cards under warm or dim light failed the test 75 times in 651, 10 now.
White-balancing against the card's brightest parts, or by its own median (gray
world), was tried and dropped: on dark cards with no white the brightest parts are
the art, and their hue moved with the light; a dark card's median is noise.

Two maps agree when, in the cells where the enrolled shot is saturated, the card's
chroma points the same way (the hue; saturation falls under glare, hue does not) and
is not much paler (a white card where a yellow one is enrolled). A shot with no
saturated cells asks the card to be unsaturated too (in its most coloured tenth of
cells, not on the whole: a forgotten blue-10 whose only colour is a thin numeral, a
frame and a ribbon across its foot averages out pale beside the enrolled white-10,
and passed), or, where the shot is at least
tinted in a few cells (pastel art, a pale print washed out by the enrollment light),
to be tinted the same way there: the same card under a warmer or stronger light is
more saturated than its shot, not differently coloured. Measured on enrollment-style
views of a generated Bagani deck: true views agree at 0.977 or more in 99 of 100 and
true cards on generated tables at 0.98 or more, while a forgotten violet-circle read
as the enrolled blue-circle agrees at 0.90 at most.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np


MAP_SIZE = (9, 12)   # cells across and down: colour needs no detail
SATURATED = 25.0     # chroma (Lab a, b distance from grey) of a cell that carries colour
MIN_SATURATED = 3    # fewer saturated cells than this: the shot is a white card
PALE = 12.0          # chroma of a card's most coloured cells (PALE_PERCENTILE) where it reads as white
PALE_PERCENTILE = 90  # of the card's cells: a white card's colour may not sit in a tenth of it
LIGHT_RATIOS = ((0.5, 1.25), (0.7, 1.25))  # blue / red and green / red gains a room's light may give


def colour_cells(cards: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 12, 9, 3) float32 BGR means of MAP_SIZE cells of upright BGR cards: what
    `colour_agreement` compares, kept as light so that a card's light can be fitted."""
    out = np.empty((len(cards), MAP_SIZE[1], MAP_SIZE[0], 3), np.float32)
    for i, card in enumerate(cards):
        out[i] = cv2.resize(card, MAP_SIZE, interpolation=cv2.INTER_AREA)
    return out


def chroma_map(cells: np.ndarray) -> np.ndarray:
    """(12, 9, 2) chroma (Lab a, b) of BGR cells (0..255), less the median cell's."""
    chroma = cv2.cvtColor(np.clip(cells / 255.0, 0.0, 1.0).astype(np.float32), cv2.COLOR_BGR2LAB)[..., 1:]
    return chroma - _median(chroma.reshape(-1, 2))


def relit(card: np.ndarray, shot: np.ndarray) -> np.ndarray:
    """The card's cells as if under the shot's light: the per-channel gains and the
    one offset shared by every channel (haze, flare, a veil of glare: light added
    white) that best map the shot's cells onto the card's (least squares), the
    ratios between the gains held to what a room's light does (LIGHT_RATIOS), taken
    out again."""
    s, c = shot.reshape(-1, 3).astype(np.float64), card.reshape(-1, 3).astype(np.float64)
    # unknowns: the three gains, then the offset; one equation per cell and channel
    normal = np.zeros((4, 4))
    normal[:3, :3] = np.diag((s * s).sum(axis=0))
    normal[:3, 3] = normal[3, :3] = s.sum(axis=0)
    normal[3, 3] = s.size
    rhs = np.append((s * c).sum(axis=0), c.sum())
    gains = np.linalg.solve(normal + 1e-6 * np.eye(4), rhs)[:3]
    red = max(float(gains[2]), 1e-3)
    (blue_lo, blue_hi), (green_lo, green_hi) = LIGHT_RATIOS
    gains = red * np.array([np.clip(gains[0] / red, blue_lo, blue_hi), np.clip(gains[1] / red, green_lo, green_hi), 1.0])
    offset = float((c - s * gains).mean())
    return ((card - offset) / gains).astype(np.float32)


def colour_agreement(card: np.ndarray, shot: np.ndarray) -> float:
    """0..1: how well a card's colour cells (`colour_cells`) agree with an enrolled
    shot's, the card first brought under the shot's light (`relit`)."""
    return chroma_agreement(chroma_map(relit(card, shot)), chroma_map(shot))


def chroma_agreement(card: np.ndarray, shot: np.ndarray) -> float:
    """0..1: how well a card's chroma map agrees with an enrolled shot's (see module
    docstring)."""
    q, s = card.reshape(-1, 2), shot.reshape(-1, 2)
    strength = np.linalg.norm(s, axis=1)
    saturated = strength > SATURATED
    if np.count_nonzero(saturated) >= MIN_SATURATED:
        return _same_hue(q[saturated], s[saturated], strength[saturated])
    k = PALE_PERCENTILE * (len(q) - 1) // 100
    coloured = float(np.partition(np.linalg.norm(q, axis=1), k)[k])  # np.percentile's 'lower', without its overhead
    pale = float(min(1.0, PALE / max(coloured, 1e-6)))
    tinted = strength > PALE
    if np.count_nonzero(tinted) < MIN_SATURATED:
        return pale
    return max(pale, _same_hue(q[tinted], s[tinted], strength[tinted]))


def _same_hue(card: np.ndarray, shot: np.ndarray, strength: np.ndarray) -> float:
    """The median, over cells, of the cosine between the card's and the shot's chroma
    directions, scaled down where the card is less than half as saturated."""
    nq = np.linalg.norm(card, axis=1)
    cosine = (card * shot).sum(axis=1) / np.maximum(nq * strength, 1e-6)
    return float(_median(cosine * np.minimum(1.0, 2 * nq / strength)))


def _median(values: np.ndarray) -> np.ndarray:
    """np.median over the first axis, by one partition: np.median's own overhead was
    most of its cost on a few dozen values, read for every card."""
    n = len(values)
    middle = np.partition(values, [(n - 1) // 2, n // 2], axis=0)
    return (middle[(n - 1) // 2] + middle[n // 2]) / 2
