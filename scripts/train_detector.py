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
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.learned_detect import STRIDE  # noqa: E402

WIDTHS = (16, 24, 48, 64, 96)  # channels at 1/2, 1/4, 1/8, 1/16, 1/32 of the input


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CardMaps(nn.Module):
    """BGR image (0-255, sides a multiple of 32) in; card interior and core logits at 1/4 out."""

    def __init__(self, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        self.widths = tuple(widths)
        a, b, c, d, e = widths
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


def _draw_forever(seed: int, size: int, queue: "mp.Queue[tuple[np.ndarray, np.ndarray]]") -> None:
    """A drawing process: training tiles of its own seed, one after another, into `queue`."""
    import random

    import cv2

    import detector_world

    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    rng = random.Random(f"detector-train:stream:{seed}")
    while True:
        queue.put(detector_world.training_tile(rng, size))


def _group_batch(images: torch.Tensor, truth: torch.Tensor, crop: int, gen: torch.Generator
                 ) -> tuple[torch.Tensor, torch.Tensor]:
    """`_batch` on the device, for tiles already there: each quarter of the batch cut at one
    random place and turned by one random quarter, maybe mirrored."""
    xs, ys = [], []
    side = images.shape[-1]
    for part_x, part_y in zip(images.chunk(4), truth.chunk(4)):
        oy, ox = (int(torch.randint((side - crop) // STRIDE + 1, (1,), generator=gen)) for _ in range(2))
        x = part_x[:, :, oy * STRIDE: oy * STRIDE + crop, ox * STRIDE: ox * STRIDE + crop].float()
        y = part_y[:, :, oy: oy + crop // STRIDE, ox: ox + crop // STRIDE].float() / 255
        k = int(torch.randint(4, (1,), generator=gen))
        x, y = torch.rot90(x, k, (2, 3)), torch.rot90(y, k, (2, 3))
        if int(torch.randint(2, (1,), generator=gen)):
            x, y = x.flip(3), y.flip(3)
        xs.append(x)
        ys.append(y)
    return torch.cat(xs).contiguous(memory_format=torch.channels_last), torch.cat(ys)


def _photometric(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """A batch (0-255) seen through other cameras and lights, per tile: its colour channels
    swapped now and then (tables and cards of colours the world does not draw), a colour
    cast, brightness and gamma, blur and sensor noise."""
    b, dev = x.shape[0], x.device

    def uniform(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return (lo + (hi - lo) * torch.rand(*shape, generator=gen)).to(dev)

    perms = torch.stack([torch.randperm(3, generator=gen) for _ in range(b)])
    keep = torch.rand(b, generator=gen) < 0.7
    perms[keep] = torch.arange(3)
    x = torch.gather(x, 1, perms.to(dev)[:, :, None, None].expand_as(x))
    x = x * uniform(0.8, 1.2, b, 3, 1, 1) * uniform(0.55, 1.25, b, 1, 1, 1)
    x = 255 * (x / 255).clamp(0, 1) ** torch.exp(uniform(-0.35, 0.35, b, 1, 1, 1))
    blurred = F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)
    x = torch.where(uniform(0, 1, b, 1, 1, 1) < 0.3, blurred, x)
    x = x + torch.randn(x.shape, device=dev) * uniform(0, 7, b, 1, 1, 1)  # drawn where the batch is: a CPU draw of it was most of a step
    return x.clamp(0, 255).contiguous(memory_format=torch.channels_last)


def stream(args: argparse.Namespace) -> None:
    """Train one network per `--widths` on the same batches, on an accelerator if there is one,
    from tiles that `--workers` processes keep drawing: a pool of the newest `--pool` tiles
    on the device, each batch drawn from it, so no tile file is written and every minute
    brings scenes never seen. The first `--val` tiles drawn are kept apart to watch the loss."""
    import queue as queues

    ctx = mp.get_context("fork")  # before anything asks for the accelerator: the drawers never use it
    tiles: "mp.Queue[tuple[np.ndarray, np.ndarray]]" = ctx.Queue(maxsize=4 * args.workers + 64)
    workers = [ctx.Process(target=_draw_forever, args=(args.seed * 1000 + i, args.size, tiles), daemon=True)
               for i in range(args.workers)]
    for w in workers:
        w.start()
    device = torch.device(args.device if args.device else ("cuda" if torch.cuda.is_available() else "cpu"))
    torch.manual_seed(args.seed)
    widths = [tuple(int(v) for v in w.split(",")) for w in args.widths]
    from_model = args.init is not None and args.init.suffix == ".onnx"
    if from_model:
        widths = [from_onnx(args.init).widths]
    nets = [(from_onnx(args.init) if from_model else
             load_net(args.init / f"net-{'-'.join(map(str, w))}.pt") if args.init else CardMaps(w))
            .to(device).to(memory_format=torch.channels_last) for w in widths]
    opts = [torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4) for net in nets]
    side, small = args.size, args.size // STRIDE
    pool_x = torch.empty((args.pool, 3, side, side), dtype=torch.uint8, device=device)
    pool_y = torch.empty((args.pool, 3, small, small), dtype=torch.uint8, device=device)
    val_x, val_y, filled, written = [], [], 0, 0

    def take(most: int, block: bool = False) -> int:
        nonlocal filled, written
        got = 0
        while got < most:
            try:
                image, truth = tiles.get(timeout=60) if block else tiles.get_nowait()
            except queues.Empty:
                break
            x = torch.from_numpy(image).permute(2, 0, 1)
            y = torch.from_numpy(truth).permute(2, 0, 1)
            if len(val_x) < args.val:
                val_x.append(x)
                val_y.append(y)
            else:
                pool_x[written % args.pool], pool_y[written % args.pool] = x.to(device), y.to(device)
                written += 1
                filled = min(filled + 1, args.pool)
            got += 1
        return got

    start = time.time()
    while filled < args.warm:
        take(args.warm - filled + args.val, block=True)
    vx = torch.stack(val_x).to(device).float().contiguous(memory_format=torch.channels_last)
    vy = torch.stack(val_y).to(device).float() / 255
    print(f"pool of {filled} tiles in {time.time() - start:.0f}s; training {[sum(p.numel() for p in n.parameters()) for n in nets]} weights on {device}", flush=True)
    gen = torch.Generator().manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    amp = device.type == "cuda"
    begin, step, last_save = time.time(), 0, time.time()
    budget = args.minutes * 60

    def save() -> None:
        for net, w in zip(nets, widths):
            name = f"net-{'-'.join(map(str, w))}" + (f"-step{step}" if args.keep_saves else "")
            torch.save({"widths": list(w), "state": {k: v.cpu() for k, v in net.state_dict().items()}},
                       args.out / f"{name}.pt")

    def report(lr: float) -> None:
        losses = []
        for net in nets:
            net.eval()
            with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                losses.append(float(np.mean([loss_of(net(vx[i:i + 64]).float(), vy[i:i + 64]).item()
                                             for i in range(0, len(vx), 64)])))
        print(f"step {step} {time.time() - begin:.0f}s tiles {written} lr {lr:.5f} val "
              + " ".join(f"{v:.4f}" for v in losses), flush=True)

    report(0.0)  # where the networks start: a network trained on from a model is judged before it moves
    while time.time() - begin < budget:
        frac = (time.time() - begin) / budget
        lr = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + np.cos(np.pi * frac))
        take(args.workers * 4)
        index = torch.randint(filled, (args.batch,), generator=gen).to(device)
        x, y = _group_batch(pool_x[index], pool_y[index], args.crop, gen)
        if args.photometric:
            x = _photometric(x, gen)
        for net, opt in zip(nets, opts):
            for group in opt.param_groups:
                group["lr"] = lr
            net.train()
            if from_model:
                freeze_norms(net)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
                logits = net(x)
            loss = loss_of(logits.float(), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        step += 1
        if step % args.report == 0:
            report(lr)
        if time.time() - last_save > args.save_every:
            save()
            last_save = time.time()
    save()
    print(f"done: {step} steps, {written} tiles drawn, {time.time() - start:.0f}s", flush=True)
    for w in workers:
        w.terminate()


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    images, truth = _load(args.data)
    val = np.arange(len(images))[-args.val:]
    train_ids = np.arange(len(images))[:-args.val]
    net = CardMaps()
    if args.init:
        net = load_net(args.init)
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


def load_net(weights: Path) -> CardMaps:
    """A saved network: `stream`'s checkpoints name their widths; `train`'s are the default's."""
    saved = torch.load(weights, map_location="cpu")
    if "widths" in saved:
        net = CardMaps(tuple(saved["widths"]))
        net.load_state_dict(saved["state"])
    else:
        net = CardMaps()
        net.load_state_dict(saved)
    return net


def from_onnx(model: Path) -> CardMaps:
    """The network an exported float model holds, to train on from where it stands. The export
    folded each BatchNorm into its convolution, so every norm here is the identity on the
    folded weights and must stay frozen (`freeze_norms`): fed batch statistics instead, it
    would no longer be the network it was."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    firsts = [weights[node.input[1]].shape[0] for node in convs[:11]]
    net = CardMaps((firsts[0], firsts[1], firsts[2], firsts[4], firsts[7]))
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    norms = {id(block[0]): block[1] for block in net.modules()
             if isinstance(block, nn.Sequential) and len(block) == 3 and isinstance(block[1], nn.BatchNorm2d)}
    if len(layers) != len(convs):
        raise SystemExit(f"{model}: {len(convs)} convolutions, the network has {len(layers)}")
    with torch.no_grad():
        for layer, node in zip(layers, convs):
            kernel = torch.from_numpy(weights[node.input[1]].copy())
            if kernel.shape != layer.weight.shape:
                raise SystemExit(f"{model}: convolution {node.name} is {tuple(kernel.shape)}, "
                                 f"the network's is {tuple(layer.weight.shape)}")
            layer.weight.copy_(kernel)
            bias = torch.from_numpy(weights[node.input[2]].copy())
            norm = norms.get(id(layer))
            if norm is None:
                layer.bias.copy_(bias)
            else:
                norm.weight.fill_(1)
                norm.bias.copy_(bias)
                norm.running_mean.zero_()
                norm.running_var.fill_(1 - norm.eps)
    return net


def freeze_norms(net: nn.Module) -> None:
    """BatchNorm keeps its running statistics while the rest of `net` trains."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


def export(weights: Path, onnx_path: Path) -> None:
    export_net(load_net(weights), onnx_path)


def export_net(net: CardMaps, onnx_path: Path) -> None:
    net.eval()
    dummy = torch.zeros(1, 3, 288, 512)
    torch.onnx.export(net, dummy, str(onnx_path), input_names=["image"], output_names=["maps"], opset_version=17,
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}}, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("build/detector"))
    parser.add_argument("--out", type=Path, default=Path("build/detector/net.pt"), help="weights (--stream: a folder)")
    parser.add_argument("--init", type=Path, help="weights to start from (--stream: the folder of its checkpoints, or an exported "
                        "float .onnx, trained on with its norms frozen)")
    parser.add_argument("--minutes", type=float, default=25)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--crop", type=int, default=256, help="training crops' side (a multiple of 32)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--val", type=int, default=96, help="tiles kept out of training to watch the loss")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--stream", action="store_true",
                        help="draw tiles while training (no --data), one network per --widths (see `stream`)")
    parser.add_argument("--workers", type=int, default=2, help="--stream: drawing processes")
    parser.add_argument("--size", type=int, default=320, help="--stream: tile side")
    parser.add_argument("--pool", type=int, default=24000, help="--stream: newest tiles kept to draw batches from")
    parser.add_argument("--warm", type=int, default=1500, help="--stream: tiles in the pool before the first step")
    parser.add_argument("--widths", nargs="+", default=[",".join(map(str, WIDTHS))],
                        help="--stream: channels of each network's five levels, e.g. 16,24,48,64,96")
    parser.add_argument("--device", help="--stream: torch device (default: cuda if there is one)")
    parser.add_argument("--photometric", action="store_true", help="--stream: see `_photometric`")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=int, default=500, help="--stream: steps between validation losses")
    parser.add_argument("--save-every", type=float, default=60, help="--stream: seconds between checkpoints")
    parser.add_argument("--keep-saves", action="store_true",
                        help="--stream: every checkpoint under its own step's name, to choose among afterwards")
    parser.add_argument("--export", type=Path, help="weights to export instead of training")
    parser.add_argument("--onnx", type=Path, default=Path("models/card_detector.onnx"))
    args = parser.parse_args()
    if args.export:
        export(args.export, args.onnx)
    elif args.stream:
        stream(args)
    else:
        train(args)


if __name__ == "__main__":
    main()
