"""Frames that show no table are no evidence (vision/view_check.py): the lights off, the
picture washed out or blurred must not take every card off the table."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import ContourCardDetector
from vision.pipeline import Pipeline
from vision.printed import PrintedReader
from vision.synth.tables import game_table
from vision.view_check import LONGEST_SKIP, ViewCheck

TABLE = game_table("gargon", 7, 1).scenes[0]


def test_a_dark_frame_is_never_the_table_however_long_the_dark_lasts():
    check = ViewCheck()
    assert [check.why_unseen(TABLE.image) for _ in range(5)] == [None] * 5
    dark = (TABLE.image * 0.04).astype(np.uint8)
    assert {check.why_unseen(dark) for _ in range(3 * LONGEST_SKIP)} == {"dark"}
    assert check.why_unseen(TABLE.image) is None and check.skipped == 3 * LONGEST_SKIP


def test_a_table_that_is_dark_or_bright_all_the_time_is_seen():
    """A black felt cloth under a dim lamp, a white cloth the camera over-exposes."""
    for always in ((TABLE.image * 0.04).astype(np.uint8),
                   np.clip(TABLE.image.astype(np.int32) * 4, 0, 255).astype(np.uint8)):
        check = ViewCheck()
        assert {check.why_unseen(always) for _ in range(20)} == {None}


def test_a_washed_out_frame_is_skipped_until_the_camera_stays_so():
    check = ViewCheck()
    assert [check.why_unseen(TABLE.image) for _ in range(5)] == [None] * 5
    washed = np.clip(TABLE.image.astype(np.int32) * 4, 0, 255).astype(np.uint8)
    said = [check.why_unseen(washed) for _ in range(LONGEST_SKIP + 5)]
    assert said[:LONGEST_SKIP] == ["washed out"] * LONGEST_SKIP and said[LONGEST_SKIP:] == [None] * 5


def test_a_frame_that_looks_like_the_table_blurred_is_skipped_and_one_with_a_card_taken_away_is_not():
    """A refocusing camera blurs the whole table; a card taken off a plain dark cloth
    also takes most of the frame's detail with it, but the table still looks like itself."""
    check = ViewCheck()
    assert [check.why_unseen(TABLE.image) for _ in range(5)] == [None] * 5
    assert check.why_unseen(cv2.GaussianBlur(TABLE.image, (0, 0), 8)) == "blurred"
    dark = np.full((720, 1280, 3), 30, np.uint8)
    dark += np.random.default_rng(0).integers(0, 6, dark.shape, dtype=np.uint8)  # a dark cloth's grain
    with_card = dark.copy()
    cv2.rectangle(with_card, (600, 300), (700, 440), (230, 230, 230), -1)
    cv2.putText(with_card, "7", (625, 400), cv2.FONT_HERSHEY_SIMPLEX, 2, (20, 20, 200), 4)
    check = ViewCheck()
    assert [check.why_unseen(with_card) for _ in range(5)] == [None] * 5
    assert check.why_unseen(dark) is None


def test_the_lights_off_for_three_seconds_take_no_card_away_and_a_card_taken_meanwhile_is_gone():
    """Before, every card went "gone" in the dark and "appeared" again with the light:
    to the table, draws and plays that never happened."""
    taken = TABLE.cards[0]
    without = TABLE.image.copy()
    cv2.fillConvexPoly(without, np.round(taken.corners).astype(np.int32),
                       tuple(int(v) for v in np.median(TABLE.image.reshape(-1, 3), axis=0)))
    pipeline = Pipeline(ContourCardDetector(), PrintedReader("gargon"))
    frames = [TABLE.image] * 10 + [np.zeros_like(TABLE.image)] * 30 + [TABLE.image] * 10 + \
        [np.zeros_like(TABLE.image)] * 30 + [without] * 15
    said = [(i, o.kind) for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    assert all(kind == "appeared" for i, kind in said if i < 10)
    assert [kind for i, kind in said if i >= 10] == ["gone"]
