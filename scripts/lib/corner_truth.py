"""Which corners of a drawn training face hold its index: the corner reader's labels.

Not guessed from the design: the face is drawn twice from the same random state with
two different tokens, and a corner holds the index when the ink that differs there
forms a mark lying wholly inside the crop (`vision.printed.corner_crops`). Ink crossing
the crop's edge (a big centre value reaching in) or none at all is "no index".
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.printed import CORNER_BOX, corner_labels, index_token, token_labels

INK_CHANGE = 40  # grey levels: where the two drawings differ by more, the token is printed
MARK_GAP = 9  # px of the drawn face: strokes closer than this are one mark (a syllable's letters)
LEAST_MARK = 30  # px of the drawn face: a mark smaller than this is a speck, not an index
#: Training families whose value at the foot is printed upright (across a ribbon), not
#: turned round as an index is: the turned bottom-right crop shows it upside down, where
#: a 6 reads as a 9, so that crop is labelled "no index" (upside-down print is not one)
FOOT_UPRIGHT = ("ribbon",)


def corner_classes(face: np.ndarray, twin: np.ndarray, index: int) -> tuple[int, int]:
    """The class of each of `corner_crops(face)`: `index` where the ink `face` and `twin`
    (the same design with another token) differ in forms a mark wholly inside the crop,
    else "no index"."""
    changed = (np.abs(face.astype(np.int16) - twin.astype(np.int16)).max(axis=2) > INK_CHANGE).astype(np.uint8)
    changed = cv2.dilate(changed, np.ones((MARK_GAP, MARK_GAP), np.uint8))
    none = len(corner_labels()) - 1
    h, w = changed.shape
    x1, y1 = round(CORNER_BOX[2] * w), round(CORNER_BOX[3] * h)
    classes = []
    for side in (changed, cv2.rotate(changed, cv2.ROTATE_180)):
        count, _, stats, _ = cv2.connectedComponentsWithStats(side)
        inside = [s for s in stats[1:count] if s[0] + s[2] <= x1 and s[1] + s[3] <= y1 and s[4] >= LEAST_MARK]
        classes.append(index if inside else none)
    return classes[0], classes[1]


def other_code(game: str, code: str, rng: random.Random) -> str:
    """A code of the same game whose index differs from `code`'s, with the same colour
    or action word (so only the token's own print differs between the two drawings)."""
    own = index_token(game, code.rsplit("-", 1)[1] if game == "gargon" else code)
    tokens = [t for t in token_labels()[game] if index_token(game, t) != own]
    if game == "gargon":
        return f"{code.rsplit('-', 1)[0]}-{rng.choice(tokens)}"
    action = code.partition(":")[2]
    syllable = index_token(game, rng.choice(tokens))
    return f"{syllable}:{action}" if action else syllable
