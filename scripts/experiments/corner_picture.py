"""Draw docs/printed_corners.png: photographed cards whose value is printed only small in
the corners, the two corner crops the corner network reads, and what the printed reader
names with the whole card alone and with the corners.

    .venv/bin/python scripts/experiments/corner_picture.py [--out docs/printed_corners.png]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for scripts.lib

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scripts.lib.families import FAMILIES  # noqa: E402
from vision.printed import PrintedReader, corner_crops  # noqa: E402
from vision.synth.augment import photographed  # noqa: E402

CARDS = (("pips", "dugtungan", "NGA"), ("pips", "dugtungan", "TI:PITIK"), ("pips", "gargon", "blue-8"),
         ("pips", "gargon", "red-13"))
TILE = (120, 168)


def label(image: np.ndarray, text: str) -> np.ndarray:
    out = cv2.copyMakeBorder(cv2.resize(image, TILE), 0, 26, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    cv2.putText(out, text, (4, TILE[1] + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (20, 20, 20), 1, cv2.LINE_AA)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/printed_corners.png"))
    args = parser.parse_args()
    rng = random.Random("corner-picture")
    rows = []
    for family, game, code in CARDS:
        card = cv2.rotate(photographed(FAMILIES[family].face(game, code), rng), cv2.ROTATE_180)  # lying turned
        alone = PrintedReader(game, corners=None).identify(card).code
        both = PrintedReader(game).identify(card).code
        top, foot = corner_crops(card)
        rows.append(np.hstack([label(card, f"truth {code}"), label(top, "top-left crop"), label(foot, "foot, turned"),
                               label(np.full((TILE[1], TILE[0], 3), 255, np.uint8), f"alone: {alone or 'unsure'}"),
                               label(np.full((TILE[1], TILE[0], 3), 255, np.uint8), f"corners: {both or 'unsure'}")]))
    cv2.imwrite(str(args.out), np.vstack(rows))


if __name__ == "__main__":
    main()
