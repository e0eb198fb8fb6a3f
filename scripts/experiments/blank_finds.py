"""Which finds the joint detector's blank test (vision/cardness.py `blank_of_table`)
doubts on the training world, measured for a grid of its two cuts: true cards, false
finds and finds on a hidden card, each with how even its middle is and how much of the
ring round it is of the middle's colour.

Reads the training-world caches of `scripts/experiments/detect_errors.py` (the network's
maps and the contour finds of each scene), so the held-out families and tables never
enter:

    nice .venv/bin/python scripts/experiments/blank_finds.py build/detect-errors build/detect-errors-2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import vision.learned_detect as learned_detect  # noqa: E402
from scripts.lib.evaluate import TruthCard, match_by_centre  # noqa: E402
from vision.cardness import BLANK_CELL, BLANK_DISTANCE, CARD_H, CARD_W, MARGIN, _cutout  # noqa: E402
from vision.interfaces import Detection  # noqa: E402
from vision.learned_detect import JointCardDetector, NetworkView  # noqa: E402

SPREADS = (0.5, 1.0, 1.5, 2.0)
SHARES = (0.3, 0.4, 0.5)


def measures(image: np.ndarray, quad: np.ndarray) -> tuple[float, float, float]:
    """A find's middle's spread, its distance from the ring's mean colour (the rule
    before), and the share of the ring's pixels of its colour (the rule now), as
    `blank_of_table` measures them."""
    lab = cv2.cvtColor(_cutout(image, quad.astype(np.float32)), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 0.5
    dx, dy = CARD_W // 4, CARD_H // 4
    core = lab[MARGIN + dy:MARGIN + CARD_H - dy, MARGIN + dx:MARGIN + CARD_W - dx]
    rows, columns = core.shape[0] // BLANK_CELL, core.shape[1] // BLANK_CELL
    spread = float(core.reshape(rows, BLANK_CELL, columns, BLANK_CELL, 3).mean(axis=(1, 3)).reshape(-1, 3).std(axis=0).mean())
    ring = np.ones(lab.shape[:2], bool)
    ring[MARGIN:MARGIN + CARD_H, MARGIN:MARGIN + CARD_W] = False
    middle = core.reshape(-1, 3).mean(axis=0)
    distance = float(np.linalg.norm(lab[ring].mean(axis=0) - middle))
    share = float((np.linalg.norm(cv2.blur(lab, (3, 3))[ring] - middle, axis=1) < BLANK_DISTANCE).mean())
    return spread, distance, share


def finds(caches: list[Path]) -> list[dict]:
    """Every find that reaches the blank test in every cached scene, labelled by the
    scene's truth (true card, hidden card, or false) with its `measures`."""
    reached: list[tuple[np.ndarray, np.ndarray]] = []
    blank_test = learned_detect.blank_of_table

    def spy(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        reached.append((image, np.asarray(quads)))
        return blank_test(image, quads)

    learned_detect.blank_of_table = spy  # type: ignore[assignment]
    detector, rows = JointCardDetector(), []
    for file in sorted(f for cache in caches for f in cache.glob("*.npz")):
        data = np.load(file)
        image = cv2.imdecode(data["image"], cv2.IMREAD_COLOR)
        contour = [Detection(q, float(s)) for q, s in zip(data["finds"], data["scores"])]
        detector.contour.detect = lambda _image, contour=contour: contour  # type: ignore[method-assign]
        interior, core, scale = data["interior"].astype(np.float32), data["core"].astype(np.float32), float(data["scale"])
        detector.sure_and_doubted(image, NetworkView(core, scale, detector.learned.cards_of_maps(interior, core, scale)))
        quads = reached[-1][1]
        whole, hidden = list(data["whole"]), list(data["hidden"])
        places = [TruthCard("", tuple(q.mean(axis=0))) for q in whole] + [TruthCard("", tuple(c)) for c in hidden]
        label = {p: "card" if t < len(whole) else "hidden" for p, t in match_by_centre(list(quads), places).pairs}
        for i, quad in enumerate(quads):
            spread, distance, share = measures(image, quad)
            rows.append({"scene": f"{file.parent.name}/{file.stem}", "table": str(data["table"]), "label": label.get(i, "false"),
                         "spread": round(spread, 2), "distance": round(distance, 1), "share": round(share, 2)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("caches", type=Path, nargs="+")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rows = finds(args.caches)
    report: dict[str, object] = {"finds": dict(Counter(r["label"] for r in rows)),
              "doubted_before (spread < 1.0, ring's mean within 8)": dict(Counter(
                  r["label"] for r in rows if r["spread"] < 1.0 and r["distance"] < BLANK_DISTANCE))}
    for spread in SPREADS:
        for share in SHARES:
            report[f"doubted: spread < {spread}, share >= {share}"] = dict(Counter(
                r["label"] for r in rows if r["spread"] < spread and r["share"] >= share))
    report["cards_most_like_their_ring"] = sorted((r for r in rows if r["label"] == "card"), key=lambda r: -r["share"])[:5]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
