"""Draw what the card detector finds and what the reader names: one generated table per
layout (the table kinds held out of the learned detector's training, cards of the face
family held out of every decision, `heirloom`, each named by a deck enrolled from
generated photos of its faces, 15% of them never enrolled, as scripts/lib/family_tables.py
enrolls them, a Gargon or dugtungan deck's names checked by print as the app checks
them, vision/print_check.py) and a few realphotos-dev
photos (the blackjack one named by the one-shot deck of scripts/bench_vision.py), the
joint detector the app uses in red over the contour detector alone in blue; and a pile
and a fan of the training world, the contour detector beside itself without the
straight-edge search for overlapping cards (blue). Each card's first corner (its own
top-left up to a half turn) is yellow; its name is written on it, "?" where the reader
says it is none of the deck's cards. Written under docs/detector/ for the model card.

    nice .venv/bin/python scripts/detector_pictures.py [--out docs/detector]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_vision import EVAL_SEED, realdev_one_shot_deck  # noqa: E402
from detector_world import HELD_OUT_FAMILY, HELD_OUT_TABLES, LAYOUTS, TRAIN_FAMILIES, TRAIN_TABLES, world_scene  # noqa: E402
from scripts.lib.families import HELD_OUT  # noqa: E402
from scripts.lib.family_tables import dealer, enrolled_family_deck, family_table  # noqa: E402
from vision.deck import DeckProfile  # noqa: E402
from vision.detect import ContourCardDetector, ContourDetectorSettings  # noqa: E402
from vision.detectors import card_detector  # noqa: E402
from vision.embed import DEFAULT_MODEL, OnnxEmbedder  # noqa: E402
from vision.identify import GalleryIdentifier  # noqa: E402
from vision.imageio import decode  # noqa: E402
from vision.print_check import checked_by_print  # noqa: E402
from vision.recognize import CardRecognizer  # noqa: E402
from vision.refine import refine_quads  # noqa: E402

REALDEV = ROOT.parent / "shared" / "data" / "realphotos-dev" / "photos"
REAL_PICKS = ("blackjack_surface1.png", "blackjack_surface3.png", "bridge_deal1.jpg", "bridge_deal5.jpg", "set_tomwhite_cloth.jpg")
NAMED_REAL = "blackjack_surface3.png"  # the one-shot deck's test photo
LAYOUT_GAMES = {"apart": "bagani", "row": "dugtungan", "grid": "gargon", "pile": "lagim", "fan": "gargon"}  # a word is a row
WIDTH = 960  # pictures are saved this wide


def drawn(image: np.ndarray, quads: list[np.ndarray], before: list[np.ndarray] = (),
          names: list[str | None] | None = None) -> np.ndarray:
    """`quads` in red, first corner yellow, each with its name (None: "?") where `names`
    are given; `before` (another detector's) thin in blue under them."""
    scale = WIDTH / image.shape[1]
    out = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    for quad in before:
        cv2.polylines(out, [np.round(quad * scale).astype(np.int32)], True, (255, 96, 0), 4, cv2.LINE_AA)
    for quad in quads:
        q = np.round(quad * scale).astype(np.int32)
        cv2.polylines(out, [q], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in q[0]), 5, (0, 255, 255), -1, cv2.LINE_AA)
    for quad, name in zip(quads, names or ()):
        label = name or "?"
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
        x, y = (quad.mean(axis=0) * scale).astype(int) - [w // 2, -h // 2]
        cv2.rectangle(out, (int(x) - 3, int(y) - h - 4), (int(x) + w + 3, int(y) + 4), (255, 255, 255), -1)
        cv2.putText(out, label, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 160), 1, cv2.LINE_AA)
    return out


def overlap_pictures(out: Path) -> None:
    """One pile and one fan of the training world (`overlap_<layout>.jpg`): the shipping
    detector in red over the same without the straight-edge search (vision/overlap.py)
    in blue, both fitted to the edges."""
    rng = random.Random("detector-pictures-overlap")
    now, before = ContourCardDetector(), ContourCardDetector(ContourDetectorSettings(overlaps=False))
    for layout in ("pile", "fan"):
        scene = world_scene(rng, (1280, 720), TRAIN_TABLES, TRAIN_FAMILIES, layout, card_px=(110, 260))
        found = [refine_quads(scene.image, [d.corners for d in detector.detect(scene.image)]) for detector in (now, before)]
        cv2.imwrite(str(out / f"overlap_{layout}.jpg"), drawn(scene.image, list(found[0]), list(found[1])),
                    [cv2.IMWRITE_JPEG_QUALITY, 80])


def pictures(out: Path) -> None:
    """The joint detector's finds (with the names its reader gives them) in red over the
    contour detector's in blue, both fitted to the edges."""
    embedder, contour, detector = OnnxEmbedder(DEFAULT_MODEL), ContourCardDetector(), card_detector()

    def save(name: str, image: np.ndarray, deck: DeckProfile | None) -> None:
        if deck is None:  # no deck of these cards: outlines only
            quads, names = list(refine_quads(image, [d.corners for d in detector.detect(image)])), None
        else:
            found = CardRecognizer(detector, checked_by_print(GalleryIdentifier(deck.gallery, embedder), deck.game)).recognize(image)
            quads, names = [f.corners for f in found], [f.reading.code for f in found]
        before = list(refine_quads(image, [d.corners for d in contour.detect(image)]))
        cv2.imwrite(str(out / f"{name}.jpg"), drawn(image, quads, before, names), [cv2.IMWRITE_JPEG_QUALITY, 80])

    rng = random.Random("detector-pictures")
    for layout in LAYOUTS:
        game = LAYOUT_GAMES[layout]
        deck = enrolled_family_deck(HELD_OUT, family_table(HELD_OUT, game, EVAL_SEED, 0), embedder, EVAL_SEED)
        save(f"held_out_{layout}", world_scene(rng, (1280, 720), HELD_OUT_TABLES, (HELD_OUT_FAMILY,), layout,
                                               card_px=(110, 260), faces=dealer(HELD_OUT, game, EVAL_SEED)).image, deck)
    one_shot, _ = realdev_one_shot_deck(embedder)
    for photo in REAL_PICKS:
        if (REALDEV / photo).is_file():
            save(f"real_{Path(photo).stem}", decode((REALDEV / photo).read_bytes())[0], one_shot if photo == NAMED_REAL else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "detector")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    pictures(args.out)
    overlap_pictures(args.out)


if __name__ == "__main__":
    main()
