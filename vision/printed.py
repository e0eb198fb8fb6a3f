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
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

from vision.model_files import MODELS_DIR
from vision.colour import read_colour
from vision.interfaces import CARD_SIZE, Candidate, Reading
from vision.synth.faces import roman

if TYPE_CHECKING:
    import onnxruntime as ort

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
#: A second network reads the small index most designs print in a corner, which the whole
#: card at INPUT_SIZE shows only a few pixels tall (models/printed_tokens.md, "Corner indices").
CORNER_MODEL = MODELS_DIR / "printed_corners.onnx"
#: The corner it reads, as fractions (x0, y0, x1, y1) of the card: the top-left, cut in the
#: card's own shape so that the crop fills the network's input.
CORNER_BOX = (0.0, 0.0, 0.36, 0.36)
NO_INDEX = ""  # the corner network's answer for a corner with no index in it


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


def corner_crops(card: np.ndarray) -> list[np.ndarray]:
    """The card's top-left corner, and its bottom-right corner turned round: a design
    prints its index at its own top-left, often again upside down at the foot, so one
    of the two shows it upright whichever way up the card lies."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = CORNER_BOX
    top, bottom, left, right = round(y0 * h), round(y1 * h), round(x0 * w), round(x1 * w)
    foot = card[h - bottom:h - top, w - right:w - left]  # the same box of the card turned round
    return [card[top:bottom, left:right], cv2.rotate(foot, cv2.ROTATE_180)]


def index_token(game: str, token: str) -> str:
    """What a card's corner index prints: a dugtungan card's syllable without its action
    word, a Gargon card's value."""
    return token.partition(":")[0] if game == "dugtungan" else token


def corner_labels() -> list[tuple[str, str]]:
    """(game, index) for every output of the corner network, in order; the last is "no index"."""
    labels = [(game, index) for game, tokens in token_labels().items() if game in GAMES
              for index in dict.fromkeys(index_token(game, t) for t in tokens)]
    return labels + [("", NO_INDEX)]


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


def _session(model: Path, threads: int, trainer: str) -> "ort.InferenceSession":
    if not model.is_file():
        raise PrintedModelMissing(f"printed-token model not found at {model}; run {trainer}")
    import onnxruntime as ort  # only where a model is used

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


class _PrintedModel:
    """The ONNX session and one game's share of its outputs."""

    def __init__(self, game: str, model: Path, threads: int) -> None:
        self.session = _session(model, threads, "scripts/train_printed.py")
        self.input_name = self.session.get_inputs()[0].name
        labels = json.loads(model.with_suffix(".json").read_text())["labels"]
        self.game = game
        self.tokens = [token for g, token in labels if g == game]
        self.columns = np.array([i for i, (g, _) in enumerate(labels) if g == game])

    def _softmax(self, images: Sequence[np.ndarray]) -> np.ndarray:
        """N x tokens x 2 (upright, turned), over this game's tokens only."""
        logits = self.session.run(None, {self.input_name: preprocess(images)})[0]
        logits = logits.reshape(len(images), -1, 2)[:, self.columns, :].reshape(len(images), -1)
        return _softmax(logits).reshape(len(images), -1, 2)


