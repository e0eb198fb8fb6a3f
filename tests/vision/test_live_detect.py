"""The joint detector at the live table (vision/live_detect.py): its network looks again
only when the table changed and settled, and the frames in between are judged as the
joint detector judges them."""

import numpy as np
import pytest

from scripts.lib.scripted import ScriptedCard, ScriptedVideo, TableScript
from vision.learned_detect import JointCardDetector
from vision.live_detect import LiveJointDetector, LiveSettings
from vision.synth.camera import HandSweep, Pose

SIZE = (960, 540)


@pytest.fixture(scope="module")
def joint():
    return JointCardDetector()


def video(cards, sweeps=(), frames=14, table="felt") -> list[np.ndarray]:
    script = TableScript(SIZE, frames=frames, fps=10.0, table=table, card_length=0.27 * SIZE[1], seed=4,
                         cards=list(cards), sweeps=list(sweeps))
    return list(ScriptedVideo(script))


def looked(detector: LiveJointDetector, frames: list[np.ndarray]) -> list[int]:
    """The frames the network looked at."""
    out = []
    for i, frame in enumerate(frames):
        before = detector.network_runs
        detector.sure_and_doubted(frame)
        if detector.network_runs > before:
            out.append(i)
    return out


def test_at_a_still_table_the_network_looks_once_whatever_the_sensor_noise(joint):
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0)])
    assert looked(LiveJointDetector(joint), frames) == [0]


def test_a_card_put_down_is_looked_at_on_the_frame_after_it_came(joint):
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0),
                    ScriptedCard("blue-14", Pose(650, 280, -20), placed=6)])
    assert looked(LiveJointDetector(joint), frames) == [0, 7]


def test_a_hand_passing_over_the_table_is_looked_at_only_every_few_frames(joint):
    """Never settled while it moves: looked at once it has moved for `restless` frames
    (a card may have come down elsewhere meanwhile), not on every frame."""
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0)],
                   [HandSweep(2, 11, -100, 1060, 0.9, (90, 130, 180))])
    restless = LiveSettings().restless
    seen = looked(LiveJointDetector(joint), frames)
    assert seen[0] == 0 and len(seen) <= 1 + len(frames) // restless
    assert all(b - a >= restless for a, b in zip(seen, seen[1:]))


def test_a_hand_lifted_from_a_table_it_left_as_it_was_is_not_looked_at(joint):
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0)],
                   [HandSweep(2, 5, -100, 1060, 0.9, (90, 130, 180))])
    assert looked(LiveJointDetector(joint), frames) == [0]


def test_a_card_put_down_under_a_passing_hand_is_looked_at_once_the_hand_has_gone(joint):
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0),
                    ScriptedCard("blue-14", Pose(650, 280, -20), placed=4)],
                   [HandSweep(2, 9, -100, 1060, 0.9, (90, 130, 180))])
    seen = looked(LiveJointDetector(joint), frames)
    assert seen[0] == 0 and seen[-1] == 10  # 9 is the first frame without the hand, 10 the first settled


def test_a_view_is_made_again_when_it_is_too_old(joint):
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0)], frames=10)
    assert looked(LiveJointDetector(joint, LiveSettings(max_age=4)), frames) == [0, 4, 8]


def test_frames_between_looks_are_judged_as_the_joint_detector_judges_them(joint):
    """On a still table the view of the first frame stands for the later ones: the cards
    and doubted finds are those of the joint detector on each frame itself."""
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0),
                    ScriptedCard("green-0", Pose(640, 300, 80), placed=0)], frames=4, table="pattern")
    live = LiveJointDetector(joint)
    for frame in frames:
        mine, theirs = live.sure_and_doubted(frame), joint.sure_and_doubted(frame)
        for got, want in zip(mine, theirs):
            assert len(got) == len(want)
            assert all(np.allclose(a.corners, b.corners, atol=2.0) for a, b in zip(got, want))
    assert live.network_runs == 1


def test_a_card_taken_away_leaves_no_card_behind_before_the_network_looks_again(joint):
    """The frame a card is taken away on is judged against the view that saw it: where
    the table changed, the view's card must not stand."""
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0, removed=5),
                    ScriptedCard("blue-14", Pose(650, 280, -20), placed=0)], frames=6)
    live = LiveJointDetector(joint)
    for frame in frames[:5]:
        live.sure_and_doubted(frame)
    sure, _ = live.sure_and_doubted(frames[5])
    assert live.network_runs == 1
    centres = [d.corners.mean(axis=0) for d in sure]
    assert len(centres) == 1 and centres[0][0] > 500  # blue-14 only


def test_a_find_where_the_table_changed_since_the_network_looked_is_doubted_unlooked(joint):
    """A card put down is doubted until the network looks again, as a find in a part of
    the frame it has not seen since it changed (a card passing in a hand may lie there):
    not `looked`. The checked cloth's squares, where the frame is as the network saw it,
    are doubted and `looked`: it saw no card there (vision/track.py never takes such a
    find for a card held above the table)."""
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0),
                    ScriptedCard("blue-14", Pose(650, 280, -20), placed=4)], frames=5, table="checked")
    live = LiveJointDetector(joint)
    for frame in frames[:4]:
        _, doubted = live.sure_and_doubted(frame)
        assert len(doubted) > 10 and all(d.looked for d in doubted)  # the cloth's squares
    _, doubted = live.sure_and_doubted(frames[4])
    assert live.network_runs == 1
    new = min(doubted, key=lambda d: float(np.linalg.norm(d.corners.mean(axis=0) - (650, 280))))
    assert np.linalg.norm(new.corners.mean(axis=0) - (650, 280)) < 20 and not new.looked
    assert all(d.looked for d in doubted if d.corners.mean(axis=0)[0] < 500)


def test_no_find_is_looked_at_in_a_view_made_while_a_hand_moves(joint):
    """A view made of a frame that differs from the frame before (a hand moving for
    `restless` frames) may hold a card the hand carries that the network does not see:
    none of that view's doubted finds is `looked`, the cloth's squares included; once the
    hand has gone and the table settled, they are again."""
    frames = video([ScriptedCard("red-7", Pose(300, 250, 10), placed=0)],
                   [HandSweep(2, 11, -100, 1060, 0.9, (90, 130, 180))], table="checked")
    live = LiveJointDetector(joint)
    views = []
    for frame in frames:
        before = live.network_runs
        _, doubted = live.sure_and_doubted(frame)
        if live.network_runs > before:
            views.append([d.looked for d in doubted])
    assert len(views) == 3 and all(views[0]) and all(views[2])  # the first frame; the hand gone
    assert views[1] and not any(views[1])  # the hand moving
