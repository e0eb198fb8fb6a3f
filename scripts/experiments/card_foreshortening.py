"""Does a card's own outline say how the table recedes? Prints JSON.

Under a tilted camera a card's far side is foreshortened: the two pairs of its outline's
opposite sides meet at two vanishing points, whose line is the table's horizon, and the
cube root of the area a card covers is proportional to a pixel's signed distance from it
(`vision/table_scale.py`). So one card's outline, with its size, would say how large a
card lying anywhere else looks, with no need of six cards spread over the table. Exact
on exact outlines; this measures it on the joint detector's outlines of generated
Bagani tables (5 cards 14-22% of the frame tall, no hand) under the generator's mild
tilt (`--tilt mild`) or a steep one (`steep`: the far side of the frame at 0.4-0.6x, the
camera rolled up to 25 degrees): for each card found and each other card of its
table, how far from the truth the size said there is, by the card's foreshortening and
by its own size alone (what "the largest card stands for every place" does).

    .venv/bin/python scripts/experiments/card_foreshortening.py --tilt steep [--tables 25]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision.synth.scenes as scenes  # noqa: E402
from vision.detect import _polygon_area  # noqa: E402
from vision.detectors import card_detector  # noqa: E402
from vision.synth.faces import game_codes, game_face  # noqa: E402

MILD = scenes._camera_tilt


def steep_tilt(rng: random.Random, size: tuple[int, int]) -> np.ndarray:
    """A camera over the table's near edge, its far side at 0.4-0.6x, rolled up to 25 degrees."""
    w, h = size
    squeeze = rng.uniform(0.2, 0.3) * w
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[squeeze, 0.05 * h], [w - squeeze, 0.05 * h], [w, h], [0, h]], np.float32)
    roll = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-25, 25), 1.0), [0, 0, 1]])
    return roll @ cv2.getPerspectiveTransform(src, dst)


def _point(p: np.ndarray) -> np.ndarray:
    return np.array([p[0] / 1000, p[1] / 1000, 1.0])


def horizon(quad: np.ndarray) -> np.ndarray:
    """The table's horizon line from one card's outline, scaled to 1 at its centre."""
    p = [_point(c) for c in quad]
    across = np.cross(np.cross(p[0], p[1]), np.cross(p[3], p[2]))
    along = np.cross(np.cross(p[1], p[2]), np.cross(p[0], p[3]))
    line = np.cross(across, along)
    return line / (line @ _point(quad.mean(axis=0)))


def summary(errors: list[float]) -> dict:
    e = np.abs(errors)
    return {"median": round(float(np.median(e)), 3), "p90": round(float(np.percentile(e, 90)), 3), "pairs": len(e)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilt", choices=("mild", "steep"), default="steep")
    parser.add_argument("--tables", type=int, default=25)
    args = parser.parse_args()
    scenes._camera_tilt = MILD if args.tilt == "mild" else steep_tilt
    detector, rng, codes = card_detector("joint"), random.Random(5), game_codes("bagani")
    corner, own, shape = [], [], []
    for _ in range(args.tables):
        scene = scenes.render_scene(rng, [(c, game_face("bagani", c)) for c in rng.sample(codes, 5)],
                                    card_height=(0.14, 0.22), hand_chance=0)
        truth = [c.corners.astype(np.float64) for c in scene.cards]
        for found in (np.asarray(d.corners, np.float64) for d in detector.detect(scene.image)):
            centre = found.mean(axis=0)
            j = min(range(len(truth)), key=lambda i: float(np.linalg.norm(truth[i].mean(axis=0) - centre)))
            if np.linalg.norm(truth[j].mean(axis=0) - centre) > 10:
                continue
            corner.append(min(float(np.abs(np.roll(found, r, 0) - truth[j]).max()) for r in range(4)))
            line, size = horizon(found), _polygon_area(found) ** 0.5
            for i, other in enumerate(truth):
                if i != j:
                    true = _polygon_area(other) ** 0.5
                    shape.append(size * max(float(line @ _point(other.mean(axis=0))), 1e-3) ** 1.5 / true - 1)
                    own.append(size / true - 1)
    print(json.dumps({"tilt": args.tilt, "tables": args.tables,
                      "corner_error_px": {"median": round(float(np.median(corner)), 2),
                                          "p90": round(float(np.percentile(corner, 90)), 2)},
                      "size_error_by_its_foreshortening": summary(shape),
                      "size_error_by_its_own_size": summary(own)}))


if __name__ == "__main__":
    main()
