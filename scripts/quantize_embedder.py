"""Quantize the float card embedder to int8 (ONNX QDQ, per-channel weights), print JSON.

    .venv/bin/python scripts/quantize_embedder.py [--float models/card_embedder_float.onnx] [--out models/card_embedder.onnx]

Why it pays: on one x86 core the int8 model embeds a card in about two thirds of the
float model's time, it is a quarter of the size, and a Raspberry Pi's cores gain more
from int8 than an x86 core does. Activations are calibrated on training-side data
only: `photographed` views of random card-like faces (vision/synth), never a face of
the four games and never an evaluation seed. The JSON says how close the two models'
embeddings are on other such views, and how fast each runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.embed import OnnxEmbedder, file_sha256, preprocess  # noqa: E402
from vision.identify import halved  # noqa: E402
from vision.synth.augment import photographed  # noqa: E402
from vision.synth.faces import random_face  # noqa: E402
from vision.synth.scenes import TRAIN_SEEDS  # noqa: E402

CALIBRATION_CARDS = 256
CHECK_CARDS = 64


def views(seed: int, count: int) -> list[np.ndarray]:
    """Cards as the identifier hands them to the embedder: photographed, then halved."""
    rng = random.Random(seed)
    return halved([photographed(random_face(rng), rng) for _ in range(count)])


def main() -> None:
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--float", dest="source", type=Path, default=Path("models/card_embedder_float.onnx"))
    parser.add_argument("--out", type=Path, default=Path("models/card_embedder.onnx"))
    args = parser.parse_args()
    batch = preprocess(views(TRAIN_SEEDS[7], CALIBRATION_CARDS))

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter([{"card": batch[i:i + 32]} for i in range(0, len(batch), 32)])

        def get_next(self) -> dict | None:
            return next(self.batches, None)

    quantize_static(str(args.source), str(args.out), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                    weight_type=QuantType.QInt8, activation_type=QuantType.QUInt8)
    check = views(TRAIN_SEEDS[8], CHECK_CARDS)
    models = {"float": OnnxEmbedder(args.source), "int8": OnnxEmbedder(args.out)}
    embedded = {name: model.embed(check) for name, model in models.items()}
    cosine = (embedded["float"] * embedded["int8"]).sum(axis=1)
    ms = {}
    for name, model in models.items():
        times = []
        for _ in range(5):
            start = time.process_time()
            model.embed(check)
            times.append((time.process_time() - start) / len(check) * 1000)
        ms[name] = round(float(np.median(times)), 3)
    print(json.dumps({"out": str(args.out), "bytes": args.out.stat().st_size, "sha256": file_sha256(args.out),
                      "float_bytes": args.source.stat().st_size,
                      "cosine_int8_vs_float": {"min": round(float(cosine.min()), 5),
                                               "median": round(float(np.median(cosine)), 5)},
                      "ms_per_card_one_thread": ms}, indent=1))


if __name__ == "__main__":
    main()
