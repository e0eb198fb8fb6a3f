"""A picture of cards laid on cards, as the joint detector outlines them with and without
its rule for a find round a card and the card(s) it lies on
(`vision/learned_detect.py: _lies_on_a_card`): frames of tuning videos of
`scripts/experiments/layout_events.py` (training cloths, its own seed), each frame twice,
left without the rule, right with it; sure finds green, doubted ones yellow, the
network's own cards thin blue.

    nice .venv/bin/python scripts/experiments/on_card_picture.py --out docs/detector/on_card_pile_fan.jpg
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

from scripts.lib.scripted import ScriptedVideo  # noqa: E402
from scripts.experiments.layout_events import tuning_script  # noqa: E402
from vision.joint_settings import JointSettings  # noqa: E402
from vision.learned_detect import JointCardDetector  # noqa: E402

FRAMES = (("pile", 9_300_202, 25), ("fan", 9_300_300, 30))  # (layout, tuning video's seed, frame)
SIDE = 360  # pixels of each square panel


def panel(image: np.ndarray, detector: JointCardDetector, cards: np.ndarray, label: str) -> np.ndarray:
    """The frame cropped round `cards` (the script's corners there, (n, 4, 2)), outlined by `detector`."""
    out = image.copy()
    view = detector.network_view(image)
    sure, doubted = detector.sure_and_doubted(image, view)
    for card in view.cards:
        cv2.polylines(out, [np.round(card.corners).astype(np.int32)], True, (255, 120, 0), 1, cv2.LINE_AA)
    for finds, colour in ((doubted, (0, 220, 255)), (sure, (0, 200, 0))):
        for find in finds:
            cv2.polylines(out, [np.round(find.corners).astype(np.int32)], True, colour, 3, cv2.LINE_AA)
    (x0, y0), (x1, y1) = cards.reshape(-1, 2).min(axis=0), cards.reshape(-1, 2).max(axis=0)
    half = int(max(x1 - x0, y1 - y0) * 0.65) + 20
    cx, cy = int((x0 + x1) / 2), int((y0 + y1) / 2)
    padded = cv2.copyMakeBorder(out, half, half, half, half, cv2.BORDER_CONSTANT)
    crop = cv2.resize(padded[cy: cy + 2 * half, cx: cx + 2 * half], (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    cv2.putText(crop, label, (10, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.65, (255, 255, 255), 2, cv2.LINE_AA)
    return crop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    without, with_rule = JointCardDetector(settings=JointSettings(on_card_fill=0.0)), JointCardDetector()
    rows = []
    for layout, seed, frame in FRAMES:
        video = ScriptedVideo(tuning_script(seed, layout))
        image = video.frame(frame)
        cards = np.array([c for card in video.script.cards if (c := video.corners(card, frame)) is not None])
        rows.append(np.hstack([panel(image, without, cards, f"{layout}: before"),
                               panel(image, with_rule, cards, f"{layout}: now")]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 88])


if __name__ == "__main__":
    main()
