"""What the live table names on a layout video: the video's last frame twice, each card
it reported outlined where the tracker holds it, with the name it was reported with
("?" for an unknown card), left as the table read a new card before (its outline as
found, read once) and right as it reads one now (as a photo's card, vision/pipeline.py).

    nice .venv/bin/python scripts/experiments/live_names_picture.py grid 9300100 docs/live/lagim_grid_names.jpg

The layout and seed are `scripts/experiments/layout_events.py`'s (training cloths, its
own seeds): the benchmark's videos are not drawn from.
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

from scripts.lib.scripted import ScriptedVideo, deck_reader  # noqa: E402
from scripts.experiments.layout_events import tuning_script  # noqa: E402
from vision.detectors import live_detector  # noqa: E402
from vision.interfaces import Identifier, Reading  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402


class OneCardReader:
    """The deck's reader as a reader of one card at a time: the live table's reading
    of a new card before, its outline as found, read once."""

    def __init__(self, identifier: Identifier) -> None:
        self.identifier = identifier

    def identify(self, card: np.ndarray) -> Reading:
        return self.identifier.identify(card)


def reported(video: ScriptedVideo, identifier: Identifier) -> dict[int, tuple[np.ndarray, str]]:
    """Track -> (corners, name) of every card on the table at the video's end."""
    pipeline = Pipeline(live_detector(), identifier)
    cards: dict[int, tuple[np.ndarray, str]] = {}
    for i, frame in enumerate(video):
        for event in pipeline.process(frame, i / video.script.fps):
            if event.kind == "gone":
                cards.pop(event.track, None)
            else:
                cards[event.track] = (np.array(event.corners), event.code or "?")
    return cards


def drawn(image: np.ndarray, cards: dict[int, tuple[np.ndarray, str]]) -> np.ndarray:
    out = image.copy()
    for corners, name in cards.values():
        colour = (0, 0, 230) if name == "?" else (0, 170, 0)
        cv2.polylines(out, [np.round(corners).astype(np.int32)], True, colour, 4)
        (w, h), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
        x, y = np.round(corners.mean(axis=0) - (w / 2, -h / 2)).astype(int)
        for thickness, ink in ((7, (255, 255, 255)), (2, colour)):
            cv2.putText(out, name, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, ink, thickness)
    return out


def titled(image: np.ndarray, title: str) -> np.ndarray:
    out = np.vstack([np.full((64, image.shape[1], 3), 255, np.uint8), image])
    cv2.putText(out, title, (16, 46), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layout")
    parser.add_argument("seed", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    script = tuning_script(args.seed, args.layout)
    video = ScriptedVideo(script)
    last = video.frame(script.frames - 1)
    reader = deck_reader(script.game)
    panels = [drawn(last, reported(video, OneCardReader(reader))), drawn(last, reported(video, reader))]
    lying = np.concatenate([q for c in script.cards if (q := video.corners(c, script.frames - 1)) is not None])
    (x0, y0), (x1, y1) = lying.min(axis=0).astype(int) - 120, lying.max(axis=0).astype(int) + 120  # the cards and a margin
    crops = [titled(p[max(0, y0):y1, max(0, x0):x1], title)
             for p, title in zip(panels, ("before: read as outlined", "now: as a photo's card"))]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), np.hstack(crops), [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    main()
