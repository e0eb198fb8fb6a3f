"""Table scenes with ground truth: faces laid on a table and photographed badly.

A scene is a camera frame of several cards on one of five table kinds (wood, green
felt, dark cloth, patterned cloth, white), with camera tilt, touching or slightly
overlapping cards, rounded corners, sleeves, uneven light, glare, blur, noise, JPEG
and a partly covering hand. The truth for every card is its code and its corners in
the frame, clockwise from the card's own top-left, so detection, identification and
corner order can all be scored.

Seeds: TRAIN_SEEDS feed training only, EVAL_SEED feeds benchmarks and tests only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.synth.faces import FACE_SIZE

TABLES = ("wood", "felt", "dark", "pattern", "white")
TRAIN_SEEDS = range(0, 10_000)
EVAL_SEED = 1_000_003  # never used by scripts/train_embedder.py


@dataclass(frozen=True)
class SceneCard:
    code: str
    corners: np.ndarray  # (4, 2) clockwise from the card's own top-left, frame pixels


@dataclass
class Scene:
    image: np.ndarray
    cards: list[SceneCard] = field(default_factory=list)
    table: str = ""


def table_image(kind: str, size: tuple[int, int], rng: random.Random) -> np.ndarray:
    w, h = size
    nprng = np.random.default_rng(rng.randrange(2**32))
    if kind == "wood":
        base = np.array([rng.randint(40, 80), rng.randint(80, 120), rng.randint(130, 180)], np.float32)
        y = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(y / rng.uniform(3, 9) + 3 * np.sin(np.arange(w)[None, :] / rng.uniform(60, 200)))
        img = base[None, None, :] * (0.8 + 0.15 * grain[..., None])
    elif kind == "felt":
        img = np.broadcast_to(np.array([rng.randint(30, 70), rng.randint(90, 140), rng.randint(20, 50)],
                                       np.float32), (h, w, 3)).copy()
    elif kind == "dark":
        v = rng.randint(15, 40)
        img = np.full((h, w, 3), v, np.float32)
    elif kind == "white":
        v = rng.randint(200, 240)
        img = np.full((h, w, 3), v, np.float32)
    else:  # patterned cloth: tiled motifs in a few colours
        img = np.full((h, w, 3), [rng.randint(80, 220) for _ in range(3)], np.float32)
        step = rng.randint(40, 90)
        for yy in range(0, h + step, step):
            for xx in range(0, w + step, step):
                colour = [rng.randint(0, 255) for _ in range(3)]
                if rng.random() < 0.5:
                    cv2.circle(img, (xx + (yy // step % 2) * step // 2, yy), step // 4, colour, -1)
                else:
                    cv2.rectangle(img, (xx, yy), (xx + step // 3, yy + step // 3), colour, -1)
    img += nprng.normal(0, 6, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _rounded_mask(size: tuple[int, int], radius: int) -> np.ndarray:
    w, h = size
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius), (w - 1 - radius, h - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask


def _layout(rng: random.Random, n: int, size: tuple[int, int], card_h: float,
            max_turn: float = 180) -> list[tuple[float, float, float]]:
    """Centres and angles for n cards on the table plane, allowed to touch but not to hide
    each other (centres a card length apart, so only corners of turned cards overlap)."""
    w, h = size
    placed: list[tuple[float, float, float]] = []
    for _ in range(400):
        if len(placed) == n:
            break
        x, y = rng.uniform(card_h * 0.6, w - card_h * 0.6), rng.uniform(card_h * 0.6, h - card_h * 0.6)
        angle = rng.uniform(-max_turn, max_turn)
        if max_turn == 180 and rng.random() < 0.3:  # squared up with the table edge
            angle = rng.choice((0, 90, 180, -90)) + rng.uniform(-5, 5)
        if all(np.hypot(x - px, y - py) > card_h for px, py, _ in placed):
            placed.append((x, y, angle))
    return placed


def render_scene(rng: random.Random, faces: Sequence[tuple[str, np.ndarray]],
                 size: tuple[int, int] = (1280, 720), table: str | None = None, max_turn: float = 180,
                 card_height: tuple[float, float] = (0.24, 0.36), hand_chance: float = 0.25) -> Scene:
    """Lay `faces` (code, face image) on a table, each turned up to `max_turn` degrees
    and `card_height` of the frame tall, and take a photo of it."""
    w, h = size
    table = table or rng.choice(TABLES)
    # draw on a flat table plane, then tilt the whole plane like a camera would
    plane = table_image(table, size, rng)
    card_h = rng.uniform(*card_height) * h
    spots = _layout(rng, len(faces), size, card_h, max_turn)
    fw, fh = FACE_SIZE
    face_corners = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    tilt = _camera_tilt(rng, size)
    cards: list[SceneCard] = []
    for (code, face), (x, y, angle) in zip(faces, spots):
        scale = card_h / fh
        rot: np.ndarray = cv2.getRotationMatrix2D((fw / 2, fh / 2), angle, scale)
        rot[:, 2] += (x - fw / 2, y - fh / 2)
        flat = cv2.transform(face_corners[None], rot)[0]
        corners = cv2.perspectiveTransform(flat[None], tilt)[0]
        homography = cv2.getPerspectiveTransform(face_corners, corners)
        mask = _rounded_mask(FACE_SIZE, rng.randint(0, 28))
        if rng.random() < 0.3:  # sleeve: a glossy, slightly bigger clear border
            face = cv2.addWeighted(face, 0.85, np.full_like(face, 255), 0.15, 0)
        _paste(plane, face, mask, homography, size)
        cards.append(SceneCard(code, corners.astype(np.float32)))
    image = _photograph(plane, rng, hand_chance)
    return Scene(image, cards, table)


def _camera_tilt(rng: random.Random, size: tuple[int, int]) -> np.ndarray:
    """A homography that tilts the table plane as a camera above and to the side sees it."""
    w, h = size
    squeeze = rng.uniform(0.0, 0.12) * w
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[squeeze, rng.uniform(0, 0.05) * h], [w - squeeze, rng.uniform(0, 0.05) * h], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _paste(canvas: np.ndarray, face: np.ndarray, mask: np.ndarray, homography: np.ndarray,
           size: tuple[int, int]) -> None:
    warped = cv2.warpPerspective(face, homography, size, flags=cv2.INTER_AREA)
    alpha2d = cv2.warpPerspective(mask, homography, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    alpha = alpha2d[..., None]
    # a soft shadow under the card so cards lift off the table as real ones do
    shadow = cv2.GaussianBlur(alpha2d, (0, 0), 3)[..., None]
    canvas[:] = (canvas * (1 - 0.35 * shadow)).astype(np.uint8)
    canvas[:] = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)


def _photograph(image: np.ndarray, rng: random.Random, hand_chance: float) -> np.ndarray:
    """Uneven light, glare, a hand (with `hand_chance`), blur, noise and JPEG, each drawn at random."""
    h, w = image.shape[:2]
    img: np.ndarray = image.astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)
    ramp = 1 + gx * (np.arange(w)[None, :] / w - 0.5) + gy * (np.arange(h)[:, None] / h - 0.5)
    img *= ramp[..., None] * rng.uniform(0.75, 1.15)
    img += np.array([rng.uniform(-12, 12) for _ in range(3)], np.float32)  # white balance
    if rng.random() < 0.4:  # glare
        glare: np.ndarray = np.zeros((h, w), np.float32)
        cv2.ellipse(glare, (rng.randrange(w), rng.randrange(h)), (rng.randint(30, 120), rng.randint(20, 80)),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), 25)
        img += 110 * glare[..., None]
    if rng.random() < hand_chance:  # a hand (skin blob) reaching in from an edge
        hand = np.zeros((h, w), np.uint8)
        x = rng.randrange(w)
        cv2.ellipse(hand, (x, h + 20), (rng.randint(40, 70), rng.randint(90, 160)), rng.uniform(-30, 30), 0, 360, 255, -1)
        skin = np.array([rng.randint(90, 150), rng.randint(130, 180), rng.randint(170, 230)], np.float32)
        a = cv2.GaussianBlur(hand, (0, 0), 2).astype(np.float32)[..., None] / 255
        img = img * (1 - a) + skin * a
    sigma = rng.choice((0, 0, 0.6, 1.0, 1.5))
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(55, 92)])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert photo is not None  # the JPEG imencode has just written
    return photo


def scene_set(seed: int, count: int, face_for: Callable[[random.Random], tuple[str, np.ndarray]],
              cards: tuple[int, int] = (3, 8), size: tuple[int, int] = (1280, 720)) -> list[Scene]:
    """`count` scenes from one seed; `face_for` picks each card's (code, face)."""
    rng = random.Random(seed)
    return [render_scene(rng, [face_for(rng) for _ in range(rng.randint(*cards))], size) for _ in range(count)]
