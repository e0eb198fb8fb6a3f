"""Quantize the float card detector network to 8 bits (ONNX QDQ, per-channel weights), print JSON.

    .venv/bin/python scripts/quantize_detector.py [--float models/card_detector_float.onnx] [--out models/card_detector.onnx]

Why: the network runs on every frame, beside the contour search; int8 is a quarter of the
size and runs faster on one core, more so on a Raspberry Pi's. Activations are
calibrated on frames of the training world only (scripts/detector_world.py's training
table kinds and families, never a held-out one); the JSON says how far the int8 maps lie
from the float ones on other training-world frames, and how fast each runs on one thread.

Weights and activations are both unsigned (U8U8). With signed weights (U8S8, the usual
recipe) onnxruntime multiplies on x86 processors without VNNI (AVX2 only: most AMD
processors before Zen 4, older Intel) with an instruction whose 16-bit sums saturate,
and this network's first layer takes raw 0-255 pixels: on such a processor the maps of
a real photo lay 0.036 from the float model's on average (0.18 on the worst), 0.81 of
its pixels on the same side of 0.5, and real bridge fans' top cards went from 24 of 29
found to 12. U8U8 never saturates: 0.003 on every processor, at about 1.4 times the
U8S8 time there (7-bit weights, `reduce_range`, also avoid it, at 0.0044).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from detector_world import TRAIN_FAMILIES, TRAIN_TABLES, world_scene  # noqa: E402
from vision.embed import file_sha256  # noqa: E402
from vision.learned_detect import LearnedCardDetector  # noqa: E402


def frames(seed: str, count: int) -> list[np.ndarray]:
    """1280x720 training-world frames, as the network's input sees them (512x288, BGR, NCHW float)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        image = world_scene(rng, (1280, 720), TRAIN_TABLES, TRAIN_FAMILIES, card_px=(60, 400)).image
        small = cv2.resize(image, (512, 288), interpolation=cv2.INTER_AREA)
        out.append(small.astype(np.float32).transpose(2, 0, 1)[None])
    return out


def main() -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--float", dest="source", type=Path, default=Path("models/card_detector_float.onnx"))
    parser.add_argument("--out", type=Path, default=Path("models/card_detector.onnx"))
    parser.add_argument("--calibration", type=int, default=48, help="training-world frames to calibrate on")
    args = parser.parse_args()
    calibration = frames("detector-quantize:calibrate", args.calibration)

    class Frames(CalibrationDataReader):
        def __init__(self) -> None:
            self.frames = iter([{"image": f} for f in calibration])

        def get_next(self) -> dict | None:
            return next(self.frames, None)

    quantize_static(str(args.source), str(args.out), Frames(), quant_format=QuantFormat.QDQ, per_channel=True,
                    weight_type=QuantType.QUInt8, activation_type=QuantType.QUInt8)
    float_net, int8_net = LearnedCardDetector(args.source), LearnedCardDetector(args.out)
    differences, agree, seconds = [], [], {"float": [], "int8": []}
    for frame in frames("detector-quantize:check", 16):
        image = frame[0].transpose(1, 2, 0).astype(np.uint8)
        maps = {}
        for name, net in (("float", float_net), ("int8", int8_net)):
            start = time.process_time()
            maps[name] = net.maps(image)
            seconds[name].append(time.process_time() - start)
        for a, b in zip(maps["float"][:2], maps["int8"][:2]):
            differences.append(float(np.abs(a - b).mean()))
            agree.append(float(((a > 0.5) == (b > 0.5)).mean()))
    print(json.dumps({"out": str(args.out), "sha256": file_sha256(args.out), "bytes": args.out.stat().st_size,
                      "float_bytes": args.source.stat().st_size,
                      "mean_abs_map_difference": round(float(np.mean(differences)), 4),
                      "pixels_on_the_same_side_of_0.5": round(float(np.mean(agree)), 4),
                      "ms_float_median": round(1000 * float(np.median(seconds["float"])), 2),
                      "ms_int8_median": round(1000 * float(np.median(seconds["int8"])), 2)}, indent=1))


if __name__ == "__main__":
    main()
