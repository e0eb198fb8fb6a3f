"""Train the card-or-not check of contour candidates (vision/cardness.py) and write
models/card_verifier.json.

Candidates are what the contour detector finds on generated tables of the TRAINING
table kinds and card families of scripts/detector_world.py (never the held-out cloths
or the games' faces, never a real photo), each labelled by its overlap with the
scene's cards: a card if it covers a card that is at least WHOLE visible with IoU >=
POSITIVE_IOU, not a card if it overlaps every card by IoU < NEGATIVE_IOU (cloth,
distractors); in between is left out. NETS networks are trained from different starting
weights and their probabilities averaged (one network's result varies with its starting
weights and even with the order of the float sums: on the validation scenes, 0.74-0.79
of the non-cards removed). The threshold keeps KEEP_SHARE of the cards of separate validation scenes.

    nice .venv/bin/python scripts/train_verifier.py --scenes 900 [--out models/card_verifier.json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one order of float sums: the same networks on every run
import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from detector_world import HIDDEN, TRAIN_FAMILIES, TRAIN_TABLES, WHOLE, world_scene  # noqa: E402
from vision.cardness import DEFAULT_VERIFIER, CardVerifier, quad_features  # noqa: E402
from vision.detect import ContourCardDetector  # noqa: E402
from scripts.lib.evaluate import quad_iou  # noqa: E402

POSITIVE_IOU = 0.6
NEGATIVE_IOU = 0.2
KEEP_SHARE = 0.995
HIDDEN_UNITS = 24
NETS = 3  # networks trained from different starting weights, their probabilities averaged
CHUNK = 100  # scenes harvested per worker's task


def overlaps(quad: np.ndarray, cards) -> np.ndarray:
    """(4,) what labels a candidate: its best IoU with a whole card and its area over
    that card's, and its best IoU with a partly hidden card (don't care) and with any."""
    area = abs(cv2.contourArea(np.float32(quad)))
    whole = [(quad_iou(quad, c.outline), area / abs(cv2.contourArea(c.outline))) for c in cards if c.share >= WHOLE]
    best_whole = max(whole, default=(0.0, 0.0))
    partly = max((quad_iou(quad, c.outline) for c in cards if HIDDEN <= c.share < WHOLE), default=0.0)
    return np.float32([*best_whole, partly, max([best_whole[0], partly] + [quad_iou(quad, c.outline) for c in cards])])


def labels(stats: np.ndarray) -> np.ndarray:
    """1 a card, 0 not, -1 left out, from `overlaps` of each candidate: a card's own
    outline is a card; what overlaps no card (by IoU < NEGATIVE_IOU: cloth, chips,
    phones, papers, a small box printed on a card) is not; parts of cards, boxes round
    several and inner frames are left to `vision.detect._suppress`, which keeps the
    outline of each card among them."""
    iou_whole, ratio, _, iou_any = stats.T
    card = (iou_whole >= POSITIVE_IOU) & (ratio > 0.8) & (ratio < 1.25)
    return np.where(card, 1, np.where(iou_any < NEGATIVE_IOU, 0, -1))


def harvested(cache: Path, part: str, chunk: int) -> Path:
    """A file of the features and `overlaps` of the contour candidates of CHUNK scenes
    (the `chunk`-th of `part`), made now unless `cache` holds it."""
    path = cache / f"{part}-{chunk}.npz"
    if not path.is_file():
        cv2.setNumThreads(1)
        detector = ContourCardDetector(verifier=None)
        rng = random.Random(f"verifier-{part}:{chunk}")
        xs, stats = [], []
        for _ in range(CHUNK):
            size = rng.choice(((1280, 720), (1280, 720), (960, 960), (1600, 1200)))
            scene = world_scene(rng, size, TRAIN_TABLES, TRAIN_FAMILIES, card_px=(60, 400))
            small, scale, quads, scores, _ = detector.candidates(scene.image)
            xs.append(quad_features(small, quads, scores))
            stats.append(np.array([overlaps(q, scene.cards) for q in quads / scale], np.float32).reshape(-1, 4))
        np.savez(path.with_suffix(".tmp.npz"), features=np.concatenate(xs), stats=np.concatenate(stats))
        path.with_suffix(".tmp.npz").replace(path)
    return path


def train(x: np.ndarray, y: np.ndarray, steps: int, seed: int = 0, decay: float = 1e-4) -> dict[str, np.ndarray]:
    """A one-hidden-layer network by full-batch Adam on class-balanced logistic loss."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean())).astype(np.float32)
    params = {"hidden_w": rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], HIDDEN_UNITS)).astype(np.float32),
              "hidden_b": np.zeros(HIDDEN_UNITS, np.float32),
              "out_w": rng.normal(0, np.sqrt(1 / HIDDEN_UNITS), HIDDEN_UNITS).astype(np.float32),
              "out_b": np.zeros(1, np.float32)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    for step in range(1, steps + 1):
        pre = z @ params["hidden_w"] + params["hidden_b"]
        hidden = np.maximum(pre, 0)
        p = 1 / (1 + np.exp(-(hidden @ params["out_w"] + params["out_b"])))
        d_logit = weight * (p - y) / len(y)
        d_hidden = np.outer(d_logit, params["out_w"]) * (pre > 0)
        grads = {"out_w": hidden.T @ d_logit + decay * params["out_w"], "out_b": np.array([d_logit.sum()]),
                 "hidden_w": z.T @ d_hidden + decay * params["hidden_w"], "hidden_b": d_hidden.sum(axis=0)}
        lr = 0.01 * min(1.0, 2 * (1 - step / steps) + 0.05)
        for k, g in grads.items():
            m, v = moments[k]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g * g
            params[k] -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if step % 500 == 0:
            loss = -np.mean(weight * (y * np.log(p + 1e-7) + (1 - y) * np.log(1 - p + 1e-7)))
            print(f"step {step}: loss {loss:.4f}", file=sys.stderr, flush=True)
    return params | {"mean": mean, "scale": scale}


