"""The whole vision loop on a generated video: real detector, tracker and zones; the
script of the video is the truth."""

import random

import cv2
import numpy as np
import pytest

from vision.detect import ContourCardDetector
from vision.pipeline import Pipeline
from vision.printed import PrintedReader
from vision.synth.tables import game_table
from scripts.lib.scripted import ScriptedCard, ScriptedVideo, ScriptFaces, TableScript, score_events
from vision.detectors import live_detector
from vision.synth.camera import SKIN, HandSweep, Pose, card_corners, draw_hand, paste_card
from vision.synth.recording import card_face
from vision.synth.scenes import table_image
from vision.zones import frame_zones

SIZE = (960, 540)


class CountingFaces(ScriptFaces):
    calls = 0

    def identify(self, card):
        self.calls += 1
        return super().identify(card)


@pytest.fixture(scope="module")
def played():
    """Three cards: one stays, one is slid to the next spot, one is taken away, while a
    hand sweeps across them all."""
    length = 0.27 * SIZE[1]
    script = TableScript(SIZE, frames=48, fps=10.0, table="felt", card_length=length, seed=5, cards=[
        ScriptedCard("red-7", Pose(200, 160, 10), placed=0),
        ScriptedCard("blue-14", Pose(480, 380, -30), placed=3, move_start=18, move_end=24,
                     moved_to=Pose(760, 380, 20)),
        ScriptedCard("green-0", Pose(480, 150, 95), placed=5, removed=28),
    ], sweeps=[HandSweep(10, 18, -100, 1060, 0.9, (90, 130, 180))])
    video = ScriptedVideo(script)
    faces = CountingFaces(script)
    zones = frame_zones(*SIZE, seats=3)
    pipeline = Pipeline(ContourCardDetector(), faces, zones.zone_of)
    emitted = [(i, e) for i in range(script.frames) for e in pipeline.process(video.frame(i), i / script.fps)]
    return video, faces, emitted


def test_every_placement_slide_and_removal_is_one_event_with_nothing_else(played):
    video, _, emitted = played
    score = score_events(video, emitted)
    assert (score["precision"], score["recall"]) == (1.0, 1.0)


def test_each_card_is_named_once_and_named_right_and_read_again_once_where_it_was_slid_to(played):
    _, faces, emitted = played
    assert faces.calls == 3 + 1
    assert sorted(e.code for _, e in emitted if e.kind == "appeared") == ["blue-14", "green-0", "red-7"]


def test_a_card_is_reported_within_half_a_second_of_being_put_down(played):
    video, _, emitted = played
    assert max(score_events(video, emitted)["latencies_s"]) <= 0.5


def test_a_slid_card_reports_the_seat_it_left_and_the_one_it_reached(played):
    _, _, emitted = played
    moved = [e for _, e in emitted if e.kind == "moved"]
    assert [(e.code, e.previous_zone != e.zone) for e in moved] == [("blue-14", True)]


def test_a_card_put_down_under_a_passing_arm_is_reported_soon_after_the_arm_has_gone():
    """The arm covers the card for its first frames: the wait from placement is the
    arm's; from the moment the card is in clear view, the tracker's own delay is short."""
    length = 0.27 * SIZE[1]
    script = TableScript(SIZE, frames=30, fps=10.0, table="wood", card_length=length, seed=8, cards=[
        ScriptedCard("yellow-9", Pose(480, 300, 0), placed=2)],
        sweeps=[HandSweep(0, 12, 300, 660, 0.9, (60, 100, 160))])
    video = ScriptedVideo(script)
    assert video.covered(script.cards[0], 4) and not video.covered(script.cards[0], 14)
    pipeline = Pipeline(ContourCardDetector(), ScriptFaces(script))
    emitted = [(i, e) for i in range(script.frames) for e in pipeline.process(video.frame(i), i / script.fps)]
    score = score_events(video, emitted)
    assert score["recall"] == 1.0
    assert score["latencies_s"][0] > 0.5
    assert score["in_view_latencies_s"][0] <= 0.3



