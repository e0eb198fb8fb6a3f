"""Train the learned card detector on tiles of scripts/detector_world.py; export it to ONNX
(training only; needs torch, which is never a run-time dependency).

Why this network: a card is found from two maps at a quarter of the input's size, the
card's interior (its visible pixels) and its core (its outline shrunk about its centre
to CORE): cores of cards that touch edge to edge, or lie one on another, stay apart
where interiors merge, so each core is one card, and the interior around it gives its
outline (vision/learned_detect.py). A plain encoder-decoder from scratch (five
stride-2 levels so that a core sees a whole 170-pixel card, the decoder adding each
level's skip) trains on two shared CPU cores in tens of minutes; an ImageNet backbone
costs more per frame than the whole budget of detection.

    nice .venv/bin/python scripts/train_detector.py --data build/detector --minutes 25 --out build/detector/net.pt
    nice .venv/bin/python scripts/train_detector.py --export build/detector/net.pt --onnx models/card_detector.onnx
"""

from __future__ import annotations

import argparse
import glob
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from learned_detector import STRIDE  # noqa: E402

WIDTHS = (16, 24, 48, 64, 96)  # channels at 1/2, 1/4, 1/8, 1/16, 1/32 of the input


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CardMaps(nn.Module):
    """BGR image (0-255, sides a multiple of 32) in; card interior and core logits at 1/4 out."""

    def __init__(self) -> None:
        super().__init__()
        a, b, c, d, e = WIDTHS
        self.s2 = _block(3, a, 2)
        self.s4 = _block(a, b, 2)
        self.s8 = nn.Sequential(_block(b, c, 2), _block(c, c))
        self.s16 = nn.Sequential(_block(c, d, 2), _block(d, d), _block(d, d, dilation=2))
        self.s32 = nn.Sequential(_block(d, e, 2), _block(e, e))
        self.up16 = nn.Conv2d(e, d, 1)
        self.dec16 = _block(d, d)
        self.up8 = nn.Conv2d(d, c, 1)
        self.dec8 = _block(c, c)
        self.up4 = nn.Conv2d(c, b, 1)
        self.dec4 = _block(b, b)
        self.head = nn.Conv2d(b, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * (1 / 127.5) - 1
        x4 = self.s4(self.s2(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        y = self.dec16(x16 + F.interpolate(self.up16(x32), scale_factor=2.0, mode="bilinear", align_corners=False))
        y = self.dec8(x8 + F.interpolate(self.up8(y), scale_factor=2.0, mode="bilinear", align_corners=False))
        y = self.dec4(x4 + F.interpolate(self.up4(y), scale_factor=2.0, mode="bilinear", align_corners=False))
        return self.head(y)


def _load(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    parts = [np.load(f) for f in sorted(glob.glob(str(folder / "tiles-*.npz")))]
    return (np.concatenate([p["images"] for p in parts]), np.concatenate([p["truth"] for p in parts]))


def _batch(images: np.ndarray, truth: np.ndarray, index: np.ndarray, rng: np.random.Generator, crop: int = 0):
    """Tiles `index`, cut to `crop` pixels square at one random place (a multiple of
    STRIDE; 0: whole), turned by a random quarter and maybe mirrored (image and truth alike)."""
    images, truth = images[index], truth[index]
    if crop:
        oy, ox = (int(rng.integers((images.shape[1] - crop) // STRIDE + 1)) for _ in range(2))
        images = images[:, oy * STRIDE: oy * STRIDE + crop, ox * STRIDE: ox * STRIDE + crop]
        truth = truth[:, oy: oy + crop // STRIDE, ox: ox + crop // STRIDE]
    x = torch.from_numpy(images.astype(np.float32)).permute(0, 3, 1, 2)
    y = torch.from_numpy(truth.astype(np.float32) / 255).permute(0, 3, 1, 2)
    k = int(rng.integers(4))
    x, y = torch.rot90(x, k, (2, 3)), torch.rot90(y, k, (2, 3))
    if rng.random() < 0.5:
        x, y = x.flip(3), y.flip(3)
    return x.contiguous(), y.contiguous()


def loss_of(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Weighted cross-entropy of both maps (a card neither whole nor hidden weighs 0), plus a
    soft Dice term on the core, whose pixels are few."""
    weight = y[:, 2:3]
    bce = F.binary_cross_entropy_with_logits(logits, y[:, :2], weight=weight.expand(-1, 2, -1, -1), reduction="sum")
    bce = bce / weight.sum().clamp(min=1)
    core = torch.sigmoid(logits[:, 1:2]) * weight
    dice = 1 - (2 * (core * y[:, 1:2]).sum() + 1) / (core.sum() + (y[:, 1:2] * weight).sum() + 1)
    return bce + dice


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    images, truth = _load(args.data)
    val = np.arange(len(images))[-args.val:]
    train_ids = np.arange(len(images))[:-args.val]
    net = CardMaps()
    if args.init:
        net.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    rng = np.random.default_rng(0)
    start, step = time.time(), 0
    budget = args.minutes * 60
    while time.time() - start < budget:
        frac = (time.time() - start) / budget
        for group in opt.param_groups:
            group["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * frac))
        net.train()
        x, y = _batch(images, truth, rng.choice(train_ids, args.batch, replace=False), rng, args.crop)
        loss = loss_of(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 100 == 0:
            net.eval()
            with torch.no_grad():
                vl = float(np.mean([loss_of(net(xv), yv).item() for xv, yv in
                                    (_batch(images, truth, val[i:i + 16], np.random.default_rng(i)) for i in range(0, len(val), 16))]))
            print(f"step {step} {time.time() - start:.0f}s lr {opt.param_groups[0]['lr']:.5f} loss {loss.item():.4f} val {vl:.4f}", flush=True)
            torch.save(net.state_dict(), args.out)
    torch.save(net.state_dict(), args.out)


def export(weights: Path, onnx_path: Path) -> None:
    net = CardMaps()
    net.load_state_dict(torch.load(weights))
    net.eval()
    dummy = torch.zeros(1, 3, 288, 512)
    torch.onnx.export(net, dummy, str(onnx_path), input_names=["image"], output_names=["maps"], opset_version=17,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}}, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("build/detector"))
    parser.add_argument("--out", type=Path, default=Path("build/detector/net.pt"))
    parser.add_argument("--init", type=Path)
    parser.add_argument("--minutes", type=float, default=25)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--crop", type=int, default=256, help="training crops' side (a multiple of 32)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--val", type=int, default=96, help="tiles kept out of training to watch the loss")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--export", type=Path, help="weights to export instead of training")
    parser.add_argument("--onnx", type=Path, default=Path("models/card_detector.onnx"))
    args = parser.parse_args()
    if args.export:
        export(args.export, args.onnx)
    else:
        train(args)


if __name__ == "__main__":
    main()
