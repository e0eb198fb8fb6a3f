"""What the camera's frame size does to recognition: generated tables read as the 1280x720
frames they are and shrunk to half (640x360: the same table seen by a webcam left at its
640x480 default, cards half as tall). Why companion asks a camera for 1280x720
(vision/sources.py, the camera_width / camera_height settings). Two worlds: the
benchmark's own tables (cards apart, ~210 px tall) and the detector world's training
tables and training face families, every layout, cards 60-400 px tall, read by a deck
of the family (as scripts/experiments/ident_world.py enrolls it).

    nice .venv/bin/python scripts/experiments/frame_size.py [--scenes 10] [--world-scenes 2]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import random  # noqa: E402

from bench_vision import EVAL_SEED, eval_deck, shipped  # noqa: E402
from detector_world import LAYOUTS, TRAIN_TABLES, world_scene  # noqa: E402
from scripts.experiments.ident_world import SEED, enrollment  # noqa: E402
from scripts.lib.families import TRAINING  # noqa: E402
from scripts.lib.family_tables import dealer, family_table  # noqa: E402
from scripts.lib.evaluate import Tally, TruthCard  # noqa: E402
from vision.embed import DEFAULT_MODEL, OnnxEmbedder  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.print_check import checked_by_print  # noqa: E402
from vision.recognize import CardRecognizer  # noqa: E402
from vision.synth.faces import GAMES  # noqa: E402
from vision.synth.tables import game_table  # noqa: E402

SCALES = {"1280x720": 1.0, "640x360": 0.5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=10, help="generated tables per game")
    parser.add_argument("--world-scenes", type=int, default=2, help="training-world tables per layout, family and game")
    args = parser.parse_args()
    embedder = OnnxEmbedder(DEFAULT_MODEL, 1)
    report: dict = {"seed": EVAL_SEED, "scenes_per_game": args.scenes}
    overall = {name: Tally() for name in SCALES}
    for game in GAMES:
        table = game_table(game, EVAL_SEED, args.scenes)
        deck = eval_deck(game, table.enrolled, embedder)
        recognizer = CardRecognizer(shipped(), checked_by_print(GalleryIdentifier(deck.gallery, embedder), game))
        tallies = {name: Tally() for name in SCALES}
        heights = []
        for scene in table.scenes:
            heights += [float(max(cv2.minAreaRect(c.corners.astype("float32"))[1])) for c in scene.cards]
            for name, scale in SCALES.items():
                image = scene.image if scale == 1 else cv2.resize(scene.image, None, fx=scale, fy=scale,
                                                                   interpolation=cv2.INTER_AREA)
                truth = [TruthCard(c.code, tuple(c.corners.mean(axis=0) * scale)) for c in scene.cards]
                results = recognizer.recognize(image)
                for tally in (tallies[name], overall[name]):
                    tally.add(results, truth, set(table.enrolled), [c.corners * scale for c in scene.cards])
        heights.sort()
        report[game] = {"card_px_at_1280x720_median": round(heights[len(heights) // 2], 1)} | {
            name: tally.summary() for name, tally in tallies.items()}
        print(game, file=sys.stderr)
    report["all_games"] = {name: tally.summary() for name, tally in overall.items()}
    report["training_world"] = world(embedder, args.world_scenes)
    print(json.dumps(report, indent=1))


def world(embedder: OnnxEmbedder, scenes: int) -> dict:
    """The training world's tables at both sizes, all families and games together."""
    tallies = {name: Tally() for name in SCALES}
    for family in TRAINING:
        for game in GAMES:
            table = family_table(family, game, SEED, 0)
            deck = enrollment(family, game, table.enrolled, SEED).profile(embedder)
            recognizer = CardRecognizer(shipped(), checked_by_print(GalleryIdentifier(deck.gallery, embedder), game))
            faces, rng = dealer(family, game, SEED), random.Random(f"frame-size:{family}:{game}:{SEED}")
            for layout in LAYOUTS:
                for _ in range(scenes):
                    scene = world_scene(rng, (1280, 720), TRAIN_TABLES, ("pips",), layout, card_px=(60, 400),
                                        faces=faces)
                    whole = scene.whole()
                    for name, scale in SCALES.items():
                        image = scene.image if scale == 1 else cv2.resize(scene.image, None, fx=scale, fy=scale,
                                                                           interpolation=cv2.INTER_AREA)
                        truth = [TruthCard(c.code, tuple(c.outline.mean(axis=0) * scale)) for c in whole]
                        tallies[name].add(recognizer.recognize(image), truth, set(table.enrolled),
                                          [c.outline * scale for c in whole])
            print(family, game, file=sys.stderr)
    return {name: tally.summary() for name, tally in tallies.items()}


if __name__ == "__main__":
    main()
