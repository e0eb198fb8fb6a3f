"""A generated camera over a generated table: its tilt, cards pasted under its light, a hand sweeping across.

The demo table (`vision.synth.recording`) photographs its cards with these, and so do the
scripted videos the tracker is judged on (scripts/lib/scripted.py), so the product's demo and
the benchmarks see cards drawn the same way.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.faces import FACE_SIZE

SKIN = ((90, 130, 180), (60, 100, 160), (140, 170, 220))


@dataclass(frozen=True)
class Pose:
    """A card on the table plane: centre (pixels) and turn (degrees)."""

    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class HandSweep:
    """A forearm reaching in from the bottom edge and sweeping across during [start, end)."""

    start: int
    end: int
    from_x: float
    to_x: float
    reach: float  # how far up the frame the hand gets, as a share of the height
    skin: tuple[int, int, int]


def camera_homography(seed: int, size: tuple[int, int]) -> np.ndarray:
    """A mild tilt: the camera stands above the near edge of the table, looking down."""
    rng = random.Random(seed)
    w, h = size
    squeeze = rng.uniform(0.0, 0.08) * w
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[squeeze, rng.uniform(0, 0.04) * h], [w - squeeze, rng.uniform(0, 0.04) * h], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def card_corners(pose: Pose, length: float, camera: np.ndarray) -> np.ndarray:
    """Frame corners of a card at `pose`, clockwise from its own top-left."""
    fw, fh = FACE_SIZE
    half = np.array([[-fw, -fh], [fw, -fh], [fw, fh], [-fw, fh]], np.float64) / 2 * (length / fh)
    a = math.radians(pose.angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    flat = half @ turn.T + (pose.x, pose.y)
    return cv2.perspectiveTransform(flat[None].astype(np.float32), camera)[0]


def _box(corners: np.ndarray, size: tuple[int, int], pad: int = 6) -> tuple[int, int, int, int] | None:
    """The clipped bounding box (x0, y0, x1, y1) of points, or None if off the frame."""
    w, h = size
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def paste_card(frame: np.ndarray, image: np.ndarray, corners: np.ndarray, light: np.ndarray | None = None,
           shadow: bool = True) -> None:
    """Warp `image` onto `corners` of `frame` under `light` (a gain per pixel), working
    only inside their bounding box."""
    box = _box(corners, (frame.shape[1], frame.shape[0]))
    if box is None:
        return
    x0, y0, x1, y1 = box
    ih, iw = image.shape[:2]
    source = np.array([[0, 0], [iw - 1, 0], [iw - 1, ih - 1], [0, ih - 1]], np.float32)
    homography = cv2.getPerspectiveTransform(source, (corners - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(image, homography, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA).astype(np.float32)
    if light is not None:
        warped *= light[y0:y1, x0:x1]
    alpha = cv2.warpPerspective(np.full((ih, iw), 255, np.uint8), homography, (x1 - x0, y1 - y0))
    alpha = alpha.astype(np.float32)[..., None] / 255
    region = frame[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        region *= 1 - 0.3 * cv2.GaussianBlur(alpha, (0, 0), 3)[..., None]
    frame[y0:y1, x0:x1] = np.clip(region * (1 - alpha) + warped * alpha, 0, 255).astype(np.uint8)


def hand_mask(sweep: HandSweep, index: int, size: tuple[int, int]) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Where the forearm of `sweep` lies in frame `index`: its clipped box (x0, y0, x1,
    y1) and a 0-255 mask over that box (soft-edged), or None when it is out of sight."""
    w, h = size
    t = (index - sweep.start) / max(sweep.end - sweep.start - 1, 1)
    x = sweep.from_x + t * (sweep.to_x - sweep.from_x)
    tip = np.array([x, h * (1 - sweep.reach)])
    elbow = np.array([x + 0.15 * (w / 2 - x), h + 40])
    box = _box(np.array([tip, elbow]), (w, h), pad=int(0.12 * h))
    if box is None:
        return None
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    corner = np.array([x0, y0])
    cv2.line(mask, tuple((elbow - corner).astype(int)), tuple((tip - corner).astype(int)), 255, int(0.14 * h))
    cv2.ellipse(mask, tuple((tip - corner).astype(int)), (int(0.09 * h), int(0.11 * h)), 0, 0, 360, 255, -1)
    return box, cv2.GaussianBlur(mask, (0, 0), 3)


def draw_hand(frame: np.ndarray, sweep: HandSweep, index: int) -> None:
    hand = hand_mask(sweep, index, (frame.shape[1], frame.shape[0]))
    if hand is None:
        return
    (x0, y0, x1, y1), mask = hand
    alpha = mask.astype(np.float32)[..., None] / 255
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (region * (1 - alpha) + np.array(sweep.skin, np.float32) * alpha).astype(np.uint8)
