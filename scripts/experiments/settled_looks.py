"""How like the card read there a track looks once it has settled a little off where it
was read: its likeness at the tracker's few cells (`vision/pipeline.py: card_look`) and
at the finer print (`card_print`), how far off it lies (a share of its length), and the
card of the script that truly lies on top there. Where a pile's next card is laid a
little off the card it hides, the track of the hidden card takes its sighting; whether
the looks could tell that it is another card decides whether the tracker must read it
again (`Tracker._put_down_near`). One JSON line per track and place it rested at.

    nice .venv/bin/python scripts/experiments/settled_looks.py pile 9400000 12
    nice .venv/bin/python scripts/experiments/settled_looks.py row,grid,pile,fan 9300000 6
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import numpy as np  # noqa: E402

from scripts.experiments.layout_events import tuning_script  # noqa: E402
from scripts.lib.scripted import ScriptedVideo, ScriptFaces, card_at  # noqa: E402
from vision import track as tracking  # noqa: E402
from vision.detectors import live_detector  # noqa: E402
from vision.pipeline import Pipeline, card_print  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layouts", help="comma-separated, as layout_events.py numbers them")
    parser.add_argument("seed", type=int, help="the first video's seed (layout_events.py --seed)")
    parser.add_argument("videos", type=int, help="videos per layout")
    parser.add_argument("--least-off", type=float, default=0.02, help="the least distance off reported")
    args = parser.parse_args()
    state: dict[str, Any] = {}
    read_prints: dict[int, np.ndarray] = {}
    appeared, put_down_near = tracking.Tracker._appeared, tracking.Tracker._put_down_near

    def on_top(centre: np.ndarray) -> str | None:
        card = card_at(state["video"], centre, state["frame"])
        return None if card is None else state["video"].script.cards[card].code

    def noted_appeared(self, track, reading):  # type: ignore[no-untyped-def]
        events = appeared(self, track, reading)
        if self._cover is not None:
            read_prints[track.id] = card_print(self._cover.now, track.corners)
        return events

    def noted_put_down_near(self, track, identify):  # type: ignore[no-untyped-def]
        if (self._cover is not None and track.id in read_prints and track.read_corners is not None
                and track.seen_look is not None and track.read_look is not None):
            off = float(np.linalg.norm(track.centre - track.read_corners.mean(axis=0)) / track.length)
            key = (track.id, round(off, 2))
            if off > args.least_off and key not in state["told"]:
                state["told"].add(key)
                print(json.dumps({"seed": state["seed"], "frame": state["frame"], "track": track.id,
                                  "read_as": track.reading.code if track.reading else None,
                                  "on_top": on_top(track.centre), "off": round(off, 3),
                                  "look_likeness": round(float(track.seen_look @ track.read_look), 3),
                                  "print_likeness": round(float(card_print(self._cover.now, track.corners)
                                                                @ read_prints[track.id]), 3),
                                  "doubted": track.doubted}), flush=True)
        return put_down_near(self, track, identify)

    tracking.Tracker._appeared = noted_appeared  # type: ignore[method-assign]
    tracking.Tracker._put_down_near = noted_put_down_near  # type: ignore[method-assign]
    for n, layout in enumerate(args.layouts.split(",")):
        for k in range(args.videos):
            seed = args.seed + 100 * n + k
            script = tuning_script(seed, layout)
            video = ScriptedVideo(script)
            pipeline = Pipeline(live_detector(), ScriptFaces(script))
            state.update(seed=seed, video=video, told=set())
            read_prints.clear()
            for i, frame in enumerate(video):
                state["frame"] = i
                pipeline.process(frame, i / script.fps)


if __name__ == "__main__":
    main()
