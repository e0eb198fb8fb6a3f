"""Colour agreement between a card and an enrolled shot (vision/chroma.py): chroma maps,
and colour cells relit to the shot's light first."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scripts.lib.families import family_face
from vision.chroma import MAP_SIZE, PALE, SATURATED, chroma_agreement, colour_agreement, colour_cells
from vision.identify import halved
from vision.synth.augment import photographed

WARM_DIM = np.array([0.6, 0.82, 1.1]) * 0.45  # BGR gains of a dim tungsten bulb: the detector world's warmest, dimmest


def _map(cells: dict[tuple[int, int], tuple[float, float]], noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """A (12, 9, 2) chroma map, grey but for `cells` ((row, column) -> (a, b))."""
    out = np.random.default_rng(seed).normal(0.0, noise, (MAP_SIZE[1], MAP_SIZE[0], 2)).astype(np.float32)
    for (row, column), ab in cells.items():
        out[row, column] = ab
    return out


PANEL = [(r, c) for r in range(2, 10) for c in range(1, 8)]  # an art panel, 56 of the 108 cells


def test_saturated_shot_asks_for_the_same_hue():
    shot = _map({cell: (0.0, -2 * SATURATED) for cell in PANEL})  # blue art
    assert chroma_agreement(shot, shot) == pytest.approx(1.0)
    assert chroma_agreement(_map({cell: (2 * SATURATED, 0.0) for cell in PANEL}), shot) < 0.1  # red art
    assert chroma_agreement(_map({}), shot) < 0.1  # a grey card where a blue one is enrolled


def test_tinted_shot_accepts_the_same_tint_under_a_stronger_light():
    """A pastel shot (tinted, nowhere saturated) seen under a warmer or stronger light:
    the same hue, more saturated. Before, only 'unsaturated like the shot' counted, and
    the true card failed for being more colourful than its own enrollment."""
    tint = (0.0, 0.5 * (PALE + SATURATED))  # yellow, between PALE and SATURATED
    shot = _map({cell: tint for cell in PANEL})
    brighter = _map({cell: (0.0, 2.5 * tint[1]) for cell in PANEL}, noise=2.0)
    assert chroma_agreement(brighter, shot) > 0.95
    other_hue = _map({cell: (2.5 * tint[1], 0.0) for cell in PANEL}, noise=2.0)
    assert chroma_agreement(other_hue, shot) < 0.6


def test_white_shot_still_rejects_a_coloured_card():
    shot = _map({}, noise=2.0)  # a white card: no tinted cells at all
    assert chroma_agreement(_map({}, noise=2.0, seed=1), shot) == pytest.approx(1.0)
    yellow = _map({(r, c): (0.0, 3 * SATURATED) for r in range(12) for c in range(9) if r < 3 or r > 8}, noise=2.0)
    assert chroma_agreement(yellow, shot) < 0.5


def _cells(family: str, game: str, code: str, light: np.ndarray, seed: int) -> np.ndarray:
    """Colour cells of a generated photo of one face under `light` (BGR gains)."""
    view = photographed(family_face(family, game, code), random.Random(seed), cut=(0.01, 0.0))
    lit = np.clip(view.astype(np.float32) * light, 0, 255).astype(np.uint8)
    return colour_cells(halved([lit]))[0]


@pytest.mark.parametrize("family", ["ribbon", "medallion", "project"])
@pytest.mark.parametrize("light", [WARM_DIM, np.full(3, 0.45)], ids=["warm-dim", "dim"])
def test_a_card_under_warm_dim_light_agrees_with_its_shot_and_a_forgotten_colour_does_not(family, light):
    """Under the detector world's warmest, dimmest light a true card still agrees with
    its shot as it does under the enrollment's (its chroma less the median cell's, as
    before relighting, fell to 0.4-0.8, under every shot's cut of about 0.95), while a
    forgotten blue-circle or red-circle under the same light is no violet-circle."""
    shot = _cells(family, "bagani", "violet-circle", np.ones(3), 1)
    for seed in (2, 5):
        assert colour_agreement(_cells(family, "bagani", "violet-circle", light, seed), shot) > 0.97
        assert colour_agreement(_cells(family, "bagani", "blue-circle", light, seed), shot) < 0.8
        assert colour_agreement(_cells(family, "bagani", "red-circle", light, seed), shot) < 0.6
