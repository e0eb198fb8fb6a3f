"""Tracking, seat zones and the whole per-frame pipeline, measured; prints JSON.

(scripts/bench_vision.py measures detection and identification; this script measures
what issue 7 adds on top.)

- tracking: generated table videos from evaluation seeds (cards put down, slid,
  carried, taken away, hands sweeping over), 1280x720 at 10 fps, through the real
  detectors and tracker: `contour` (the contour search alone, the live table before)
  and `live` (the joint detector as the live table runs it, vision/live_detect.py),
  in the same run. Events are scored against the script: precision, recall, and
  the latency from a card's placement to its "appeared" event (and from when no hand
  covered it any more, `scripts.lib.scripted.score_events`). Codes come from `ScriptFaces`
  (the faces in play), so this part measures tracking, not identification.
- layouts: the same for videos of cards put down one by one into the layouts real
  tables have (`scripts.lib.table_layouts`: a row of touching cards, a grid, a pile of
  cards each on the last, a fan), on the held-out checked and floral cloths of the
  detector world and the project's patterned and wood tables, the four games' faces;
  per layout, event precision and recall, median frame time (detection, tracking and
  the readings it asks for, one thread) and sustained frames per second, contour and
  live in the same run, with how often the live network looked; the joint
  detector run whole on every frame, for what reusing the network's view costs; and
  `live_deck_reader`, the live table as it runs: the live detector with the cards
  named by the product's reader, a deck of the game enrolled from one generated photo
  a face (`scripts.lib.scripted.deck_reader`): how many cards that appeared were named
  right, named wrong, and named wrong at or above the table's bar (recorded without
  a question).
- zones: generated tables with 2-6 unevenly placed seats marked by ArUco seat markers,
  calibrated from the picture; accuracy of the zone of points in front of each seat
  and in the centre. Also the default (frame) zones on evenly spaced seats.
- pipeline: one thread (cv2 and the identifier), a 1280x720 Gargon video through the
  product's own identifiers, each in turn: the printed reader (no enrollment) and an
  enrolled deck (embedding model + close look, enrolled from generated photos of the
  faces in play), through each detector in turn (contour, live, and the joint detector
  run on every frame for reference); median frame time and sustained frames per
  second (frames over the wall time of the whole run, rendering excluded).

Usage: .venv/bin/python scripts/bench_tracking.py [--videos 12] [--layout-videos 4] [--tables 10] [--frames 140]
                                                   [--only tracking,layouts,zones,pipeline]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread everywhere, as the companion package sets it

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

import cv2  # noqa: E402

from vision.detect import ContourCardDetector  # noqa: E402
from vision.detectors import live_detector  # noqa: E402
from vision.interfaces import CardDetector  # noqa: E402
from vision.learned_detect import JointCardDetector  # noqa: E402
from vision.live_detect import LiveJointDetector  # noqa: E402
from vision.embed import OnnxEmbedder  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.interfaces import Identifier  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.printed import PrintedReader  # noqa: E402
from scripts.lib.scripted import (ScriptedVideo, ScriptFaces, TableScript, deck_reader, make_script, score_events,  # noqa: E402
                                  seat_table)
from scripts.lib.table_layouts import LAYOUT_TABLES, LAYOUT_VIDEOS, make_layout_script  # noqa: E402
from vision.synth.faces import GAMES  # noqa: E402
from vision.synth.tables import enrolled_deck  # noqa: E402
from vision.track import TrackerSettings  # noqa: E402
from vision.zones import frame_zones, marker_zones  # noqa: E402

EVAL_SEED = 7_000_000  # scripts/bench_tracking.py only; tests use small seeds
VIDEOS, TABLES, FRAMES = 12, 10, 140  # default sizes of the three parts (bench_vision.py uses them too)
LAYOUT_SEED = EVAL_SEED + 500
LIVE_KINDS = ("contour", "live")  # the live table's detector before and after
PARTS = ("tracking", "layouts", "zones", "pipeline")
EVERY_FRAME = "joint_every_frame"  # for reference: what the network's view reused costs in events and time
DECK_READER = "live_deck_reader"  # the live table as it runs: the live detector, the cards named by an enrolled deck


def live_kind(kind: str) -> CardDetector:
    """A fresh detector for one video: `live` keeps the network's view of one table."""
    return {"contour": ContourCardDetector, "live": live_detector, EVERY_FRAME: JointCardDetector}[kind]()


@dataclass
class VideoRun:
    """One video through one detector's pipeline: its score, frame times and network use."""

    score: dict
    times: list[float]
    network_runs: int = 0


def run_video(kind: str, script: TableScript, video: ScriptedVideo, frames: list) -> VideoRun:
    """The video's frames through a fresh pipeline of `kind`, each frame timed."""
    detector = live_kind(LIVE_KINDS[1] if kind == DECK_READER else kind)
    pipeline = Pipeline(detector, deck_reader(script.game) if kind == DECK_READER else ScriptFaces(script))
    emitted, times = [], []
    for i, frame in enumerate(frames):
        t = time.perf_counter()
        emitted += [(i, e) for e in pipeline.process(frame, i / script.fps)]
        times.append(time.perf_counter() - t)
    runs = detector.network_runs if isinstance(detector, LiveJointDetector) else 0
    return VideoRun(score_events(video, emitted), times, runs)


