"""Draw a sheet of the face families (scripts/lib/families.py) for people to look at.

One row per family, a few cards of each game, one of them sleeved; the held-out
family's row is marked. Writes docs/face_families.png, and docs/random_designs.png:
three rows of the random training designs (scripts/lib/random_designs.py) the printed
reader is also trained on:
    .venv/bin/python scripts/draw_families.py [--out docs/face_families.png] [--designs docs/random_designs.png]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lib.families import FAMILIES, HELD_OUT, family_face  # noqa: E402
from scripts.lib.printed_faces import fonts  # noqa: E402
from scripts.lib.random_designs import random_face  # noqa: E402

SHOWN = (("gargon", "red-6", None), ("gargon", "white-13", None), ("gargon", "blue-9", "clear"),
         ("dugtungan", "KA:+KWATRO", None), ("dugtungan", "NG", "black"), ("bagani", "violet-circle", None),
         ("bagani", "sarimaw", None), ("lagim", "aswang", "blue"))
THUMB = (120, 168)


def sheet() -> np.ndarray:
    rows = []
    for name in FAMILIES:
        label = np.full((THUMB[1], 150, 3), 255, np.uint8)
        cv2.putText(label, name, (6, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
        if name == HELD_OUT:
            cv2.putText(label, "(held out)", (6, 104), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 200), 1, cv2.LINE_AA)
        cells = [label] + [cv2.copyMakeBorder(cv2.resize(family_face(name, g, c, s), (THUMB[0] - 8, THUMB[1] - 8),
                                                         interpolation=cv2.INTER_AREA), 4, 4, 4, 4,
                                              cv2.BORDER_CONSTANT, value=(140, 160, 120))
                           for g, c, s in SHOWN]
        rows.append(np.hstack(cells))
    return np.vstack(rows)


def design_sheet(seed: int = 1) -> np.ndarray:
    """24 Gargon and dugtungan cards, each in a random training design and training fonts."""
    rng = random.Random(seed)
    pool = fonts(held_out=False)
    codes = [("gargon", f"{c}-{v}") for c in ("white", "blue", "violet", "red", "yellow", "green")
             for v in (3, 6, 8, 9, 13, 15)] + [("dugtungan", "KA:+KWATRO"), ("dugtungan", "NG")]
    cells = []
    for _ in range(24):
        game, code = rng.choice(codes)
        face = random_face(game, code, rng.choice(pool), rng.choice(pool), rng, rng.random() < 0.5)
        cells.append(cv2.copyMakeBorder(cv2.resize(face, (THUMB[0] - 8, THUMB[1] - 8), interpolation=cv2.INTER_AREA),
                                        4, 4, 4, 4, cv2.BORDER_CONSTANT, value=(140, 160, 120)))
    return np.vstack([np.hstack(cells[i:i + 8]) for i in range(0, 24, 8)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/face_families.png"))
    parser.add_argument("--designs", type=Path, default=Path("docs/random_designs.png"))
    args = parser.parse_args()
    for path, image in ((args.out, sheet()), (args.designs, design_sheet())):
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
