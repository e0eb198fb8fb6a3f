"""Where the joint card detector goes wrong on the training world, scene by scene: its
false finds and its misses per layout, and pictures of the scenes that have any (truth
green, contour finds red, the network's added cards cyan, false finds thick magenta,
missed cards' centres blue). The network's maps and the contour search's finds of each
scene are cached (`--cache`), so that the post-processing (vision/learned_detect.py,
`--joint` for its settings) can be changed and measured again in seconds. An
experiment's harness (scripts/bench_vision.py reports the figures of record); the
scenes are the ones `learned_eval.py --parts train` draws, or another draw of the
training world (`--seed`), so that a rule is not chosen on one draw's few cards.

    nice .venv/bin/python scripts/experiments/detect_errors.py --scenes 30 --cache build/detect-errors --pictures build/detect-errors/pictures
    nice .venv/bin/python scripts/experiments/detect_errors.py --scenes 60 --seed detector-tune-more:1 --cache build/detect-errors-2
    nice .venv/bin/python scripts/experiments/detect_errors.py --scenes 60 --layouts fan,pile --families big_pips --cache build/detect-errors-pips
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from bench_vision import EVAL_SEED  # noqa: E402
from detector_world import HIDDEN, LAYOUTS, TRAIN_FAMILIES, TRAIN_TABLES, TRAINING_ONLY_FAMILIES, WHOLE, world_scene  # noqa: E402
from scripts.lib.evaluate import TruthCard, match_by_centre, quad_iou  # noqa: E402
from vision.interfaces import Detection  # noqa: E402
from vision.learned_detect import JointCardDetector, JointSettings, NetworkView  # noqa: E402
from vision.refine import refine_quads  # noqa: E402


OUTLINED = 0.8  # IoU of a found card's fitted outline with its own at which it is outlined, not merged or cut


def build(path: Path, scenes: int, seed: str, detector: JointCardDetector,
          layouts: tuple[str, ...] = LAYOUTS, families: tuple[str, ...] = TRAIN_FAMILIES) -> None:
    """Draw the scenes as `world_layouts(held_out=False)` does and keep what the slow
    parts make of each: the frame, its truth, the network's maps and the contour finds."""
    rng = random.Random(seed)
    path.mkdir(parents=True, exist_ok=True)
    for layout in layouts:
        for i in range(scenes):
            scene = world_scene(rng, (1280, 720), TRAIN_TABLES, families, layout, card_px=(60, 400))
            interior, core, scale = detector.learned.maps(scene.image)
            finds = detector.contour.detect(scene.image)
            whole = [c.outline for c in scene.cards if c.share >= WHOLE]
            hidden = [np.argwhere(c.visible).mean(axis=0)[::-1] for c in scene.cards
                      if HIDDEN <= c.share < WHOLE and c.visible.any()]
            np.savez_compressed(path / f"{layout}-{i:03d}.npz", image=cv2.imencode(".png", scene.image)[1],
                                whole=np.float32(whole).reshape(-1, 4, 2), hidden=np.float32(hidden).reshape(-1, 2),
                                interior=interior.astype(np.float16), core=core.astype(np.float16), scale=scale,
                                finds=np.float32([d.corners for d in finds]).reshape(-1, 4, 2),
                                scores=np.float32([d.score for d in finds]), table=scene.table, family=scene.family)
            print(layout, i, flush=True)


