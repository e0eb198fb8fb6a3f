"""Train the card embedder with metric learning on random card-like faces (train only; needs torch).

Why this recipe: ImageNet features rank cards but cannot tell a known card from an
unknown one, because nothing taught them that two photos of one face are closer than
two faces that merely look alike. Here every class is one random face, two
`photographed` views of it are a positive pair, and every other face in the batch is
a negative (supervised contrastive loss). Faces come in families that share a layout
and differ only in a printed word (numbers, syllables, Roman numerals) and/or colour,
and whole families go into a batch, so the network learns that colour and printed
text decide identity (red-14 is not blue-14, BA is not BI).
No face of the four games is used: they are the evaluation.

    nice -n 10 .venv/bin/python scripts/train_embedder.py --steps 400 --classes 48 --faces 1600 --out build/a.pt
    nice -n 10 .venv/bin/python scripts/train_embedder.py --init build/a.pt --lr 1e-3 --steps 300 --out build/b.pt
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
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.embed import INPUT_SIZE, preprocess  # noqa: E402
from vision.interfaces import CARD_SIZE  # noqa: E402
from vision.synth.augment import photographed  # noqa: E402
from vision.synth.faces import _text, random_face  # noqa: E402
from vision.synth.scenes import TRAIN_SEEDS  # noqa: E402

EMBED_DIM = 128
VIEW_SIZE = (84, 118)  # views are drawn a little above the input size, as real crops are


class CardEmbedder(nn.Module):
    """Five strided conv blocks, then a linear layer over the remaining 5x4 grid.

    The grid is flattened rather than pooled: where things sit on a card (the value in
    the centre, the index in a corner) is part of its identity.
    """

    def __init__(self, dim: int = EMBED_DIM) -> None:
        super().__init__()
        chans = [3, 24, 48, 64, 96]
        layers: list[nn.Module] = []
        for cin, cout in zip(chans, chans[1:]):
            layers += [nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                       nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        self.features = nn.Sequential(*layers)
        w, h = INPUT_SIZE
        self.head = nn.Linear(chans[-1] * ((h + 15) // 16) * ((w + 15) // 16), dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).flatten(1))


def hue_shifted(face: np.ndarray, shift: int) -> np.ndarray:
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + shift) % 180
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


SYLLABLES = [c + v for c in ("", "B", "K", "D", "G", "H", "L", "M", "N", "NG", "P", "R", "S", "T", "W", "Y")
             for v in ("A", "I", "O", "U", "E")]
WORDS = [str(n) for n in range(16)] + SYLLABLES + ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def family(rng: random.Random) -> list[np.ndarray]:
    """Faces that share everything but what identifies them, as a real deck's cards do:
    one layout with different printed words, and/or in different colours. A random
    face alone is a family of one."""
    base = random_face(rng)
    kind = rng.random()
    if kind < 0.35:
        return [base]
    colours = [0] if kind < 0.7 else rng.sample(range(0, 180, 30), rng.randint(2, 4))
    words = rng.sample(WORDS, rng.randint(2, 5)) if kind < 0.85 or len(colours) == 1 else [None]
    ink = tuple(rng.randint(0, 255) for _ in range(3))
    centre, height = (rng.randint(130, 230), rng.randint(180, 330)), rng.randint(60, 130)
    faces = []
    for word in words:
        face = base.copy()
        if word is not None:
            _text(face, word, centre, height, ink, rng.randint(4, 12), max_width=280)
            if rng.random() < 0.5:
                _text(face, word, (60, 56), 34, ink, 3, max_width=80)
        faces += [hue_shifted(face, shift) if shift else face for shift in colours]
    return faces


def face_pool(rng: random.Random, count: int) -> list[list[np.ndarray]]:
    """Families of faces at the rectified size, about `count` faces in all."""
    pool: list[list[np.ndarray]] = []
    while sum(map(len, pool)) < count:
        pool.append([cv2.resize(f, CARD_SIZE, interpolation=cv2.INTER_AREA) for f in family(rng)])
    return pool


def batch(pool: list[list[np.ndarray]], rng: random.Random, classes: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Whole families until `classes` faces, so look-alikes meet in the same batch;
    two views of each face."""
    faces: list[np.ndarray] = []
    while len(faces) < classes:
        faces += rng.choice(pool)
    faces = faces[:classes]
    views = [photographed(f, rng, strength=rng.uniform(0.3, 1.0), size=VIEW_SIZE) for f in faces for _ in range(2)]
    labels = torch.arange(len(faces)).repeat_interleave(2)
    return torch.from_numpy(preprocess(views)), labels


def supcon_loss(z: torch.Tensor, labels: torch.Tensor, temperature: float = 0.1) -> torch.Tensor:
    z = nn.functional.normalize(z, dim=1)
    sim = z @ z.T / temperature
    self_mask = torch.eye(len(z), dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    positive = (labels[:, None] == labels[None, :]) & ~self_mask
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    return -(log_prob * positive).sum(1).div(positive.sum(1)).mean()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--classes", type=int, default=64, help="faces per batch (two views each)")
    parser.add_argument("--faces", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=TRAIN_SEEDS[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("build/card_embedder.pt"))
    parser.add_argument("--init", type=Path, help="start from this checkpoint (fine-tuning)")
    parser.add_argument("--lr", type=float, default=2e-3)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    assert args.seed in TRAIN_SEEDS, "training seeds must stay apart from the evaluation seed"
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    started = time.time()
    pool = face_pool(rng, args.faces)
    model = CardEmbedder()
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=False)["state_dict"])
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    model.train()
    for step in range(args.steps):
        x, y = batch(pool, rng, args.classes)
        loss = supcon_loss(model(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 50 == 0 or step == args.steps - 1:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4), "s": round(time.time() - started)}), flush=True)
            # saved as it goes, so a run cut short still leaves a usable model
            torch.save({"state_dict": model.state_dict(), "args": json.loads(json.dumps(vars(args), default=str)),
                        "steps_done": step + 1, "seconds": round(time.time() - started)}, args.out)


if __name__ == "__main__":
    main()