def test_a_camera_that_comes_back_in_another_mode_moves_no_card():
    """A camera reopened after a fault may send 640x480 where it sent 1280x720 (or more):
    the cards lying still stay where they were, in their seats; before, every card
    seemed to move, and cutting one out where it lay in a larger frame crashed."""
    image = cv2.resize(game_table("gargon", 7, 1).scenes[0].image, SIZE)
    pipeline = Pipeline(ContourCardDetector(), PrintedReader("gargon"), frame_zones(*SIZE, seats=3).zone_of)
    sizes = [SIZE] * 10 + [(640, 480)] * 10 + [(1920, 1080)] * 10 + [SIZE] * 10
    said = [(i, o.kind) for i, size in enumerate(sizes) for o in pipeline.process(cv2.resize(image, size), i / 10)]
    assert said and all(kind == "appeared" and i < 10 for i, kind in said)


def test_an_arm_resting_over_cards_for_three_seconds_takes_none_away_and_a_card_taken_is_gone():
    """Before, the cards under an arm that rested 1.5 s or more went "gone" and, the arm
    lifted, "appeared" again: to the table, moves nobody made. An arm covers what lies
    round a card too; a card taken away leaves the table round it as it was."""
    scene = game_table("gargon", 7, 1).scenes[0]
    image = scene.image
    h, w = image.shape[:2]
    arm = image.copy()
    cv2.ellipse(arm, (w // 2, h), (w // 3, int(h * 0.6)), 0, 0, 360, (90, 130, 180), -1)
    taken = min(scene.cards, key=lambda c: c.corners[:, 1].mean())  # the card furthest from the arm
    without = image.copy()
    cv2.fillConvexPoly(without, np.round(1.05 * (taken.corners - taken.corners.mean(axis=0))
                                         + taken.corners.mean(axis=0)).astype(np.int32),
                       tuple(int(v) for v in np.median(image.reshape(-1, 3), axis=0)))
    pipeline = Pipeline(ContourCardDetector(), PrintedReader("gargon"), frame_zones(w, h, seats=3).zone_of)
    frames = [image] * 10 + [arm] * 30 + [image] * 10 + [without] * 20
    said = [(i, o.kind, o.code) for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    assert all(kind == "appeared" for i, kind, _ in said if i < 10)
    assert [(kind, code) for i, kind, code in said if i >= 10] == [("gone", taken.code)]


@pytest.mark.parametrize("kind", ["wood", "felt"])
def test_a_row_of_touching_cards_swept_off_at_once_is_gone_as_soon_as_one_card_alone(kind):
    """Each card's surroundings (its neighbours) changed as a whole, as under an arm; but
    the table shows where each lay. Before, one card of the row was kept 6.5 s."""
    bare = table_image(kind, (1280, 720), random.Random(kind))
    laid = bare.copy()
    for k, code in enumerate(["red-5", "blue-9", "green-2", "yellow-13", "violet-7", "white-4"]):
        paste_card(laid, card_face("gargon", code), card_corners(Pose(250 + 152 * k, 360, 0), 210, np.eye(3)))
    sweep = [laid.copy(), bare.copy(), bare.copy()]
    for i, frame in enumerate(sweep):
        draw_hand(frame, HandSweep(0, 3, 100, 1180, 0.7, SKIN[0]), i)
    pipeline = Pipeline(live_detector(), PrintedReader("gargon"), frame_zones(1280, 720, seats=3).zone_of)
    frames = [laid] * 10 + sweep + [bare] * 20
    said = [(i, o.kind) for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    assert [kind_ for i, kind_ in said if i < 10] == ["appeared"] * 6
    assert [kind_ for i, kind_ in said if i >= 10] == ["gone"] * 6  # within 2 s of the sweep


class _LiveSource:
    """A webcam sending 30 frames a second, for 2 s (its clock runs with its frames)."""

    live = True

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self.sent = frame, 0

    def read(self, timeout: float = 1.0) -> np.ndarray:
        self.sent += 1
        return self.frame


@pytest.mark.parametrize("live, expected", [(True, 20), (False, 60)], ids=["camera", "file"])
def test_a_live_camera_is_read_ten_frames_a_second_and_a_file_frame_by_frame(live, expected):
    """The tracker's frame counts are set at 10 frames a second (a card given up after 15
    missed): read at 30, a hand resting half a second took a card away."""
    source = _LiveSource(np.zeros((48, 64, 3), np.uint8))
    source.live = live
    pipeline = Pipeline(ContourCardDetector(), PrintedReader("gargon"))
    read: list[float] = []
    pipeline.process = lambda frame, timestamp: read.append(timestamp) or []  # type: ignore[method-assign]
    list(pipeline.run(source, stopped=lambda: source.sent >= 60, clock=lambda: source.sent / 30))
    assert len(read) == expected
