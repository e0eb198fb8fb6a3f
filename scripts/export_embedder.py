"""Export a trained card embedder to ONNX (float32), check it against torch, print JSON.

    .venv/bin/python scripts/export_embedder.py --checkpoint build/card_embedder.pt --out models/card_embedder_float.onnx

The float model is kept in models/ as the input of scripts/quantize_embedder.py, which
makes the int8 model that ships (models/card_embedder.onnx; see the model card).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_embedder import CardEmbedder  # noqa: E402
from vision.embed import INPUT_SIZE, OnnxEmbedder, file_sha256, preprocess  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, default=Path("build/card_embedder.pt"))
    parser.add_argument("--out", type=Path, default=Path("models/card_embedder_float.onnx"))
    args = parser.parse_args()
    saved = torch.load(args.checkpoint, map_location="cpu", weights_only=False)  # our own checkpoint
    model = CardEmbedder()
    model.load_state_dict(saved["state_dict"])
    model.eval()
    w, h = INPUT_SIZE
    example = torch.zeros(1, 3, h, w)
    torch.onnx.export(model, (example,), str(args.out), input_names=["card"], output_names=["embedding"],
                      dynamic_axes={"card": {0: "n"}, "embedding": {0: "n"}}, opset_version=17, dynamo=False)
    probe = np.random.default_rng(0).integers(0, 255, (4, h * 3, w * 3, 3), dtype=np.uint8)
    with torch.no_grad():
        reference = torch.nn.functional.normalize(model(torch.from_numpy(preprocess(list(probe)))), dim=1).numpy()
    exported = OnnxEmbedder(args.out).embed(list(probe))
    print(json.dumps({"out": str(args.out), "bytes": args.out.stat().st_size, "sha256": file_sha256(args.out),
                      "max_abs_diff_vs_torch": float(np.abs(reference - exported).max()),
                      "trained": saved["args"], "steps_done": saved.get("steps_done"),
                      "train_seconds": saved["seconds"]}, indent=1, default=str))


if __name__ == "__main__":
    main()
