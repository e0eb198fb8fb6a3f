"""Why the live table's events go wrong on the layouts real tables have: each wrong
event (where it lay, which card, if any, was under it) and each missed one, per video,
how many of the cards that appeared were named right and wrong,
with a picture of the frame of each wrong event (the event's outline red, the script's
cards green).

Videos are `scripts/lib/table_layouts.py`'s, but on the detector world's *training*
cloths and from a seed of their own, so that a tracker rule is chosen away from the
benchmark's videos (`bench_tracking.py --only layouts`: held-out cloths, its own seed)
and then measured there once.

    nice .venv/bin/python scripts/experiments/layout_events.py --videos 6 --pictures build/layout-events
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scripts.detector_world import TRAIN_TABLES  # noqa: E402
from scripts.lib.scripted import ScriptedVideo, ScriptFaces, TableScript, deck_reader, score_events  # noqa: E402
from scripts.lib.table_layouts import LAYOUT_VIDEOS, make_layout_script  # noqa: E402
from vision.detectors import live_detector  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.synth.faces import GAMES  # noqa: E402

TUNE_SEED = 9_300_000
COUNTED = ("right", "events", "truth_events", "codes_right", "codes_right_unsure", "appeared", "codes_wrong", "codes_wrong_sure",
           "named_later", "named_later_wrong", "named_later_wrong_sure")


def tuning_script(seed: int, layout: str) -> TableScript:
    """A tuning video's script: the layout, on a training cloth and of a game both drawn
    from its seed (the experiments that draw or trace a video of this script use it too)."""
    rng = random.Random(seed)
    return make_layout_script(seed, layout, rng.choice(TRAIN_TABLES), rng.choice(GAMES))


def picture(video: ScriptedVideo, wrong: dict, path: Path) -> None:
    image = video.frame(wrong["frame"])
    for card in video.script.cards:
        corners = video.corners(card, wrong["frame"])
        if corners is not None:
            cv2.polylines(image, [np.round(corners).astype(np.int32)], True, (0, 200, 0), 2)
    cv2.polylines(image, [np.round(np.array(wrong["corners"])).astype(np.int32)], True, (0, 0, 255), 3)
    cv2.imwrite(str(path), cv2.resize(image, (960, 540)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=6, help="videos per layout")
    parser.add_argument("--layouts", default=",".join(LAYOUT_VIDEOS))
    parser.add_argument("--seed", type=int, default=TUNE_SEED)
    parser.add_argument("--pictures", type=Path)
    parser.add_argument("--reader", choices=("script", "deck"), default="script",
                        help="name cards by the script's faces (the tracking benchmark's stand-in) or by the "
                             "product's reader (scripts.lib.scripted.deck_reader)")
    args = parser.parse_args()
    if args.pictures:
        args.pictures.mkdir(parents=True, exist_ok=True)
    totals: dict[str, Counter] = {}
    for n, layout in enumerate(args.layouts.split(",")):
        for k in range(args.videos):
            seed = args.seed + 100 * n + k
            script = tuning_script(seed, layout)
            video = ScriptedVideo(script)
            pipeline = Pipeline(live_detector(), ScriptFaces(script) if args.reader == "script" else
                                deck_reader(script.game))
            emitted = [(i, e) for i, frame in enumerate(video) for e in pipeline.process(frame, i / script.fps)]
            score = score_events(video, emitted)
            totals.setdefault(layout, Counter()).update({key: score[key] for key in COUNTED})
            for j, wrong in enumerate(score["wrong_events"]):
                if args.pictures:
                    picture(video, wrong, args.pictures / f"{layout}-{seed}-{j}.jpg")
                wrong.pop("corners")
            print(json.dumps({"layout": layout, "seed": seed, "table": script.table, "game": script.game,
                              "right": score["right"], "events": score["events"], "truth": score["truth_events"],
                              "codes_right": score["codes_right"], "codes_right_unsure": score["codes_right_unsure"],
                              "codes_wrong": score["codes_wrong"],
                              "named_later": score["named_later"], "named_later_wrong": score["named_later_wrong"],
                              "appeared": score["appeared"],
                              "covered": sorted(video.covered_cards()),
                              "wrong": score["wrong_events"], "missed": score["missed_events"]}), flush=True)
    print(json.dumps({layout: {"precision": round(t["right"] / max(t["events"], 1), 3),
                               "recall": round(t["right"] / max(t["truth_events"], 1), 3),
                               "codes_right_of_appeared": f"{t['codes_right']}/{t['appeared']}",
                               "codes_right_under_the_tables_bar": t["codes_right_unsure"],
                               "codes_wrong": t["codes_wrong"], "codes_wrong_at_the_tables_bar": t["codes_wrong_sure"],
                               "named_later_right_wrong_at_the_bar": [t["named_later"], t["named_later_wrong"],
                                                                      t["named_later_wrong_sure"]]}
                      for layout, t in totals.items()}))


if __name__ == "__main__":
    main()
