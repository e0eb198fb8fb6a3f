"""Quadrilateral arithmetic (vision/geometry.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.geometry import moved_out


@pytest.mark.parametrize("turn", [1, -1])  # clockwise in image coordinates, and anticlockwise
def test_a_quad_moved_out_has_each_side_that_far_out_and_its_corners_in_order(turn):
    quad = np.float32([[10, 20], [110, 20], [110, 160], [10, 160]])[::turn]
    out = moved_out(quad, 3.0)
    np.testing.assert_allclose(out, np.float32([[7, 17], [113, 17], [113, 163], [7, 163]])[::turn], atol=1e-4)
    np.testing.assert_allclose(moved_out(out, -3.0), quad, atol=1e-4)


def test_a_turned_card_moved_out_keeps_its_shape_and_grows_by_its_perimeter():
    angle = np.deg2rad(30)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = (np.float32([[-63, -88], [63, -88], [63, 88], [-63, 88]]) / 2) @ turn.T + [200, 150]
    out = moved_out(quad, 2.0)
    assert cv2.contourArea(out) == pytest.approx((63 + 4) * (88 + 4), rel=1e-4)
    np.testing.assert_allclose(out.mean(axis=0), quad.mean(axis=0), atol=1e-4)
