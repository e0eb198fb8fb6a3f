"""Read what is printed on a card, so Gargon and dugtungan decks work with no enrollment.

These games name a card by a short printed token: a Gargon card is a value 0-15 in a
colour, a dugtungan card is a syllable or a letter, with an action word on some. A
small ONNX classifier, trained on the games' layouts drawn in many fonts
(`scripts/train_printed.py`), reads the token from the whole rectified card in grey,
and also says whether the card lies upside down (the corner index is printed at the
card's own top-left only). Gargon's colour comes from `vision.colour`.

A Lagim card is named by its name and art (an enrolled deck), but its entity level is
a printed Roman numeral I-X that the same network reads from a crop of the card
(`LevelReader`): what a deck file needs to fill the levels the catalogue leaves blank.

Preprocessing and crops live here and nowhere else, so training and reading feed the
network the same tensor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.model_files import MODELS_DIR
from vision.colour import read_colour
from vision.interfaces import CARD_SIZE, Candidate, Reading
from vision.synth.faces import roman

DEFAULT_MODEL = MODELS_DIR / "printed_tokens.onnx"
#: The same network, the weights of the run before the random deck designs: it reads
#: Lagim levels better (the designs' run shrank their share of training; models/printed_tokens.md)
LEVEL_MODEL = MODELS_DIR / "printed_levels.onnx"
INPUT_SIZE = (64, 88)  # width, height: a card's aspect; a Gargon value is about 20 px tall in it
GAMES = ("gargon", "dugtungan")  # the games whose cards are named by what is printed on them
LEVELS = tuple(roman(n) for n in range(1, 11))
NO_LEVEL = ""  # the network's answer for a crop with no numeral in it (the card's other end)
#: Where a Lagim card prints its entity level, as fractions (x0, y0, x1, y1) of the upright
#: card: the dark circle at the bottom centre of the project's Lagim faces.
LEVEL_BOX = (0.25, 0.70, 0.75, 0.94)


class PrintedModelMissing(RuntimeError):
    """The printed-token model is not where it should be: one clear message."""


def preprocess(images: Sequence[np.ndarray]) -> np.ndarray:
    """BGR cards (or level crops) -> float32 N x 1 x H x W, grey, each normalised to zero
    mean and unit spread so the light's brightness does not matter."""
    grey = [cv2.cvtColor(cv2.resize(c, INPUT_SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
            for c in images]
    batch = np.stack(grey).astype(np.float32)
    mean = batch.mean(axis=(1, 2), keepdims=True)
    spread = batch.std(axis=(1, 2), keepdims=True).clip(8.0)
    return ((batch - mean) / spread)[:, None]


def level_crop(card: np.ndarray) -> np.ndarray:
    """The part of an upright rectified Lagim card where its level is printed."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = LEVEL_BOX
    return card[round(y0 * h):round(y1 * h), round(x0 * w):round(x1 * w)]


def token_labels() -> dict[str, tuple[str, ...]]:
    """Each game's tokens in the model's label order (the model's outputs are these,
    game after game, each token upright then turned)."""
    from rules.catalogue import load_catalogue

    return {"gargon": tuple(str(v) for v in load_catalogue("gargon")["values"]),
            "dugtungan": tuple(load_catalogue("dugtungan")["deck"]),
            "lagim": LEVELS + (NO_LEVEL,)}


def all_labels() -> list[tuple[str, str]]:
    """(game, token) for every model class, in output order (before the upright/turned split)."""
    return [(game, token) for game, tokens in token_labels().items() for token in tokens]


def _rotated(images: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [cv2.rotate(image, cv2.ROTATE_180) for image in images]


class _PrintedModel:
    """The ONNX session and one game's share of its outputs."""

    def __init__(self, game: str, model: Path, threads: int) -> None:
        if not model.is_file():
            raise PrintedModelMissing(f"printed-token model not found at {model}; run scripts/train_printed.py")
        import onnxruntime as ort  # only where a model is used

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        labels = json.loads(model.with_suffix(".json").read_text())["labels"]
        self.game = game
        self.tokens = [token for g, token in labels if g == game]
        self.columns = np.array([i for i, (g, _) in enumerate(labels) if g == game])

    def _softmax(self, images: Sequence[np.ndarray]) -> np.ndarray:
        """N x tokens x 2 (upright, turned), over this game's tokens only."""
        logits = self.session.run(None, {self.input_name: preprocess(images)})[0]
        logits = logits.reshape(len(images), -1, 2)[:, self.columns, :].reshape(len(images), -1)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return (p / p.sum(axis=1, keepdims=True)).reshape(len(images), -1, 2)


MARGINS = {"gargon": 0.35, "dugtungan": 0.3}


class PrintedReader(_PrintedModel):
    """`Identifier` for one game's printed cards: the token, plus the colour for Gargon.

    `margin`: the best code's probability must exceed the runner-up's by this much,
    else the reading is unsure (code None) and the candidates go to the host. By
    default each game's `MARGINS`: the least that named no card wrong on the training
    families' scenes (models/printed_tokens.md), since a wrong name scores the table
    wrong while an unsure one only asks.
    """

    card_size = CARD_SIZE

    def __init__(self, game: str, model: Path = DEFAULT_MODEL, threads: int = 1, margin: float | None = None) -> None:
        if game not in GAMES:
            raise ValueError(f"no printed reader for {game!r}; one of {', '.join(GAMES)}")
        super().__init__(game, model, threads)
        self.margin = MARGINS[game] if margin is None else margin

    def probabilities(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """N x tokens x 2 (upright, turned). Each card is read as it lies and turned
        round, and the two agree-or-not readings are averaged: a look-alike (3 or 5) that
        one view half-guesses is seldom guessed the same way from the other side."""
        n = len(cards)
        p = self._softmax(list(cards) + _rotated(cards))
        return (p[:n] + p[n:, :, ::-1]) / 2

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        if not cards:
            return []
        return [self._reading(card, p) for card, p in zip(cards, self.probabilities(cards))]

    def _reading(self, card: np.ndarray, p: np.ndarray) -> Reading:
        per_token = p.sum(axis=1)
        order = np.argsort(-per_token)[:3]
        rotated = bool(p[order[0], 1] > p[order[0], 0])
        prefix, confidence = "", 1.0
        if self.game == "gargon":
            colour = read_colour(cv2.rotate(card, cv2.ROTATE_180) if rotated else card)
            if colour.colour is None:
                candidates = tuple(Candidate(f"{c}-{self.tokens[order[0]]}", float(per_token[order[0]] * s))
                                   for c, s in colour.scores[:3])
                return Reading(None, float(per_token[order[0]]) * colour.confidence, candidates, rotated)
            prefix, confidence = f"{colour.colour}-", colour.confidence
        candidates = tuple(Candidate(prefix + self.tokens[i], float(per_token[i]) * confidence) for i in order)
        sure = per_token[order[0]] - (per_token[order[1]] if len(order) > 1 else 0.0) >= self.margin
        return Reading(candidates[0].code if sure else None, candidates[0].score, candidates, rotated)


@dataclass(frozen=True)
class Level:
    """A Lagim card's printed entity level: `value` 1-10, or None when unsure (or none is
    printed); `rotated` when the numeral was found at the card's far end (card upside down)."""

    value: int | None
    confidence: float
    rotated: bool


class LevelReader(_PrintedModel):
    """Reads the Roman numeral I-X a Lagim card prints as its entity level.

    The level box is cut from both ends of the card (it may lie either way up); the end
    that holds a numeral is the one the network finds less like "no numeral here".
    """

    def __init__(self, model: Path = LEVEL_MODEL, threads: int = 1, margin: float = 0.3) -> None:
        super().__init__("lagim", model, threads)
        self.margin = margin
        self.none = self.tokens.index(NO_LEVEL)

    def read(self, card: np.ndarray) -> Level:
        return self.read_many([card])[0]

    def read_many(self, cards: Sequence[np.ndarray]) -> list[Level]:
        if not cards:
            return []
        n = len(cards)
        p = self._softmax([level_crop(c) for c in cards] + [level_crop(c) for c in _rotated(cards)])[:, :, 0]
        p = p / p.sum(axis=1, keepdims=True)  # the crops are cut upright: only the upright outputs count
        return [self._level(p[i], p[n + i]) for i in range(n)]

    def _level(self, as_lies: np.ndarray, turned: np.ndarray) -> Level:
        rotated = bool(turned[self.none] < as_lies[self.none])
        p = np.delete(turned if rotated else as_lies, self.none)
        first, second = np.sort(p)[::-1][:2]
        value = int(np.argmax(p)) + 1 if first - second >= self.margin else None
        return Level(value, float(first), rotated)
