"""Tracking, seat zones and the whole per-frame pipeline, measured; prints JSON.

(scripts/bench_vision.py measures detection and identification; this script measures
what issue 7 adds on top.)

- tracking: generated table videos from evaluation seeds (cards put down, slid,
  carried, taken away, hands sweeping over), 1280x720 at 10 fps, through the real
  detector and tracker. Events are scored against the script: precision, recall, and
  the latency from a card's placement to its "appeared" event (and from when no hand
  covered it any more, `scripts.lib.scripted.score_events`). Codes come from `ScriptFaces`
  (the faces in play), so this part measures tracking, not identification.
- zones: generated tables with 2-6 unevenly placed seats marked by ArUco seat markers,
  calibrated from the picture; accuracy of the zone of points in front of each seat
  and in the centre. Also the default (frame) zones on evenly spaced seats.
- pipeline: one thread (cv2 and the identifier), a 1280x720 Gargon video through the
  product's own identifiers, each in turn: the printed reader (no enrollment) and an
  enrolled deck (embedding model + close look, enrolled from generated photos of the
  faces in play); median frame time and sustained frames per second (frames over the
  wall time of the whole run, rendering excluded).

Usage: .venv/bin/python scripts/bench_tracking.py [--videos 12] [--tables 10] [--frames 140]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread everywhere, as the companion package sets it

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

import cv2  # noqa: E402

from vision.detect import ContourCardDetector  # noqa: E402
from vision.embed import OnnxEmbedder  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.interfaces import Identifier  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.printed import PrintedReader  # noqa: E402
from scripts.lib.scripted import ScriptedVideo, ScriptFaces, make_script, score_events, seat_table  # noqa: E402
from vision.synth.tables import enrolled_deck  # noqa: E402
from vision.track import TrackerSettings  # noqa: E402
from vision.zones import frame_zones, marker_zones  # noqa: E402

EVAL_SEED = 7_000_000  # scripts/bench_tracking.py only; tests use small seeds
VIDEOS, TABLES, FRAMES = 12, 10, 140  # default sizes of the three parts (bench_vision.py uses them too)


def tracking(videos: int) -> dict:
    totals = {"events": 0, "truth_events": 0, "right": 0, "codes_right": 0, "appeared": 0}
    latencies: list[float] = []
    in_view: list[float] = []
    per_video = []
    for k in range(videos):
        script = make_script(EVAL_SEED + k)
        video = ScriptedVideo(script)
        pipeline = Pipeline(ContourCardDetector(), ScriptFaces(script))
        emitted = [(i, e) for i in range(script.frames) for e in pipeline.process(video.frame(i), i / script.fps)]
        score = score_events(video, emitted)
        for key in totals:
            totals[key] += score[key]
        latencies += score["latencies_s"]
        in_view += score["in_view_latencies_s"]
        per_video.append({"seed": EVAL_SEED + k, "table": script.table, "precision": round(score["precision"], 4),
                          "recall": round(score["recall"], 4)})
    settings = TrackerSettings()
    return {"videos": videos, "fps": 10, "size": [1280, 720],
            "confirm_frames": settings.confirm_frames, "lose_frames": settings.lose_frames,
            "events": totals["events"], "truth_events": totals["truth_events"],
            "precision": round(totals["right"] / max(totals["events"], 1), 4),
            "recall": round(totals["right"] / max(totals["truth_events"], 1), 4),
            "latency_s": {"from_placement": spread(latencies), "from_in_view": spread(in_view)},
            "codes_right_of_appeared": f'{totals["codes_right"]}/{totals["appeared"]}',
            "per_video": per_video}


def zones(tables: int) -> dict:
    results = {}
    for seats in range(2, 7):
        right = total = default_right = default_total = 0
        for k in range(tables):
            uneven = seat_table(EVAL_SEED + 100 * seats + k, seats)
            found = marker_zones(uneven.image, seats)
            right += sum(found.zone_of_point(p) == z for p, z in zip(uneven.points, uneven.zones))
            total += len(uneven.points)
            even = seat_table(EVAL_SEED + 100 * seats + k, seats, even=True)
            guess = frame_zones(1280, 720, seats)
            default_right += sum(guess.zone_of_point(p) == z for p, z in zip(even.points, even.zones))
            default_total += len(even.points)
        results[str(seats)] = {"markers_uneven_seats": round(right / total, 4),
                               "frame_default_even_seats": round(default_right / default_total, 4),
                               "points": total}
    return {"tables_per_seat_count": tables, "accuracy": results}


def spread(seconds: list[float]) -> dict:
    ordered = sorted(seconds)
    return {"median": round(statistics.median(ordered), 2), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
            "max": round(ordered[-1], 2), "over_0_5_s": sum(s > 0.5 for s in ordered), "cards": len(ordered)}


def pipeline_speed(frames: int) -> dict:
    cv2.setNumThreads(1)
    script = make_script(EVAL_SEED + 999)
    video = ScriptedVideo(script)
    images = [video.frame(i) for i in range(min(frames, script.frames))]
    codes = sorted({c.code for c in script.cards})
    embedder = OnnxEmbedder(threads=1)
    deck = enrolled_deck("gargon", codes, embedder, random.Random(f"pipeline:{EVAL_SEED}"))
    identifiers: dict[str, Identifier] = {
        "printed_reader": PrintedReader("gargon", threads=1),
        "enrolled_deck": GalleryIdentifier(deck.gallery, embedder)}
    report = {"frames": len(images), "size": [1280, 720], "threads": 1, "cards_in_play": len(script.cards)}
    for name, identifier in identifiers.items():
        pipeline = Pipeline(ContourCardDetector(), identifier)
        times, named = [], set()
        start = time.perf_counter()
        for i, image in enumerate(images):
            t = time.perf_counter()
            observations = pipeline.process(image, i / script.fps)
            times.append(time.perf_counter() - t)
            named |= {o.code for o in observations if o.kind == "appeared" and o.code in codes}
        wall = time.perf_counter() - start
        report[name] = {"median_frame_ms": round(1000 * statistics.median(times), 1),
                        "p90_frame_ms": round(1000 * sorted(times)[int(0.9 * len(times))], 1),
                        "max_frame_ms": round(1000 * max(times), 1),
                        "sustained_fps": round(len(images) / wall, 2),
                        "codes_in_play_named": f"{len(named)}/{len(codes)}"}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=VIDEOS)
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--frames", type=int, default=FRAMES)
    args = parser.parse_args()
    print(json.dumps({"tracking": tracking(args.videos), "zones": zones(args.tables),
                      "pipeline": pipeline_speed(args.frames)}, indent=2))


if __name__ == "__main__":
    main()
