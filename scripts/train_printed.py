"""Train the printed-token reader (models/printed_tokens.onnx) on cards drawn in many fonts.

Faces: every Gargon value (in a random colour), every dugtungan card of the default
deck and every Lagim level I-X, drawn by `scripts.lib.printed_faces` twice in each training
font (the held-out families are never drawn here), then photographed on the fly:
corners off by up to 8 % and now and then a box grown over the table around the card
(as a detector that merges a white margin or table dots cuts it out), a 180-degree turn
half the time, light level, colour cast, light drifting across the card, glare, blur,
noise, JPEG. The Gargon and dugtungan cards are also drawn in the training face families of
`scripts.lib.families` (value small in two corners, light on dark in a ring, ...; the
held-out family never), each in a random training font, a third of them sleeved, so
the reader looks for the value wherever a design prints it.
A Lagim card is seen only through its level box (`vision.printed.level_crop`),
and the same box at the card's other end teaches "no numeral here". The network sees
`vision.printed.preprocess` of that, exactly as at run time, and learns token x
{upright, turned}.

Needs the train extra (torch, onnx, pillow). CPU, one thread, about 45 minutes:
    nice -n 10 .venv/bin/python scripts/train_printed.py
or from the weights of a model already shipped (its batch norms were folded into the
convolutions on export; `from_onnx` unfolds them):
    nice -n 10 .venv/bin/python scripts/train_printed.py --init-onnx models/printed_tokens.onnx --steps 1500 --lr 1e-3
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

from vision.embed import file_sha256
from vision.printed import DEFAULT_MODEL, INPUT_SIZE, LEVELS, NO_LEVEL, all_labels, level_crop, preprocess
from scripts.lib.printed_faces import dugtungan_face, fonts, gargon_face, lagim_level_face
from vision.synth.augment import cut_out_with_corner_error
from vision.synth.faces import FACE_SIZE
from scripts.lib.families import FAMILIES, HELD_OUT, SLEEVES, TRAINING, Type, sleeved
from scripts.lib.random_designs import random_face

GARGON_COLOURS = ("white", "blue", "violet", "red", "yellow", "green")
BANK_SIZE = (2 * INPUT_SIZE[0], 2 * INPUT_SIZE[1])  # faces kept at twice the input size
NOISE = np.random.default_rng(0).normal(0, 1, (16, BANK_SIZE[1], BANK_SIZE[0], 3)).astype(np.float32)
CORNER_ERROR = 0.08  # of the card's width and height, at most, per corner
MARGIN = 0.12  # at most, of the card, on a side where the box took in the table too


def draw(game: str, token: str, font, rng: random.Random, vary: bool) -> np.ndarray:
    if game == "gargon":
        return gargon_face(rng.choice(GARGON_COLOURS), int(token), font, rng, vary)
    if game == "lagim":
        return lagim_level_face(LEVELS.index(token) + 1 if token != NO_LEVEL else rng.randint(1, 10), font, rng, vary)
    return dugtungan_face(token, font, rng, vary)


def bank(held_out: bool, seed: int, copies: int, vary: float = 0.0, level_copies: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Every label drawn `copies` times in every font (of one side of the split), a Lagim
    level `level_copies` times more, at BANK_SIZE; a share `vary` of them with glyphs
    reshaped (`scripts.lib.printed_faces`)."""
    rng = random.Random(seed)
    faces, labels = [], []
    for font in fonts(held_out):
        for index, (game, token) in enumerate(all_labels()):
            for _ in range(copies + (level_copies if game == "lagim" else 0)):
                face = draw(game, token, font, rng, rng.random() < vary)
                faces.append(cv2.resize(face, BANK_SIZE, interpolation=cv2.INTER_AREA))
                labels.append(index)
    return np.stack(faces), np.array(labels)


def family_bank(held_out: bool, seed: int, copies: int) -> tuple[np.ndarray, np.ndarray]:
    """Every Gargon and dugtungan label drawn `copies` times in each face family of one
    side of the split (the project's own family is `bank`'s), at BANK_SIZE: a training
    family in random training fonts, a third of them sleeved; the held-out family in its
    own typefaces (held-out fonts), sleeved or not."""
    rng = random.Random(seed)
    names = [HELD_OUT] if held_out else [name for name in TRAINING if FAMILIES[name].type is not None]
    pool = fonts(held_out=False)
    faces, labels = [], []
    for name in names:
        for index, (game, token) in enumerate(all_labels()):
            if game == "lagim":
                continue
            for _ in range(copies):
                code = f"{rng.choice(GARGON_COLOURS)}-{token}" if game == "gargon" else token
                sleeve = rng.choice(list(SLEEVES)) if rng.random() < 0.33 else None
                kind = None if held_out else Type(rng.choice(pool), rng.choice(pool))
                face = FAMILIES[name].face(game, code, sleeve, kind)
                faces.append(cv2.resize(face, BANK_SIZE, interpolation=cv2.INTER_AREA))
                labels.append(index)
    return np.stack(faces), np.array(labels)


