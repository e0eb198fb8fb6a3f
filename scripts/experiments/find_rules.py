"""The joint detector's last two rules (vision/learned_detect.py), measured for a grid
of their cuts on the training world: which true cards, false finds and finds on a
hidden card each would doubt.

- `blank`: the blank test (vision/cardness.py `blank_of_table`), on every find that
  reaches it: how even its middle is, its distance from the ring's mean colour (the
  rule before) and the share of the ring of its colour (the rule now).
- `odd`: a sure card far smaller than the frame's others and of another shape
  (`_odd_ones`), on every sure card of a frame of four or more: its area over the
  others' median, and its short over long side over theirs.

Reads the training-world caches of `scripts/experiments/detect_errors.py` (the network's
maps and the contour finds of each scene), so the held-out families and tables never
enter:

    nice .venv/bin/python scripts/experiments/find_rules.py build/detect-errors build/detect-errors-2 build/detect-errors-4
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import vision.learned_detect as learned_detect  # noqa: E402
from scripts.lib.evaluate import TruthCard, match_by_centre  # noqa: E402
from vision import cardness  # noqa: E402
from vision.cardness import BLANK_DISTANCE  # noqa: E402
from vision.interfaces import Detection  # noqa: E402
from vision.joint_settings import JointSettings  # noqa: E402
from vision.learned_detect import JointCardDetector, NetworkView, size_and_shape  # noqa: E402

SPREADS, SHARES = (0.5, 1.0, 1.5, 2.0), (0.3, 0.4, 0.5)   # the blank test's cuts tried
AREAS, SHAPES = (0.3, 0.4, 0.5, 0.6), (0.1, 0.15, 0.2, 0.25)  # the odd-card rule's cuts tried


def blank_measures(image: np.ndarray, quads: np.ndarray) -> list[dict[str, float]]:
    """Each find's middle's spread and the share of the ring of its colour (the rule
    now, `vision.cardness.blank_measures`), and its distance from the ring's mean
    colour (the rule before, which only this script still measures)."""
    spreads, shares = cardness.blank_measures(image, quads)
    rows = []
    for quad, spread, share in zip(quads, spreads, shares):
        lab = cv2.cvtColor(cardness._cutout(image, quad.astype(np.float32)), cv2.COLOR_BGR2LAB).astype(np.float32)
        lab[..., 0] *= 0.5
        dx, dy = cardness.CARD_W // 4, cardness.CARD_H // 4
        middle = lab[cardness.MARGIN + dy:cardness.MARGIN + cardness.CARD_H - dy,
                     cardness.MARGIN + dx:cardness.MARGIN + cardness.CARD_W - dx].reshape(-1, 3).mean(axis=0)
        ring = np.ones(lab.shape[:2], bool)
        ring[cardness.MARGIN:cardness.MARGIN + cardness.CARD_H, cardness.MARGIN:cardness.MARGIN + cardness.CARD_W] = False
        rows.append({"spread": float(spread), "share": float(share),
                     "distance": float(np.linalg.norm(lab[ring].mean(axis=0) - middle))})
    return rows


def odd_measures(cards: list[Detection]) -> list[dict[str, float]]:
    """Each card's area and shape over the median of the frame's others
    (`vision.learned_detect.size_and_shape`; none where fewer than four)."""
    if len(cards) < 4:
        return []
    area, shape = size_and_shape(cards)
    return [{"area": float(a), "shape": float(s)} for a, s in zip(area, shape)]


def scenes(caches: list[Path]) -> Iterator[tuple[np.ndarray, np.ndarray, list[Detection], dict[int, str], dict[int, str]]]:
    """Per cached scene: its frame, the finds reaching the blank test, the cards the
    detector keeps with every rule but the odd-card one, and the truth's label of each
    ("card", "hidden"; unlabelled: false)."""
    reached: list[np.ndarray] = []
    blank_test = learned_detect.blank_of_table

    def spy(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
        reached.append(np.asarray(quads))
        return blank_test(image, quads)

    learned_detect.blank_of_table = spy  # type: ignore[assignment]
    learned_detect._odd_ones = lambda cards, settings: [False] * len(cards)  # type: ignore[assignment]
    detector = JointCardDetector()
    for file in sorted(f for cache in caches for f in cache.glob("*.npz")):
        data = np.load(file)
        image = cv2.imdecode(data["image"], cv2.IMREAD_COLOR)
        contour = [Detection(q, float(s)) for q, s in zip(data["finds"], data["scores"])]
        detector.contour.detect = lambda _image, contour=contour: contour  # type: ignore[method-assign]
        interior, core, scale = data["interior"].astype(np.float32), data["core"].astype(np.float32), float(data["scale"])
        sure = detector.sure_and_doubted(image, NetworkView(core, scale, detector.learned.cards_of_maps(interior, core, scale)))[0]
        whole, hidden = list(data["whole"]), list(data["hidden"])
        places = [TruthCard("", tuple(q.mean(axis=0))) for q in whole] + [TruthCard("", tuple(c)) for c in hidden]
        yield (image, reached[-1], sure, _labels(list(reached[-1]), places, len(whole)),
               _labels([d.corners for d in sure], places, len(whole)))


def _labels(quads: list[np.ndarray], places: list[TruthCard], whole: int) -> dict[int, str]:
    """Each quad's label by the centre rule: "card" (one of the first `whole` places), "hidden"."""
    return {p: "card" if t < whole else "hidden" for p, t in match_by_centre(quads, places).pairs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("caches", type=Path, nargs="+")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    blank: list[tuple[str, dict[str, float]]] = []
    odd: list[tuple[str, dict[str, float]]] = []
    for image, quads, sure, blank_labels, sure_labels in scenes(args.caches):
        blank += [(blank_labels.get(i, "false"), m) for i, m in enumerate(blank_measures(image, quads))]
        odd += [(sure_labels.get(i, "false"), m) for i, m in enumerate(odd_measures(sure))]
    settings = JointSettings()
    report: dict[str, object] = {
        "blank: finds": dict(Counter(label for label, _ in blank)),
        "blank: doubted before (spread < 1.0, ring's mean within 8)": dict(Counter(
            label for label, m in blank if m["spread"] < 1.0 and m["distance"] < BLANK_DISTANCE)),
        **{f"blank: doubted at spread < {s}, share >= {h}": dict(Counter(
            label for label, m in blank if m["spread"] < s and m["share"] >= h)) for s in SPREADS for h in SHARES},
        "odd: sure cards of frames of four or more": dict(Counter(label for label, _ in odd)),
        **{f"odd: doubted at area < {a}, shape >= {s} off": dict(Counter(
            label for label, m in odd if m["area"] < a and abs(m["shape"] - 1) >= s)) for a in AREAS for s in SHAPES},
        "odd: shipped cuts": [settings.odd_area, settings.odd_shape],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
