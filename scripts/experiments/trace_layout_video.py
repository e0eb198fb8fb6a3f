"""Frame by frame, what the live table sees in one layout video of
`scripts/experiments/layout_events.py` (training cloths, its own seeds): the script's
cards (code, centre, area), the detector's finds (sure or doubted), the tracker's cards and
newcomers, why a newcomer is held back (held above the table, inside a held outline,
in a card a held card hides, a part of a card, unlike the table's cards), the network's
last view, and the events. Why a card went wrong is seldom visible in the events alone.

    nice .venv/bin/python scripts/experiments/trace_layout_video.py 9300202 pile --frames 18 34
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scripts.lib.scripted import ScriptedVideo, ScriptFaces, score_events  # noqa: E402
from scripts.experiments.layout_events import tuning_script  # noqa: E402
from vision.detectors import live_detector  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.track import _overlap  # noqa: E402


def _area(corners: np.ndarray) -> int:
    return int(abs(cv2.contourArea(np.asarray(corners, np.float32))))


def _centre(corners: np.ndarray) -> list[int]:
    return np.round(np.asarray(corners).reshape(4, 2).mean(axis=0)).astype(int).tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", type=int, help="a video's seed, as layout_events.py prints it")
    parser.add_argument("layout")
    parser.add_argument("--frames", type=int, nargs=2, default=(0, 10**6), metavar=("FIRST", "LAST"))
    args = parser.parse_args()
    script = tuning_script(args.seed, args.layout)
    video = ScriptedVideo(script)
    pipeline = Pipeline(live_detector(), ScriptFaces(script))
    tracker, update = pipeline.tracker, pipeline.tracker.update  # (an experiment may look inside)
    frame_index = 0

    def traced(detections, timestamp, identify, looks=None, doubted=None, cover=None, looked=None):
        events = update(detections, timestamp, identify, looks, doubted, cover, looked)
        if not args.frames[0] <= frame_index <= args.frames[1]:
            return events
        truth = [(k, card.code, _centre(c), _area(c)) for k, card in enumerate(script.cards)
                 if (c := video.corners(card, frame_index)) is not None]
        print(f"frame {frame_index}: script's cards {truth}")
        for corners, doubt, saw in zip(detections, doubted or [False] * len(detections), looked or [False] * len(detections)):
            print(f"   find {_centre(corners)} area {_area(corners)}{' doubted' if doubt else ''}{' looked' if doubt and saw else ''}")
        s = tracker.settings
        for t in tracker._tracks:
            line = (f"   card {t.id} {_centre(t.corners)} area {_area(t.corners)} hits {t.hits} missed {t.missed} "
                    f"rested {t.rested} {'confirmed ' + str(t.reading.code if t.reading else None) if t.confirmed else ''}")
            if not t.confirmed:
                area = _area(t.corners)
                inside = [held for _, held, outline in tracker._held_at if _overlap(t.corners, outline) >= s.part_of * area]
                hides = [o.id for o in tracker._tracks if o is not t and o.confirmed
                         and _overlap(t.corners, o.corners) >= s.part_of * area and tracker._under_a_held_card(o, t)]
                line += (f" newcomer{' refused' if t.refused else ''}: above the table {tracker._above_the_table(t.corners)},"
                         f" inside held outlines of {inside}, in cards a held card hides {hides},"
                         f" part of a card {tracker._part_of_a_card(t)}, unlike the table {tracker._unlike_the_table(t)}")
            print(line)
        view = getattr(pipeline.detector, "_view", None)
        if view is not None:
            print(f"   network's view: {[(_centre(c.corners), _area(c.corners), round(c.score, 3)) for c in view.cards]}")
        for event in events:
            print(f"   EVENT {event.kind} card {event.track} {event.code} at {_centre(np.array(event.corners))}")
        return events

    tracker.update = traced
    emitted = []
    for frame_index, frame in enumerate(video):
        emitted += [(frame_index, e) for e in pipeline.process(frame, frame_index / script.fps)]
    score = score_events(video, emitted)
    print({key: score[key] for key in ("right", "events", "truth_events")}, "missed", score["missed_events"],
          "wrong", [{k: v for k, v in w.items() if k != "corners"} for w in score["wrong_events"]])


if __name__ == "__main__":
    main()
