"""Deck profiles: what enrollment learns about one physical deck, and how it is stored.

A profile holds features, never photos: one embedding per enrolled shot, the codes,
and the accept threshold. The threshold is fixed here from the enrollment images
alone, because a threshold tuned on test photos would flatter every figure we report:
views of each enrolled card as a bad camera would see it (vision/synth/augment.py) are
compared with their own face (how high a true match scores) and with every other
enrolled face (how high a look-alike scores), and the threshold sits between the two.
The file is a NumPy .npz archive (no pickles), with the model's sha256 so a deck
enrolled with another model is refused instead of silently misread.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from vision.identify import Embedder, Gallery
from vision.synth.augment import photographed

FORMAT = "table-companion-deck/1"
SHOT_SUFFIX = re.compile(r"__\d+$")
CALIBRATION_VIEWS = 12
CALIBRATION_SEED = 20_261_122


@dataclass(frozen=True)
class DeckProfile:
    game: str
    gallery: Gallery
    model_sha256: str
    calibration: dict

    def save(self, path: Path) -> Path:
        """Write to `path` (a folder gets deck.npz inside); returns the file written."""
        target = path / "deck.npz" if path.is_dir() else path
        meta = {"format": FORMAT, "game": self.game, "model_sha256": self.model_sha256,
                "threshold": self.gallery.threshold, "calibration": self.calibration}
        with open(target, "wb") as fh:  # np.savez would append .npz to a name without it
            np.savez_compressed(fh, embeddings=self.gallery.embeddings.astype(np.float16),
                                codes=np.array(self.gallery.codes), meta=np.array(json.dumps(meta)))
        return target

    @classmethod
    def load(cls, path: Path) -> "DeckProfile":
        """Raises ValueError with a readable problem if the file is not a deck profile."""
        source = path / "deck.npz" if path.is_dir() else path
        try:
            with np.load(source, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                embeddings = data["embeddings"].astype(np.float32)
                codes = tuple(str(c) for c in data["codes"])
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"not a deck profile ({exc.__class__.__name__}: {exc})") from None
        if meta.get("format") != FORMAT:
            raise ValueError(f"unknown deck format {meta.get('format')!r}, expected {FORMAT}")
        return cls(meta["game"], Gallery(codes, embeddings, float(meta["threshold"])),
                   meta["model_sha256"], meta.get("calibration", {}))


def code_of(image: Path) -> str:
    """The card code an enrollment file stands for: the stem, less a `__N` extra-shot suffix."""
    return SHOT_SUFFIX.sub("", image.stem)


def calibrate(cards: Sequence[np.ndarray], codes: Sequence[str], embeddings: np.ndarray,
              embedder: Embedder) -> tuple[float, dict]:
    """Accept threshold from enrollment images alone (see module docstring).

    Same-card scores are views against their own code's best shot; look-alike scores
    are views against the best shot of any other code. With one code only there are
    no look-alikes, so the same-card scores alone set a conservative threshold.
    """
    rng = random.Random(CALIBRATION_SEED)
    views = [photographed(card, rng) for card in cards for _ in range(CALIBRATION_VIEWS)]
    owners = [code for code in codes for _ in range(CALIBRATION_VIEWS)]
    gallery = Gallery(tuple(codes), embeddings, 0.0)
    names, sims = gallery.best_per_code(embedder.embed(views))
    own = np.array([sims[i, names.index(c)] for i, c in enumerate(owners)])
    other = np.array([np.max(np.delete(sims[i], names.index(c))) if len(names) > 1 else -1.0
                      for i, c in enumerate(owners)])
    same_low = float(np.percentile(own, 2))
    if len(names) > 1:
        other_high = float(np.max(other))
        threshold = (same_low + other_high) / 2
    else:
        other_high = None
        threshold = same_low - 0.05
    stats = {"views_per_shot": CALIBRATION_VIEWS, "same_card_p2": round(same_low, 4),
             "same_card_median": round(float(np.median(own)), 4),
             "lookalike_max": None if other_high is None else round(other_high, 4),
             "lookalike_median": None if other_high is None else round(float(np.median(other)), 4)}
    return float(threshold), stats
