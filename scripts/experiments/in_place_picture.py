"""A picture of a card the detector outlines otherwise, kept where it lay by the tracker
(`vision/track.py: Tracker._in_place`): a frame of a tuning video of
`scripts/experiments/layout_events.py` (training cloths, its own seed) with the
detector's outlines in red and the tracker's cards in green, named, those seen only
where they lay in this frame in yellow.

    nice .venv/bin/python scripts/experiments/in_place_picture.py --out docs/live/in_place_grid.jpg
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

from scripts.lib.scripted import ScriptedVideo, ScriptFaces  # noqa: E402
from scripts.experiments.layout_events import tuning_script  # noqa: E402
from vision.detectors import live_detector, sure_and_doubted  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="grid")
    parser.add_argument("--seed", type=int, default=9_300_100, help="a tuning video (layout_events.py's seeds)")
    parser.add_argument("--frame", type=int, default=27)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    script = tuning_script(args.seed, args.layout)
    video = ScriptedVideo(script)
    pipeline = Pipeline(live_detector(), ScriptFaces(script))
    for i in range(args.frame + 1):
        frame = video.frame(i)
        pipeline.process(frame, i / script.fps)
    out = frame.copy()
    for find in [d for finds in sure_and_doubted(pipeline.detector, frame) for d in finds]:
        cv2.polylines(out, [np.round(find.corners).astype(np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
    for track in pipeline.tracker._tracks:  # (an experiment may look inside)
        if track.confirmed:
            colour = (0, 220, 255) if track.in_place else (0, 200, 0)
            cv2.polylines(out, [np.round(track.corners).astype(np.int32)], True, colour, 3, cv2.LINE_AA)
            name = track.reading.code if track.reading is not None and track.reading.code else "unknown"
            x, y = track.corners.min(axis=0)
            cv2.putText(out, name + (" (where it lay)" if track.in_place else ""), (int(x), int(y) - 8),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), out, [cv2.IMWRITE_JPEG_QUALITY, 88])


if __name__ == "__main__":
    main()
