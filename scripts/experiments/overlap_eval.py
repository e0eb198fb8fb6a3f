"""Tuning loop for finding the top cards of piles and fans: detection on generated
1280x720 tables of the TRAINING table kinds and face families only
(scripts/detector_world.py), per layout, with the time per frame; optionally one picture
per scene with the finds drawn. Never run on the held-out kinds or real photos.

    nice -n 10 .venv/bin/python scripts/experiments/overlap_eval.py [--scenes 20] [--layouts pile,fan] [--draw DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from detector_world import HIDDEN, TRAIN_FAMILIES, TRAIN_TABLES, WHOLE, world_scene  # noqa: E402
from scripts.lib.evaluate import MarkedPhoto, TruthCard, detection_counts, match_by_centre, quad_iou  # noqa: E402
from vision.detect import ContourCardDetector, ContourDetectorSettings  # noqa: E402
from vision.overlap import OverlapFinder  # noqa: E402
from vision.refine import refine_quads  # noqa: E402

TUNE_SEED = 424242  # a seed of the training world's own, apart from the bench's


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--layouts", default="pile,fan")
    parser.add_argument("--seed", type=int, default=TUNE_SEED)
    parser.add_argument("--draw", type=Path)
    parser.add_argument("--before", action="store_true", help="the detector without the straight-edge search")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an OverlapSettings field to try (repeatable)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    detector = ContourCardDetector(ContourDetectorSettings(overlaps=not args.before))
    tried = {name: float(value) for name, value in (item.split("=") for item in args.set)}
    detector.overlaps = OverlapFinder(replace(detector.overlaps.settings, **tried))  # type: ignore[arg-type]
    segment_finds: list[np.ndarray] = []
    find = detector.overlaps.find

    def recorded(*a, **k):  # the straight-edge finds before the card check, drawn in blue
        out = find(*a, **k)
        segment_finds[:] = [q for q, _ in out]
        return out

    detector.overlaps.find = recorded  # type: ignore[method-assign]
    report = {}
    for layout in args.layouts.split(","):
        rng = random.Random(f"overlap-tune:{layout}:{args.seed}")
        n = found = finds = tight = own = on_cards = 0
        seconds = []
        for k in range(args.scenes):
            scene = world_scene(rng, (1280, 720), TRAIN_TABLES, TRAIN_FAMILIES, layout, card_px=(60, 400))
            whole = [c for c in scene.cards if c.share >= WHOLE]
            hidden = [c for c in scene.cards if HIDDEN <= c.share < WHOLE and c.visible.any()]
            truth = MarkedPhoto(tuple(TruthCard("", tuple(c.outline.mean(axis=0))) for c in whole),
                                tuple(tuple(np.argwhere(c.visible).mean(axis=0)[::-1]) for c in hidden))
            start = time.process_time()
            detections = detector.detect(scene.image)
            seconds.append(time.process_time() - start)
            quads = refine_quads(scene.image, [d.corners for d in detections])
            counts = detection_counts(quads, truth)
            n, found, finds = n + counts[0], found + counts[1], finds + counts[2]
            match = match_by_centre(quads, truth.cards)
            for p, t in match.pairs:
                tight += quad_iou(quads[p], whole[t].outline) >= 0.9
                own += quad_iou(quads[p], whole[t].outline) >= 0.6  # the card's own outline, not a blob round it
            cards_mask = np.zeros(scene.image.shape[:2], bool)
            for c in scene.cards:
                cards_mask |= c.visible
            for p in match.unmatched_predictions:  # false finds (or ignored) on the cards, not on the table
                x, y = np.clip(np.round(quads[p].mean(axis=0)).astype(int), 0, [cards_mask.shape[1] - 1, cards_mask.shape[0] - 1])
                on_cards += bool(cards_mask[y, x])
            if args.draw:
                args.draw.mkdir(parents=True, exist_ok=True)
                picture = scene.image.copy()
                cv2.polylines(picture, [np.round(c.outline).astype(np.int32) for c in whole], True, (0, 255, 0), 1)
                scale = scene.image.shape[1] / detector.settings.work_size
                cv2.polylines(picture, [np.round(q * scale).astype(np.int32) for q in segment_finds], True, (255, 0, 0), 1)
                cv2.polylines(picture, [np.round(q).astype(np.int32) for q in quads], True, (0, 0, 255), 2)
                cv2.imwrite(str(args.draw / f"{layout}_{k:02d}_{scene.table}_{scene.family}_{counts[0]}-{counts[1]}-{counts[2]}.jpg"),
                            picture)
        report[layout] = {"cards": n, "recall": round(found / max(n, 1), 4), "precision": round(found / max(finds, 1), 4),
                          "outline_iou_0.9": round(tight / max(found, 1), 4),
                          "recall_own_outline": round(own / max(n, 1), 4), "unmatched_finds_on_cards": on_cards,
                          "finds": finds,
                          "ms_median": round(1000 * float(np.median(seconds)), 2)}
    print(json.dumps(report | {"seed": args.seed, "scenes": args.scenes, "settings": tried, "before": args.before}))


if __name__ == "__main__":
    main()
