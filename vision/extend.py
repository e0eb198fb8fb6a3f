"""Outlines of a whole card round a find that holds only part of it.

Why: a design with a band of colour across one end (a ribbon with the value on it, a
title bar) or a dark frame on a dark table shows the detector an edge inside the card,
and the find stops there: its outline is the card's panel, not the card, and the
cut-out no deck face matches. What the find lacks is told by its shape: the panel of
a card is squarer (or thinner) than a card. So a find the reader is unsure of is also
read as the card it would be part of, lengthened at either end (or widened at either
side) to a card's shape, in the find's own perspective; the reader's open-set tests
judge each outline as they judge any (vision/recognize.py keeps the clearest reading).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import CARD_ASPECT

PART_OF_CARD = 1.08  # a find this much squarer or thinner than a card may be part of one


def whole_card_outlines(quad: np.ndarray, card_aspect: float = CARD_ASPECT) -> list[np.ndarray]:
    """The outlines of a card of `card_aspect` (short over long side) that `quad` would
    be the end or the side of, clockwise from the find's first corner or the one after
    it, whichever starts a short side (a card is cut out from its short side; a
    find nearly square may have been read from either side); none where `quad`
    already has about a card's shape."""
    q = np.asarray(quad, np.float32)
    across = 0.5 * float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]))  # sides 0-1 and 3-2
    along = 0.5 * float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))   # sides 0-3 and 1-2
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_image = cv2.getPerspectiveTransform(square, q)
    short, long_ = min(across, along), max(across, along)
    shape = short / max(long_, 1e-6)
    if shape > card_aspect * PART_OF_CARD:  # too square: the card goes on along its long axis
        grow, axis = shape / card_aspect, 1 if along >= across else 0
    elif shape < card_aspect / PART_OF_CARD:  # too thin: the card goes on across its short axis
        grow, axis = card_aspect / shape, 0 if along >= across else 1
    else:
        return []
    width, length = (across * grow, along) if axis == 0 else (across, along * grow)  # the whole card's sides 0-1 and 1-2
    outlines = []
    for start in (0.0, 1.0 - grow):  # the missing part beyond one end or the other
        box = square.copy()
        box[:, axis] = start + box[:, axis] * grow
        outline = cv2.perspectiveTransform(box.reshape(1, 4, 2), to_image)[0]
        outlines.append(outline if width <= length else np.roll(outline, -1, axis=0))
    return outlines
