"""Train the corner-index reader (models/printed_corners.onnx) on training designs.

Most real decks print the value small in a corner, often nowhere else. The whole-card
reader (`scripts/train_printed.py`) sees that index only a few pixels tall, so this
network reads `vision.printed.corner_crops` of a card instead: its top-left corner and
its bottom-right turned round, each scaled to the network's input. Its classes are the
Gargon values, the dugtungan syllables and "no index here".

Faces: the project's layouts in every training font, the training face families in
random training fonts, and random deck designs (one, two or four corner indices, or
none), never the held-out family or fonts. Whether a corner holds the index is not
guessed but drawn (`scripts.lib.corner_truth`). The faces are photographed on the fly as
the whole-card reader's are (`train_printed.photograph`: corners off, light, glare,
blur, noise, JPEG), so a crop is cut where a real detector's outline would put it.

Starts from the whole-card reader's convolutions (same network, new head). Needs the
train extra (torch, onnx, pillow). CPU, one thread:
    nice -n 10 .venv/bin/python scripts/train_printed_corners.py --steps 3000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

import cv2
import numpy as np
import torch
from torch import nn

from scripts.lib.corner_truth import FOOT_UPRIGHT, corner_classes, other_code
from scripts.lib.families import FAMILIES, SLEEVES, TRAINING, Type, sleeved
from scripts.lib.printed_faces import dugtungan_face, fonts, gargon_face
from scripts.lib.random_designs import random_face
from scripts.train_printed import BANK_SIZE, GARGON_COLOURS, fit, from_onnx, network, photograph, save
from vision.embed import file_sha256
from vision.printed import (CORNER_BOX, CORNER_MODEL, DEFAULT_MODEL, INPUT_SIZE, NO_INDEX, corner_crops,
                            corner_labels, index_token, preprocess, token_labels)

GARGON_TIMES = 3  # a Gargon value is drawn this many times more than a dugtungan card: 16 values against 94 cards
Draw = Callable[[str, str, random.Random], np.ndarray]  # (game, code, random state) -> face


def drawers(rng: random.Random) -> list[tuple[str, Draw]]:
    """Each kind of training face, by name: the project's layouts in a random training
    font, each training family in random training typefaces, a random deck design."""
    pool = fonts(held_out=False)

    def project(game: str, code: str, state: random.Random) -> np.ndarray:
        font = pool[state.randrange(len(pool))]
        if game == "gargon":
            colour, value = code.rsplit("-", 1)
            return gargon_face(colour, int(value), font, state)
        return dugtungan_face(code, font, state)

    def family(name: str) -> Draw:
        def draw(game: str, code: str, state: random.Random) -> np.ndarray:
            return FAMILIES[name].face(game, code, None, Type(state.choice(pool), state.choice(pool)))
        return draw

    def design(game: str, code: str, state: random.Random) -> np.ndarray:
        return random_face(game, code, state.choice(pool), state.choice(pool), state, False)

    named = [("project", project)] + [(n, family(n)) for n in TRAINING if FAMILIES[n].type is not None]
    return named + [("design", design)]


def corner_bank(seed: int, copies: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Faces at BANK_SIZE and the class of each one's two corner crops: every Gargon and
    dugtungan label drawn `copies[kind]` times by each kind of training face."""
    rng = random.Random(seed)
    labels = corner_labels()
    faces, classes = [], []
    for kind, draw in drawers(rng):
        for game, tokens in token_labels().items():
            if game == "lagim":
                continue
            for token in tokens:
                for _ in range(copies.get(kind, copies["family"]) * (GARGON_TIMES if game == "gargon" else 1)):
                    code = f"{rng.choice(GARGON_COLOURS)}-{token}" if game == "gargon" else token
                    state = rng.random()
                    face = draw(game, code, random.Random(state))
                    twin = draw(game, other_code(game, code, rng), random.Random(state))
                    top, foot = corner_classes(face, twin, labels.index((game, index_token(game, token))))
                    classes.append((top, len(labels) - 1 if kind in FOOT_UPRIGHT else foot))
                    if rng.random() < 0.33:
                        face = sleeved(face, rng.choice(list(SLEEVES)))
                    faces.append(cv2.resize(face, BANK_SIZE, interpolation=cv2.INTER_AREA))
    return np.stack(faces), np.array(classes)


