"""The tracker's promises, on plain card quadrilaterals: report a card only once it is
surely there, keep its identity while it moves or hides under a hand, and identify it
once."""

import math

import cv2
import numpy as np
from hypothesis import given, settings, strategies as st

from vision.interfaces import Candidate, Reading
from vision.geometry import aspect
from vision.track import Tracker, TrackerSettings
from vision.zones import frame_zones

N, M = TrackerSettings().confirm_frames, TrackerSettings().lose_frames


def card(x: float, y: float, angle: float = 0.0, length: float = 100.0) -> np.ndarray:
    """A card's corners clockwise from its own top-left, centred on (x, y), turned by `angle` degrees."""
    half = np.array([[-0.36, -0.5], [0.36, -0.5], [0.36, 0.5], [-0.36, 0.5]]) * length
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return half @ turn.T + (x, y)


class CountingIdentifier:
    """Names every card by its position's column, and counts how often it is asked."""

    def __init__(self, rotated: bool = False) -> None:
        self.calls = 0
        self.rotated = rotated

    def __call__(self, corners: np.ndarray) -> Reading:
        self.calls += 1
        code = f"card-{int(corners.mean(axis=0)[0] // 200)}"
        return Reading(code, 0.9, (Candidate(code, 0.9), Candidate("other", 0.2)), rotated=self.rotated)


def play(tracker: Tracker, frames: list[list[np.ndarray]], identify=None, fps: float = 10.0):
    identify = identify or CountingIdentifier()
    events = []
    for i, quads in enumerate(frames):
        events += [(i, e) for e in tracker.update(quads, i / fps, identify)]
    return events


def test_a_card_is_reported_only_after_n_consecutive_frames():
    events = play(Tracker(), [[card(100, 100)]] * (N + 2))
    assert [(i, e.kind) for i, e in events] == [(N - 1, "appeared")]
    assert events[0][1].code == "card-0" and events[0][1].first_seen == 0.0


def test_a_flicker_shorter_than_n_frames_creates_nothing():
    flicker = [[card(100, 100)]] * (N - 1) + [[]]
    assert play(Tracker(), flicker * 4) == []


def test_a_card_is_gone_only_after_m_frames_without_it():
    frames = [[card(100, 100)]] * 5 + [[]] * (M + 2)
    events = play(Tracker(), frames)
    assert [(i, e.kind) for i, e in events] == [(N - 1, "appeared"), (4 + M, "gone")]
    assert events[-1][1].last_seen == 0.4  # when it was last seen, not when it was given up


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, M - 1), st.integers(1, 6)), min_size=1, max_size=5))
def test_a_hand_hiding_cards_for_fewer_than_m_frames_creates_and_deletes_nothing(gaps):
    cards = [card(100, 100), card(500, 300, 30)]
    frames = [cards] * N
    for hidden, shown in gaps:
        frames += [[cards[1]]] * hidden + [cards] * shown  # the hand covers the first card
    events = play(Tracker(), frames)
    assert sorted(e.kind for _, e in events) == ["appeared", "appeared"]


def test_a_hand_shaped_false_card_crossing_the_table_creates_nothing():
    sweep = [[card(100, 100), card(60 + 130 * i, 400)] for i in range(10)]
    events = play(Tracker(), [[card(100, 100)]] * N + sweep)
    assert [e.kind for _, e in events] == ["appeared"]


def test_a_sliding_card_keeps_its_identity_and_is_reported_moved_once_at_rest():
    slide = [[card(100 + 40 * i, 100 + 10 * i, 3 * i)] for i in range(10)]
    frames = [[card(100, 100)]] * 5 + slide + [[card(460, 190, 27)]] * 5
    events = play(Tracker(), frames, lambda corners: Reading("red-7", 0.9))  # read again at rest: the same card
    assert [e.kind for _, e in events] == ["appeared", "moved"]
    assert len({e.track for _, e in events}) == 1
    assert np.allclose(np.mean(events[1][1].corners, axis=0), (460, 190))


def test_a_card_nudged_a_little_is_not_moved():
    frames = [[card(100, 100)]] * 5 + [[card(110, 104, 4)]] * 5
    assert [e.kind for _, e in play(Tracker(), frames)] == ["appeared"]


def test_the_identifier_runs_once_per_new_card():
    """And once more for a card nudged (here a third of its length): another card may
    have been put down over it, a little off it."""
    identify = CountingIdentifier()
    frames = [[card(100, 100), card(400, 100)]] * 20 + [[card(100, 100), card(420, 120), card(700, 500)]] * 20
    play(Tracker(), frames, identify)
    assert identify.calls == 4


def test_a_card_carried_to_another_spot_before_it_is_given_up_is_the_same_card_moved():
    def same_code(corners):
        return Reading("blue-7", 0.95)
    frames = [[card(100, 100)]] * 5 + [[]] * 3 + [[card(700, 500)]] * 6
    events = play(Tracker(), frames, same_code)
    assert [e.kind for _, e in events] == ["appeared", "moved"]
    assert events[0][1].track == events[1][1].track


