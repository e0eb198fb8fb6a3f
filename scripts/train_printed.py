"""Train the printed-token reader (models/printed_tokens.onnx) on cards drawn in many fonts.

Faces: every Gargon value (in a random colour) and every dugtungan card of the default
deck, drawn by `vision.printed_faces` in each training font (the held-out families are
never drawn here), then photographed on the fly: perspective error from the detector,
a 180-degree turn half the time, light level, colour cast, light drifting across the
card, glare, blur, noise, JPEG. The network sees `vision.printed.preprocess` of that,
exactly as at run time, and learns token x {upright, turned}.

Needs the train extra (torch, onnx, pillow). CPU, a few minutes:
    nice -n 10 .venv/bin/python scripts/train_printed.py
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.embed import file_sha256
from vision.printed import DEFAULT_MODEL, INPUT_SIZE, all_labels, preprocess
from vision.printed_faces import dugtungan_face, fonts, gargon_face
from vision.synth.augment import cut_out_with_corner_error
from vision.synth.faces import FACE_SIZE

GARGON_COLOURS = ("white", "blue", "violet", "red", "yellow", "green")
BANK_SIZE = (2 * INPUT_SIZE[0], 2 * INPUT_SIZE[1])  # faces kept at twice the input size
NOISE = np.random.default_rng(0).normal(0, 1, (16, BANK_SIZE[1], BANK_SIZE[0], 3)).astype(np.float32)


def draw(game: str, token: str, font, rng: random.Random) -> np.ndarray:
    if game == "gargon":
        return gargon_face(rng.choice(GARGON_COLOURS), int(token), font, rng)
    return dugtungan_face(token, font, rng)


def bank(held_out: bool, seed: int, copies: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Every label drawn in every font (of one side of the split), at BANK_SIZE."""
    rng = random.Random(seed)
    faces, labels = [], []
    for font in fonts(held_out):
        for index, (game, token) in enumerate(all_labels()):
            for _ in range(copies):
                face = draw(game, token, font, rng)
                faces.append(cv2.resize(face, BANK_SIZE, interpolation=cv2.INTER_AREA))
                labels.append(index)
    return np.stack(faces), np.array(labels)


def photograph(face: np.ndarray, rng: random.Random) -> tuple[np.ndarray, bool]:
    """A rectified photo of a bank face as a detector would cut it out; and whether it
    was turned upside down."""
    w, h = BANK_SIZE
    img = cut_out_with_corner_error(face, BANK_SIZE, rng.uniform(0, 0.05), rng, cv2.INTER_LINEAR)
    ramp_x = rng.uniform(-0.4, 0.4) * (np.arange(w, dtype=np.float32)[None, :] / w - 0.5)
    ramp_y = rng.uniform(-0.4, 0.4) * (np.arange(h, dtype=np.float32)[:, None] / h - 0.5)
    cast = np.float32([rng.uniform(0.7, 1.2) for _ in range(3)])
    img = img * (1 + ramp_x + ramp_y)[..., None] * cast * rng.uniform(0.45, 1.2)
    if rng.random() < 0.3:
        glare = np.zeros((h, w), np.float32)
        cv2.circle(glare, (rng.randrange(w), rng.randrange(h)), rng.randint(4, 20), 1.0, -1)
        img += rng.uniform(50, 140) * cv2.GaussianBlur(glare, (0, 0), 5)[..., None]
    sigma = rng.uniform(0, 1.4)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += NOISE[rng.randrange(len(NOISE))] * rng.uniform(0, 9)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 90)])[1],
                           cv2.IMREAD_COLOR)
    turned = rng.random() < 0.5
    return (cv2.rotate(img, cv2.ROTATE_180) if turned else img), turned


def batch(faces: np.ndarray, labels: np.ndarray, size: int, rng: random.Random) -> tuple[torch.Tensor, torch.Tensor]:
    picks = [rng.randrange(len(faces)) for _ in range(size)]
    shots = [photograph(faces[i], rng) for i in picks]
    x = torch.from_numpy(preprocess([img for img, _ in shots]))
    y = torch.tensor([2 * int(labels[i]) + int(turned) for i, (_, turned) in zip(picks, shots)])
    return x, y


def network(classes: int) -> nn.Module:
    def block(a: int, b: int) -> list[nn.Module]:
        return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU(inplace=True)]

    return nn.Sequential(*block(1, 12), nn.MaxPool2d(2), *block(12, 24), nn.MaxPool2d(2),
                         *block(24, 32), nn.MaxPool2d(2), *block(32, 48), nn.AvgPool2d((2, 3)),
                         nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * 8, 2 * classes))


def accuracy(model: nn.Module, faces: np.ndarray, labels: np.ndarray, count: int, seed: int) -> float:
    model.eval()
    rng = random.Random(seed)
    right = 0
    with torch.no_grad():
        for start in range(0, count, 256):
            x, y = batch(faces, labels, min(256, count - start), rng)
            right += int((model(x).argmax(dim=1) == y).sum())
    model.train()
    return right / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2400)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.time()
    faces, labels = bank(held_out=False, seed=args.seed)
    held_faces, held_labels = bank(held_out=True, seed=args.seed + 1)
    print(f"bank: {len(faces)} training faces, {len(held_faces)} held-out, {time.time() - started:.0f} s", flush=True)
    classes = len(all_labels())
    model = network(classes)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=args.steps)
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05)
    rng = random.Random(args.seed)
    for step in range(1, args.steps + 1):
        x, y = batch(faces, labels, args.batch, rng)
        loss = loss_of(model(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.time() - started:.0f} s", flush=True)
    held_out = accuracy(model, held_faces, held_labels, 2000, seed=99)
    model.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), args.out.with_suffix(".pt.tmp"))  # kept only if the export fails
    dummy = torch.zeros(1, 1, INPUT_SIZE[1], INPUT_SIZE[0])
    torch.onnx.export(model, dummy, str(args.out), input_names=["cards"], output_names=["logits"],
                      dynamic_axes={"cards": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    args.out.with_suffix(".json").write_text(json.dumps({
        "labels": [list(label) for label in all_labels()], "input_size": list(INPUT_SIZE),
        "outputs": "two logits per label, upright then turned", "face_size": list(FACE_SIZE),
        "sha256": file_sha256(args.out), "steps": args.steps, "batch": args.batch, "seed": args.seed,
        "held_out_font_accuracy_synthetic": round(held_out, 4),
    }, indent=1) + "\n")
    args.out.with_suffix(".pt.tmp").unlink()
    print(json.dumps({"held_out_font_accuracy_synthetic": held_out, "seconds": round(time.time() - started)}))


if __name__ == "__main__":
    main()