class CornerReader:
    """What a card's corner indices say of its token, from `corner_crops` read by the
    corner network (`scripts/train_printed_corners.py`).

    Each crop gives a probability per index plus "no index here"; "no index" is spread
    evenly over the indices, so a blank corner (or a design with none) says nothing, and
    the two corners' beliefs multiply, as two looks at the same print."""

    def __init__(self, game: str, tokens: Sequence[str], model: Path = CORNER_MODEL, threads: int = 1) -> None:
        """`tokens`: the whole-card reader's, in its order (`evidence` answers per token)."""
        self.session = _session(model, threads, "scripts/train_printed_corners.py")
        self.input_name = self.session.get_inputs()[0].name
        labels = [tuple(label) for label in json.loads(model.with_suffix(".json").read_text())["labels"]]
        indices = [index for g, index in labels if g == game]
        self.columns = np.array([labels.index((game, index)) for index in indices] + [labels.index(("", NO_INDEX))])
        self.token_index = [indices.index(index_token(game, t)) for t in tokens]  # each token's index's column

    def evidence(self, cards: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Two N x tokens arrays: how much the corners back each token, up to a factor
        per card; and the probability the surer corner gives its index alone."""
        n = len(cards)
        crops = [crop for card in cards for crop in corner_crops(card)]
        q = _softmax(self.session.run(None, {self.input_name: preprocess(crops)})[0][:, self.columns])
        per_index = q[:, :-1] + q[:, -1:] / (q.shape[1] - 1)
        both = per_index.reshape(n, 2, -1).prod(axis=1)
        return both[:, self.token_index], q[:, :-1].reshape(n, 2, -1).max(axis=1)[:, self.token_index]


@dataclass(frozen=True)
class PrintedToken:
    """What one card prints, as `PrintedReader.tokens_many` reads it: `token` where the
    reader is sure of it (else None), and each token's probability."""

    token: str | None
    probabilities: dict[str, float]

    def doubts(self, token: str, margin: float) -> bool:
        """Whether the reader finds another token far likelier than `token`: at least
        twice as likely and half a naming `margin` ahead. The second half keeps a flat
        reading (print the reader cannot read, a blank card) from doubting anything."""
        leader = max(self.probabilities.values())
        share = self.probabilities[token]
        return share < leader / 2 and leader - share >= margin / 2


MARGINS = {"gargon": 0.35, "dugtungan": 0.2}
#: A Gargon card whose likeliest value has less chance than this prints none (a back:
#: 0.18-0.41 on 48 photographed backs; the demo's stray with printed words, 0.55).
NO_VALUE = 0.5
#: A token the whole card alone does not name by the margin is named with the corners'
#: help only where one corner reads its index with at least this probability by itself:
#: a second look settles a doubt only when it is sure of what it saw.
CORNER_SURE = 0.5


class PrintedReader(_PrintedModel):
    """`Identifier` for one game's printed cards: the token, plus the colour for Gargon.

    `margin`: the best code's probability must exceed the runner-up's by this much,
    else the reading is unsure (code None) and the candidates go to the host. By
    default each game's `MARGINS`: the least that named no card wrong on the training
    families' scenes (models/printed_tokens.md), since a wrong name scores the table
    wrong while an unsure one only asks (for dugtungan one step above it).
    `corners`: the corner-index model (`CornerReader`), None to read the whole card alone.
    """

    card_size = CARD_SIZE

    def __init__(self, game: str, model: Path = DEFAULT_MODEL, threads: int = 1, margin: float | None = None,
                 corners: Path | None = CORNER_MODEL) -> None:
        if game not in GAMES:
            raise ValueError(f"no printed reader for {game!r}; one of {', '.join(GAMES)}")
        super().__init__(game, model, threads)
        self.margin = MARGINS[game] if margin is None else margin
        self.corners = CornerReader(game, self.tokens, corners, threads) if corners is not None else None

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
        """The whole card's probabilities, weighed by the corner indices' evidence
        (`CornerReader`, unless the reader was made without it) as a second look at
        print the whole card shows too small to be sure of."""
        return [self._reading(card, p, may_name) for card, p, may_name in zip(cards, *self._weighed(cards))]

    def tokens_many(self, cards: Sequence[np.ndarray]) -> list[PrintedToken]:
        """The token each card prints (a Gargon value without its colour, a dugtungan
        syllable), where the reader is sure of it as `identify_many` is, and how likely
        it finds each token. Cheaper than `identify_many` for Gargon: no colour is read."""
        tokens: list[PrintedToken] = []
        for p, may_name in zip(*self._weighed(cards)):
            per_token = p.sum(axis=1)
            best = int(np.argmax(per_token))
            tokens.append(PrintedToken(self.tokens[best] if self._sure(per_token) and may_name[best] else None,
                                       dict(zip(self.tokens, per_token.tolist()))))
        return tokens

    def token_of(self, code: str) -> str:
        """The token a code this reader names prints: a Gargon code is `_reading`'s
        colour, a dash and the value."""
        return code.rpartition("-")[2] if self.game == "gargon" else code

    def _weighed(self, cards: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Per card, its (tokens x 2) probabilities, weighed by the corner indices'
        evidence, and per token whether it may be named on them."""
        if not cards:
            return np.zeros((0, len(self.tokens), 2)), np.zeros((0, len(self.tokens)), bool)
        whole = self.probabilities(cards)
        if self.corners is None:
            return whole, np.ones(whole.shape[:2], bool)
        backing, seen = self.corners.evidence(cards)
        both = whole * backing[:, :, None]
        both /= both.sum(axis=(1, 2), keepdims=True)
        return both, np.array([self._backed(w, s) for w, s in zip(whole, seen)])

    def _sure(self, per_token: np.ndarray) -> bool:
        """Whether the leading token leads the runner-up by the margin."""
        top = np.sort(per_token)[::-1]
        return bool(top[0] - (top[1] if len(top) > 1 else 0.0) >= self.margin)

    def _backed(self, whole: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """Per token, whether the corners may help name it: only the whole card's own
        leader (two looks that disagree are a doubt, not an answer), and only where the
        whole card leads by the margin alone or a corner is sure of that index by itself."""
        per_token = whole.sum(axis=1)
        first, second = np.argsort(-per_token)[:2]
        backed = np.zeros(len(per_token), bool)
        backed[first] = per_token[first] - per_token[second] >= self.margin or seen[first] >= CORNER_SURE
        return backed

    def _reading(self, card: np.ndarray, p: np.ndarray, may_name: np.ndarray) -> Reading:
        """`may_name`: per token, whether it may be named on `p`'s margin."""
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
        if not (self._sure(per_token) and may_name[order[0]]):
            # a Gargon card laid face down shows its colour and no value, and its colour is all
            # its play needs: where no value has even half the chance, its colour alone is a
            # guess of its own, last (print that is no value, a stray's words, reads peaked)
            back = bool(prefix) and per_token[order[0]] < NO_VALUE
            bare = (Candidate(prefix.rstrip("-"), confidence),) if back else ()
            return Reading(None, candidates[0].score, candidates + bare, rotated)
        return Reading(candidates[0].code, candidates[0].score, candidates, rotated)


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
