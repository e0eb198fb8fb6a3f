"""Where the time of an 8-card 1280x720 frame goes, stage by stage; prints JSON.

    nice -n 10 .venv/bin/python scripts/profile_frame.py [--runs 3] [--photos real]

The frames, deck and recognizer of `bench_vision.py --only speed` (one thread, the
detector `companion recognize` uses unless `--detector` says another). Each
stage's function is wrapped in a counter of this process's CPU time, every frame is
recognised `--runs` times, and each stage is reported in ms a frame (its total over
all runs of all frames, divided by them) with how often it ran a frame. Stages nest
(the detector's parts are inside its searches, the reads inside the second cuts and
the closer look), so the figures are not a partition of the frame. The detector
searches the frame once (the joint detector: the network's maps, its cards, the
contour search, and each contour find judged against the maps), and the contour
search again a crop round each card still unsure after its second cuts whose outline
is not settled (`vision/recognize.py`, the closer look): the two are reported apart.
A wrapper costs a microsecond or two a call, nothing beside these stages.

`--photos real` profiles the four real photos of `bench_vision.py --only real`
instead (decoded as `companion recognize` decodes them, read by its recognizer with
the one-shot gallery), where the speed bar is a ratio to the pHash recipe.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread everywhere, as the companion package sets it

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_vision, whose speed frames these are

import cv2  # noqa: E402

from bench_vision import REAL, one_shot_enrollment, speed_frames  # noqa: E402
from vision import cardness, detect, embed, identify, learned_detect, overlap, print_check, printed, recognize  # noqa: E402
from vision.detectors import DETECTOR_KINDS, card_detector  # noqa: E402
from vision.embed import DEFAULT_MODEL, OnnxEmbedder  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.imageio import DECODE_MIN_SIDE, decode  # noqa: E402
from scripts.lib.evaluate import real_photo_truth  # noqa: E402

# (stage, object holding the function, its name); detection stages get " (frame)" or
# " (closer look)" after their name, by whether the closer look is running
STAGES = (
    ("frame", recognize.CardRecognizer, "recognize"),
    ("detection", learned_detect.JointCardDetector, "sure_and_doubted"),
    ("detection: network", learned_detect.LearnedCardDetector, "maps"),
    ("detection: network's cards", learned_detect.LearnedCardDetector, "cards_of_maps"),
    ("detection: contour finds judged", learned_detect.JointCardDetector, "_verdict"),
    ("detection: contour search", detect.ContourCardDetector, "detect"),
    ("detection: contour candidates", detect.ContourCardDetector, "_candidates"),
    ("detection: colour change", detect, "_colour_change"),
    ("detection: edge and colour maps", detect.ContourCardDetector, "_maps"),
    ("detection: plain table's colour", detect, "_off_plain_table"),
    ("detection: regions of the maps", detect.ContourCardDetector, "_from_map"),
    ("detection: card check's cut-outs", cardness, "_cutouts"),
    ("detection: straight-edge search", overlap.OverlapFinder, "find"),
    ("detection: card check", cardness.CardVerifier, "cards"),
    ("detection: one outline per card", detect, "_suppress"),
    ("edge fit", recognize, "refine_quads"),
    ("cutting out", detect.CardCutter, "__call__"),
    ("reads checked by print", print_check.PrintChecked, "identify_many"),
    ("reads checked by print: printed reader", printed.PrintedReader, "_weighed"),
    ("reads", identify.GalleryIdentifier, "identify_many"),
    ("reads: embedding", embed.OnnxEmbedder, "embed"),
    ("reads: templates", identify, "templates"),
    ("reads: detail images", identify, "details"),
    ("reads: colour cells", identify, "colour_cells"),
    ("reads: close look", identify.Gallery, "ranked"),
    ("reads: alignment", identify, "align"),
    ("reads: print check", identify, "consistency"),
    ("second cuts", recognize.CardRecognizer, "_cut_again"),
    ("settled outlines", recognize, "_settled"),
    ("whole-card reads", recognize.CardRecognizer, "_whole_cards"),
    ("closer look", recognize.CardRecognizer, "_look_closer"),
)


class Counters:
    """CPU seconds and calls per stage, with the stage functions wrapped to count them."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.closer = False  # the closer look is running: detection is of a crop
        for stage, owner, name in STAGES:
            setattr(owner, name, self._counted(stage, getattr(owner, name)))

    def _counted(self, stage: str, function):
        def counted(*args, **kwargs):
            label = stage + (" (closer look)" if self.closer else " (frame)") if stage.startswith("detection") else stage
            closer, self.closer = self.closer, self.closer or stage == "closer look"
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[label] += time.process_time() - start
                self.calls[label] += 1
                self.closer = closer
        return counted

    def clear(self) -> None:
        self.seconds.clear()
        self.calls.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="times each frame is recognised")
    parser.add_argument("--detector", choices=DETECTOR_KINDS, default="joint")
    parser.add_argument("--photos", choices=("speed", "real"), default="speed",
                        help="the 8-card speed frames, or the real photos' four")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    embedder = OnnxEmbedder(DEFAULT_MODEL, threads=1)
    if args.photos == "real":
        identifier = GalleryIdentifier(one_shot_enrollment().profile(embedder).gallery, embedder)
        frames = [decode((REAL / photo).read_bytes(), DECODE_MIN_SIDE)[0] for photo in real_photo_truth(REAL)]
    else:
        frames, identifier = speed_frames(embedder)
    recognizer = recognize.CardRecognizer(card_detector(args.detector), identifier)
    counters = Counters()
    for frame in frames:  # every shot's alignment model is built on first use: not a frame's cost
        recognizer.recognize(frame)
    counters.clear()
    for _ in range(args.runs):
        for frame in frames:
            recognizer.recognize(frame)
    runs = args.runs * len(frames)
    order = sorted(counters.seconds, key=lambda label: -counters.seconds[label])
    print(json.dumps({"photos": args.photos, "frames": len(frames), "runs": args.runs, "threads": 1, "detector": args.detector,
                      "load_average": os.getloadavg(),
                      "timing": "CPU ms a frame, each stage's total over every run of every frame",
                      "ms_per_frame": {label: round(counters.seconds[label] * 1000 / runs, 2) for label in order},
                      "calls_per_frame": {label: round(counters.calls[label] / runs, 2) for label in order}}, indent=1))


if __name__ == "__main__":
    main()
