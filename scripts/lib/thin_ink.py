"""Gargon cards whose only coloured ink is the value itself, printed thin on light paper.

Many real decks print a card's suit colour nowhere but in its value: a light or hairline
numeral in the middle, small indices in the corners, everything else (frame, title,
ornament) in dark ink. There the coloured ink is a few per cent of the card, and at
a small reading size a hairline blends into the paper, so a colour reader that looks
at the whole card at once may take it for a white card. These faces are the cases
`vision.colour` is measured and tested on for that (`scripts/bench_colour.py`,
`tests/vision/test_colour.py`): a case set of our own, in training typefaces only (never
the held-out family's), with a white card (dark value) for every coloured one.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from scripts.lib.printed_faces import font_named, print_text
from vision.synth.faces import BGR, FACE_SIZE

W, H = FACE_SIZE
#: Light papers (BGR): bright white, a warm off-white, the project's cream, a pale grey.
PAPERS = ((250, 250, 250), (236, 242, 246), BGR["cream"], (226, 226, 226))
#: Training typefaces (scripts/lib/printed_faces.py: none of the held-out families), light to regular.
FONTS = ("DejaVuSans-ExtraLight", "LiberationSans-Regular", "NotoSans-Regular", "DejaVuSerif",
         "NotoSerif-Regular", "LiberationSansNarrow-Regular", "DejaVuSansCondensed")
LAYOUTS = ("centre", "corners", "both")
DARK = (45, 40, 40)


def thin_ink_face(code: str, rng: random.Random, layout: str | None = None) -> np.ndarray:
    """Gargon card `code` ('violet-3') with its value printed in the suit colour (dark on a
    white card) and nothing else coloured: big in the middle (`centre`), small in two
    opposite corners (`corners`), or both; the paper, typeface and sizes drawn from `rng`."""
    colour, value = code.rsplit("-", 1)
    layout = layout or rng.choice(LAYOUTS)
    ink = DARK if colour == "white" else BGR[colour]
    font = font_named(rng.choice(FONTS))
    face: np.ndarray = np.full((H, W, 3), rng.choice(PAPERS), np.uint8)
    inset = rng.randint(12, 26)
    cv2.rectangle(face, (inset, inset), (W - 1 - inset, H - 1 - inset), DARK, rng.randint(1, 3), cv2.LINE_AA)
    if layout in ("centre", "both"):
        print_text(face, value, (W / 2, H / 2 + rng.uniform(-20, 20)), rng.randint(120, 190), ink, font, W - 100)
    else:  # an ornament in dark ink where the value is not
        cv2.circle(face, (W // 2, H // 2), rng.randint(60, 110), DARK, rng.randint(2, 6), cv2.LINE_AA)
    if layout in ("corners", "both"):
        height = rng.randint(30, 56)
        for _ in range(2):  # the second index is the first turned round
            print_text(face, value, (inset + 36, inset + 40), height, ink, font, 70)
            face = cv2.rotate(face, cv2.ROTATE_180)
    if rng.random() < 0.5:
        print_text(face, "GARGON", (W / 2, H - inset - 40), rng.randint(18, 26), DARK, font, W - 140)
    return face
