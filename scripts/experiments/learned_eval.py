"""Measure learned detector models (scripts/train_detector.py exports) on the training
world (what settings may be chosen on), the held-out world and realphotos-dev, alone and
added to the contour detector; JSON out. An experiment's harness, not a benchmark of
record (scripts/bench_vision.py is).

    nice .venv/bin/python scripts/experiments/learned_eval.py build/gpu1/det-*.onnx --scenes 10
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from bench_vision import realdev, world_layouts  # noqa: E402
from learned_detector import ContourPlusLearned, LearnedSnappedToContours  # noqa: E402
from vision.detect import ContourCardDetector, ContourDetectorSettings  # noqa: E402
from vision.learned_detect import JointCardDetector, JointSettings, LearnedCardDetector, LearnedDetectorSettings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--scenes", type=int, default=10, help="scenes per layout")
    parser.add_argument("--parts", default="train,heldout,realdev")
    parser.add_argument("--systems", default="learned",
                        help="of learned, contour_plus_learned (added to the contour detector), snapped (outlines from contours)")
    parser.add_argument("--min-iou", type=float, default=0.7, help="snapped: least IoU of a contour outline taken")
    parser.add_argument("--settings", default="{}", help="JSON of LearnedDetectorSettings fields")
    parser.add_argument("--joint", default="{}", help="JSON of JointSettings fields")
    parser.add_argument("--overlaps", action="store_true", help="joint: the contour detector with its straight-edge search")
    args = parser.parse_args()
    parts = args.parts.split(",")
    for model in args.models:
        learned = LearnedCardDetector(model, LearnedDetectorSettings(**json.loads(args.settings)))
        systems = {"learned": learned, "contour_plus_learned": ContourPlusLearned(learned),
                   "snapped": LearnedSnappedToContours(learned, min_iou=args.min_iou),
                   "joint": JointCardDetector(learned, ContourCardDetector(ContourDetectorSettings(overlaps=args.overlaps)),
                                              JointSettings(**json.loads(args.joint)))}
        for name in args.systems.split(","):
            detector = systems[name]
            report: dict = {"model": str(model), "system": name, "joint": args.joint, "overlaps": args.overlaps}
            if "train" in parts:
                report["train_world"] = world_layouts(detector, args.scenes, held_out=False)
            if "heldout" in parts:
                report["held_out_world"] = world_layouts(detector, args.scenes)
            if "realdev" in parts:
                report["realdev"] = realdev(detector)
            print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
