"""A picture of what only the detector's training tiles draw (scripts/detector_world.py:
`TRAINING_ONLY_TABLES`, `TRAINING_ONLY_FAMILIES`, lamp-sharp shadows): per row, a fan and a
table of real decks' big-pip cards, and two tables of the printed cartoon cloth with the
training families' cards, so a reader of models/README.md sees what the network is taught.

    .venv/bin/python scripts/experiments/training_tiles_picture.py docs/detector/training_only_tiles.jpg
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from detector_world import TRAIN_FAMILIES, TRAINING_ONLY_FAMILIES, TRAINING_ONLY_TABLES, world_scene  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for _ in range(3):
        row = []
        for j in range(4):
            families = TRAINING_ONLY_FAMILIES[:1] if j < 2 else TRAIN_FAMILIES
            tables = ("plain_light", "wood") if j < 2 else TRAINING_ONLY_TABLES[:1]
            scene = world_scene(rng, (640, 640), tables, families, layout="fan" if j == 0 else None,
                                card_px=(40, 340), crisp_shadows=True)
            row.append(cv2.resize(scene.image, (240, 240), interpolation=cv2.INTER_AREA))
        rows.append(np.hstack(row))
    cv2.imwrite(str(args.out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 80])


if __name__ == "__main__":
    main()