def batch(faces: np.ndarray, classes: np.ndarray, size: int, rng: random.Random) -> tuple[torch.Tensor, torch.Tensor]:
    crops, ys = [], []
    for _ in range(size):
        i, corner = rng.randrange(len(faces)), rng.randrange(2)
        crops.append(corner_crops(photograph(faces[i], rng))[corner])
        ys.append(int(classes[i, corner]))
    return torch.from_numpy(preprocess(crops)), torch.tensor(ys)


def accuracy(model: nn.Module, faces: np.ndarray, classes: np.ndarray, count: int, seed: int) -> dict[str, float]:
    """Share of `count` photographed corners read right: those with an index, those without,
    and the share of corners with an index read as some other index (the wrong ones)."""
    model.eval()
    rng = random.Random(seed)
    none = len(corner_labels()) - 1
    seen = {"index": 0, "none": 0}
    right = {"index": 0, "none": 0}
    wrong = 0
    with torch.no_grad():
        for start in range(0, count, 256):
            x, y = batch(faces, classes, min(256, count - start), rng)
            for truth, guess in zip(y.tolist(), model(x).argmax(dim=1).tolist()):
                kind = "none" if truth == none else "index"
                seen[kind] += 1
                right[kind] += truth == guess
                wrong += kind == "index" and guess not in (truth, none)
    model.train()
    return {"index_right": round(right["index"] / max(1, seen["index"]), 4),
            "index_wrong": round(wrong / max(1, seen["index"]), 4),
            "none_right": round(right["none"] / max(1, seen["none"]), 4), "corners": count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--copies", type=int, nargs=3, default=(8, 10, 30), metavar=("PROJECT", "FAMILY", "DESIGN"),
                        help="drawings of each label by the project's layouts, each training family, random designs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    parser.add_argument("--init-onnx", type=Path, default=DEFAULT_MODEL,
                        help="the whole-card reader whose convolutions this network starts from")
    parser.add_argument("--init", type=Path, help="go on from these weights (a checkpoint of this network)")
    parser.add_argument("--out", type=Path, default=CORNER_MODEL)
    parser.add_argument("--checkpoint", type=Path, default=Path("build/printed_corners.pt"))
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.time()
    copies = dict(zip(("project", "family", "design"), args.copies))
    faces, classes = corner_bank(args.seed, copies)
    # validation: the same kinds of training face drawn afresh, what choices are judged on
    valid_faces, valid_classes = corner_bank(args.seed + 1, {"project": 1, "family": 1, "design": 2})
    none = len(corner_labels()) - 1
    print(f"bank: {len(faces)} faces, {(classes != none).mean():.2f} of corners with an index, "
          f"{time.time() - started:.0f} s", flush=True)
    model = network(len(corner_labels()), outputs_per_class=1)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    else:
        from_onnx(model, args.init_onnx, batch(faces, classes, 256, random.Random(args.seed + 4))[0], head=False)
    fit(model, lambda rng: batch(faces, classes, args.batch, rng), args.steps, args.lr, args.seed, started)
    validation = accuracy(model, valid_faces, valid_classes, 3000, seed=97)
    save(model, args.checkpoint, args.out, "corners")
    args.out.with_suffix(".json").write_text(json.dumps({
        "labels": [list(label) for label in corner_labels()], "input_size": list(INPUT_SIZE),
        "corner_box": list(CORNER_BOX), "no_index": NO_INDEX, "outputs": "one logit per label",
        "sha256": file_sha256(args.out), "steps": args.steps, "batch": args.batch, "seed": args.seed,
        "lr": args.lr, "copies": copies, "init": str(args.init or args.init_onnx),
        "training_families": [n for n in TRAINING if FAMILIES[n].type is not None],
        "validation_synthetic": validation,
    }, indent=1) + "\n")
    print(json.dumps({"validation_synthetic": validation, "seconds": round(time.time() - started)}))


if __name__ == "__main__":
    main()
