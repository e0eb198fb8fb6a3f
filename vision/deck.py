"""Deck profiles: what enrollment learns about one physical deck, and how it is stored.

A profile holds features, never photos: per enrolled shot one embedding, a band-pass
template (36x50, no brightness or colour level left) and its ORB keypoints, the codes,
and the accept thresholds. The thresholds (similarity, verified keypoints, lead over
the other codes) are fixed here from the enrollment images alone, because thresholds
tuned on test photos would flatter every figure we report: views of each enrolled card
as a bad camera would see it (vision/synth/augment.py) are compared with their own
shot (how high a true match scores) and with the closest other enrolled face (how high
a look-alike scores), and the thresholds are set to accept the former and stop the
latter; the lead is calibrated with each view's own code left out, as if it had never
been enrolled.
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
from vision.template import templates
from vision.verify import MIN_MATCHES, CardFeatures, OrbVerifier

FORMAT = "table-companion-deck/2"  # /2 added the shots' templates (vision/template.py)
SHOT_SUFFIX = re.compile(r"__\d+$")
CALIBRATION_VIEWS = 12
CALIBRATION_SEED = 20_261_122
LOOKALIKE_COST = 10  # true accepts one false accept is worth, in every threshold choice
LEAD_COST = 3  # the same, for the lead test, which only ever adds to the other two


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
                "threshold": g.threshold, "min_inliers": g.min_inliers, "typical": list(g.typical),
                "min_lead": g.min_lead,
                "calibration": self.calibration}
        with open(target, "wb") as fh:  # np.savez would append .npz to a name without it
            np.savez_compressed(fh, embeddings=g.embeddings.astype(np.float16), turned=g.turned.astype(np.float16),
                                templates=g.templates.astype(np.float16),
                                turned_templates=g.turned_templates.astype(np.float16),
                                codes=np.array(g.codes),
                                counts=np.array([len(f.points) for f in g.features], np.int32),
                                points=np.concatenate([f.points for f in g.features]).astype(np.float16),
                                descriptors=np.concatenate([f.descriptors for f in g.features]),
                                meta=np.array(json.dumps(meta)))
        return target

    @classmethod
    def load(cls, path: Path) -> "DeckProfile":
        """Raises ValueError with a readable problem if the file is not a deck profile."""
        source = path / "deck.npz" if path.is_dir() else path
        try:
            with np.load(source, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                embeddings = data["embeddings"].astype(np.float32)
                turned = data["turned"].astype(np.float32)
                templates = data["templates"].astype(np.float32) if "templates" in data else None
                turned_templates = data["turned_templates"].astype(np.float32) if "templates" in data else None
                codes = tuple(str(c) for c in data["codes"])
                ends = np.cumsum(data["counts"])
                points = np.split(data["points"].astype(np.float32), ends[:-1])
                descriptors = np.split(data["descriptors"], ends[:-1])
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"not a deck profile ({exc.__class__.__name__}: {exc})") from None
        if meta.get("format") == "table-companion-deck/1":
            raise ValueError("enrolled by an older version (no card templates); enroll the deck again")
        if meta.get("format") != FORMAT or templates is None or turned_templates is None:
            raise ValueError(f"unknown deck format {meta.get('format')!r}, expected {FORMAT}")
        features = tuple(CardFeatures(p, d) for p, d in zip(points, descriptors))
        gallery = Gallery(codes, embeddings, turned, templates, turned_templates, features, float(meta["threshold"]),
                          float(meta["min_inliers"]), tuple(meta["typical"]), float(meta["min_lead"]))
        return cls(meta["game"], gallery, meta["model_sha256"], meta.get("calibration", {}))


def code_of(image: Path) -> str:
    """The card code an enrollment file stands for: the stem, less a `__N` extra-shot suffix."""
    return SHOT_SUFFIX.sub("", image.stem)


def _joint_thresholds(same_sim: np.ndarray, same_inl: np.ndarray, other_sim: np.ndarray,
                      other_inl: np.ndarray) -> tuple[float, float]:
    """The pair of thresholds (similarity, inliers) that accepts the most same-card
    views while letting through almost no look-alike (each false accept costs ten
    true ones). Jointly, because the two tests cover for each other: colour twins pass
    keypoints and fail similarity, same-frame pictures pass similarity and fail
    keypoints. Candidates are low quantiles of the same-card scores, nudged halfway
    towards the look-alike score just below them so the cut sits in the gap."""
    if not len(other_sim):
        return float(np.percentile(same_sim, 1)) - 0.05, max(float(np.percentile(same_inl, 1)) / 2, 2.0 * MIN_MATCHES)
    best, best_value = (0.0, 0.0), -np.inf
    for t_sim in np.percentile(same_sim, [0, 1, 2, 5, 10, 20, 30]):
        for t_inl in np.percentile(same_inl, [0, 1, 2, 5, 10, 20, 30]):
            t_inl = max(float(t_inl), 2.0 * MIN_MATCHES)
            true = np.mean((same_sim >= t_sim) & (same_inl >= t_inl))
            false = np.mean((other_sim >= t_sim) & (other_inl >= t_inl))
            if true - LOOKALIKE_COST * false > best_value:
                best, best_value = (float(t_sim), t_inl), true - LOOKALIKE_COST * false
    t_sim, t_inl = best
    below_sim = other_sim[other_sim < t_sim]
    below_inl = other_inl[other_inl < t_inl]
    return (float((t_sim + below_sim.max()) / 2 if len(below_sim) else t_sim),
            float(max((t_inl + below_inl.max()) / 2 if len(below_inl) else t_inl, 2.0 * MIN_MATCHES)))


def calibrate(cards: Sequence[np.ndarray], codes: Sequence[str], embedder: Embedder,
              verifier: OrbVerifier) -> tuple[Gallery, dict]:
    """The gallery of these shots with both accept thresholds fixed (see module docstring).

    Every view is scored as the identifier would score it: against its own shot (what
    a true match scores) and against the best shot of any other code (what an
    unenrolled look-alike would score, since that shot is what the embedding would
    propose). The two thresholds are then chosen together (`_joint_thresholds`).
    """
    upside_down = [cv2.rotate(c, cv2.ROTATE_180) for c in cards]
    embeddings, turned = embedder.embed(cards), embedder.embed(upside_down)
    shot_templates, turned_templates = templates(cards), templates(upside_down)
    features = tuple(verifier.features(c) for c in cards)
    unset = Gallery(tuple(codes), embeddings, turned, shot_templates, turned_templates, features, 0.0, 0.0)
    rng = random.Random(CALIBRATION_SEED)
    owners = [i for i in range(len(cards)) for _ in range(CALIBRATION_VIEWS)]
    views = [photographed(cards[i], rng) for i in owners]
    both = unset.similarities(embedder.embed(views), templates(views))
    sims = np.maximum(both[:, :len(cards)], both[:, len(cards):])  # either way up, as identify does
    same_sim, other_sim, same_inl, other_inl = [], [], [], []
    for row, i in enumerate(owners):
        view_features = verifier.features(views[row])
        same_sim.append(sims[row, i])
        same_inl.append(verifier.inliers(view_features, features[i]))
        others = [j for j in range(len(cards)) if codes[j] != codes[i]]
        if others:
            j = max(others, key=lambda j: sims[row, j])
            other_sim.append(sims[row, j])
            other_inl.append(verifier.inliers(view_features, features[j]))
    threshold, min_inliers = _joint_thresholds(np.array(same_sim), np.array(same_inl),
                                               np.array(other_sim), np.array(other_inl))
    own_lead, stranger_lead = _leads(unset, both, [codes[i] for i in owners])
    min_lead = _lead_threshold(own_lead, stranger_lead)
    gallery = dataclasses.replace(unset, threshold=threshold, min_inliers=min_inliers, min_lead=min_lead,
                                  typical=(float(np.median(same_sim)), float(np.median(same_inl))))
    stats = {"views_per_shot": CALIBRATION_VIEWS,
             "similarity": _spread(same_sim, other_sim), "inliers": _spread(same_inl, other_inl),
             "lead": _spread(own_lead, stranger_lead)}
    return gallery, stats


def _leads(gallery: Gallery, sims: np.ndarray, owners: Sequence[str]) -> tuple[list[float], list[float]]:
    """How far each view's own code leads every other code, and, with its own code
    left out (as if it had never been enrolled), how far the best remaining code leads
    the next: what a forgotten card's look-alike would lead by."""
    names, per_code = gallery.per_code(sims)
    own, stranger = [], []
    for row, code in enumerate(owners):
        others = np.sort(np.delete(per_code[row], names.index(code)))[::-1]
        if len(others):
            own.append(float(per_code[row, names.index(code)] - others[0]))
        if len(others) >= 2:
            stranger.append(float(others[0] - others[1]))
    return own, stranger


def _lead_threshold(own: list[float], stranger: list[float]) -> float:
    """The least lead to accept: as many own-code views as possible, each forgotten-card
    look-alike let through costing LEAD_COST of them. Cheaper than in `_joint_thresholds`
    because a look-alike must pass those thresholds too."""
    if not stranger:
        return 0.0
    own_a, stranger_a = np.array(own), np.array(stranger)
    candidates = np.unique(np.concatenate([[0.0], np.percentile(own_a, [0, 1, 2, 5, 10, 20, 30, 40, 50])]))
    return float(max(candidates, key=lambda t: np.mean(own_a >= t) - LEAD_COST * np.mean(stranger_a >= t)))


def _spread(same: list, other: list) -> dict:
    """What the calibration saw, for the model card and for a person wondering why."""
    def q(values: list, p: float) -> float | None:
        return round(float(np.percentile(values, p)), 4) if values else None
    return {"same_card_p5": q(same, 5), "same_card_median": q(same, 50),
            "lookalike_median": q(other, 50), "lookalike_p99": q(other, 99)}
