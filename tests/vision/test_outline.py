"""A contour find cut at a printed band grown to its whole card along the network's core
(vision/outline.py), on synthetic core maps: the card's core is its outline shrunk about
its centre by CORE, as the network was taught."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.detect import order_clockwise
from vision.interfaces import Detection
from vision.learned_detect import CORE, JointSettings, outline_iou
from vision.outline import grown_to_cores

SCALE = 0.5  # the frame is twice the core map's size


def _outline(centre: tuple[float, float], size: tuple[float, float], angle: float = 0.0) -> Detection:
    return Detection(order_clockwise(cv2.boxPoints((centre, size, angle))))


def _core_of(*cards: Detection, shape: tuple[int, int] = (360, 640)) -> np.ndarray:
    """A core map (frame pixels times SCALE) holding each card's core."""
    core = np.zeros(shape, np.float32)
    for card in cards:
        middle = card.corners.mean(axis=0)
        cv2.fillConvexPoly(core, np.round(((card.corners - middle) * CORE + middle) * SCALE).astype(np.int32), 1.0)
    return cv2.GaussianBlur(core, (5, 5), 1.0)  # the map's soft edge


def _below_band(centre: tuple[float, float], size: tuple[float, float], angle: float, share: float) -> Detection:
    """The part of a card of `size` (width, height) below a band across it at `share` of
    its height from its top: what the contour search closes round."""
    (cx, cy), (w, h), a = centre, size, np.deg2rad(angle)
    down = np.array([-np.sin(a), np.cos(a)])  # the card's length, turned with it
    middle = np.array([cx, cy]) + down * h * share / 2
    return _outline((float(middle[0]), float(middle[1])), (w, h * (1 - share)), angle)


def test_a_find_cut_at_a_band_is_grown_to_the_whole_card():
    for angle in (0.0, 17.0, -40.0):
        card = _outline((400, 360), (120, 168), angle)
        cut = _below_band((400, 360), (120, 168), angle, 0.35)
        assert outline_iou(cut.corners, card.corners) < 0.7
        grown = grown_to_cores([cut], [], [], _core_of(card), SCALE, JointSettings())[0]
        assert outline_iou(grown.corners, card.corners) > 0.9, angle
        assert np.array_equal(grown.corners, order_clockwise(grown.corners))


def test_a_whole_find_an_agreed_find_and_a_network_card_are_not_moved():
    card = _outline((400, 360), (120, 168), 10.0)
    core = _core_of(card)
    cut = _below_band((400, 360), (120, 168), 10.0, 0.35)
    for kept in (card, replace(cut, agreed=True)):
        assert grown_to_cores([kept], [], [], core, SCALE, JointSettings())[0] is kept
    assert grown_to_cores([cut], [cut], [], core, SCALE, JointSettings())[0] is cut  # the network's own card


def test_a_strip_across_the_card_is_not_taken_for_a_cut_card():
    """A find along the card's length (a side panel, or half a card cut lengthwise) is
    not a part side by side with the rest in the direction the card continues."""
    card = _outline((400, 360), (120, 168))
    strip = _outline((370, 360), (60, 168))
    assert grown_to_cores([strip], [], [], _core_of(card), SCALE, JointSettings())[0] is strip


def test_no_growth_onto_a_touching_neighbour():
    """A card partly under another: its core runs under the top card, but the growth
    would run onto that card's find (or the network's card there), so it stays."""
    card = _outline((400, 360), (120, 168))
    cut = _below_band((400, 360), (120, 168), 0.0, 0.35)
    above = _outline((400, 250), (120, 168))  # lies over the card's top, touching the cut find
    core = _core_of(card)
    assert grown_to_cores([cut, above], [], [], core, SCALE, JointSettings())[0] is cut
    assert grown_to_cores([cut], [above], [], core, SCALE, JointSettings())[0] is cut
    assert grown_to_cores([cut], [], [above], core, SCALE, JointSettings())[0] is cut
    # a neighbour touching the card's far side only leaves the growth free
    beside = _outline((400, 360 + 168), (120, 168))
    assert outline_iou(grown_to_cores([cut, beside], [], [], _core_of(card, beside), SCALE,
                                      JointSettings())[0].corners, card.corners) > 0.9


def test_the_networks_own_outline_of_the_card_is_no_neighbour():
    card = _outline((400, 360), (120, 168))
    cut = _below_band((400, 360), (120, 168), 0.0, 0.35)
    grown = grown_to_cores([cut], [_outline((402, 358), (124, 170))], [], _core_of(card), SCALE, JointSettings())[0]
    assert outline_iou(grown.corners, card.corners) > 0.9
