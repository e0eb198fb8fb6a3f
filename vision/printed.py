"""Read what is printed on a card, so Gargon and dugtungan decks work with no enrollment.

These games name a card by a short printed token: a Gargon card is a value 0-15 in a
colour, a dugtungan card is a syllable or a letter, with an action word on some. A
small ONNX classifier, trained on the games' layouts drawn in many fonts
(`scripts/train_printed.py`), reads the token from the whole rectified card in grey,
and also says whether the card lies upside down (the corner index is printed at the
card's own top-left only). Gargon's colour comes from `vision.colour`.

Preprocessing lives here and nowhere else, so training and reading feed the network
the same tensor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from models import MODELS_DIR
from vision.colour import read_colour
from vision.interfaces import Candidate, Reading

DEFAULT_MODEL = MODELS_DIR / "printed_tokens.onnx"
INPUT_SIZE = (48, 66)  # width, height: a card's aspect, big enough for a three-letter syllable
GAMES = ("gargon", "dugtungan")


class PrintedModelMissing(RuntimeError):
    """The printed-token model is not where it should be: one clear message."""


def preprocess(cards: Sequence[np.ndarray]) -> np.ndarray:
    """BGR cards -> float32 N x 1 x H x W, grey, each normalised to zero mean and unit
    spread so the light's brightness does not matter."""
    grey = [cv2.cvtColor(cv2.resize(c, INPUT_SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
            for c in cards]
    batch = np.stack(grey).astype(np.float32)
    mean = batch.mean(axis=(1, 2), keepdims=True)
    spread = batch.std(axis=(1, 2), keepdims=True).clip(8.0)
    return ((batch - mean) / spread)[:, None]


def token_labels() -> dict[str, tuple[str, ...]]:
    """Each game's tokens in the model's label order (the model's outputs are these,
    game after game, each token upright then turned)."""
    from rules.catalogue import load_catalogue

    return {"gargon": tuple(str(v) for v in load_catalogue("gargon")["values"]),
            "dugtungan": tuple(load_catalogue("dugtungan")["deck"])}


def all_labels() -> list[tuple[str, str]]:
    """(game, token) for every model class, in output order (before the upright/turned split)."""
    return [(game, token) for game, tokens in token_labels().items() for token in tokens]


class PrintedReader:
    """`Identifier` for one game's printed cards: the token, plus the colour for Gargon.

    `margin`: the best code's probability must exceed the runner-up's by this much,
    else the reading is unsure (code None) and the candidates go to the host.
    """

    def __init__(self, game: str, model: Path = DEFAULT_MODEL, threads: int = 1, margin: float = 0.3) -> None:
        if game not in GAMES:
            raise ValueError(f"no printed reader for {game!r}; one of {', '.join(GAMES)}")
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
        self.margin = margin

    def probabilities(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """N x tokens x 2 (upright, turned), over this game's tokens only."""
        logits = self.session.run(None, {self.input_name: preprocess(cards)})[0]
        logits = logits.reshape(len(cards), -1, 2)[:, self.columns, :].reshape(len(cards), -1)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return (p / p.sum(axis=1, keepdims=True)).reshape(len(cards), -1, 2)

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