def test_an_upside_down_card_reports_corners_from_its_own_top_left():
    quad = card(300, 300)
    events = play(Tracker(), [[quad]] * N, CountingIdentifier(rotated=True))
    assert np.allclose(events[0][1].corners, np.roll(quad, -2, axis=0))


def test_a_card_turning_past_a_right_angle_keeps_its_own_top_left():
    from vision.detect import order_clockwise
    turn = [[order_clockwise(card(300, 300, a))] for a in range(0, 181, 15)]
    events = play(Tracker(TrackerSettings(move_threshold=0.0)), turn + turn[-1:] * 3)
    last = events[-1][1]
    assert np.allclose(last.corners, card(300, 300, 180), atol=1e-3)


def test_a_card_moved_into_another_seat_names_both_zones():
    zones = frame_zones(1280, 720, 4)
    frames = [[card(640, 650)]] * 5 + [[card(640 - 60 * i, 650 - 28 * i)] for i in range(1, 10)] + [[card(100, 400)]] * 5
    events = play(Tracker(zone_of=zones.zone_of), frames, lambda corners: Reading("red-7", 0.9))
    appeared, moved = (e for _, e in events)
    assert (appeared.zone, moved.zone, moved.previous_zone) == ("seat-0", "seat-1", "seat-0")


def test_a_card_never_continues_as_a_different_looking_card_beside_it():
    red, green = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    tracker, identify = Tracker(), CountingIdentifier()
    events = []
    for i in range(6):  # the red card lies still
        events += tracker.update([card(100, 100)], i / 10, identify, [red])
    # a hand hides it for one frame while a green card is put down just beside it
    events += tracker.update([card(200, 100)], 0.6, identify, [green])
    for i in range(7, 12):
        events += tracker.update([card(100, 100), card(200, 100)], i / 10, identify, [red, green])
    assert [e.kind for e in events] == ["appeared", "appeared"]
    assert len({e.track for e in events}) == 2


def test_of_two_hidden_copies_of_a_card_the_nearer_one_turned_up_again():
    def same_code(corners):
        return Reading("red-3", 0.9)
    tracker = Tracker()
    events = []
    for i in range(5):
        events += tracker.update([card(100, 100), card(700, 500)], i / 10, same_code)
    for i in (5, 6):  # a hand over both; the first copy is taken away, the second slid a little
        events += tracker.update([], i / 10, same_code)
    for i in range(7, 13):
        events += tracker.update([card(760, 500)], i / 10, same_code)
    second = events[1].track
    assert [(e.kind, e.track) for e in events[2:]] == [("moved", second)]


class NamesOnly:
    """Names the cards at the given columns (like CountingIdentifier) and nothing else: a
    cloth's square is none of the deck's cards."""

    def __init__(self, *columns: int) -> None:
        self.columns = columns
        self.calls = 0

    def __call__(self, corners: np.ndarray) -> Reading:
        self.calls += 1
        column = int(corners.mean(axis=0)[0] // 200)
        code = f"card-{column}" if column in self.columns else None
        return Reading(code, 0.9 if code else 0.2)


def play_doubted(frames: list[list[tuple[np.ndarray, bool]]], identify) -> list:
    """Frames of (quad, doubted) sightings through a fresh tracker."""
    tracker, events = Tracker(), []
    for i, seen in enumerate(frames):
        events += [(i, e) for e in tracker.update([q for q, _ in seen], i / 10, identify, doubted=[d for _, d in seen])]
    return events


def test_a_doubted_find_the_reader_cannot_name_is_never_reported_and_read_once():
    identify = NamesOnly(0)
    events = play_doubted([[(card(100, 100), False), (card(500, 100), True)]] * 20, identify)
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "card-0")]
    assert identify.calls == 2


def test_a_doubted_find_the_reader_names_is_a_card_as_soon_as_a_sure_one():
    events = play_doubted([[(card(100, 100), False), (card(500, 100), True)]] * 5, NamesOnly(0, 2))
    assert sorted((i, e.code) for i, e in events) == [(N - 1, "card-0"), (N - 1, "card-2")]


def test_a_refused_find_is_read_again_once_the_detector_is_sure_of_it():
    """A card put down since the network last looked: doubted at first, sure once it has
    looked; an unenrolled card is reported then, unnamed, as any sure find is."""
    identify = NamesOnly()
    frames = [[(card(500, 100), True)]] * 6 + [[(card(500, 100), False)]] * 3
    events = play_doubted(frames, identify)
    assert [(i, e.kind, e.code) for i, e in events] == [(6, "appeared", None)]
    assert identify.calls == 2


def test_a_card_dropped_turned_on_a_card_alike_is_a_new_card_not_the_one_below_moved():
    codes = iter(["red-7", "red-9"])
    frames = [[card(100, 100)]] * 5 + [[card(120, 110, 60)]] * 5
    events = play(Tracker(), frames, lambda corners: Reading(next(codes), 0.9))
    assert [(i, e.kind) for i, e in events] == [(N - 1, "appeared"), (5 + N - 1, "appeared")]
    assert len({e.track for _, e in events}) == 2