def judge(path: Path, detector: JointCardDetector, pictures: Path | None) -> dict:
    """Per layout: cards, found, finds, the found cards outlined (IoU >= OUTLINED with
    their own outline once fitted to the edges: a find holding a card's centre may be a
    blob of it and the card it lies on), and each scene's false finds and misses."""
    report: dict = {}
    for file in sorted(path.glob("*.npz")):
        data = np.load(file)
        layout = file.stem.split("-")[0]
        image = cv2.imdecode(data["image"], cv2.IMREAD_COLOR)
        finds = [Detection(q, float(s)) for q, s in zip(data["finds"], data["scores"])]
        detector.contour.detect = lambda _image, finds=finds: finds
        interior, core, scale = data["interior"].astype(np.float32), data["core"].astype(np.float32), float(data["scale"])
        view = NetworkView(core, scale, detector.learned.cards_of_maps(interior, core, scale))
        cards = detector.sure_and_doubted(image, view)[0]
        learned = [not any(d.corners is f.corners for f in finds) for d in cards]  # added by the network
        quads = refine_quads(image, [d.corners for d in cards])
        whole, hidden = list(data["whole"]), list(data["hidden"])
        places = [TruthCard("", tuple(q.mean(axis=0))) for q in whole] + [TruthCard("", tuple(c)) for c in hidden]
        match = match_by_centre(quads, places)
        false = list(match.unmatched_predictions)
        missed = [t for t in match.unmatched_truth if t < len(whole)]
        row = report.setdefault(layout, {"cards": 0, "found": 0, "outlined": 0, "finds": 0, "errors": []})
        row["cards"] += len(whole)
        row["found"] += sum(t < len(whole) for _, t in match.pairs)
        row["outlined"] += sum(t < len(whole) and quad_iou(quads[p], whole[t]) >= OUTLINED for p, t in match.pairs)
        row["finds"] += len(quads) - sum(t >= len(whole) for _, t in match.pairs)
        if false or missed:
            row["errors"].append({"scene": file.stem, "table": str(data["table"]), "family": str(data["family"]),
                                  "false": len(false), "false_learned": sum(learned[p] for p in false), "missed": len(missed)})
            if pictures is not None:
                pictures.mkdir(parents=True, exist_ok=True)
                out = image.copy()
                cv2.polylines(out, [np.round(q).astype(np.int32) for q in whole], True, (0, 200, 0), 1, cv2.LINE_AA)
                cv2.polylines(out, [np.round(q).astype(np.int32) for q in quads], True, (0, 0, 255), 2, cv2.LINE_AA)
                cv2.polylines(out, [np.round(q).astype(np.int32) for q, new in zip(quads, learned) if new], True, (255, 255, 0), 2, cv2.LINE_AA)
                cv2.polylines(out, [np.round(quads[p]).astype(np.int32) for p in false], True, (255, 0, 255), 5, cv2.LINE_AA)
                for t in missed:
                    cv2.circle(out, tuple(int(v) for v in whole[t].mean(axis=0)), 12, (255, 0, 0), -1)
                cv2.imwrite(str(pictures / f"{file.stem}.png"), out)
    for row in report.values():
        row["recall"] = round(row["found"] / max(row["cards"], 1), 4)
        row["precision"] = round(row["found"] / max(row["finds"], 1), 4)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=30, help="scenes per layout")
    parser.add_argument("--seed", default=f"detector-tune:{EVAL_SEED}", help="the training world's tuning scenes by default")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--pictures", type=Path)
    parser.add_argument("--joint", default="{}", help="JSON of JointSettings fields")
    parser.add_argument("--layouts", default=",".join(LAYOUTS))
    parser.add_argument("--families", default=",".join(TRAIN_FAMILIES),
                        help="of the training families, and the training tiles' own (big_pips: a playing card's large pips)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    detector = JointCardDetector(settings=JointSettings(**json.loads(args.joint)))
    if not any(args.cache.glob("*.npz")):
        families = tuple(args.families.split(","))
        assert set(families) <= set(TRAIN_FAMILIES + TRAINING_ONLY_FAMILIES), "the held-out family is never tuned on"
        build(args.cache, args.scenes, args.seed, detector, tuple(args.layouts.split(",")), families)
    report = judge(args.cache, detector, args.pictures)
    for layout, row in report.items():
        print(layout, {k: v for k, v in row.items() if k != "errors"})
    total = [sum(row[k] for row in report.values()) for k in ("cards", "found", "finds", "outlined")]
    print("all", {"recall": round(total[1] / max(total[0], 1), 4), "precision": round(total[1] / max(total[2], 1), 4),
                  "missed": total[0] - total[1], "false": total[2] - total[1], "outlined": total[3]})
    print(json.dumps(report))


if __name__ == "__main__":
    main()
