"""The printed-token reader against an OCR baseline, on generated scenes; prints JSON.

Scenes come from `vision.synth.scenes` (tables, tilt, light, glare, hands, blur, JPEG)
with the scene generator's evaluation seed, which training never uses. Two sets per
game: the project's own faces (`vision.synth.faces`), and the same layouts drawn in
the font families held out of training (`vision.printed_faces.HELD_OUT_FAMILIES`).
Cards are found by the real detector, matched to the truth by centre, cut out, and
read by (a) `vision.printed.PrintedReader` and (b) PP-OCR through rapidocr-onnxruntime
(benchmark only: `.venv/bin/pip install rapidocr-onnxruntime`), which reads the text
and takes the tallest line as the token; Gargon's colour comes from `vision.colour`
for both, so the comparison is about reading the print. Accuracy is per detected card;
milliseconds are per card at one thread.

Usage: .venv/bin/python scripts/bench_printed.py [--scenes 40] [--ocr-cards 60]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from typing import Callable

import cv2
import numpy as np

from vision.colour import read_colour
from vision.detect import ContourCardDetector, rectify
from vision.evaluate import TruthCard, match_by_centre
from vision.printed import PrintedReader, token_labels
from vision.printed_faces import dugtungan_face, fonts, gargon_face
from vision.synth.faces import game_codes, game_face
from vision.synth.scenes import EVAL_SEED, render_scene

FaceFor = Callable[[random.Random], tuple[str, np.ndarray]]


def project_faces(game: str) -> FaceFor:
    codes = game_codes(game)
    return lambda rng: (code := rng.choice(codes), game_face(game, code))


def held_out_faces(game: str) -> FaceFor:
    held = fonts(held_out=True)
    codes = game_codes(game)

    def face_for(rng: random.Random) -> tuple[str, np.ndarray]:
        code, font = rng.choice(codes), rng.choice(held)
        if game == "gargon":
            colour, value = code.rsplit("-", 1)
            return code, gargon_face(colour, int(value), font, rng)
        return code, dugtungan_face(code, font, rng)

    return face_for


def cut_cards(seed: int, scenes: int, face_for: FaceFor) -> tuple[list[tuple[str, np.ndarray]], int]:
    """(truth code, rectified card) for every detected card, and how many cards there were."""
    rng = random.Random(seed)
    detector = ContourCardDetector()
    cards, total = [], 0
    for _ in range(scenes):
        scene = render_scene(rng, [face_for(rng) for _ in range(rng.randint(3, 7))])
        truth = [TruthCard(c.code, tuple(map(float, c.corners.mean(axis=0)))) for c in scene.cards]
        quads = [d.corners for d in detector.detect(scene.image)]
        total += len(truth)
        for p, t in match_by_centre(quads, truth).pairs:
            cards.append((truth[t].code, rectify(scene.image, quads[p])))
    return cards, total


class OcrBaseline:
    """PP-OCR reads every text line; the tallest line is the token, an action line follows."""

    def __init__(self, game: str) -> None:
        from rapidocr_onnxruntime import RapidOCR  # benchmark only

        self.ocr = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
        self.game = game
        self.actions = {t.partition(":")[2].replace("+", ""): t.partition(":")[2]
                        for t in token_labels()["dugtungan"] if ":" in t}

    def code(self, card: np.ndarray) -> str | None:
        big = cv2.resize(card, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        lines, _ = self.ocr(big)
        if not lines:
            return None
        texts = [(abs(box[2][1] - box[0][1]), re.sub(r"[^A-Z0-9]", "", text.upper())) for box, text, _ in lines]
        texts = [(h, t) for h, t in texts if t]
        if not texts:
            return None
        token = max(texts)[1]
        if self.game == "gargon":
            digits = re.sub(r"\D", "", token.replace("O", "0"))
            colour = read_colour(card).colour
            return f"{colour}-{int(digits)}" if digits and colour else None
        token = token.replace("0", "O")  # dugtungan prints letters only
        action = next((self.actions[t] for _, t in texts if t in self.actions), None)
        return f"{token}:{action}" if action else token


def score(read: Callable[[np.ndarray], str | None], cards: list[tuple[str, np.ndarray]]) -> dict:
    right, times = 0, []
    for code, card in cards:
        start = time.perf_counter()
        answer = read(card)
        times.append(time.perf_counter() - start)
        right += answer == code
    return {"accuracy": round(right / max(len(cards), 1), 4), "ms_per_card": round(1000 * statistics.median(times), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--ocr-cards", type=int, default=60,
                        help="cards per set also read by the OCR baseline (about 1 s each); 0 skips it")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    report: dict = {"eval_seed": EVAL_SEED, "scenes_per_set": args.scenes}
    for game in ("gargon", "dugtungan"):
        reader = PrintedReader(game)
        ocr = OcrBaseline(game) if args.ocr_cards else None
        for name, faces in (("project_faces", project_faces(game)), ("held_out_fonts", held_out_faces(game))):
            cards, total = cut_cards(EVAL_SEED + (0 if name == "project_faces" else 1), args.scenes, faces)
            entry = {"cards": total, "detected": len(cards),
                     "printed_reader": score(lambda c: reader.identify(c).code, cards)}
            if ocr is not None:
                subset = cards[:args.ocr_cards]
                entry["same_cards_for_both"] = len(subset)
                entry["printed_reader_on_those"] = score(lambda c: reader.identify(c).code, subset)
                entry["ocr_baseline_ppocr"] = score(ocr.code, subset)
            report[f"{game}/{name}"] = entry
            print(json.dumps({f"{game}/{name}": entry}), flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