def test_a_doubted_find_named_only_faintly_is_not_a_card():
    """The printed reader named a floral cloth's flower "yellow-5" at 0.14."""
    events = play_doubted([[(card(500, 100), True)]] * 8, lambda corners: Reading("yellow-5", 0.14))
    assert events == []


def test_a_panel_of_a_card_on_the_table_taken_for_a_card_is_not_one():
    """The network splits a dark Lagim face into its panels: a find inside a card already
    reported, which the reader cannot name, is a part of it."""
    panels = [(card(100, 75, length=45), False), (card(100, 125, length=45), False)]
    beside = [[(card(100, 100), False), panels[0]]] * 4  # a panel beside the card's own outline ...
    alone = [panels] * 6  # ... then the panels alone, the card's own outline lost
    events = play_doubted([[(card(100, 100), False)]] * N + beside + alone,
                          lambda corners: Reading("red-7", 0.95) if _long(corners) > 80 else Reading(None, 0.1))  # the panel reads as nothing
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "red-7")]


def _long(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[1] - corners[2]))


def strip(x: float, y: float, share: float, length: float = 100.0) -> np.ndarray:
    """The part of an upright card (`card`) left in sight when a card over it leaves only
    `share` of its width uncovered, on its left."""
    quad = card(x, y, length=length)
    quad[1, 0] = quad[2, 0] = quad[0, 0] + share * (quad[1, 0] - quad[0, 0])
    return quad


def test_a_card_put_down_over_a_card_alike_is_a_new_card_not_that_card_moved():
    """A fan's next card, slid half a card along the last, of the same look and size: the
    tracker follows it from the card below, and reads it again before calling it a move."""
    def by_place(corners):
        return Reading("red-7" if corners.mean(axis=0)[0] < 125 else "blue-2", 0.9)
    frames = [[card(100, 100)]] * 5 + [[card(150, 100)]] * 6 + [[card(150, 100), strip(100, 100, 0.5)]] * 6
    events = play(Tracker(), frames, by_place)
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "red-7"), ("appeared", "blue-2")]
    assert len({e.track for _, e in events}) == 2


def test_the_strip_of_a_covered_card_the_reader_cannot_name_is_not_a_new_card():
    frames = ([[card(100, 100), card(400, 100)]] * 5  # the table's cards
              + [[card(400, 100), card(150, 100), strip(100, 100, 0.4)]] * 20)  # one slid over the first
    events = play_doubted([[(q, False) for q in quads] for quads in frames],
                          lambda corners: Reading(None, 0.3) if _long(corners) < 50 or aspect(corners) < 0.5
                          else Reading(f"card-{int(corners.mean(axis=0)[0])}", 0.9))
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "card-100"), ("appeared", "card-400"),
                                                     ("appeared", "card-150")]


def test_a_smaller_card_of_the_tables_shape_is_still_reported_unnamed():
    """A card further from the camera looks smaller; a card never enrolled has no name.
    Such a card is put to the host, not dropped."""
    frames = [[(card(100, 100), False)]] * 5 + [[(card(100, 100), False), (card(400, 100, length=70), False)]] * 5
    events = play_doubted(frames, lambda corners: Reading("red-7", 0.9) if _long(corners) > 80 else Reading(None, 0.2))
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "red-7"), ("appeared", None)]


class NamesOnLook:
    """Cannot name the card at first (a hand's shadow over it, a part of it outlined), and
    names it from its `look`-th reading on, turned; counts its readings."""

    def __init__(self, look: int) -> None:
        self.look = look
        self.calls = 0

    def __call__(self, corners: np.ndarray) -> Reading:
        self.calls += 1
        return Reading("red-7", 0.9, rotated=True) if self.calls >= self.look else Reading(None, 0.2)


REREAD = TrackerSettings().reread_after


def test_a_card_reported_unknown_is_read_again_while_it_lies_still_and_named_later():
    identify = NamesOnLook(2)
    events = play(Tracker(), [[card(100, 100)]] * (N + REREAD + 5), identify)
    assert [(i, e.kind, e.code) for i, e in events] == [(N - 1, "appeared", None), (N - 1 + REREAD, "named", "red-7")]
    assert events[0][1].track == events[1][1].track and identify.calls == 2
    assert np.allclose(events[1][1].corners, np.roll(card(100, 100), -2, axis=0))  # its own top-left first


def test_a_card_no_reading_names_is_read_again_less_and_less_often():
    """Something that is none of the deck's cards, lying there a minute at 10 frames a second."""
    identify = NamesOnLook(10 ** 6)
    events = play(Tracker(), [[card(100, 100)]] * 600, identify)
    assert [e.kind for _, e in events] == ["appeared"]
    longest = TrackerSettings().longest_reread_wait
    waits = [REREAD * 2 ** k for k in range(8) if REREAD * 2 ** k < longest]
    assert identify.calls == 1 + len(waits) + (600 - N - sum(waits)) // longest


