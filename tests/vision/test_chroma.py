"""Colour agreement between a card's chroma map and an enrolled shot's (vision/chroma.py)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.chroma import MAP_SIZE, PALE, SATURATED, colour_agreement


def _map(cells: dict[tuple[int, int], tuple[float, float]], noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """A (12, 9, 2) chroma map, grey but for `cells` ((row, column) -> (a, b))."""
    out = np.random.default_rng(seed).normal(0.0, noise, (MAP_SIZE[1], MAP_SIZE[0], 2)).astype(np.float32)
    for (row, column), ab in cells.items():
        out[row, column] = ab
    return out


PANEL = [(r, c) for r in range(2, 10) for c in range(1, 8)]  # an art panel, 56 of the 108 cells


def test_saturated_shot_asks_for_the_same_hue():
    shot = _map({cell: (0.0, -2 * SATURATED) for cell in PANEL})  # blue art
    assert colour_agreement(shot, shot) == pytest.approx(1.0)
    assert colour_agreement(_map({cell: (2 * SATURATED, 0.0) for cell in PANEL}), shot) < 0.1  # red art
    assert colour_agreement(_map({}), shot) < 0.1  # a grey card where a blue one is enrolled


def test_tinted_shot_accepts_the_same_tint_under_a_stronger_light():
    """A pastel shot (tinted, nowhere saturated) seen under a warmer or stronger light:
    the same hue, more saturated. Before, only 'unsaturated like the shot' counted, and
    the true card failed for being more colourful than its own enrollment."""
    tint = (0.0, 0.5 * (PALE + SATURATED))  # yellow, between PALE and SATURATED
    shot = _map({cell: tint for cell in PANEL})
    brighter = _map({cell: (0.0, 2.5 * tint[1]) for cell in PANEL}, noise=2.0)
    assert colour_agreement(brighter, shot) > 0.95
    other_hue = _map({cell: (2.5 * tint[1], 0.0) for cell in PANEL}, noise=2.0)
    assert colour_agreement(other_hue, shot) < 0.6


def test_white_shot_still_rejects_a_coloured_card():
    shot = _map({}, noise=2.0)  # a white card: no tinted cells at all
    assert colour_agreement(_map({}, noise=2.0, seed=1), shot) == pytest.approx(1.0)
    yellow = _map({(r, c): (0.0, 3 * SATURATED) for r in range(12) for c in range(9) if r < 3 or r > 8}, noise=2.0)
    assert colour_agreement(yellow, shot) < 0.5
