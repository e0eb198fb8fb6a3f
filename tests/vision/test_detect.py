"""Detection and rectification: every card found once, corners in the contract's order."""

from __future__ import annotations

import random

import cv2
import numpy as np
from hypothesis import given, settings, strategies as st

from tests.vision.realdata import REAL_PHOTOS, REALDEV_PHOTOS, needs_real_photos, needs_realdev_photos
from vision.detect import CardCutter, ContourCardDetector, _colour_change, _covered, _ordered_clockwise, order_clockwise, rectify
from scripts.lib.evaluate import TruthCard, detection_counts, marked_photo_truth, match_by_centre, real_photo_truth
from vision.interfaces import CARD_SIZE
from vision.synth.faces import GAMES, game_codes, game_face
from vision.synth.scenes import EVAL_SEED, TABLES, render_scene


def _rectangle(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 180), st.floats(60, 200), st.integers(0, 3))
def test_corners_come_clockwise_starting_on_a_short_side(angle, width, shift):
    quad = np.roll(_rectangle(400, 300, width, width * 88 / 63, angle), shift, axis=0)
    ordered = order_clockwise(quad)
    sides = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
    assert sides[0] < sides[1]
    (ax, ay), (bx, by) = ordered[1] - ordered[0], ordered[2] - ordered[1]
    assert ax * by - ay * bx > 0  # clockwise on screen (y grows downwards)


def test_an_upright_card_starts_at_its_own_top_left():
    quad = np.float32([[300, 500], [100, 500], [100, 220], [300, 220]])
    assert order_clockwise(quad).tolist() == [[100, 220], [300, 220], [300, 500], [100, 500]]


def test_many_quadrilaterals_are_ordered_as_each_one_alone():
    rng = np.random.default_rng(5)
    quads = np.concatenate([(rng.random((200, 4, 2)) * 900).astype(np.float32),
                            np.array([_rectangle(*rng.uniform(50, 800, 2), *rng.uniform(20, 300, 2), rng.uniform(0, 180))
                                      for _ in range(200)])])
    assert np.array_equal(_ordered_clockwise(quads), np.array([order_clockwise(q) for q in quads]))