def test_a_card_reported_unknown_is_not_read_again_while_it_slides_or_the_detector_doubts_it():
    identify = NamesOnLook(2)
    sliding = [[(card(100 + 8 * k, 100), False)] for k in range(2 * REREAD)]
    doubted = [[(card(100 + 16 * REREAD, 100), True)]] * (2 * REREAD)
    events = play_doubted([[(card(100, 100), False)]] * N + sliding + doubted, identify)
    assert [e.kind for _, e in events] == ["appeared", "moved"] and identify.calls == 1


def test_two_touching_cards_taken_for_one_unnamed_card_do_not_keep_that_card_there():
    """An unnamed card may be two touching cards outlined as one: seen apart, they are no
    parts that keep it on the table; once it is gone they are the table's cards."""
    blob = np.vstack([card(100, 100)[:1], card(172, 100)[1:3], card(100, 100)[3:]])
    frames = [[(blob, False)]] * N + [[(card(100, 100), False), (card(172, 100), False)]] * (M + N + 2)
    events = play_doubted(frames, lambda corners: Reading(None, 0.2))
    assert [(i, e.kind) for i, e in events][:2] == [(N - 1, "appeared"), (N + M - 1, "gone")]
    assert [e.kind for _, e in events[2:]] == ["appeared", "appeared"]


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=float)
    return v / np.linalg.norm(v)


BACK, FACE, HAND = unit(1, 0, 0), unit(0.8, 0.6, 0), unit(0.8, 0, 0.6)  # FACE and HAND: 0.8 like BACK


def play_looks(frames: list[tuple[np.ndarray, np.ndarray]], identify) -> list:
    """Frames of one card's (quad, look) through a fresh tracker."""
    tracker, events = Tracker(), []
    for i, (quad, look) in enumerate(frames):
        events += [(i, e) for e in tracker.update([quad], i / 10, identify, looks=[look])]
    return events


class ReadsLook:
    """Names the card by what lies there now (set by the test as it plays), counting reads."""

    def __init__(self, names: dict) -> None:
        self.names, self.now, self.calls = names, None, 0

    def __call__(self, corners: np.ndarray) -> Reading:
        self.calls += 1
        code = self.names[self.now]
        return Reading(code, 0.9 if code else 0.2)


def test_a_card_turned_over_where_it_lies_is_gone_and_the_card_turned_up_appears():
    """A Gargon back turned up for the reveal keeps its place and much of its look (its
    colour): the back is gone, the face appeared, a new track for the adapter to read."""
    identify = ReadsLook({"back": None, "face": "red-9"})
    frames = [(card(100, 100), BACK)] * 20 + [(card(100, 100), FACE)] * 10
    tracker, events = Tracker(), []
    for i, (quad, look) in enumerate(frames):
        identify.now = "back" if look is BACK else "face"
        events += [(i, e) for e in tracker.update([quad], i / 10, identify, looks=[look])]
    kinds = [(i, e.kind, e.code) for i, e in events]
    assert kinds[0] == (N - 1, "appeared", None)
    assert kinds[-2:] == [(20 + 1, "gone", None), (20 + 1, "appeared", "red-9")]  # its new look held twice
    assert events[-1][1].track != events[0][1].track
    assert [k for _, k, _ in kinds[1:-2]] == []  # the back no reading names: nothing in between


def test_a_hand_resting_on_a_card_is_no_card_turned_over_and_costs_one_reading():
    identify = ReadsLook({"card": "red-9", "hand": None})
    frames = [(card(100, 100), BACK)] * 10 + [(card(100, 100), HAND)] * 20 + [(card(100, 100), BACK)] * 10
    tracker, events, calls = Tracker(), [], []
    for i, (quad, look) in enumerate(frames):
        identify.now = "hand" if look is HAND else "card"
        events += [(i, e) for e in tracker.update([quad], i / 10, identify, looks=[look])]
        calls.append(identify.calls)
    assert [(e.kind, e.code) for _, e in events] == [("appeared", "red-9")]
    assert calls[29] - calls[9] == 1 and calls[-1] - calls[29] == 1  # read once under the hand, once after


def test_a_card_whose_look_flickers_with_noise_is_never_read_again():
    rng = np.random.default_rng(0)
    identify = ReadsLook({None: "red-9"})
    frames = [(card(100, 100), unit(*(BACK + rng.normal(0, 0.05, 3)))) for _ in range(60)]
    events = play_looks(frames, identify)
    assert [e.kind for _, e in events] == ["appeared"] and identify.calls == 1


# -- cards held above the table --------------------------------------------------------

TABLE = [card(150, 150), card(450, 150), card(750, 150)]
HELD = TrackerSettings().held_frames


