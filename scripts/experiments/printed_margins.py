"""Named right / named wrong on the printed reader's training sets at a sweep of margins,
with and without the corner-index model; prints JSON.

    nice .venv/bin/python scripts/experiments/printed_margins.py [--corners ONNX] [--scenes 15]

The sets are `scripts/bench_printed.py`'s for the training side only: the project's faces
and the training face families, Gargon and dugtungan, the same scenes (the evaluation
seed) and cards cut by the same detector. The held-out family and fonts are never read
here: `vision/printed.py: MARGINS` is chosen from this output (the least margin that
names no card wrong), and only then is the held-out figure measured, once, by
`bench_printed.py`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for scripts.lib
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripts/, for bench_printed

import cv2  # noqa: E402

from bench_printed import cut_cards, family_faces, project_faces  # noqa: E402
from scripts.lib.families import FAMILIES, TRAINING  # noqa: E402
from vision.printed import CORNER_MODEL, GAMES, PrintedReader  # noqa: E402
from vision.synth.scenes import EVAL_SEED  # noqa: E402

SWEEP = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=15)
    parser.add_argument("--corners", type=Path, default=CORNER_MODEL)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    report: dict = {"scenes_per_set": args.scenes, "corners": str(args.corners)}
    for game in GAMES:
        sets = [project_faces(game)] + [family_faces(game, f) for f in TRAINING]
        seeds = [EVAL_SEED] + [EVAL_SEED + 2 + list(FAMILIES).index(f) for f in TRAINING]
        cards = [card for faces, seed in zip(sets, seeds) for card in cut_cards(seed, args.scenes, faces)[0]]
        for label, corners in (("whole card", None), ("with corners", args.corners)):
            reader = PrintedReader(game, corners=corners)
            sweep = {}
            for margin in SWEEP:
                reader.margin = margin
                codes = [r.code for r in reader.identify_many([card for _, card in cards])]
                sweep[str(margin)] = {"right": sum(c == truth for c, (truth, _) in zip(codes, cards)),
                                      "wrong": sum(c is not None and c != truth for c, (truth, _) in zip(codes, cards))}
            safe = [m for m in SWEEP if sweep[str(m)]["wrong"] == 0]
            report[f"{game}/{label}"] = {"cards": len(cards), "least_margin_naming_none_wrong": safe[0] if safe else None,
                                         "sweep": sweep}
            print(json.dumps({f"{game}/{label}": report[f"{game}/{label}"]}), flush=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
