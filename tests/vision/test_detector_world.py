"""The detector's training world (scripts/detector_world.py): what it teaches as a card and
what as table, that what only training tiles draw stays out of what is held out, and that
its cloths are drawn the same from the same seed."""

from __future__ import annotations

import random

import numpy as np

from scripts.detector_world import (HELD_OUT_FAMILY, HELD_OUT_TABLES, TRAIN_TABLES, TRAINING_ONLY_FAMILIES,
                                    TRAINING_ONLY_TABLES, WHOLE, face_big_pips, targets, training_tile, world_scene)
from scripts.lib.scripted import ScriptedVideo
from scripts.lib.table_layouts import make_layout_script
from vision.learned_detect import STRIDE


def test_what_only_training_tiles_draw_is_never_a_held_out_kind():
    assert not set(TRAINING_ONLY_TABLES) & set(HELD_OUT_TABLES + TRAIN_TABLES)
    assert HELD_OUT_FAMILY not in TRAINING_ONLY_FAMILIES


def test_a_cartoon_cloths_card_sized_things_are_table_and_only_the_cards_are_cards():
    """The printed things are drawn into the table: the truth marks card interior only
    where a card is seen, so the network learns them as cloth."""
    scene = world_scene(random.Random(7), (640, 640), ("cartoon",), ("big_pips",), "fan", card_px=(120, 160), tilt_max=0)
    bare = world_scene(random.Random(7), (640, 640), ("plain_light",), ("big_pips",), "fan", card_px=(120, 160), tilt_max=0)
    cards = np.zeros(scene.image.shape[:2], bool)
    for card in scene.cards:
        cards |= card.visible
    interior = targets(scene, (640, 640))[..., 0]
    assert interior[~cards].max() == 0 and interior[cards].mean() > 0.5
    table = ~cards
    assert scene.image[table].std(axis=0).mean() > bare.image[table].std(axis=0).mean() + 10  # a busy cloth, not a plain one
    assert any(card.share >= WHOLE for card in scene.cards)


def test_a_real_decks_ace_has_one_large_pip_and_its_ten_has_ten_small_ones():
    """Real decks print pips far larger than the `pips` family's: those are what the
    network took for cards on real bridge fans."""
    for seed in range(40):
        face = face_big_pips(random.Random(seed))
        h, w = face.shape[:2]
        centre = face[h // 3: 2 * h // 3, w // 3: 2 * w // 3].astype(np.int16)
        ink = (centre.max(axis=2) - centre.min(axis=2) > 60) | (centre.max(axis=2) < 90)
        if ink.mean() > 0.3:
            return  # an ace's pip filling the middle of the card
    raise AssertionError("no ace with a large pip in 40 faces")


def test_a_training_tile_is_its_size_and_its_truth_a_quarter_of_it():
    image, truth = training_tile(random.Random(1), 320)
    assert image.shape == (320, 320, 3) and truth.shape == (320 // STRIDE, 320 // STRIDE, 3)
    assert truth[..., 2].max() == 255  # weights: most pixels count


def test_a_layout_video_is_the_same_whatever_was_drawn_before_it():
    """A video's cloth takes its fine noise from OpenCV's own generator; seeded from the
    script, a video traced alone is the video a benchmark scored among others."""
    def last_frame(layout: str, seed: int) -> np.ndarray:
        script = make_layout_script(seed, layout, "stone", "gargon", size=(320, 180))
        return ScriptedVideo(script).frame(script.frames - 1)

    first = last_frame("row", 1)
    last_frame("grid", 2)
    assert np.array_equal(first, last_frame("row", 1))
