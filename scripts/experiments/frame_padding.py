"""How the learned detector's padding of a frame to its network's multiple of 32 treats
a card the frame cuts: training-world tables (cards apart, in rows), each cropped to a
random size whose sides are no multiple of the network's, so that the padding lies on
the cut. Per way of padding, per model: of cards the frame cuts that are mostly in view
(`--in`), the share reported; of cards mostly out of view (`--out`), the share
reported; and the reported outlines on no card's centre (false). JSON out. An
experiment's harness; what it found is in models/README.md (the shipped padding stays).

    nice .venv/bin/python scripts/experiments/frame_padding.py models/card_detector.onnx --scenes 40
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from detector_world import TRAIN_FAMILIES, TRAIN_TABLES, world_scene  # noqa: E402
from vision.detect import _working_copy  # noqa: E402
from vision.interfaces import CardDetector  # noqa: E402
from vision.learned_detect import MULTIPLE, JointCardDetector, LearnedCardDetector  # noqa: E402


class GreyPadded(LearnedCardDetector):
    """The frame padded grey (the network's zero) instead of by copies of its edge pixels."""

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        small, scale = _working_copy(image, self.settings.input_size)
        h, w = small.shape[:2]
        ph, pw = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
        padded = cv2.copyMakeBorder(small, 0, ph - h, 0, pw - w, cv2.BORDER_CONSTANT, value=(127.5,) * 3)
        return self._maps_of(padded, (w, h)) + (scale,)

    def _maps_of(self, padded: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The interior and core maps of the network's input `padded`, cropped to `size` (w, h)."""
        logits = self.session.run(None, {"image": padded.astype(np.float32).transpose(2, 0, 1)[None]})[0][0]
        ph, pw = padded.shape[:2]
        up = [cv2.resize(p, (pw, ph), interpolation=cv2.INTER_LINEAR)[:size[1], :size[0]] for p in 1 / (1 + np.exp(-logits))]
        return up[0], up[1]


class Stretched(GreyPadded):
    """No padding: the frame stretched to the nearest multiple of 32 on each side (a few
    per cent at most), so that its border is the network's own, as in training."""

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        small, scale = _working_copy(image, self.settings.input_size)
        h, w = small.shape[:2]
        ph, pw = (max(MULTIPLE, round(side / MULTIPLE) * MULTIPLE) for side in (h, w))
        interior, core = self._maps_of(cv2.resize(small, (pw, ph), interpolation=cv2.INTER_LINEAR), (pw, ph))
        return cv2.resize(interior, (w, h)), cv2.resize(core, (w, h)), scale


DETECTORS: dict[str, Callable[[Path], LearnedCardDetector]] = {
    "replicate (shipped)": LearnedCardDetector, "grey": GreyPadded, "stretch": Stretched}


def crops(scenes: int, seed: str) -> Iterator[tuple[np.ndarray, list[tuple[float, tuple[float, float]]]]]:
    """(frame, [(share of the card in view, centre of what is seen of it)]) per crop."""
    rng = random.Random(seed)
    for _ in range(scenes):
        scene = world_scene(rng, (1280, 720), TRAIN_TABLES, TRAIN_FAMILIES, rng.choice(("apart", "row")), card_px=(100, 260))
        # a crop of odd sides, its longest side kept longest so that the shrink is by it
        w, h = rng.randrange(700, 1100), rng.randrange(500, 700)
        x0, y0 = rng.randrange(0, 1280 - w), rng.randrange(0, 720 - h)
        cards = []
        for card in scene.whole():
            seen = card.visible[y0:y0 + h, x0:x0 + w]
            if not seen.any():
                continue
            share = float(seen.sum()) / float(card.visible.sum())
            y, x = np.argwhere(seen).mean(axis=0)
            cards.append((share, (float(x), float(y))))
        yield np.ascontiguousarray(scene.image[y0:y0 + h, x0:x0 + w]), cards


def measure(detector: CardDetector, frames: list[tuple[np.ndarray, list[tuple[float, tuple[float, float]]]]],
            mostly_in: float, mostly_out: float) -> dict[str, int]:
    counts = {"in": 0, "in_reported": 0, "out": 0, "out_reported": 0, "finds": 0, "false": 0}
    for frame, cards in frames:
        found = detector.detect(frame)
        polys = [d.corners.reshape(-1, 1, 2).astype(np.float32) for d in found]
        hit = [False] * len(found)
        for share, centre in cards:
            on = [i for i, p in enumerate(polys) if cv2.pointPolygonTest(p, centre, False) > 0]
            for i in on:
                hit[i] = True
            kind = "in" if mostly_in <= share < 0.99 else "out" if share <= mostly_out else None
            if kind:
                counts[kind] += 1
                counts[f"{kind}_reported"] += bool(on)
        counts["finds"] += len(found)
        counts["false"] += hit.count(False)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--seed", default="frame-padding:0")
    parser.add_argument("--in", dest="mostly_in", type=float, default=0.85)
    parser.add_argument("--out", dest="mostly_out", type=float, default=0.5)
    parser.add_argument("--joint", action="store_true", help="the joint detector over each (what `companion recognize` runs)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    frames = list(crops(args.scenes, args.seed))
    for model in args.models:
        for name, detector in DETECTORS.items():
            print(json.dumps({"model": str(model), "input": name,
                              **measure(JointCardDetector(detector(model)) if args.joint else detector(model), frames,
                                        args.mostly_in, args.mostly_out)}), flush=True)


if __name__ == "__main__":
    main()