def trembling(x: float, y: float, frames: int, length: float, seed: int = 0) -> list[np.ndarray]:
    """A card held in a hand: wandering and trembling by half a percent of its length a frame."""
    rng = np.random.default_rng(seed)
    at = np.array([x, y], float)
    out = []
    for _ in range(frames):
        at += rng.normal(0, 0.005 * length, 2)
        out.append(card(*(at + rng.normal(0, 0.003 * length, 2)), length=length))
    return out


def test_a_card_held_above_the_table_is_not_laid_and_is_once_put_down():
    held = trembling(450, 450, 40, 150)  # 1.5x the table's cards: nearer the camera
    frames = [TABLE] * 5 + [TABLE + [quad] for quad in held] + [TABLE + [card(450, 450)]] * 10
    events = play(Tracker(), frames)
    # put down where it was held, it lies still a moment first (a panel of a held card does not)
    assert [(i, e.kind) for i, e in events if i >= 5] == [(45 + TrackerSettings().held_settle, "appeared")]


def test_a_card_larger_than_the_tables_that_lies_still_is_a_card_after_all():
    """A camera moved closer, or a card larger than the rest, costs 3 s, not the card."""
    frames = [TABLE] * 5 + [TABLE + [card(450, 450, length=150)]] * (HELD + 5)
    events = play(Tracker(), frames)
    assert [(i, e.kind) for i, e in events if i >= 5] == [(5 + HELD, "appeared")]


def test_a_card_the_same_size_as_the_tables_is_laid_at_once_however_it_trembles():
    frames = [TABLE] * 5 + [TABLE + [quad] for quad in trembling(450, 450, 10, 100)]
    assert [i for i, e in play(Tracker(), frames) if i >= 5] != []


def test_a_card_of_the_table_under_a_held_card_is_covered_not_taken_away():
    held = trembling(380, 180, 40, 160)  # read as another card than the one it hides
    frames = [TABLE] * 5 + [[TABLE[0], TABLE[2], quad] for quad in held] + [TABLE] * 10
    events = play(Tracker(), frames)
    assert [e.kind for i, e in events if i >= 5] == []


def test_a_panel_of_a_held_card_outlined_in_some_frames_is_no_card_laid():
    """The detector outlines a held card whole in some frames and by its printed panel (a
    table card's size) in others; the panel moves with the hand."""
    held = trembling(450, 450, 40, 150)
    frames = [TABLE] * 5
    for i, quad in enumerate(held):
        centre = quad.mean(axis=0)
        panel = centre + 0.65 * (quad - centre)
        frames.append(TABLE + [quad if i % 6 == 0 else panel])
    assert [e.kind for i, e in play(Tracker(), frames) if i >= 5] == []


def test_a_card_laid_on_a_card_where_it_was_held_is_reported_once_it_lies_still():
    """Held over the middle card of the table a moment (larger than it, not holding it),
    then laid on it a fifth aside: lying in the card beneath, which the held card hid
    part of, it might be what is left in sight of that card, and lying where the held
    card was, a panel of it; both hold only while it has not lain still. A card is never
    what is left in sight of a card it hid itself."""
    held = trembling(490, 160, 15, 150)
    laid = card(465, 150)  # 79% inside the middle card, 90% inside where the held card was
    frames = [TABLE] * 5 + [TABLE + [quad] for quad in held] + [TABLE + [laid]] * 20
    events = [(i, e.kind) for i, e in play(Tracker(), frames) if i >= 5]
    assert events == [(20 + TrackerSettings().held_settle, "appeared")]


def test_a_card_laid_in_a_card_a_held_card_hid_is_reported_once_the_hand_is_gone_a_moment():
    """Laid beside where the card was held, inside the card of the table it hid part of:
    what is left in sight of that card, while the held card is remembered; then a card.
    Taken for held, it is remembered as held too, but it hides nothing of its own."""
    held = trembling(530, 180, 15, 150)
    laid = card(440, 150)  # 86% inside the middle card, none of it where the held card was
    frames = [TABLE] * 5 + [TABLE + [quad] for quad in held] + [TABLE + [laid]] * 25
    events = [(i, e.kind) for i, e in play(Tracker(), frames) if i >= 5]
    assert len(events) == 1 and events[0][1] == "appeared" and events[0][0] <= 20 + TrackerSettings().held_memory + N


def test_the_size_of_the_tables_cards_is_remembered_once_they_are_gone():
    """A round's cards taken away: the next card held above the empty table is still held."""
    frames = [TABLE] * 5 + [[]] * (M + 1) + [[quad] for quad in trembling(450, 450, 40, 150)]
    events = play(Tracker(), frames)
    assert [e.kind for _, e in events] == ["appeared"] * 3 + ["gone"] * 3


