"""Draw what the card detector finds: one generated table per layout (the table kinds and
face family held out of the learned detector's training) and a few realphotos-dev
photos, the learned detector the app uses in red over the contour detector it replaced
in blue; and a pile and a fan of the training world, the contour detector beside itself
without the straight-edge search for overlapping cards (blue). Each card's first corner
(its own top-left up to a half turn) is yellow. Written under docs/detector/ for the
model card.

    nice .venv/bin/python scripts/detector_pictures.py [--out docs/detector]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from detector_world import HELD_OUT_FAMILY, HELD_OUT_TABLES, LAYOUTS, TRAIN_FAMILIES, TRAIN_TABLES, world_scene  # noqa: E402
from vision.imageio import decode  # noqa: E402
from vision.detect import ContourCardDetector, ContourDetectorSettings  # noqa: E402
from vision.detectors import card_detector  # noqa: E402
from vision.interfaces import CardDetector  # noqa: E402
from vision.refine import refine_quads  # noqa: E402

REALDEV = ROOT.parent / "shared" / "data" / "realphotos-dev" / "photos"
REAL_PICKS = ("blackjack_surface3.png", "bridge_deal1.jpg", "bridge_deal5.jpg", "set_tomwhite_cloth.jpg")
WIDTH = 960  # pictures are saved this wide


def drawn(image: np.ndarray, quads: list[np.ndarray], before: list[np.ndarray] = ()) -> np.ndarray:
    """`quads` in red, first corner yellow; `before` (another detector's) thin in blue under them."""
    scale = WIDTH / image.shape[1]
    out = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    for quad in before:
        cv2.polylines(out, [np.round(quad * scale).astype(np.int32)], True, (255, 96, 0), 4, cv2.LINE_AA)
    for quad in quads:
        q = np.round(quad * scale).astype(np.int32)
        cv2.polylines(out, [q], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in q[0]), 5, (0, 255, 255), -1, cv2.LINE_AA)
    return out


def overlap_pictures(out: Path) -> None:
    """One pile and one fan of the training world (`overlap_<layout>.jpg`): the shipping
    detector in red over the same without the straight-edge search (vision/overlap.py)
    in blue, both fitted to the edges."""
    rng = random.Random("detector-pictures-overlap")
    now, before = ContourCardDetector(), ContourCardDetector(ContourDetectorSettings(overlaps=False))
    for layout in ("pile", "fan"):
        scene = world_scene(rng, (1280, 720), TRAIN_TABLES, TRAIN_FAMILIES, layout, card_px=(110, 260))
        found = [refine_quads(scene.image, [d.corners for d in detector.detect(scene.image)]) for detector in (now, before)]
        cv2.imwrite(str(out / f"overlap_{layout}.jpg"), drawn(scene.image, list(found[0]), list(found[1])),
                    [cv2.IMWRITE_JPEG_QUALITY, 80])


def pictures(detector: CardDetector, before: CardDetector, out: Path) -> None:
    """`detector`'s finds in red over `before`'s in blue, both fitted to the edges."""
    rng = random.Random("detector-pictures")
    images = [(f"held_out_{layout}", world_scene(rng, (1280, 720), HELD_OUT_TABLES, (HELD_OUT_FAMILY,), layout,
                                                 card_px=(110, 260)).image) for layout in LAYOUTS]
    images += [(f"real_{Path(photo).stem}", decode((REALDEV / photo).read_bytes())[0])
               for photo in REAL_PICKS if (REALDEV / photo).is_file()]
    for name, image in images:
        found = [refine_quads(image, [c.corners for c in d.detect(image)]) for d in (detector, before)]
        cv2.imwrite(str(out / f"{name}.jpg"), drawn(image, list(found[0]), list(found[1])), [cv2.IMWRITE_JPEG_QUALITY, 80])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "detector")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    pictures(card_detector("learned"), ContourCardDetector(), args.out)
    overlap_pictures(args.out)


if __name__ == "__main__":
    main()
