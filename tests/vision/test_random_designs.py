"""The random training designs the printed reader also learns from (scripts/lib/random_designs.py)."""

from __future__ import annotations

import random

import numpy as np

from scripts.lib.families import FAMILIES, HELD_OUT
from scripts.lib.printed_faces import fonts
from scripts.lib.random_designs import random_face
from vision.synth.faces import FACE_SIZE


def _faces(seed: int, game: str, code: str, count: int) -> list[np.ndarray]:
    rng = random.Random(seed)
    pool = fonts(held_out=False)
    return [random_face(game, code, rng.choice(pool), rng.choice(pool), rng, rng.random() < 0.5) for _ in range(count)]


def test_a_design_is_a_whole_face_and_the_same_seed_draws_it_again():
    for game, code in (("gargon", "violet-9"), ("dugtungan", "KA:+KWATRO"), ("dugtungan", "NG")):
        first, again = _faces(3, game, code, 4), _faces(3, game, code, 4)
        for face, same in zip(first, again):
            assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and face.dtype == np.uint8
            assert np.array_equal(face, same)


def test_designs_differ_from_each_other_and_from_the_held_out_family():
    faces = _faces(5, "gargon", "red-7", 12)
    held = FAMILIES[HELD_OUT].face("gargon", "red-7").astype(np.int16)
    for i, face in enumerate(faces):
        assert np.abs(face.astype(np.int16) - held).mean() > 8
        for other in faces[i + 1:]:
            assert np.abs(face.astype(np.int16) - other).mean() > 3


def test_a_gargon_card_in_any_design_carries_its_value_in_ink():
    """Each face holds print besides its paper: the value (and indices) were drawn."""
    for face in _faces(7, "gargon", "blue-13", 12):
        grey = face.mean(axis=2)
        assert np.percentile(grey, 99) - np.percentile(grey, 1) > 40