def test_colour_change_is_the_strongest_channel_of_the_blurred_morphological_gradient():
    image = (np.random.default_rng(2).random((37, 53, 3)) * 255).astype(np.uint8)
    gradient = cv2.morphologyEx(cv2.GaussianBlur(image, (3, 3), 0), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    assert np.array_equal(_colour_change(image), gradient.max(axis=2))


@settings(max_examples=80, deadline=None)
@given(st.floats(-40, 140), st.floats(-40, 100), st.floats(2, 150), st.floats(2, 150), st.floats(0, 180))
def test_covered_counts_the_mask_under_a_polygon_even_one_past_its_edge(cx, cy, w, h, angle):
    mask = (np.random.default_rng(7).random((60, 100)) > 0.4).astype(np.uint8) * 255
    corners = _rectangle(cx, cy, w, h, angle).astype(np.int32)
    filled = np.zeros_like(mask)
    cv2.fillConvexPoly(filled, corners, 255)
    assert _covered(mask, corners) == np.count_nonzero(filled & mask)


def test_rectify_cuts_the_card_out_upright():
    face = game_face("gargon", "red-14")
    image = np.zeros((600, 500, 3), np.uint8)
    image[40:544, 60:420] = face
    corners = np.float32([[60, 40], [419, 40], [419, 543], [60, 543]])
    card = rectify(image, corners)
    assert card.shape[:2] == (CARD_SIZE[1], CARD_SIZE[0])
    expected = cv2.resize(face, CARD_SIZE, interpolation=cv2.INTER_AREA)
    assert np.abs(card.astype(int) - expected.astype(int)).mean() < 8


def test_a_card_of_any_size_is_cut_out_at_the_reading_size_as_it_looks_cut_at_twice_that_and_halved():
    face = game_face("gargon", "red-14")
    size = (CARD_SIZE[0] // 2, CARD_SIZE[1] // 2)
    expected = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
    for width in (70, 130, 300, 620):  # upscaled, under twice, from a copy halved once, twice
        height = round(width * 88 / 63)
        image = np.full((height + 100, width + 100, 3), 40, np.uint8)
        image[37:37 + height, 51:51 + width] = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
        corners = np.float32([[51, 37], [50 + width, 37], [50 + width, 36 + height], [51, 36 + height]])
        card = CardCutter(image, size)(corners)
        assert card.shape[:2] == (size[1], size[0])
        halved = cv2.resize(rectify(image, corners, (2 * size[0], 2 * size[1])), size, interpolation=cv2.INTER_AREA)
        assert np.abs(card.astype(int) - halved.astype(int)).mean() < 4, width  # misplaced or aliased: 5-7
        if width > 100:  # (a smaller one has lost detail the face at `size` keeps)
            assert np.abs(card.astype(int) - expected.astype(int)).mean() < 4, width


def test_every_card_is_found_once_on_every_kind_of_table():
    rng = random.Random(EVAL_SEED)
    found_right = truth = predicted = 0
    for table in TABLES:
        for _ in range(2):
            game = rng.choice(GAMES)
            codes = rng.sample(game_codes(game), 6)
            scene = render_scene(rng, [(c, game_face(game, c)) for c in codes], table=table)
            found = ContourCardDetector().detect(scene.image)
            match = match_by_centre([d.corners for d in found], [TruthCard(c.code, tuple(c.corners.mean(0))) for c in scene.cards])
            found_right += len(match.pairs)
            truth += len(scene.cards)
            predicted += len(found)
    assert found_right / truth >= 0.95
    assert found_right / predicted >= 0.95


@needs_real_photos
def test_every_card_in_the_real_photos_is_found_and_nothing_else():
    detector = ContourCardDetector()
    for photo, cards in real_photo_truth(REAL_PHOTOS).items():
        found = detector.detect(cv2.imread(str(REAL_PHOTOS / photo)))
        match = match_by_centre([d.corners for d in found], cards)
        assert not match.unmatched_truth, f"{photo}: missed {[cards[i].code for i in match.unmatched_truth]}"
        assert not match.unmatched_predictions, f"{photo}: {len(match.unmatched_predictions)} false cards"


def _card(image: np.ndarray, x: int, y: int, band: bool = False) -> np.ndarray:
    """A plain 126x176 card with a dark rim at (x, y); `band`: a dark band across its
    middle, which leaves two halves each shaped like a card lying sideways."""
    cv2.rectangle(image, (x, y), (x + 125, y + 175), (30, 30, 30), -1)
    cv2.rectangle(image, (x + 6, y + 6), (x + 119, y + 169), (235, 235, 235), -1)
    if band:
        cv2.rectangle(image, (x + 6, y + 82), (x + 119, y + 93), (30, 30, 30), -1)
    return np.float32([[x, y], [x + 125, y], [x + 125, y + 175], [x, y + 175]])


def test_a_card_split_by_a_dark_band_is_one_card_and_touching_cards_are_each_a_card():
    """Both look like one card-shaped region holding two card-shaped ones; the size of
    the table's other cards tells a card's two halves from two cards."""
    image = np.full((540, 960, 3), (90, 120, 90), np.uint8)
    cards = [_card(image, 60, 60), _card(image, 60, 300), _card(image, 260, 60, band=True),
             _card(image, 460, 300), _card(image, 586, 300),  # two touching
             _card(image, 460, 40), _card(image, 586, 40), _card(image, 712, 40)]  # three in a row
    found = ContourCardDetector().detect(image)
    match = match_by_centre([d.corners for d in found], [TruthCard(str(i), tuple(c.mean(0))) for i, c in enumerate(cards)])
    assert len(found) == len(cards) == len(match.pairs)
    for p, t in match.pairs:
        assert np.abs(np.sort(found[p].corners, axis=0) - np.sort(cards[t], axis=0)).max() < 6


def _mat_of_cards(panels: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A white table with a dark-green mat shaped like a big card, and six cards apart on
    it; the first card prints `panels` card-shaped boxes in a row (a pattern card)."""
    image = np.full((720, 1280, 3), (225, 228, 230), np.uint8)
    cv2.rectangle(image, (190, 60), (1090, 700), (40, 70, 30), -1)  # 900 x 640: a card's aspect, lying sideways
    cards = [_card(image, x, y) for x in (260, 560, 860) for y in (110, 420)]
    for i in range(panels):  # 90 x 40 each (a sixth of the card), stacked down it
        cv2.rectangle(image, (278, 122 + 54 * i), (367, 161 + 54 * i), (40, 40, 160), -1)
    return image, cards


def test_cards_lying_on_a_mat_are_the_cards_not_the_mat():
    """A felt mat, a tray or a sheet of paper holding four or more like-sized cards apart
    is what they lie on: the realphotos-dev blackjack photos came back as one mat-sized card."""
    image, cards = _mat_of_cards()
    found = ContourCardDetector().detect(image)
    match = match_by_centre([d.corners for d in found], [TruthCard(str(i), tuple(c.mean(0))) for i, c in enumerate(cards)])
    assert len(match.pairs) == len(cards) == len(found)


def test_a_card_printing_three_card_shaped_boxes_is_still_one_card():
    image, cards = _mat_of_cards(panels=3)
    found = ContourCardDetector().detect(image)
    match = match_by_centre([d.corners for d in found], [TruthCard(str(i), tuple(c.mean(0))) for i, c in enumerate(cards)])
    assert len(match.pairs) == len(cards) == len(found)


@needs_realdev_photos
def test_touching_cards_and_chips_on_a_real_felt_mat_are_each_found():
    """blackjack_surface1 of realphotos-dev: 16 cards and 5 chips on a dark mat inside a
    white table rim, four cards touching in a cluster."""
    photo = "blackjack_surface1.png"
    truth = marked_photo_truth(REALDEV_PHOTOS)[photo]
    found = ContourCardDetector().detect(cv2.imread(str(REALDEV_PHOTOS / "photos" / photo)))
    cards, hits, finds = detection_counts([d.corners for d in found], truth)
    assert hits == cards == finds
