"""What the host's camera view costs the table: the picture drawn each second, a question's cut-out.

A frame of the demo's generated table (1280x960, `--cards` cards laid) is handed to
`CameraView`; then `picture` (the frame shrunk to 640 px, every card outlined and
labelled, JPEG) and `cut_out` (one card, upright, JPEG) are timed. Medians over
`--runs` runs, in milliseconds, with the JPEG sizes; the ratio says how much of one
second (the page's refresh) the picture takes. Prints JSON.

    .venv/bin/python scripts/bench_camera_view.py [--cards 9] [--runs 50]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from companion.camera_view import CameraView, SeenCard
from vision.observations import CENTRE, Observation
from vision.synth.recording import RecordedTable

CODES = ["blue-circle", "red-square", "biyaya", "green-circle", "yellow-square", "violet-circle",
         "Higante", "Kapre", "Aswang", "Tikbalang", "Sarimaw", "red-circle"]


def timed(work, runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(work())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=9)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    box = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    changes = [Observation("appeared", i, CODES[i % len(CODES)], 0.9, box, CENTRE, 0.0, 0.0)
               for i in range(1, args.cards + 1)]
    film = RecordedTable("bagani", changes, 2)
    for change in changes:
        film.apply(change)
    frame = film.frame()
    view = CameraView()
    view.publish(frame)
    statuses = ("named", "unsure", "unknown")
    cards = [SeenCard(c.track, film.corners(c.track).tolist(), c.code, 0.9, statuses[i % 3])
             for i, c in enumerate(changes) if film.corners(c.track) is not None]
    picture_ms, picture_bytes = timed(lambda: view.picture(cards), args.runs)
    cut_ms, cut_bytes = timed(lambda: view.cut_out([cards[0].corners]), args.runs)
    print(json.dumps({"frame": list(frame.shape[1::-1]), "cards": len(cards), "runs": args.runs,
                      "picture_ms": round(picture_ms, 2), "picture_bytes": picture_bytes,
                      "share_of_each_second": round(picture_ms / 1000, 4),
                      "cut_out_ms": round(cut_ms, 2), "cut_out_bytes": cut_bytes}))


if __name__ == "__main__":
    main()
