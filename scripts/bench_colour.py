"""The colour reader (`vision.colour`) on Gargon cards of every face family and of the
thin-ink case set; prints JSON.

A Gargon card named with no deck is its value and its colour, and the colour is the
part a design moves most: a coloured fill, a ring on a dark card, a thin frame and a
ribbon, or nothing but the value printed thin in the suit colour on light paper
(`scripts.lib.thin_ink`, a case set of our own). Each set is read two ways:
`photographed` (each of the 96 cards drawn, lit and cut with corner error as
`vision.synth.augment.photographed` does; the deck sleeved one way or not) and `scenes`
(cards laid on generated tables, found by the real detector and cut out as the live
pipeline cuts them, as `scripts/bench_printed.py` does). Per set: the share of cards
whose colour is read right, named another colour, or left unsure (None), and the
two costly mistakes apart: a white card read as coloured, a coloured card read as white.

The held-out face family (`families.HELD_OUT`) is measured only when named with
`--families`, under its own key, and is never a set to tune on.

Usage: .venv/bin/python scripts/bench_colour.py [--seed N] [--scenes 15] [--families NAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

import cv2
import numpy as np

from scripts.bench_printed import cut_cards, family_faces, family_key
from scripts.lib.families import FAMILIES, HELD_OUT, TRAINING, deck_of
from scripts.lib.thin_ink import thin_ink_face
from vision.colour import GARGON_COLOURS, read_colour
from vision.synth.augment import photographed
from vision.synth.faces import game_codes
from vision.synth.scenes import EVAL_SEED

THIN_INK = "thin_ink"
FaceFor = Callable[[random.Random], tuple[str, np.ndarray]]


def thin_ink_faces(rng: random.Random) -> tuple[str, np.ndarray]:
    code = rng.choice(game_codes("gargon"))
    return code, thin_ink_face(code, rng)


def photographed_cards(name: str, seed: int) -> list[tuple[str, np.ndarray]]:
    """Every Gargon card of set `name` once, photographed (a family's deck sleeved as `deck_of` draws it)."""
    rng = random.Random(f"{seed}:{name}")
    deck = None if name == THIN_INK else deck_of(name, "gargon", rng)
    faces = ((code, thin_ink_face(code, rng) if deck is None else deck(code)) for code in game_codes("gargon"))
    return [(code, photographed(face, rng)) for code, face in faces]


def score(cards: list[tuple[str, np.ndarray]]) -> dict:
    said, times = [], []
    for _, card in cards:
        start = time.perf_counter()
        said.append(read_colour(card).colour)
        times.append(time.perf_counter() - start)
    truth = [code.rsplit("-", 1)[0] for code, _ in cards]
    n = max(len(cards), 1)
    coloured = [t != "white" for t in truth]
    return {"cards": len(cards),
            "right": round(sum(s == t for s, t in zip(said, truth)) / n, 4),
            "named_wrong": round(sum(s is not None and s != t for s, t in zip(said, truth)) / n, 4),
            "unsure": round(sum(s is None for s in said) / n, 4),
            "white_read_coloured": sum(not c and s != "white" for c, s in zip(coloured, said)),
            "coloured_read_white": sum(c and s == "white" for c, s in zip(coloured, said)),
            "ms_per_card": round(1000 * statistics.median(times), 3) if times else None}


def colour_sets(seed: int, scenes: int, families: tuple[str, ...]) -> Iterator[tuple[str, dict]]:
    """(key, figures) of the thin-ink set, then of each of `families`, as each is measured."""
    cv2.setNumThreads(1)
    sets: list[tuple[str, FaceFor]] = [(THIN_INK, thin_ink_faces)]
    sets += [(family, family_faces("gargon", family)) for family in families]
    for name, faces in sets:
        figures = {"photographed": score(photographed_cards(name, seed))}
        if scenes:  # each set's scenes seeded by its place in [THIN_INK, *FAMILIES], whatever else is measured
            cards, total = cut_cards(seed + 100 + [THIN_INK, *FAMILIES].index(name), scenes, faces)
            figures["scenes"] = {**score(cards), "cards_in_scenes": total}
        yield (f"gargon/{THIN_INK}" if name == THIN_INK else family_key("gargon", name)), figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=EVAL_SEED,
                        help="of the photographs and scenes (the evaluation seed by default; tune on others)")
    parser.add_argument("--scenes", type=int, default=15, help="scenes per set; 0: photographed cards only")
    parser.add_argument("--families", nargs="+", choices=[*TRAINING, HELD_OUT], default=list(TRAINING),
                        help=f"face families to measure (default: the training ones; {HELD_OUT} is held out)")
    args = parser.parse_args()
    report: dict = {"seed": args.seed, "scenes_per_set": args.scenes, "colours": list(GARGON_COLOURS)}
    for key, figures in colour_sets(args.seed, args.scenes, tuple(args.families)):
        print(json.dumps({key: figures}), flush=True)
        report[key] = figures
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