def test_two_touching_cards_outlined_as_one_are_no_card_held():
    """Larger than the table's cards too, but holding one of them whole: read as they
    were before cards held above the table were told."""
    # the middle card and the table to its left, outlined as one
    blob = np.array([[300.0, 100.0], [486.0, 100.0], [486.0, 200.0], [300.0, 200.0]])
    frames = [TABLE] * 5 + [[TABLE[0], TABLE[2], blob]] * 10
    events = [(i, e.kind, e.code) for i, e in play(Tracker(), frames)]
    assert events == [(i, e.kind, e.code) for i, e in play(Tracker(TrackerSettings(nearer=float("inf"))), frames)]
    assert (5 + N - 1, "appeared", "card-1") in events


def test_a_card_held_over_a_card_the_reader_could_not_name_is_held_all_the_same():
    """An unnamed find may be a part of a card, which a held card holds whole as a blob
    holds its first card: only named cards of the table tell a blob."""
    held = trembling(450, 150, 40, 160, seed=1)
    frames = [TABLE] * 5 + [[TABLE[0], TABLE[2], quad] for quad in held] + [TABLE] * 10
    by_column = CountingIdentifier()

    def unnamed_middle(corners: np.ndarray) -> Reading:
        if _long(corners) > 120:
            return Reading("red-5", 0.9, (Candidate("red-5", 0.9),))
        reading = by_column(corners)
        return Reading(None, 0.3, reading.candidates) if reading.code == "card-2" else reading
    events = [(i, e.kind) for i, e in play(Tracker(), frames, unnamed_middle)]
    assert [kind for i, kind in events if i >= 5] == []


class FakeCover:
    """What a resting arm (`table_inside` 0.1) or a table cleared at once (0.95) shows the tracker."""

    def __init__(self, table_inside: float | None) -> None:
        self.share = table_inside

    def around(self, corners: np.ndarray) -> np.ndarray:
        return np.zeros((4, 3))

    def covered(self, around: np.ndarray, corners: np.ndarray) -> bool:
        return True  # what lay round it changed as a whole

    def table_inside(self, around: np.ndarray, corners: np.ndarray) -> float | None:
        return self.share


