"""The printed-token reader against an OCR baseline, on generated scenes; prints JSON.

Scenes come from `vision.synth.scenes` (tables, tilt, light, glare, hands, blur, JPEG)
with the scene generator's evaluation seed, which training never uses. Two sets per
game: the project's own faces (`vision.synth.faces`), and the same layouts drawn in
the font families held out of training (`scripts.lib.printed_faces.HELD_OUT_FAMILIES`).
Cards are found by the real detector, matched to the truth by centre, cut out, and
read by (a) `vision.printed.PrintedReader` (Gargon, dugtungan: the card's code) or
`LevelReader` (Lagim: the entity level I-X) and (b) PP-OCR through rapidocr-onnxruntime
(benchmark only: `.venv/bin/pip install rapidocr-onnxruntime`), which reads the text
and takes the tallest line as the token (for Lagim: the line that is a numeral I-X, on
the card as it lies, else turned round); Gargon's colour comes from `vision.colour`
for both, so the comparison is about reading the print. Accuracy is per detected card
(a card not found counts against neither); milliseconds are per card at one thread.

With `--families`, also each face family of `scripts.lib.families` (Gargon and
dugtungan: the families print Lagim levels where each design puts them, not in
`LEVEL_BOX`), each deck sleeved or not as `deck_of` draws it; the held-out family
(`families.HELD_OUT`, never trained or tuned on) is reported under its own key,
`<game>/held_out_family:<name>`, the others as `<game>/family:<name>`.

Usage: .venv/bin/python scripts/bench_printed.py [--scenes 40] [--ocr-cards 60] [--model ONNX] [--families [NAME ...]]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for scripts.lib when run as a file

import cv2
import numpy as np

from vision.colour import read_colour
from vision.detect import ContourCardDetector
from scripts.lib.evaluate import TruthCard, match_by_centre
from vision.pipeline import cut_out
from vision.printed import CORNER_MODEL, DEFAULT_MODEL, LEVEL_MODEL, LEVELS, LevelReader, PrintedReader, token_labels
from scripts.lib.printed_faces import dugtungan_face, fonts, gargon_face, lagim_level_face
from vision.synth.faces import game_codes, game_face, roman
from scripts.lib.families import FAMILIES, HELD_OUT, deck_of
from vision.synth.scenes import EVAL_SEED, render_scene

FaceFor = Callable[[random.Random], tuple[str, np.ndarray]]
GAMES = ("gargon", "dugtungan", "lagim")


def project_level(code: str) -> str:
    """The numeral `vision.synth.faces.lagim_face` prints on a Lagim card (seeded by its code)."""
    return roman(random.Random("level:" + code).randint(1, 10))


def project_faces(game: str) -> FaceFor:
    """(truth, face): a card's code; for Lagim, the level it prints."""
    codes = game_codes(game)
    if game == "lagim":
        return lambda rng: (project_level(code := rng.choice(codes)), game_face(game, code))
    return lambda rng: (code := rng.choice(codes), game_face(game, code))


def held_out_faces(game: str) -> FaceFor:
    held = fonts(held_out=True)
    codes = game_codes(game)

    def face_for(rng: random.Random) -> tuple[str, np.ndarray]:
        code, font = rng.choice(codes), rng.choice(held)
        if game == "gargon":
            colour, value = code.rsplit("-", 1)
            return code, gargon_face(colour, int(value), font, rng)
        if game == "lagim":
            level = rng.randint(1, 10)
            return roman(level), lagim_level_face(level, font, rng)
        return code, dugtungan_face(code, font, rng)

    return face_for


def family_faces(game: str, family: str) -> FaceFor:
    """(code, face) from one deck of `family`, sleeved or not as the deck happens to be."""
    codes = game_codes(game)
    deck = deck_of(family, game, random.Random(f"printed-deck:{family}:{game}"))
    return lambda rng: (code := rng.choice(codes), deck(code))


def family_key(game: str, family: str) -> str:
    return f"{game}/{'held_out_family' if family == HELD_OUT else 'family'}:{family}"


def reader_for(game: str, model: Path | None, corners: Path | None = CORNER_MODEL) -> Callable[[np.ndarray], str | None]:
    """What the printed reader says a card is: its code, or for Lagim its level numeral
    (`model`, or by default the model each reader ships with; `corners` the corner-index
    model, None to read the whole card alone)."""
    if game == "lagim":
        levels = LevelReader(model or LEVEL_MODEL)
        return lambda card: roman(level) if (level := levels.read(card).value) else None
    reader = PrintedReader(game, model or DEFAULT_MODEL, corners=corners)
    return lambda card: reader.identify(card).code


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
            cards.append((truth[t].code, cut_out(scene.image, quads[p])))  # as the live pipeline cuts them
    return cards, total


