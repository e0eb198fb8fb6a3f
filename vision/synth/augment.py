"""One card face as the detector would hand it over after a bad photo.

Used twice, for the same reason: training the embedder needs views of one face as
different as real photos make them, and the open-set threshold is fixed from the
enrollment images alone by comparing such views of enrolled faces with each other.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.interfaces import CARD_SIZE


def cut_out_with_corner_error(face: np.ndarray, size: tuple[int, int], jitter: float, rng: random.Random,
                              interpolation: int, inset: float = 0.0) -> np.ndarray:
    """`face` rectified to `size` (float32) as a detector whose corners are off by up to
    `jitter` of the card would cut it out, `inset` of the card inside its edges (a rim
    lost against the table); a random table colour fills what lies outside."""
    w, h = size
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    src += inset * np.array([[fw, fh], [-fw, fh], [-fw, -fh], [fw, -fh]], np.float32)
    src += np.array([[rng.uniform(-jitter, jitter) * fw, rng.uniform(-jitter, jitter) * fh] for _ in range(4)], np.float32)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    border = tuple(rng.randint(0, 255) for _ in range(3))
    return cv2.warpPerspective(face, cv2.getPerspectiveTransform(src, dst), (w, h), flags=interpolation,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=border).astype(np.float32)


def edge_fit_cut(rng: random.Random) -> tuple[float, float]:
    """(jitter, inset) of a cut-out as the live pipeline makes them (detection, then the
    edge fit of vision/refine.py), drawn from what it was measured to do on generated
    tables of training seeds (scene seed 7, 247 cards): 57% of cards cut within 1% of
    the card at every corner, 27% cut 1-4.5% off, nearly all of them inside the card
    (a rim the colour of the table), and 16% further off."""
    draw = rng.random()
    if draw < 0.57:
        return 0.01, 0.0
    if draw < 0.84:
        return 0.01, rng.uniform(0.01, 0.04)
    return 0.05, 0.0


def photographed(face: np.ndarray, rng: random.Random, strength: float = 1.0,
                 size: tuple[int, int] = CARD_SIZE, cut: tuple[float, float] | None = None) -> np.ndarray:
    """A rectified view of `face` with corner error, light, colour cast, glare, blur, noise, JPEG.
    `cut` is (jitter, inset) of the cut-out (`cut_out_with_corner_error`); by default
    corners off by up to 5% of the card times `strength`."""
    w, h = size
    jitter, inset = cut if cut is not None else (0.05 * strength, 0.0)
    img = cut_out_with_corner_error(face, size, jitter, rng, cv2.INTER_AREA, inset)
    gain = rng.uniform(1 - 0.4 * strength, 1 + 0.25 * strength)
    cast = np.array([rng.uniform(-18, 18) * strength for _ in range(3)], np.float32)
    ramp = 1 + rng.uniform(-0.3, 0.3) * strength * (np.arange(h, dtype=np.float32)[:, None] / h - 0.5)
    img = img * gain * ramp[..., None] + cast
    if rng.random() < 0.3 * strength:  # glare
        glare = np.zeros((h, w), np.float32)
        cv2.circle(glare, (rng.randrange(w), rng.randrange(h)), rng.randint(10, 50), 1.0, -1)
        img += rng.uniform(60, 140) * cv2.GaussianBlur(glare, (0, 0), 12)[..., None]
    sigma = rng.uniform(0, 1.8 * strength)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(0, 8 * strength), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 95)])
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert photo is not None  # the JPEG imencode has just written
    return photo


SMALL_SIDES = (55.0, 160.0)  # long side, in a frame's pixels, of a card a webcam shows small


def seen_small(card: np.ndarray, rng: random.Random, size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """A rectified view (`photographed`) as it comes out of a frame where the card is
    only SMALL_SIDES long: shrunk to that, blurred by the camera and JPEG at that
    size, then cut back up to `size` as vision/detect.py's rectify would."""
    long_side = rng.uniform(*SMALL_SIDES)
    h, w = card.shape[:2]
    shrunk = cv2.resize(card, (max(2, round(long_side * w / h)), max(2, round(long_side))), interpolation=cv2.INTER_AREA)
    sigma = rng.uniform(0, 1.4)
    if sigma > 0.3:
        shrunk = cv2.GaussianBlur(shrunk, (0, 0), sigma)
    ok, buf = cv2.imencode(".jpg", shrunk, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 92)])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None  # the JPEG imencode has just written
    return cv2.resize(decoded, size, interpolation=cv2.INTER_LINEAR)
