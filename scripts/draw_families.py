"""Draw a sheet of the face families (scripts/lib/families.py) for people to look at.

One row per family, a few cards of each game, one of them sleeved; the held-out
family's row is marked. Writes docs/face_families.png:
    .venv/bin/python scripts/draw_families.py [--out docs/face_families.png]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lib.families import FAMILIES, HELD_OUT, family_face  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/face_families.png"))
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet(), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(args.out, args.out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
