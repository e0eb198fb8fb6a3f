"""Cards held in a hand above the table, through the live loop: are they read as laid?

Generated tables of one game (`--game`, Gargon unless told) of 3 to 8 cards (seeds
1..N), held still for 1.5 s, then a card (or a fan of a hand's four backs: Gargon's show
their colours, the other games' a back of no game's) held above the table for 3 s, a thumb over its edge,
wandering and trembling as a hand does, then taken away. Controls: a card laid down for
good, a card brought in by hand and laid, a card laid, lifted to look at for 2 s and put
back. A card is held where it lies farthest from the table's cards, whole in the frame
(and once squarely over the card nearest there), its size 1.2-1.7x that of a card lying
there (its nearest neighbour's). Prints per case
what the live loop said after the first 1.5 s (vision/pipeline.py with the live joint
detector and the printed reader): every event of a held card is a move nobody made.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python scripts/experiments/held_cards.py --tables 6 \
        --pictures docs

A card held above the table is nearer the camera, so it looks larger than the cards lying
there: 1.3x at a hand 15 cm under a camera 65 cm above the table, 1.6x at 25 cm.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from vision.detectors import live_detector  # noqa: E402
from vision.geometry import side_lengths  # noqa: E402
from scripts.lib.scripted import deck_reader  # noqa: E402
from vision.interfaces import Identifier  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402
from vision.track import Tracker  # noqa: E402
from vision.printed import PrintedReader  # noqa: E402
from vision.synth.camera import SKIN, paste_card  # noqa: E402
from vision.synth.faces import FACE_SIZE, GAMES, game_codes, game_face  # noqa: E402
from vision.synth.recording import card_face  # noqa: E402
from vision.synth.tables import game_table  # noqa: E402
from vision.zones import frame_zones  # noqa: E402

STILL = 15  # frames of the table before anything is held (10 a second)
HELD = 30   # frames a card is held


def _quad(centre: np.ndarray, length: float, angle: float, tilt: float) -> np.ndarray:
    """A card's corners, `length` long, turned `angle` degrees, its far end foreshortened
    by `tilt` (a card held at a slant)."""
    w, h = 0.714 * length, length
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    top, bottom = w / 2 * (1 - tilt), w / 2
    corners = np.array([[-top, -h / 2], [top, -h / 2], [bottom, h / 2], [-bottom, h / 2]])
    return corners @ turn.T + centre


def _hold(frame: np.ndarray, faces: list[np.ndarray], corners: list[np.ndarray], shadow: np.ndarray) -> np.ndarray:
    """Frame with cards held: a soft shadow on the table below them, the cards, a thumb."""
    out = frame.astype(np.float32)
    mask = np.zeros(frame.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, shadow.astype(np.int32), 1.0)
    out *= 1 - 0.35 * cv2.GaussianBlur(mask, (0, 0), 12)[..., None]
    out = out.astype(np.uint8)
    for face, quad in zip(faces, corners):
        paste_card(out, face, quad.astype(np.float32), shadow=False)
    last = corners[-1]
    thumb = last[3] + 0.55 * (last[2] - last[3]) + 0.08 * (last[0] - last[3])
    size = np.linalg.norm(last[2] - last[3])
    cv2.ellipse(out, tuple(int(v) for v in thumb), (int(0.16 * size), int(0.28 * size)), 20, 0, 360, SKIN[0], -1,
                cv2.LINE_AA)
    return out


def held(table: np.ndarray, faces: list[np.ndarray], centre: np.ndarray, length: float, frames: int,
         seed: int, drift: float = 0.004, tremor: float = 0.003, spread: float = 0.0) -> list[np.ndarray]:
    """Frames of `faces` held fanned (each `spread` degrees on from the last) above the
    table at `centre`, wandering by `drift` and trembling by `tremor` card lengths a frame."""
    rng = np.random.default_rng(seed)
    at, angle, out = centre.astype(float), 15.0, []
    for _ in range(frames):
        at = at + rng.normal(0, drift * length, 2)
        shake = rng.normal(0, tremor * length, 2)
        angle += rng.normal(0, 0.4)
        quads = [_quad(at + shake + (0.12 * length * i, 0), length, angle + spread * i, 0.08) for i in range(len(faces))]
        shadow = _quad(at + (0.25 * length, 0.3 * length), length * 0.75 + 0.12 * length * len(faces), angle, 0)
        out.append(_hold(table, faces, quads, shadow))
    return out


def free_spot(table: np.ndarray, centres: np.ndarray, length: float) -> np.ndarray:
    """Where a card held at 1.7x the table's cards lies farthest from every card of the table, whole in the frame."""
    h, w = table.shape[:2]
    margin = 1.1 * length
    spots = [np.array([x, y]) for x in np.linspace(margin, w - margin, 20) for y in np.linspace(margin, h - margin, 12)]
    return max(spots, key=lambda spot: float(np.linalg.norm(centres - spot, axis=1).min()))


