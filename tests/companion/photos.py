"""Photos of single cards lying on a table, as a phone takes them for enrollment."""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth.faces import game_face


def card_photo(game: str, code: str, turn: float = 8.0, size: tuple[int, int] = (1200, 900)) -> bytes:
    """A JPEG of the generated face of `code`, turned a little, on a textured wooden-brown table."""
    w, h = size
    rng = np.random.default_rng(abs(hash(code)) % 2**32)
    table = np.full((h, w, 3), (60, 90, 130), np.uint8)
    table = cv2.add(table, rng.integers(0, 25, (h, w, 3), dtype=np.uint8))
    face = game_face(game, code)
    fh, fw = face.shape[:2]
    scale = 0.55 * h / fh
    centre = (w / 2, h / 2)
    matrix = cv2.getRotationMatrix2D((fw / 2, fh / 2), turn, scale)
    matrix[:, 2] += np.array(centre) - np.array([fw / 2, fh / 2])
    mask = cv2.warpAffine(np.full((fh, fw), 255, np.uint8), matrix, (w, h))
    warped = cv2.warpAffine(face, matrix, (w, h))
    table[mask > 0] = warped[mask > 0]
    ok, data = cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()