class Sight(FakeCover):
    """What the pipeline's look shows: inside the card held (or laid) over the table's
    cards now, that card; elsewhere one look for each 300 px column of the table."""

    def __init__(self) -> None:
        super().__init__(None)
        self.over: np.ndarray | None = None
        self.over_before: np.ndarray | None = None  # ... in the frame before

    def look(self, corners: np.ndarray) -> np.ndarray:
        return self._seen(corners, self.over)

    def print_at(self, corners: np.ndarray, before: bool = False) -> np.ndarray:
        return self._seen(corners, self.over_before if before else self.over)

    @staticmethod
    def _seen(corners: np.ndarray, over: np.ndarray | None) -> np.ndarray:
        centre = corners.mean(axis=0)
        if over is not None and cv2.pointPolygonTest(over.astype(np.float32), tuple(float(v) for v in centre), False) > 0:
            return np.eye(8)[7]
        return np.eye(8)[int(centre[0] // 300)]


def play_seen(frames: list[list[np.ndarray]], identify, over) -> list[tuple[int, str, str | None]]:
    """Frames through a tracker that sees them: `over(quads)` is the card lying or held
    over the table's cards in a frame, or None."""
    tracker, sight, events = Tracker(), Sight(), []
    for i, quads in enumerate(frames):
        sight.over_before, sight.over = sight.over, over(quads)
        looks = [sight.look(q) for q in quads]
        events += [(i, e.kind, e.code) for e in tracker.update(quads, i / 10, identify, looks, cover=sight)]
    return events


def test_a_card_held_squarely_over_a_named_card_is_held_though_it_holds_that_card_whole():
    """Larger than the card under it and holding it whole, as a blob of touching cards
    does; but where that card was read, the held card is seen now, where a blob still
    shows the card."""
    held = trembling(450, 150, 40, 160, seed=2)  # 1.6x the middle card, over its centre
    by_column = CountingIdentifier()

    def red_5_held(corners: np.ndarray) -> Reading:
        return Reading("red-5", 0.9, (Candidate("red-5", 0.9),)) if _long(corners) > 120 else by_column(corners)
    frames = [TABLE] * 5 + [[TABLE[0], TABLE[2], quad] for quad in held] + [TABLE] * 10
    events = play_seen(frames, red_5_held, lambda quads: quads[2] if len(quads) == 3 and _long(quads[2]) > 120 else None)
    assert [kind for i, kind, _ in events if i >= 5] == []


def test_a_fans_next_card_outlined_with_the_card_it_mostly_covers_is_no_card_held():
    """The detector outlines a fan's next card and the card before it as one: larger than
    the table's cards, holding a card that no longer looks as read (mostly covered), like
    a card held over it; but that card's corners still in sight lie on the outline's edge."""
    blob = np.array([[414.0, 100.0], [486.0, 100.0], [486.0, 262.0], [414.0, 262.0]])
    by_column = CountingIdentifier()

    def red_5_on_top(corners: np.ndarray) -> Reading:
        return Reading("red-5", 0.9, (Candidate("red-5", 0.9),)) if _long(corners) > 120 else by_column(corners)
    frames = [TABLE] * 5 + [[TABLE[0], TABLE[2], blob]] * 10
    events = play_seen(frames, red_5_on_top, lambda quads: blob if len(quads) == 3 and quads[2] is blob else None)
    assert (5 + N - 1, "appeared", "red-5") in events


# a camera tilted steeply: a card near it looks nearly twice the size of one far from it
NEAR_AND_FAR = [card(300, 600, length=160), card(900, 150, length=90)]


def red_5_over_the_far_card(corners: np.ndarray) -> Reading:
    """Names the card held or laid over the far card red-5, the table's cards by column."""
    if _long(corners) > 100 or abs(corners.mean(axis=0)[0] - 905) < 1:
        return Reading("red-5", 0.9, (Candidate("red-5", 0.9),))
    return CountingIdentifier()(corners)


def test_a_card_held_over_a_far_card_is_held_though_smaller_than_the_near_cards():
    """With too few cards to fit the camera's tilt, the table's cards are taken to look
    as large as the largest everywhere; but the far card it hides says how large a card
    lying there looks."""
    held = trembling(900, 150, 40, 126, seed=3)  # 1.4x the far card, under 1.2x the near one
    frames = [NEAR_AND_FAR] * 5 + [[NEAR_AND_FAR[0], quad] for quad in held] + [NEAR_AND_FAR] * 10
    events = play_seen(frames, red_5_over_the_far_card, lambda quads: quads[1] if len(quads) == 2 and _long(quads[1]) > 100 else None)
    assert [kind for i, kind, _ in events if i >= 5] == []


def test_a_card_laid_on_a_far_card_as_on_a_pile_is_reported_at_once():
    pile = card(905, 150, angle=10, length=90)
    frames = [NEAR_AND_FAR] * 5 + [[NEAR_AND_FAR[0], pile]] * 10
    events = play_seen(frames, red_5_over_the_far_card, lambda quads: pile if len(quads) == 2 and quads[1] is pile else None)
    assert (5 + N - 1, "appeared", "red-5") in events


def test_a_small_card_taken_for_held_rests_though_the_detector_trembles_by_a_pixel():
    """Far from the camera a card is 60 px long, a hundredth of it is under the
    detector's own tremble: what counts as lying still is never less than a pixel."""
    small = [card(150, 150, length=40), card(450, 150, length=40), card(750, 150, length=40)]
    laid = [card(450 + 0.45 * math.cos(2.1 * i), 450 + 0.45 * math.sin(2.1 * i), length=60) for i in range(HELD + 10)]
    events = play(Tracker(), [small] * 5 + [small + [quad] for quad in laid])
    assert [(i, e.kind) for i, e in events if i >= 5] == [(5 + HELD, "appeared")]


def covered_for(frames: int, cover: FakeCover) -> list[tuple[int, str]]:
    tracker, identify, events = Tracker(), CountingIdentifier(), []
    for i in range(5):
        events += [(i, e.kind) for e in tracker.update([card(100, 100)], i / 10, identify, cover=cover)]
    for i in range(5, 5 + frames):
        events += [(i, e.kind) for e in tracker.update([], i / 10, identify, cover=cover)]
    return [(i, kind) for i, kind in events if i >= 5]


def test_a_card_under_an_arm_resting_longer_than_the_cap_is_kept_while_no_table_shows_where_it_lay():
    s = TrackerSettings()
    assert covered_for(s.longest_cover + 100, FakeCover(0.1)) == []
    assert covered_for(s.longest_hidden + M + 5, FakeCover(0.1)) == [(5 + s.longest_hidden + M - 1, "gone")]


def test_without_the_table_seen_round_it_a_card_is_kept_only_up_to_the_cap():
    s = TrackerSettings()
    assert covered_for(s.longest_cover + M + 5, FakeCover(None)) == [(5 + s.longest_cover + M - 1, "gone")]


def test_a_card_whose_place_shows_the_table_is_gone_however_its_surroundings_changed():
    """A dense table cleared at once: what lay round each card (its neighbours) changed too."""
    assert covered_for(M + 5, FakeCover(0.95)) == [(5 + M - 1, "gone")]


class Prints(FakeCover):
    """The pixels at an outline as the pipeline's looks describe them: the panel of a dark
    face looks unlike the whole card; the print at the card's own outline is the card's
    until `laid_over` says another card lies on it from that frame on."""

    def __init__(self, whole: np.ndarray) -> None:
        super().__init__(None)
        self.whole, self.frame, self.laid_over = whole, 0, 10**6

    def covered(self, around: np.ndarray, corners: np.ndarray) -> bool:
        return False  # nothing came over it: the detector outlines it otherwise

    def look(self, corners: np.ndarray) -> np.ndarray:
        return np.eye(8)[0] if np.allclose(corners, self.whole) else np.eye(8)[1]

    def print_at(self, corners: np.ndarray, before: bool = False) -> np.ndarray:
        laid = self.frame - before >= self.laid_over
        return np.eye(8)[3 if laid else 2] if np.allclose(corners, self.whole) else np.eye(8)[4]


def play_prints(frames: list[list[np.ndarray]], cover: Prints, identify) -> list[tuple[int, str, str | None]]:
    tracker, events = Tracker(), []
    for i, quads in enumerate(frames):
        cover.frame = i
        looks = [cover.look(q) for q in quads]
        events += [(i, e.kind, e.code) for e in tracker.update(quads, i / 10, identify, looks, cover=cover)]
    return events


def named_whole_unknown_panel(corners: np.ndarray) -> Reading:
    """Names the whole card; a panel of its print is no card of the deck."""
    if _long(corners) > 90:
        return Reading("lagim-8", 0.9, (Candidate("lagim-8", 0.9),))
    return Reading(None, 0.1, (Candidate("lagim-8", 0.1),))


# a dark face the detector outlines whole, then by its art panel alone (unlike the card's look)
WHOLE = card(400, 300)
PANEL = card(400, 290, length=75)


def test_a_card_outlined_by_its_panel_for_long_is_neither_gone_nor_a_new_card():
    """The card's own outline is no longer found, only its panel, which looks unlike the
    card: the print where the card lay is as it was, so the card is still there."""
    frames = [[WHOLE]] * 5 + [[PANEL]] * (3 * M)
    events = play_prints(frames, Prints(WHOLE), named_whole_unknown_panel)
    assert events == [(N - 1, "appeared", "lagim-8")]


def test_a_card_laid_squarely_on_a_card_is_reported_though_it_lies_on_that_cards_outline():
    """A card laid on a card, as on a discard pile: unlike the card below, it is no
    sighting of it, and the print at that card's outline is the new card's now."""
    on_top = card(404, 303)
    cover = Prints(WHOLE)
    cover.laid_over = 5

    def by_size(corners: np.ndarray) -> Reading:
        code = "lagim-8" if np.allclose(corners, WHOLE) else "lagim-3"
        return Reading(code, 0.9, (Candidate(code, 0.9),))
    events = play_prints([[WHOLE]] * 5 + [[on_top]] * 10, cover, by_size)
    assert (5 + N - 1, "appeared", "lagim-3") in events


def test_a_card_put_down_a_little_off_the_card_it_hides_is_a_new_card():
    """A pile's next card laid a fifth of a card's length off the card it covers: the
    tracker follows it from that card, too near to have moved it and not where it was
    read to have turned it over; read again it names itself, whether it looks unlike the
    card read there or as alike as two cards of a deck that differ in a letter. The same
    card nudged so far is read once more, as itself, and reported no more."""
    def played(top: str, look: np.ndarray) -> tuple[list, int]:
        identify = ReadsLook({"below": "red-7", "top": top})
        tracker, events = Tracker(), []
        frames = [(card(100, 100), BACK, "below")] * 10 + [(card(100, 120), look, "top")] * 10
        for i, (quad, seen, what) in enumerate(frames):
            identify.now = what
            events += [(i, e) for e in tracker.update([quad], i / 10, identify, looks=[seen])]
        return [(e.kind, e.code) for _, e in events], identify.calls

    assert played("blue-2", FACE)[0][:2] == [("appeared", "red-7"), ("appeared", "blue-2")]
    assert played("blue-2", BACK)[0][:2] == [("appeared", "red-7"), ("appeared", "blue-2")]
    nudged, reads = played("red-7", BACK)
    assert nudged == [("appeared", "red-7")] and reads == 2


def test_a_square_of_the_cloth_the_network_saw_no_card_in_hides_no_card_of_a_pile():
    """A checked cloth's square beside a pile, outlined larger than a card and doubted:
    where the network saw the cloth as it is and no card there (`looked`), it is no card
    held above the table, and the pile's next card, laid a fifth off the card below, is
    reported. Where the network has not seen that part since it changed (a hand may be
    passing there with a card), it is taken for held, and the cards round it wait."""
    def played(looked: bool) -> list:
        pile = ReadsLook({"below": "red-7", "top": "blue-2"})

        def identify(corners: np.ndarray) -> Reading:  # the square is none of the deck's cards
            return pile(corners) if corners.mean(axis=0)[1] < 180 else Reading(None, 0.2)
        tracker, events = Tracker(), []
        square = card(100, 240, length=170)  # 2.9 cards' area, its reach over the pile
        frames = [([card(100, 100)], "below")] * 10 + [([card(100, 120), square], "top")] * 15
        for i, (quads, what) in enumerate(frames):
            pile.now = what
            events += [(i, e) for e in tracker.update(quads, i / 10, identify, looks=[BACK] * len(quads),
                                                      doubted=[False, True][:len(quads)],
                                                      looked=[False, looked][:len(quads)])]
        return [(e.kind, e.code) for _, e in events]

    assert played(looked=True) == [("appeared", "red-7"), ("appeared", "blue-2")]
    assert played(looked=False) == [("appeared", "red-7")]