def _back(colour: tuple[int, int, int]) -> np.ndarray:
    """A card's back in a deck of no game's: a white rim round a coloured, crosshatched field."""
    w, h = FACE_SIZE
    back = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(back, (16, 16), (w - 17, h - 17), colour, -1)
    for k in range(-h, w, 28):
        cv2.line(back, (k, 16), (k + h, h + 16), (245, 245, 245), 2, cv2.LINE_AA)
    return back


def hand(game: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """The card held (a face of `game`) and the backs of a hand of four."""
    if game == "gargon":
        return card_face(game, "red-5"), [card_face(game, c) for c in ("red", "blue", "green", "yellow")]
    codes = game_codes(game)
    return game_face(game, codes[len(codes) // 2]), [_back((120, 40, 30))] * 4


def cases(game: str, table: np.ndarray, spot: np.ndarray, there: float,
          over: np.ndarray) -> dict[str, list[np.ndarray]]:
    """Each case's frames after the still table; `there`: the length of a card lying at
    `spot`; `over`: the centre of the table's card nearest it."""
    red5, backs = hand(game)
    laid = table.copy()
    paste_card(laid, red5, _quad(spot, there, 10, 0).astype(np.float32))
    out: dict[str, list[np.ndarray]] = {}
    for scale in (1.2, 1.35, 1.5, 1.7):
        out[f"one card held 3 s at {scale}x"] = held(table, [red5], spot, scale * there, HELD, 1) + [table] * 20
    out["card held still 3 s at 1.5x"] = held(table, [red5], spot, 1.5 * there, HELD, 2, 0.001, 0.001) + [table] * 20
    square = held(table, [red5], over, 1.5 * there, HELD, 6)
    out["one card held 3 s at 1.5x squarely over a card of the table"] = square + [table] * 20
    fan = held(table, backs, spot, 1.5 * there, HELD, 3, spread=12)
    out["four backs fanned, held 3 s at 1.5x"] = fan + [table] * 20
    out["card laid (control)"] = [laid] * 40
    lifted = held(table, [red5], spot, 1.4 * there, 20, 5)
    out["card laid, lifted 2 s to look at and put back"] = [laid] * 20 + lifted + [laid] * 20
    out["card brought in and laid (control)"] = held(table, [red5], spot, 1.5 * there, 8, 4) + [laid] * 30
    return out


def run(frames: list[np.ndarray], reader: Identifier, picture: Path | None = None) -> list[tuple[int, str, str | None]]:
    """What the live loop says over `frames`: (frame, kind, code). With `picture`, the
    frame 2 s into the case is saved there, the cards the table was told of outlined in
    green with their names, what the tracker holds for a card held above it in orange."""
    h, w = frames[0].shape[:2]
    pipeline = Pipeline(live_detector(), reader, frame_zones(w, h, 3).zone_of)
    said: list[tuple[int, str, str | None]] = []
    for i, frame in enumerate(frames):
        said += [(i, o.kind, o.code) for o in pipeline.process(frame, i / 10)]
        if picture is not None and i == STILL + 20:
            _draw(frame, pipeline.tracker, picture)
    return said


def _draw(frame: np.ndarray, tracker: Tracker, path: Path) -> None:
    out = frame.copy()
    for track in tracker._tracks:  # (an experiment may look inside)
        if track.reading is not None:
            cv2.polylines(out, [track.corners.astype(np.int32)], True, (0, 200, 0), 3, cv2.LINE_AA)
            x, y = track.corners.min(axis=0).astype(int)
            cv2.putText(out, str(track.reading.code), (x, max(y - 8, 20)), cv2.FONT_HERSHEY_DUPLEX, 0.8, (0, 200, 0), 2,
                        cv2.LINE_AA)
    held = sorted((outline for at, outline in tracker._held_at if at == tracker._frame), key=lambda o: -np.ptp(o[:, 0]))
    for k, outline in enumerate(held):
        cv2.polylines(out, [outline.astype(np.int32)], True, (0, 140, 255), 4 if k == 0 else 2, cv2.LINE_AA)
    if held:
        x, y = held[0].min(axis=0).astype(int)
        cv2.putText(out, "held above the table: not read" + (", nor what it hides" if len(held) > 1 else ""),
                    (max(x - 60, 10), max(y - 14, 30)), cv2.FONT_HERSHEY_DUPLEX, 0.9, (0, 140, 255), 2, cv2.LINE_AA)
    cv2.imwrite(str(path), out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="generated tables (seeds 1..N), 3 to 8 cards each")
    parser.add_argument("--pictures", type=Path, help="a folder: held-card.png (table 2, one card at 1.5x) and "
                        "held-fan.png (table 1, the fan of backs), 2 s in, with what the tracker made of them")
    parser.add_argument("--game", default="gargon", choices=GAMES, help="Gargon and dugtungan are read by print, "
                        "Bagani and Lagim by a deck enrolled from every face")
    args = parser.parse_args()
    reader = PrintedReader(args.game) if args.game in ("gargon", "dugtungan") else deck_reader(args.game)
    report: dict = {}
    for seed in range(1, args.tables + 1):
        scene = game_table(args.game, seed, 1, cards=(3, 8)).scenes[0]
        image = cv2.resize(scene.image, (1280, 720))
        factor = 1280 / scene.image.shape[1]
        length = float(np.median([side_lengths(c.corners * factor).max() for c in scene.cards]))
        centres = np.array([c.corners.mean(axis=0) * factor for c in scene.cards])
        spot = free_spot(image, centres, length)
        nearest = scene.cards[int(np.argmin(np.linalg.norm(centres - spot, axis=1)))]
        there = float(side_lengths(nearest.corners * factor).max())  # (the camera's tilt: its neighbour's length)
        over = centres[int(np.argmin(np.linalg.norm(centres - spot, axis=1)))]
        for name, frames in cases(args.game, image, spot, there, over).items():
            show = {(2, "one card held 3 s at 1.5x"): "held-card.png", (1, "four backs fanned, held 3 s at 1.5x"): "held-fan.png"}
            picture = show.get((seed, name))
            picture = picture if args.game == "gargon" else None
            said = run([image] * STILL + frames, reader, args.pictures / picture if args.pictures and picture else None)
            case = report.setdefault(name, {"tables": 0, "cards": 0, "found": 0, "after": []})
            case["tables"] += 1
            case["cards"] += len(scene.cards)
            case["found"] += sum(1 for i, kind, _ in said if i < STILL and kind == "appeared")
            case["after"] += [f"table {seed}: {kind} {code} (frame {i})" for i, kind, code in said if i >= STILL]
            print(seed, name, file=sys.stderr)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
