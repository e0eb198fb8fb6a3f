"""Photos a host's phone sends (a card to enroll, the table for the seats) and pictures
sent back to it."""

from __future__ import annotations

import base64
from typing import Any

from flask import request

from rules.core import BadInput

PHOTO_LIMIT = 12 * 1024 * 1024  # a phone's full-size photo; other writes keep the app's small limit
PHOTO_SIDE = 2400               # a JPEG is decoded reduced while its longer side stays at least this


def uploaded_photo() -> Any:
    """The request's `photo` decoded as a BGR image; BadInput when there is none or it is
    not a picture. Call it before anything reads the form: the body is parsed once, under
    the limit in force then. A JPEG is decoded only as large as PHOTO_SIDE asks, and a
    picture whose header claims more pixels than any phone's photo is refused unread."""
    from vision.imageio import PictureTooLarge, decode

    request.max_content_length = PHOTO_LIMIT
    photo = request.files.get("photo")
    if photo is None:
        raise BadInput("photo", "no photo sent")
    data = photo.read()
    try:
        image, _ = decode(data, PHOTO_SIDE)  # (cards and markers need far fewer pixels than a phone sends)
    except PictureTooLarge as exc:
        raise BadInput("photo", str(exc)) from None
    if image is None:
        raise BadInput("photo", "not a picture (JPEG or PNG)")
    return image


def png_data_url(image: Any) -> str:
    """An image the page shows at once, with no second request."""
    import cv2

    ok, data = cv2.imencode(".png", image)
    return "data:image/png;base64," + base64.b64encode(data.tobytes()).decode("ascii")
