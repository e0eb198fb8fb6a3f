"""`companion recognize`: find and name every card in still images."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import cv2

from companion.commands.enroll import GAMES
from companion.config import Settings
from companion.errors import UsageError
from rules.registry import game_names, game_spec
from vision.deck import DeckProfile
from vision.embed import DEFAULT_MODEL, ModelMissing, file_sha256
from vision.imageio import PictureTooLarge
from vision.interfaces import CardResult
from vision.recognize import CardRecognizer


def _printed_recognizer(game: str | None) -> CardRecognizer:
    """Gargon and dugtungan cards name themselves in print: no enrolled deck needed."""
    from vision.detectors import card_detector
    from vision.printed import PrintedModelMissing, PrintedReader

    printed = [name for name in game_names() if game_spec(name).printed_cards]
    if game not in printed:
        raise UsageError("", "deck", f"{game or 'this game'} needs an enrolled deck (companion enroll ... --out DECK, "
                         f"then --deck DECK); only {' and '.join(printed)} cards are read from print")
    try:
        return CardRecognizer(card_detector(), PrintedReader(game))
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


CANDIDATES_SHOWN = 3


def card_json(card: CardResult, bar: float) -> dict[str, Any]:
    """A card as the contract prints it, with a reading under `bar` left unnamed: its
    candidates are listed beside it, as the live table would ask the host about them."""
    out = card.to_dict()
    if card.reading.code is not None and card.reading.confidence >= bar:
        return out
    out["code"] = None
    out["candidates"] = [{"code": c.code, "confidence": round(float(c.score), 4)}
                         for c in card.reading.candidates[:CANDIDATES_SHOWN]]
    return out


def _said(card: dict[str, Any]) -> str:
    if card["code"] is not None:
        return card["code"]
    unsure = " or ".join(f"{c['code']} {c['confidence']:.2f}" for c in card["candidates"])
    return f"? ({unsure})" if unsure else "?"


def run(args: argparse.Namespace) -> int:
    if not 0.0 <= args.bar <= 1.0:
        raise UsageError("--bar", str(args.bar), "must be 0 to 1")
    cv2.setNumThreads(1)
    recognizer = _recognizer(args)
    for name in args.images:
        started = time.perf_counter()
        try:
            cards = recognizer.recognize_file(Path(name).read_bytes()) if Path(name).is_file() else None
        except PictureTooLarge as exc:
            raise UsageError(name, "", str(exc)) from None
        if cards is None:
            raise UsageError(name, "", "no such picture, or not one OpenCV can read")
        ms = round((time.perf_counter() - started) * 1000, 1)
        found = [card_json(c, args.bar) for c in cards]
        if args.json:
            print(json.dumps({"image": name, "ms": ms, "cards": found}), flush=True)
        else:
            named = ", ".join(_said(c) for c in found) or "no cards"
            print(f"{name}: {len(cards)} cards ({ms} ms): {named}", flush=True)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("recognize", help="find and identify every card in still images")
    parser.add_argument("--deck", metavar="DECK", help="deck profile written by companion enroll")
    parser.add_argument("--game", choices=GAMES, help="the game: checked against the deck; without a deck, "
                        "Gargon and dugtungan cards are read from what is printed on them")
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--bar", type=float, default=Settings.confidence,
                        help="readings under this confidence are not named; their candidates are listed "
                        "(default: %(default)s, the live table's bar for asking the host)")
    parser.add_argument("--model", default=str(DEFAULT_MODEL), help=argparse.SUPPRESS)  # benchmarks of other models
    parser.set_defaults(func=run)