def design_bank(seed: int, copies: dict[str, int], vary: float) -> tuple[np.ndarray, np.ndarray]:
    """Every Gargon and dugtungan label drawn `copies[game]` times, each in a deck design
    of its own drawn at random (`scripts.lib.random_designs`) in two random training
    fonts, a share `vary` with the big token's glyphs reshaped, a third sleeved."""
    rng = random.Random(seed)
    pool = fonts(held_out=False)
    faces, labels = [], []
    for index, (game, token) in enumerate(all_labels()):
        for _ in range(copies.get(game, 0)):
            code = f"{rng.choice(GARGON_COLOURS)}-{token}" if game == "gargon" else token
            face = random_face(game, code, rng.choice(pool), rng.choice(pool), rng, rng.random() < vary)
            if rng.random() < 0.33:
                face = sleeved(face, rng.choice(list(SLEEVES)))
            faces.append(cv2.resize(face, BANK_SIZE, interpolation=cv2.INTER_AREA))
            labels.append(index)
    return np.stack(faces), np.array(labels)


def with_table_around(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """The face with a strip of table (plain, or dotted like a cloth) on some of its sides."""
    h, w = face.shape[:2]
    pads = [round(rng.uniform(0, MARGIN) * side) if rng.random() < 0.5 else 0 for side in (h, h, w, w)]
    table = tuple(rng.randint(0, 255) for _ in range(3))
    out = cv2.copyMakeBorder(face, *pads, cv2.BORDER_CONSTANT, value=table)
    if rng.random() < 0.5:
        step = rng.randint(4, 10)
        cell = np.zeros((step, step), np.uint8)
        cv2.circle(cell, (step // 2, step // 2), max(1, step // 4), 1, -1)
        spots = np.tile(cell, (out.shape[0] // step + 1, out.shape[1] // step + 1))[:out.shape[0], :out.shape[1]]
        out[spots > 0] = tuple(rng.randint(0, 255) for _ in range(3))
    out[pads[0]:pads[0] + h, pads[2]:pads[2] + w] = face
    return out


def photograph(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """A rectified photo of a bank face as a detector would cut it out, upright."""
    w, h = BANK_SIZE
    if rng.random() < 0.25:
        face = with_table_around(face, rng)
    img = cut_out_with_corner_error(face, BANK_SIZE, rng.uniform(0, CORNER_ERROR), rng, cv2.INTER_LINEAR)
    ramp_x = rng.uniform(-0.4, 0.4) * (np.arange(w, dtype=np.float32)[None, :] / w - 0.5)
    ramp_y = rng.uniform(-0.4, 0.4) * (np.arange(h, dtype=np.float32)[:, None] / h - 0.5)
    cast = np.float32([rng.uniform(0.7, 1.2) for _ in range(3)])
    img = img * (1 + ramp_x + ramp_y)[..., None] * cast * rng.uniform(0.45, 1.2)
    if rng.random() < 0.3:
        glare = np.zeros((h, w), np.float32)
        cv2.circle(glare, (rng.randrange(w), rng.randrange(h)), rng.randint(4, 24), 1.0, -1)
        img += rng.uniform(50, 140) * cv2.GaussianBlur(glare, (0, 0), 5)[..., None]
    sigma = rng.uniform(0, 1.5)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += NOISE[rng.randrange(len(NOISE))] * rng.uniform(0, 9)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 90)])[1],
                           cv2.IMREAD_COLOR)
    return img


def shot(face: np.ndarray, label: int, rng: random.Random) -> tuple[np.ndarray, int]:
    """What the network sees of a bank face, and its class (2 x label, + 1 if turned).
    A whole card is turned half the time; a Lagim level is read from a crop cut upright
    (the reader cuts both ends), from the far end when the label is "no numeral"."""
    game, token = all_labels()[label]
    img = photograph(face, rng)
    if game == "lagim":
        return level_crop(cv2.rotate(img, cv2.ROTATE_180) if token == NO_LEVEL else img), 2 * label
    turned = rng.random() < 0.5
    return (cv2.rotate(img, cv2.ROTATE_180) if turned else img), 2 * label + int(turned)


def batch(faces: np.ndarray, labels: np.ndarray, size: int, rng: random.Random) -> tuple[torch.Tensor, torch.Tensor]:
    shots = [shot(faces[i], int(labels[i]), rng) for i in (rng.randrange(len(faces)) for _ in range(size))]
    return torch.from_numpy(preprocess([img for img, _ in shots])), torch.tensor([y for _, y in shots])


def network(classes: int, outputs_per_class: int = 2) -> nn.Module:
    """The reader's network; by default two outputs per class, upright and turned."""
    def block(a: int, b: int) -> list[nn.Module]:
        return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU(inplace=True)]

    # 88 x 64 -> 44 x 32 -> 22 x 16 -> 11 x 8 -> 6 x 4: where on the card a stroke lies still counts
    return nn.Sequential(*block(1, 12), nn.MaxPool2d(2), *block(12, 24), nn.MaxPool2d(2),
                         *block(24, 48), nn.MaxPool2d(2), *block(48, 64), nn.MaxPool2d(2, ceil_mode=True),
                         nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * 6 * 4, outputs_per_class * classes))


