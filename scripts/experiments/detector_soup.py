"""Average two float detector networks weight by weight (WiSE-FT: Wortsman et al., 2022,
"Robust fine-tuning of zero-shot models") and export the average as a float ONNX model,
for scripts/quantize_detector.py and scripts/experiments/learned_eval.py. Why: a network
trained on from the shipped one (`train_detector.py --stream --init MODEL.onnx`, its
norms frozen, so the two share every norm's statistics and lie in one basin) learns the
generated world better and can forget what only the shipped weights held of real
photos; the average of the two keeps much of both. An experiment, not a shipped step.

The tuned network may be a checkpoint (`.pt`, its norms' scales apart from its
convolutions) or an exported model (`.onnx`, each norm folded into its convolution):
the two average differently (the product of averages, or the average of products), and
models/README.md measures both.

    .venv/bin/python scripts/experiments/detector_soup.py models/card_detector_float.onnx \
        models/card_detector_tuned.pt --share 0.5 --out build/soup.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from train_detector import CardMaps, export_net, from_onnx, load_net  # noqa: E402


def network(path: Path) -> CardMaps:
    return from_onnx(path) if path.suffix == ".onnx" else load_net(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("start", type=Path, help="the float model trained on from")
    parser.add_argument("tuned", type=Path, help="the network it became: a checkpoint or a float model")
    parser.add_argument("--share", type=float, default=0.5, help="the tuned model's share of each weight")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start, tuned = from_onnx(args.start), network(args.tuned)
    if start.widths != tuned.widths:
        raise SystemExit(f"{args.start} is {start.widths} wide, {args.tuned} {tuned.widths}")
    ours, theirs = start.state_dict(), tuned.state_dict()
    with torch.no_grad():
        start.load_state_dict({k: v * (1 - args.share) + theirs[k] * args.share if v.is_floating_point() else v
                               for k, v in ours.items()})
    export_net(start, args.out)


if __name__ == "__main__":
    main()