def ensemble(nets: list[dict[str, np.ndarray]], threshold: float = 0.0) -> CardVerifier:
    """The check made of networks from `train` (one standardisation: the same data)."""
    stacked = {k: np.stack([net[k] for net in nets]).astype(np.float32) for k in ("hidden_w", "hidden_b", "out_w")}
    return CardVerifier(mean=nets[0]["mean"], scale=nets[0]["scale"], **stacked,
                        out_b=np.concatenate([net["out_b"] for net in nets]).astype(np.float32), threshold=threshold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=900, help="training scenes (validation: a third as many more)")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--decay", type=float, default=0.003, help="weight decay")
    parser.add_argument("--workers", type=int, default=2, help="processes harvesting candidates")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "verifier")
    parser.add_argument("--out", type=Path, default=DEFAULT_VERIFIER)
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    start = time.time()
    chunks = [("train", k) for k in range(args.scenes // CHUNK)] + [("val", k) for k in range(args.scenes // CHUNK // 3)]
    with multiprocessing.Pool(args.workers) as pool:
        paths = pool.starmap(harvested, [(args.cache, part, k) for part, k in chunks])
    data = {}
    for part in ("train", "val"):
        loaded = [np.load(path) for path, (p, _) in zip(paths, chunks) if p == part]
        x, stats = np.concatenate([f["features"] for f in loaded]), np.concatenate([f["stats"] for f in loaded])
        use = labels(stats) >= 0
        data[part] = (x[use], labels(stats)[use].astype(np.float32))
    (x, y), (vx, vy) = data["train"], data["val"]
    nets = [train(x, y, args.steps, seed=seed, decay=args.decay) for seed in range(NETS)]
    vp = ensemble(nets).probability(vx)
    threshold = float(np.quantile(vp[vy == 1], 1 - KEEP_SHARE))
    kept = vp >= threshold
    check = ensemble(nets, threshold)
    report = {"train_candidates": int(len(y)), "train_cards": int(y.sum()), "val_candidates": int(len(vy)),
              "val_cards": int(vy.sum()), "threshold": round(threshold, 4),
              "val_cards_kept": round(float(kept[vy == 1].mean()), 4),
              "val_not_cards_removed": round(float(1 - kept[vy == 0].mean()), 4),
              "train_not_cards_removed": round(float(1 - (check.probability(x)[y == 0] >= threshold).mean()), 4),
              "seconds": round(time.time() - start, 1)}
    model = {k: np.asarray(getattr(check, k)).round(6).tolist() for k in ("mean", "scale", "hidden_w", "hidden_b", "out_w", "out_b")}
    model |= {"threshold": threshold, "training": report}
    args.out.write_text(json.dumps(model) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
