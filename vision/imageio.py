"""Decode a photo only as large as recognition needs.

A phone photo of a table is 12-27 megapixels; cards are found at ~1000 px and read
at 180x252, so decoding every pixel is most of the work. JPEG can decode at 1/2, 1/4
or 1/8 scale for a fraction of the cost (OpenCV's IMREAD_REDUCED_*), so the
reduction is chosen from the size in the JPEG header, keeping the longer side at
least `min_side`. Corners found in the reduced image are scaled back by the caller.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
           8: cv2.IMREAD_REDUCED_COLOR_8}
DECODE_MIN_SIDE = 1600  # cards of a 40-card photo stay above the 180x252 they are read at
PICTURE_PIXELS = 120_000_000  # beyond the largest phone camera's full-size photo (108 MP)
SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None if `data` is not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in SOF_MARKERS:
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header, or None if `data` is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a JPEG or PNG from its header alone, before anything is decoded:
    a small file may hold a huge picture (a flat 16000x16000 PNG is under a megabyte
    and decodes to 770 MB)."""
    return jpeg_size(data) or png_size(data)


class PictureTooLarge(ValueError):
    """A picture whose header claims more pixels than any camera's photo: refused unread,
    since decoding it could take more memory than a Raspberry Pi has."""


def decode(data: bytes, min_side: int | None = DECODE_MIN_SIDE) -> tuple[np.ndarray | None, int]:
    """The image (BGR) and the factor it was reduced by (none where `min_side` is None);
    (None, 1) if undecodable. PictureTooLarge for a picture of more than PICTURE_PIXELS."""
    if not data:
        return None, 1  # (OpenCV asserts on an empty buffer: an empty file is no picture)
    size = jpeg_size(data)  # (only a JPEG decodes reduced)
    whole = size or png_size(data)
    if whole is not None and whole[0] * whole[1] > PICTURE_PIXELS:
        raise PictureTooLarge(f"{whole[0]}x{whole[1]} px is larger than any camera's photo")
    factor = 1
    while size and min_side and factor < 8 and max(size) / (factor * 2) >= min_side:
        factor *= 2
    image = cv2.imdecode(np.frombuffer(data, np.uint8), REDUCED[factor])
    return image, factor


def read_picture(path: Path) -> np.ndarray | None:
    """A picture file at full size (BGR), None if it is none OpenCV can read;
    PictureTooLarge as `decode`."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return decode(data, min_side=None)[0]
