"""`companion recognize`: find and name every card in still images."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2

from companion.commands.enroll import GAMES
from companion.errors import UsageError
from vision.deck import DeckProfile
from vision.embed import DEFAULT_MODEL, ModelMissing, file_sha256
from vision.recognize import CardRecognizer


def _printed_recognizer(game: str | None) -> CardRecognizer:
    """Gargon and dugtungan cards name themselves in print: no enrolled deck needed."""
    from vision.detect import ContourCardDetector
    from vision.printed import GAMES as PRINTED_GAMES, PrintedModelMissing, PrintedReader

    if game not in PRINTED_GAMES:
        raise UsageError("", "deck", f"{game or 'this game'} needs an enrolled deck (companion enroll ... --out DECK, "
                         f"then --deck DECK); only {' and '.join(PRINTED_GAMES)} cards are read from print")
    try:
        return CardRecognizer(ContourCardDetector(), PrintedReader(game))
    except PrintedModelMissing as exc:
        raise UsageError("", "model", str(exc)) from None


def _recognizer(args: argparse.Namespace) -> CardRecognizer:
    if args.deck is None:
        return _printed_recognizer(args.game)
    try:
        deck = DeckProfile.load(Path(args.deck))
    except FileNotFoundError:
        raise UsageError(args.deck, "deck", "no such file") from None
    except ValueError as exc:
        raise UsageError(args.deck, "deck", str(exc)) from None
    if args.game and deck.game not in (args.game, "generic"):
        raise UsageError(args.deck, "game", f"this deck was enrolled for {deck.game}, not {args.game}")
    model = Path(args.model)
    try:
        if model.is_file() and file_sha256(model) != deck.model_sha256:
            raise UsageError(args.deck, "deck", "enrolled with another version of the card model; enroll the deck again")
        return CardRecognizer.for_deck(deck, model)
    except ModelMissing as exc:
        raise UsageError("", "model", str(exc)) from None


def run(args: argparse.Namespace) -> int:
    cv2.setNumThreads(1)
    recognizer = _recognizer(args)
    for name in args.images:
        started = time.perf_counter()
        cards = recognizer.recognize_file(Path(name).read_bytes()) if Path(name).is_file() else None
        if cards is None:
            raise UsageError(name, "", "no such picture, or not one OpenCV can read")
        ms = round((time.perf_counter() - started) * 1000, 1)
        if args.json:
            print(json.dumps({"image": name, "ms": ms, "cards": [c.to_dict() for c in cards]}), flush=True)
        else:
            named = ", ".join(c.reading.code or "?" for c in cards) or "no cards"
            print(f"{name}: {len(cards)} cards ({ms} ms): {named}", flush=True)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("recognize", help="find and identify every card in still images")
    parser.add_argument("--deck", metavar="DECK", help="deck profile written by companion enroll")
    parser.add_argument("--game", choices=GAMES, help="the game: checked against the deck; without a deck, "
                        "Gargon and dugtungan cards are read from what is printed on them")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--model", default=str(DEFAULT_MODEL), help=argparse.SUPPRESS)  # benchmarks of other models
    parser.set_defaults(func=run)
