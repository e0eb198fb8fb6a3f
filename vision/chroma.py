"""Where a card's colours are: what tells a red 14 from a blue 14, and a white card from a yellow one.

Everything else the identifier compares is band-pass (vision/template.py): strokes
and edges, with the light's slow changes, and with them flat colour, filtered out.
Two faces that differ only in colour (Gargon suits, Bagani colours) look alike there,
so a forgotten violet-circle aligns with the enrolled blue-circle cell for cell.
This is the colour half: a coarse map of the card's chroma (Lab a and b, 9x12 cells),
less the chroma of the card's median cell, so a colour cast over the whole card
(a warm bulb, a blue window) cancels. White-balancing against the card's brightest
parts instead was tried and dropped: on dark cards with no white the brightest parts
are the art, and their hue moved with the light.

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


def chroma_maps(cards: Sequence[np.ndarray]) -> np.ndarray:
    """(n, 12, 9, 2) float32 chroma (Lab a, b) of upright BGR cards, each less its
    median cell's."""
    out = np.empty((len(cards), MAP_SIZE[1], MAP_SIZE[0], 2), np.float32)
    for i, card in enumerate(cards):
        small = cv2.resize(card, MAP_SIZE, interpolation=cv2.INTER_AREA)
        chroma = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[..., 1:].astype(np.float32)
        out[i] = chroma - _median(chroma.reshape(-1, 2))
    return out


def colour_agreement(card: np.ndarray, shot: np.ndarray) -> float:
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