def from_onnx(model: nn.Module, path: Path, x: torch.Tensor, head: bool = True) -> None:
    """`model` set to compute what the exported `path` computes (its convolutions only,
    when not `head`: a network with other classes). Export folded each batch norm into
    the convolution before it; here the convolution takes the folded weights and its
    batch norm is set, from the statistics of batch `x`, to hand on the folded output
    unchanged (bias added) in training mode as well as in evaluation."""
    import onnx
    from onnx import numpy_helper

    weights = [numpy_helper.to_array(t).copy() for t in onnx.load(str(path)).graph.initializer]
    linear, convs = weights[:2], weights[2:]
    layers = list(model)
    conv_layers = [m for m in layers if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        for i, conv in enumerate(conv_layers):
            conv.weight.copy_(torch.from_numpy(convs[2 * i]))
        if head:
            linear_layer = next(m for m in layers if isinstance(m, nn.Linear))
            linear_layer.weight.copy_(torch.from_numpy(linear[0]))
            linear_layer.bias.copy_(torch.from_numpy(linear[1]))
        h = x
        for layer in layers:
            if isinstance(layer, nn.BatchNorm2d):
                conv = conv_layers[sum(isinstance(m, nn.Conv2d) for m in layers[:layers.index(layer)]) - 1]
                bias = torch.from_numpy(convs[2 * conv_layers.index(conv) + 1])
                mean, var = h.mean(dim=(0, 2, 3)), h.var(dim=(0, 2, 3), unbiased=False)
                layer.weight.copy_((var + layer.eps).sqrt())
                layer.bias.copy_(mean + bias)
                layer.running_mean.copy_(mean)
                layer.running_var.copy_(var)
                h = h + bias[None, :, None, None]
            elif isinstance(layer, nn.Flatten):
                break
            else:
                h = layer(h)


def fit(model: nn.Module, next_batch: Callable[[random.Random], tuple[torch.Tensor, torch.Tensor]], steps: int,
        lr: float, seed: int, started: float) -> None:
    """Train `model` on `steps` batches: AdamW with a one-cycle schedule peaking at `lr`,
    label smoothing 0.05 (a reader that hedges on print it cannot make out)."""
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    loss_of = nn.CrossEntropyLoss(label_smoothing=0.05)
    rng = random.Random(seed)
    for step in range(1, steps + 1):
        x, y = next_batch(rng)
        loss = loss_of(model(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.time() - started:.0f} s", flush=True)


def save(model: nn.Module, checkpoint: Path, out: Path, input_name: str) -> None:
    """The weights to `checkpoint` first (they survive a failed export), then the network
    exported to ONNX at `out`, any number of images a call."""
    model.eval()
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), checkpoint)
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, INPUT_SIZE[1], INPUT_SIZE[0])
    torch.onnx.export(model, dummy, str(out), input_names=[input_name], output_names=["logits"],
                      dynamic_axes={input_name: {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)


def accuracy(model: nn.Module, faces: np.ndarray, labels: np.ndarray, count: int, seed: int) -> dict[str, float]:
    """Per game, the share of `count` photographed faces whose token and turn are both
    right among all the model's outputs (no game mask)."""
    model.eval()
    rng = random.Random(seed)
    games = [game for game, _ in all_labels()]
    right: dict[str, int] = {}
    seen: dict[str, int] = {}
    with torch.no_grad():
        for start in range(0, count, 256):
            x, y = batch(faces, labels, min(256, count - start), rng)
            for truth, guess in zip(y.tolist(), model(x).argmax(dim=1).tolist()):
                game = games[truth // 2]
                seen[game] = seen.get(game, 0) + 1
                right[game] = right.get(game, 0) + (truth == guess)
    model.train()
    return {game: round(right[game] / seen[game], 4) for game in seen}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--copies", type=int, default=2, help="drawings of each label in each training font")
    parser.add_argument("--level-copies", type=int, default=0,
                        help="more drawings of each Lagim level in each training font (its share shrinks as the designs grow)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vary", type=float, default=0.0, help="share of faces drawn with reshaped glyphs")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--init", type=Path, help="start from these weights (a checkpoint of this network)")
    parser.add_argument("--init-onnx", type=Path, help="start from the weights of an exported model of this network")
    parser.add_argument("--family-copies", type=int, default=40,
                        help="drawings of each Gargon and dugtungan label in each training face family, each in a random training font")
    parser.add_argument("--design-copies", type=int, nargs=2, default=(200, 25), metavar=("GARGON", "DUGTUNGAN"),
                        help="drawings of each Gargon and each dugtungan label, each in a random design of its own")
    parser.add_argument("--measure-held-out", action="store_true",
                        help="also measure the held-out face family at the end (only once a model is chosen: "
                             "no choice may be made on that figure)")
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--checkpoint", type=Path, default=Path("build/printed_tokens.pt"),
                        help="where the trained weights go (git-ignored), for a later --init")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.time()
    faces, labels = bank(held_out=False, seed=args.seed, copies=args.copies, vary=args.vary, level_copies=args.level_copies)
    if args.family_copies:
        family_faces, family_labels = family_bank(held_out=False, seed=args.seed + 2, copies=args.family_copies)
        faces, labels = np.concatenate([faces, family_faces]), np.concatenate([labels, family_labels])
    designs = dict(zip(("gargon", "dugtungan"), args.design_copies))
    if any(designs.values()):
        design_faces, design_labels = design_bank(seed=args.seed + 5, copies=designs, vary=args.vary)
        faces, labels = np.concatenate([faces, design_faces]), np.concatenate([labels, design_labels])
    held_faces, held_labels = bank(held_out=True, seed=args.seed + 1, copies=1)
    # validation: training families and random designs drawn afresh (other seeds), what choices are judged on
    valid = [family_bank(held_out=False, seed=args.seed + 6, copies=3),
             design_bank(seed=args.seed + 7, copies={"gargon": 40, "dugtungan": 4}, vary=0.5)]
    valid_faces, valid_labels = np.concatenate([f for f, _ in valid]), np.concatenate([y for _, y in valid])
    print(f"bank: {len(faces)} training faces, {len(held_faces)} held-out, {time.time() - started:.0f} s", flush=True)
    classes = len(all_labels())
    model = network(classes)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    elif args.init_onnx:
        from_onnx(model, args.init_onnx, batch(faces, labels, 256, random.Random(args.seed + 4))[0])
    fit(model, lambda rng: batch(faces, labels, args.batch, rng), args.steps, args.lr, args.seed, started)
    held_out = accuracy(model, held_faces, held_labels, 3000, seed=99)
    validation = accuracy(model, valid_faces, valid_labels, 3000, seed=97)
    held_out_family = None
    if args.measure_held_out:
        family_held_faces, family_held_labels = family_bank(held_out=True, seed=args.seed + 3, copies=3)
        held_out_family = {"family": HELD_OUT} | accuracy(model, family_held_faces, family_held_labels, 2000, seed=98)
    save(model, args.checkpoint, args.out, "cards")
    args.out.with_suffix(".json").write_text(json.dumps({
        "labels": [list(label) for label in all_labels()], "input_size": list(INPUT_SIZE),
        "outputs": "two logits per label, upright then turned", "face_size": list(FACE_SIZE),
        "sha256": file_sha256(args.out), "steps": args.steps, "batch": args.batch, "seed": args.seed,
        "init": str(args.init or args.init_onnx) if args.init or args.init_onnx else None,
        "family_copies": args.family_copies, "training_families": [n for n in TRAINING if FAMILIES[n].type is not None],
        "design_copies": designs, "lr": args.lr, "vary": args.vary, "copies": args.copies, "level_copies": args.level_copies, "corner_error": CORNER_ERROR,
        "table_margin": MARGIN, "held_out_font_accuracy_synthetic": held_out,
        "validation_accuracy_synthetic": validation, "held_out_family_accuracy_synthetic": held_out_family,
    }, indent=1) + "\n")
    print(json.dumps({"held_out_font_accuracy_synthetic": held_out, "validation_accuracy_synthetic": validation,
                      "held_out_family_accuracy_synthetic": held_out_family, "seconds": round(time.time() - started)}))


if __name__ == "__main__":
    main()