class Scored:
    """Event scores and frame times of one detector, summed over videos."""

    def __init__(self) -> None:
        self.totals = {"events": 0, "truth_events": 0, "right": 0, "codes_right": 0, "codes_wrong": 0,
                       "codes_wrong_sure": 0, "named_later": 0, "named_later_wrong": 0, "named_later_wrong_sure": 0,
                       "appeared": 0}
        self.latencies: list[float] = []
        self.in_view: list[float] = []
        self.times: list[float] = []
        self.network_runs = 0

    def add(self, run: VideoRun) -> None:
        for key in self.totals:
            self.totals[key] += run.score[key]
        self.latencies += run.score["latencies_s"]
        self.in_view += run.score["in_view_latencies_s"]
        self.times += run.times
        self.network_runs += run.network_runs

    def summary(self) -> dict:
        t = self.totals
        out = {"events": t["events"], "truth_events": t["truth_events"],
               "precision": round(t["right"] / max(t["events"], 1), 4),
               "recall": round(t["right"] / max(t["truth_events"], 1), 4),
               "codes_right_of_appeared": f'{t["codes_right"]}/{t["appeared"]}', "codes_wrong": t["codes_wrong"],
               "codes_wrong_at_the_tables_bar": t["codes_wrong_sure"],
               "named_later_right_wrong_at_the_bar": [t["named_later"], t["named_later_wrong"],
                                                      t["named_later_wrong_sure"]],
               "median_frame_ms": round(1000 * statistics.median(self.times), 1),
               "sustained_fps": round(len(self.times) / sum(self.times), 2)}
        if self.latencies:
            out["latency_s"] = {"from_placement": spread(self.latencies), "from_in_view": spread(self.in_view)}
        if self.network_runs:
            out["network_share_of_frames"] = round(self.network_runs / len(self.times), 3)
        return out


def tracking(videos: int) -> dict:
    scored = {kind: Scored() for kind in LIVE_KINDS}
    per_video = []
    for k in range(videos):
        script = make_script(EVAL_SEED + k)
        video = ScriptedVideo(script)
        frames = [video.frame(i) for i in range(script.frames)]
        row: dict = {"seed": EVAL_SEED + k, "table": script.table}
        for kind, s in scored.items():
            run = run_video(kind, script, video, frames)
            s.add(run)
            row[kind] = [round(run.score["precision"], 4), round(run.score["recall"], 4)]
        per_video.append(row)
    settings = TrackerSettings()
    return {"videos": videos, "fps": 10, "size": [1280, 720],
            "confirm_frames": settings.confirm_frames, "lose_frames": settings.lose_frames,
            **{kind: s.summary() for kind, s in scored.items()},
            "per_video_precision_recall": per_video}


def layouts(per_layout: int) -> dict:
    """Videos of each layout (module docstring), contour and live in turn on the same frames."""
    report: dict = {"videos_per_layout": per_layout, "fps": 10, "size": [1280, 720], "tables": LAYOUT_TABLES}
    kinds = LIVE_KINDS + (EVERY_FRAME, DECK_READER)
    overall = {kind: Scored() for kind in kinds}
    per_video = []
    for n, layout in enumerate(LAYOUT_VIDEOS):
        scored = {kind: Scored() for kind in kinds}
        for k in range(per_layout):
            table, game = LAYOUT_TABLES[k % len(LAYOUT_TABLES)], GAMES[(n + k) % len(GAMES)]
            script = make_layout_script(LAYOUT_SEED + 100 * n + k, layout, table, game)
            video = ScriptedVideo(script)
            frames = [video.frame(i) for i in range(script.frames)]
            row: dict = {"seed": script.seed, "layout": layout, "table": table, "game": game}
            for kind in kinds:
                run = run_video(kind, script, video, frames)
                scored[kind].add(run)
                overall[kind].add(run)
                row[kind] = [round(run.score["precision"], 4), round(run.score["recall"], 4)]
            per_video.append(row)
        report[layout] = {kind: s.summary() for kind, s in scored.items()}
    report["all"] = {kind: s.summary() for kind, s in overall.items()}
    report["per_video_precision_recall"] = per_video
    return report


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
    report: dict = {"frames": len(images), "size": [1280, 720], "threads": 1, "cards_in_play": len(script.cards)}
    for kind in LIVE_KINDS + (EVERY_FRAME,):
        for name, identifier in identifiers.items():
            detector = live_kind(kind)
            pipeline = Pipeline(detector, identifier)
            times, named = [], set()
            start = time.perf_counter()
            for i, image in enumerate(images):
                t = time.perf_counter()
                observations = pipeline.process(image, i / script.fps)
                times.append(time.perf_counter() - t)
                named |= {o.code for o in observations if o.kind == "appeared" and o.code in codes}
            wall = time.perf_counter() - start
            report.setdefault(kind, {})[name] = {
                "median_frame_ms": round(1000 * statistics.median(times), 1),
                "p90_frame_ms": round(1000 * sorted(times)[int(0.9 * len(times))], 1),
                "max_frame_ms": round(1000 * max(times), 1),
                "sustained_fps": round(len(images) / wall, 2),
                "codes_in_play_named": f"{len(named)}/{len(codes)}"}
            if isinstance(detector, LiveJointDetector):
                report[kind][name]["network_share_of_frames"] = round(detector.network_runs / detector.frames, 3)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=VIDEOS)
    parser.add_argument("--layout-videos", type=int, default=len(LAYOUT_TABLES), help="videos per layout")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--frames", type=int, default=FRAMES)
    parser.add_argument("--only", default=",".join(PARTS), help=f"parts to run, of {','.join(PARTS)}")
    args = parser.parse_args()
    parts = {"tracking": lambda: tracking(args.videos), "layouts": lambda: layouts(args.layout_videos),
             "zones": lambda: zones(args.tables), "pipeline": lambda: pipeline_speed(args.frames)}
    print(json.dumps({name: parts[name]() for name in args.only.split(",")}, indent=2))


if __name__ == "__main__":
    main()