class OcrBaseline:
    """PP-OCR reads every text line; the tallest line is the token, an action line follows."""

    def __init__(self, game: str) -> None:
        from rapidocr_onnxruntime import RapidOCR  # benchmark only

        self.ocr = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
        self.game = game
        self.actions = {t.partition(":")[2].replace("+", ""): t.partition(":")[2]
                        for t in token_labels()["dugtungan"] if ":" in t}

    def lines(self, card: np.ndarray) -> list[tuple[float, str]]:
        """(height, capitals and digits) of every text line PP-OCR finds."""
        big = cv2.resize(card, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        found, _ = self.ocr(big)
        texts = [(abs(box[2][1] - box[0][1]), re.sub(r"[^A-Z0-9]", "", text.upper())) for box, text, _ in found or ()]
        return [(h, t) for h, t in texts if t]

    def code(self, card: np.ndarray) -> str | None:
        if self.game == "lagim":
            for view in (card, cv2.rotate(card, cv2.ROTATE_180)):
                numerals = [t.replace("1", "I").replace("L", "I") for _, t in self.lines(view)]
                found = [t for t in numerals if t in LEVELS]
                if found:
                    return found[0]
            return None
        texts = self.lines(card)
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
    """Share read right, share named wrong (the costly mistake), share left unsure (None:
    the host is asked), and the median time per card."""
    answers, times = [], []
    for _, card in cards:
        start = time.perf_counter()
        answers.append(read(card))
        times.append(time.perf_counter() - start)
    n = max(len(cards), 1)
    return {"accuracy": round(sum(a == code for a, (code, _) in zip(answers, cards)) / n, 4),
            "named_wrong": round(sum(a is not None and a != code for a, (code, _) in zip(answers, cards)) / n, 4),
            "unsure": round(sum(a is None for a in answers) / n, 4),
            "ms_per_card": round(1000 * statistics.median(times), 2) if times else None}


def printed_report(scenes: int, ocr_cards: int, model: Path | None = None, games: tuple[str, ...] = GAMES,
                   progress: Callable[[dict], None] | None = None, families: tuple[str, ...] = (),
                   corners: Path | None = CORNER_MODEL) -> dict:
    """Every set of every game in `games` (and of each of `families`, Gargon and
    dugtungan); `progress` sees each set's entry as it is done."""
    cv2.setNumThreads(1)
    report: dict = {"eval_seed": EVAL_SEED, "scenes_per_set": scenes, "model": str(model or "shipped"),
                    "corners": str(corners)}
    for game in games:
        read = reader_for(game, model, corners)
        ocr = OcrBaseline(game) if ocr_cards else None
        sets = [("project_faces", EVAL_SEED, project_faces(game)), ("held_out_fonts", EVAL_SEED + 1, held_out_faces(game))]
        # each family seeded by its place in FAMILIES, so a set is the same scenes whichever others are asked for
        sets += [(family_key(game, family), EVAL_SEED + 2 + list(FAMILIES).index(family), family_faces(game, family))
                 for family in families if game != "lagim"]
        for name, seed, faces in sets:
            cards, total = cut_cards(seed, scenes, faces)
            entry = {"cards": total, "detected": len(cards), "printed_reader": score(read, cards)}
            if ocr is not None:
                subset = cards[:ocr_cards]
                entry["same_cards_for_both"] = len(subset)
                entry["printed_reader_on_those"] = score(read, subset)
                entry["ocr_baseline_ppocr"] = score(ocr.code, subset)
            key = name if "/" in name else f"{game}/{name}"
            report[key] = entry
            if progress is not None:
                progress({key: entry})
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--ocr-cards", type=int, default=60,
                        help="cards per set also read by the OCR baseline (about 1 s each); 0 skips it")
    parser.add_argument("--model", type=Path, help="the printed-token model to measure (default: the shipped "
                        "models, printed_levels.onnx for Lagim levels)")
    parser.add_argument("--corners", type=Path, default=CORNER_MODEL,
                        help="the corner-index model the Gargon and dugtungan readers weigh in (default: the shipped one)")
    parser.add_argument("--no-corners", action="store_true", help="read the whole card alone, as before the corner model")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--families", nargs="*", choices=list(FAMILIES),
                        help="also these face families (none named: all of them; the held-out one reported apart)")
    args = parser.parse_args()
    families = tuple(FAMILIES) if args.families == [] else tuple(args.families or ())
    report = printed_report(args.scenes, args.ocr_cards, args.model, tuple(args.games),
                            progress=lambda entry: print(json.dumps(entry), flush=True), families=families,
                            corners=None if args.no_corners else args.corners)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
