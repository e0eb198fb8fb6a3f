"""Deck profiles: what enrollment learns about one physical deck, and how it is stored.

A profile holds features, never photos: per enrolled shot one embedding, a band-pass
template (36x50) and detail image (72x100) with no brightness or colour level left;
the codes; and the accept thresholds. The thresholds (a floor on similarity, and the
least lead over the other shortlisted faces: vision/identify.py) are fixed here from
the enrollment images alone, because thresholds tuned on test photos would flatter
every figure we report: views of each enrolled card as a bad camera would cut it out
(vision/synth/augment.py) are ranked against the gallery, once as they are (what a
true match scores) and once with their own code left out, as if it had never been
enrolled (what a forgotten card would lead by).
The file is a NumPy .npz archive (no pickles), with the model's sha256 so a deck
enrolled with another model is refused instead of silently misread."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.identify import Embedder, Gallery
from vision.synth.augment import photographed
from vision.template import details, templates

FORMAT = "table-companion-deck/3"  # /2 added the shots' templates, /3 their detail images (vision/template.py)
_OLDER = {old: "enrolled by an older version (no card detail images); enroll the deck again"
          for old in ("table-companion-deck/1", "table-companion-deck/2")}


class _FormatError(ValueError):
    """A deck profile, but not one this version reads."""


SHOT_SUFFIX = re.compile(r"__\d+$")
CALIBRATION_VIEWS = 12
CALIBRATION_SEED = 20_261_122
# below the lowest true similarity seen: a floor for what is like no enrolled face at
# all; telling enrolled faces from forgotten look-alikes is the lead's job
SIMILARITY_MARGIN = 0.15
# true accepts one forgotten card named as its look-alike is worth: a question costs
# the host a tap, a wrong name costs a wrong score
LEAD_COST = 10


@dataclass(frozen=True)
class DeckProfile:
    game: str
    gallery: Gallery
    model_sha256: str
    calibration: dict

    def save(self, path: Path) -> Path:
        """Write to `path` (a folder gets deck.npz inside); returns the file written."""
        target = path / "deck.npz" if path.is_dir() else path
        g = self.gallery
        meta = {"format": FORMAT, "game": self.game, "model_sha256": self.model_sha256,
                "threshold": g.threshold, "min_lead": g.min_lead,
                "calibration": self.calibration}
        with open(target, "wb") as fh:  # np.savez would append .npz to a name without it
            np.savez_compressed(fh, embeddings=g.embeddings.astype(np.float16), turned=g.turned.astype(np.float16),
                                templates=g.templates.astype(np.float16),
                                turned_templates=g.turned_templates.astype(np.float16),
                                **_quantised(g.details),
                                codes=np.array(g.codes),
                                meta=np.array(json.dumps(meta)))
        return target

    @classmethod
    def load(cls, path: Path) -> "DeckProfile":
        """Raises ValueError with a readable problem if the file is not a deck profile."""
        source = path / "deck.npz" if path.is_dir() else path
        try:
            with np.load(source, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                found = meta.get("format")
                if found != FORMAT:
                    raise _FormatError(_OLDER.get(found, f"unknown deck format {found!r}, expected {FORMAT}"))
                arrays = {k: data[k].astype(np.float32)
                          for k in ("embeddings", "turned", "templates", "turned_templates")}
                arrays["details"] = data["details"].astype(np.float32) * data["detail_scales"][:, None, None, None]
                codes = tuple(str(c) for c in data["codes"])
        except _FormatError:
            raise
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"not a deck profile ({exc.__class__.__name__}: {exc})") from None
        gallery = Gallery(codes, **arrays, threshold=float(meta["threshold"]), min_lead=float(meta["min_lead"]))
        return cls(meta["game"], gallery, meta["model_sha256"], meta.get("calibration", {}))


def _quantised(details: np.ndarray) -> dict[str, np.ndarray]:
    """Detail images as int8 with one scale per shot: a quarter of float32's size, and
    a step far below the differences the close look weighs."""
    scales = np.maximum(np.abs(details).reshape(len(details), -1).max(axis=1), 1e-6).astype(np.float32) / 127
    return {"details": np.round(details / scales[:, None, None, None]).astype(np.int8), "detail_scales": scales}


def code_of(image: Path) -> str:
    """The card code an enrollment file stands for: the stem, less a `__N` extra-shot suffix."""
    return SHOT_SUFFIX.sub("", image.stem)


def calibrate(cards: Sequence[np.ndarray], codes: Sequence[str], embedder: Embedder) -> tuple[Gallery, dict]:
    """The gallery of these shots with its accept thresholds fixed (see module docstring).

    Every view is ranked as the identifier would rank it, once as it is (its own
    shot's similarity and lead: what a true match scores) and once with its
    own code left out (the lead of whatever wins then: what a forgotten card would
    lead by). The floors take the lowest true scores less a margin; the lead
    threshold trades true leads against forgotten ones (`_lead_threshold`).
    """
    upside_down = [cv2.rotate(c, cv2.ROTATE_180) for c in cards]
    unset = Gallery(tuple(codes), embedder.embed(cards), embedder.embed(upside_down), templates(cards),
                    templates(upside_down), details(cards), threshold=0.0, min_lead=0.0)
    rng = random.Random(CALIBRATION_SEED)
    owners = [i for i in range(len(cards)) for _ in range(CALIBRATION_VIEWS)]
    views = [photographed(cards[i], rng) for i in owners]
    sims = unset.similarities(embedder.embed(views), templates(views))
    n = len(cards)
    same_sim, own_lead, stranger_lead = [], [], []
    for row, (i, detail) in enumerate(zip(owners, details(views))):
        own = max((c for c in (i, i + n)), key=lambda c: sims[row, c])  # either way up, as identify does
        same_sim.append(float(sims[row, own]))
        ranking = unset.ranked(sims[row], detail)
        if len(ranking.columns) > 1:
            own_lead.append(ranking.lead if codes[ranking.columns[0] % n] == codes[i] else -ranking.lead)
            stranger_lead.append(unset.ranked(sims[row], detail, leave_out=codes[i]).lead)
    gallery = dataclasses.replace(
        unset, threshold=float(np.percentile(same_sim, 1)) - SIMILARITY_MARGIN,
        min_lead=_lead_threshold(own_lead, stranger_lead))
    stats = {"views_per_shot": CALIBRATION_VIEWS,
             "similarity": _spread(same_sim),
             "lead": _spread(own_lead, stranger_lead)}
    return gallery, stats


def _lead_threshold(own: list[float], stranger: list[float]) -> float:
    """The least lead to accept: as many own-code views as possible, each forgotten-card
    look-alike let through costing LEAD_COST of them; of the leads that do equally
    well, the middle one, so the cut sits in the middle of the gap between forgotten
    cards and true ones rather than against the cleanest true views."""
    if not stranger:
        return 0.0
    own_a, stranger_a = np.array(own), np.array(stranger)
    grid = np.linspace(0.0, 1.0, 201)
    value = np.array([np.mean(own_a >= t) - LEAD_COST * np.mean(stranger_a >= t) for t in grid])
    return float(np.median(grid[value >= value.max() - 1e-9]))


def _spread(same: list, other: list | None = None) -> dict:
    """What the calibration saw, for the model card and for a person wondering why."""
    def q(values: list, p: float) -> float | None:
        return round(float(np.percentile(values, p)), 4) if values else None
    spread = {"same_card_p1": q(same, 1), "same_card_p5": q(same, 5), "same_card_median": q(same, 50)}
    if other is not None:
        spread |= {"forgotten_card_median": q(other, 50), "forgotten_card_p99": q(other, 99)}
    return spread
