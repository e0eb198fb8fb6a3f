"""A table of few cards under a steeply tilted camera, through the tracker alone: is a
card laid near the camera taken for held (it waits 3 s), and is a card held over a far
card read as laid? Prints JSON per number of cards the table fits its sizes from.

How large the tracker takes a card lying at a place to look (`vision/table_scale.py`)
decides both, and with few cards it has little to go on. Measured on outlines with no
pixels: a camera over the table's near edge whose far side of the frame shows the table
at 0.48x (about 45 degrees of tilt; `--roll`: turned about its axis too, as a camera at
the table's corner, which a rule that holds for any turn of the frame does not feel; the
turned view leaves some places outside the frame, which a tracker fed outlines sees all
the same), 1 to `--most` cards lying at random places (from six the tracker fits the
tilt from their sizes; a share `--panels` of them, one in five unless told, outlined by
a printed panel 0.8x their size, as the detector sometimes does), then either a card
laid at another random place (`laid_waited`: reported more than 1 s after it was laid;
`laid_never`: not within 4 s), or a card laid on one of them as on a discard pile,
turned up to 15 degrees and off by up to a tenth of its width (`pile_waited`,
`pile_never`), or a card held 1.3-1.6x over one of them, hiding it, wandering 0.4% and
trembling 0.3% of its length a frame as scripts/experiments/held_cards.py holds its
cards (`held_read_as_laid`). Run in a worktree of an earlier commit, it measures that
commit's tracker.

    .venv/bin/python scripts/experiments/few_cards_tilt.py --tables 100 [--roll 30] [--most 8] [--panels 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.interfaces import Candidate, Reading  # noqa: E402
from vision.track import Tracker  # noqa: E402

TILT = cv2.getPerspectiveTransform(np.float32([[0, 0], [1280, 0], [1280, 720], [0, 720]]),
                                   np.float32([[330, 40], [950, 40], [1280, 720], [0, 720]]))
VIEW = {"camera": TILT, "panels": 0.2}  # the tilt, turned by --roll about the frame's centre; --panels
LAID_FRAMES = 40   # frames a laid card is watched for
HELD_FRAMES = 30   # frames a card is held
WAITED = 10        # a laid card reported later than this many frames after it was laid waited for the held rule


def outline(x: float, y: float, angle: float, scale: float = 1.0) -> np.ndarray:
    """The frame outline of a 63x88 card lying at (x, y) of the table plane, turned, its
    outline `scale` times its size about its centre (a printed panel: under 1)."""
    half = np.array([[-63, -88], [63, -88], [63, 88], [-63, 88]], np.float64) / 2 * 1.6
    a = np.radians(angle)
    flat = half @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) + (x, y)
    quad = cv2.perspectiveTransform(flat[None].astype(np.float32), VIEW["camera"])[0].astype(np.float64)
    centre = quad.mean(axis=0)
    return centre + scale * (quad - centre)


def spots(rng: random.Random, count: int) -> list[tuple[float, float, float]]:
    """`count` places on the table plane, no two cards overlapping."""
    out: list[tuple[float, float, float]] = []
    while len(out) < count:
        x, y = rng.uniform(120, 1160), rng.uniform(110, 640)
        if all(np.hypot(x - a, y - b) > 170 for a, b, _ in out):
            out.append((x, y, rng.uniform(0, 180)))
    return out


def reader(codes: dict[int, np.ndarray], held: float = float("inf"), pile: np.ndarray | None = None):
    """Names each card by the place nearest its centre (the new card too), an outline
    larger than `held` (the square root of its area) "held", one centred within 3 px of
    `pile` "pile"."""
    def identify(corners: np.ndarray) -> Reading:
        centre = corners.mean(axis=0)
        code = min(codes, key=lambda k: float(np.linalg.norm(centre - codes[k])))
        name = "held" if cv2.contourArea(corners.astype(np.float32)) ** 0.5 > held else f"card-{code}"
        if pile is not None and np.linalg.norm(centre - pile) < 3:
            name = "pile"
        return Reading(name, 0.95, (Candidate(name, 0.95),))
    return identify


class Sight:
    """What the pipeline's look at the pixels tells the tracker (`vision.track.Cover`):
    what lies at an outline is the held card where it lies inside the held card's outline,
    else the card lying nearest; nothing round a card ever changes as a whole."""

    def __init__(self, centres: dict[int, np.ndarray]) -> None:
        self.centres = centres
        self.held: np.ndarray | None = None
        self.held_before: np.ndarray | None = None  # the held card's outline in the frame before

    def _key(self, corners: np.ndarray, held: np.ndarray | None) -> int:
        centre = corners.mean(axis=0)
        if held is not None and cv2.pointPolygonTest(held.astype(np.float32), tuple(float(v) for v in centre), False) > 0:
            return 63
        return min(self.centres, key=lambda k: float(np.linalg.norm(centre - self.centres[k])))

    def look(self, corners: np.ndarray) -> np.ndarray:
        return np.eye(64)[self._key(corners, self.held)]

    def print_at(self, corners: np.ndarray, before: bool = False) -> np.ndarray:
        return np.eye(64)[self._key(corners, self.held_before if before else self.held)]

    def around(self, corners: np.ndarray) -> np.ndarray:
        return np.zeros((4, 3))

    def covered(self, around: np.ndarray, corners: np.ndarray) -> bool:
        return False

    def table_inside(self, around: np.ndarray, corners: np.ndarray) -> float | None:
        return None

    def update(self, tracker: Tracker, quads: list[np.ndarray], timestamp: float, identify) -> list:
        events = tracker.update(quads, timestamp, identify, [self.look(q) for q in quads], cover=self)
        self.held_before = self.held
        return events


def table(rng: random.Random, count: int) -> tuple[Tracker, list[np.ndarray], list[tuple[float, float, float]], Sight]:
    """A tracker that has named `count` cards lying on the table, their outlines and places,
    and the sight of them."""
    places = spots(rng, count + 1)
    lying = [outline(*p, scale=0.8 if rng.random() < VIEW["panels"] else 1.0) for p in places[:-1]]
    tracker = Tracker()
    centres = {k: outline(*p).mean(axis=0) for k, p in enumerate(places)}
    identify, sight = reader(centres), Sight(centres)
    for i in range(5):
        sight.update(tracker, lying, i / 10, identify)
    return tracker, lying, places, sight


def laid_wait(rng: random.Random, count: int) -> int:
    """Frames from a card laid at a free place to its report (LAID_FRAMES if never)."""
    tracker, lying, places, sight = table(rng, count)
    new = outline(*places[-1])
    identify = reader(sight.centres)
    for i in range(LAID_FRAMES):
        jitter = rng.gauss(0, 0.2)
        if any(e.kind == "appeared" for e in sight.update(tracker, lying + [new + jitter], 0.5 + i / 10, identify)):
            return i
    return LAID_FRAMES


def pile_wait(rng: random.Random, count: int) -> int:
    """Frames from a card laid on one of the table's cards, hiding it, to its report
    (LAID_FRAMES if never)."""
    tracker, lying, places, sight = table(rng, count)
    under = rng.randrange(count)
    x, y, angle = places[under]
    new = outline(x + rng.uniform(-10, 10), y + rng.uniform(-10, 10), angle + rng.uniform(-15, 15))
    hidden = [quad for k, quad in enumerate(lying) if k != under]
    identify = reader(sight.centres, pile=new.mean(axis=0))
    sight.held = new
    for i in range(LAID_FRAMES):
        jitter = rng.gauss(0, 0.2)
        if any(e.code == "pile" for e in sight.update(tracker, hidden + [new + jitter], 0.5 + i / 10, identify)):
            return i
    return LAID_FRAMES


def held_read(rng: random.Random, count: int) -> bool:
    """Whether a card held over one of the table's cards, hiding it, is read as laid."""
    tracker, lying, places, sight = table(rng, count)
    under = rng.randrange(count)
    base = outline(*places[under])
    size = rng.uniform(1.3, 1.6)
    length = float(np.linalg.norm(base[1] - base[0]) + np.linalg.norm(base[2] - base[1]))
    at = np.zeros(2)
    hidden = [quad for k, quad in enumerate(lying) if k != under]
    identify = reader(sight.centres, 1.15 * cv2.contourArea(base.astype(np.float32)) ** 0.5)  # another card than the one it hides
    said = False
    for i in range(HELD_FRAMES):
        at += np.array([rng.gauss(0, 0.004 * length), rng.gauss(0, 0.004 * length)])
        shake = np.array([rng.gauss(0, 0.003 * length), rng.gauss(0, 0.003 * length)])
        centre = base.mean(axis=0)
        quad = centre + size * (base - centre) + at + shake
        sight.held = quad
        said |= any(e.kind == "appeared" for e in sight.update(tracker, hidden + [quad], 0.5 + i / 10, identify))
    return said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of each number of cards, for each case")
    parser.add_argument("--panels", type=float, default=0.2,
                        help="share of the table's cards outlined by a printed panel 0.8x their size")
    parser.add_argument("--most", type=int, default=5, help="the most cards lying on the table")
    parser.add_argument("--roll", type=float, default=0.0,
                        help="degrees the camera is turned about its axis too (standing at the table's corner)")
    args = parser.parse_args()
    VIEW["panels"] = args.panels
    VIEW["camera"] = np.vstack([cv2.getRotationMatrix2D((640, 360), args.roll, 1.0), [0, 0, 1]]) @ TILT
    report: dict = {"roll": args.roll, "tables": args.tables}
    for count in range(1, args.most + 1):  # cards lying on the table
        rng = random.Random(f"few-cards:{count}")
        waits = [laid_wait(rng, count) for _ in range(args.tables)]
        held = [held_read(rng, count) for _ in range(args.tables)]
        piles = [pile_wait(random.Random(f"pile:{count}:{k}"), count) for k in range(args.tables)]
        report[f"{count} cards"] = {"laid_waited": sum(w > WAITED for w in waits),
                                    "laid_never": waits.count(LAID_FRAMES), "held_read_as_laid": sum(held),
                                    "pile_waited": sum(w > WAITED for w in piles),
                                    "pile_never": piles.count(LAID_FRAMES)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
