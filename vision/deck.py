"""Deck profiles: what enrollment learns about one physical deck, and how it is stored.

A profile holds features, never photos: per enrolled shot one embedding, a band-pass
template (36x50) and detail image (72x100) with no brightness or colour level left;
the codes; and the accept thresholds. The thresholds (a floor on similarity, the least
consistency with the winner's shot's print and the least agreement with its colour:
vision/identify.py) are fixed here from
the enrollment images alone, because thresholds tuned on test photos would flatter
every figure we report: views of each enrolled card as a bad camera would cut it out
(vision/synth/augment.py) are ranked against the gallery, once as they are (what a
true match scores) and once with their own code left out, as if it had never been
enrolled (how consistently a forgotten card would match its look-alike's print and
colour).
The file is a NumPy .npz archive (no pickles), with the model's sha256 so a deck
enrolled with another model is refused instead of silently misread."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Sequence

import cv2
import numpy as np

from vision.identify import Embedder, Gallery, halved
from vision.synth.augment import edge_fit_cut, photographed, seen_small
from vision.chroma import colour_cells
from vision.template import details, templates
from vision.verify import BLURS

# /2 added the shots' templates, /3 their detail images, /4 the consistency threshold,
# /5 chroma maps, /6 the spans confidence is measured in, /7 the fine consistency threshold,
# /8 colour cuts of white shots measured on the card's most coloured cells (vision/chroma.py),
# /9 colour cells in place of chroma maps, a card relit to its shot's light before they are compared
FORMAT = "table-companion-deck/9"
_OLDER = {old: "enrolled by an older version (thresholds of an older identifier); enroll the deck again"
          for old in ("table-companion-deck/1", "table-companion-deck/2", "table-companion-deck/3",
                      "table-companion-deck/4", "table-companion-deck/5", "table-companion-deck/6",
                      "table-companion-deck/7", "table-companion-deck/8")}


def _blurred_cuts(meta: dict) -> tuple[tuple[float, float], ...]:
    """The print cuts per blur level past the first, as calibrated. Profiles written
    before they were saved (format /9 until 2026-11-27) have none: they read every card
    with the sharpest level's cuts, as they always did, until the deck is enrolled again."""
    return tuple((float(coarse), float(fine)) for coarse, fine in meta.get("blurred_cuts", []))


class _FormatError(ValueError):
    """A deck profile, but not one this version reads."""


SHOT_SUFFIX = re.compile(r"__\d+$")
CALIBRATION_VIEWS = 12
SMALL_VIEWS = 6  # more views per shot, of the card as small in the frame as a webcam shows it (SMALL_SIDES)
MIN_LEVEL_VIEWS = 20  # own views at a blur level (vision/verify.py) under which that level keeps a sharper one's cuts
CALIBRATION_SEED = 20_261_122
# below the lowest true similarity seen: a floor for what is like no enrolled face at
# all; telling enrolled faces from forgotten look-alikes is the job of consistency and colour
SIMILARITY_MARGIN = 0.15
# true accepts one forgotten card named as its look-alike is worth: a question costs
# the host a tap, a wrong name costs a wrong score
WRONG_NAME_COST = 10
COLOUR_SLACK = 0.03  # below the second-worst colour agreement of a shot's own views


class _View(NamedTuple):
    """How one calibration view fared against the gallery."""

    consistency: float  # with its winner's shot, at the coarse cells (vision/verify.py)
    fine: float  # the same at the fine cells
    colour: float  # colour agreement with its winner's shot
    winner: int  # the winning shot
    right: bool  # whether the winner is the view's own code
    level: int  # how blurred the winner's shot was to meet it (vision/verify.py)
    small: bool  # a view of the card small in the frame (vision/synth/augment.py: seen_small)


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
                "threshold": g.threshold, "min_consistency": g.min_consistency, "min_fine": g.min_fine,
                "blurred_cuts": [[float(c) for c in level] for level in g.blurred_cuts],
                "spans": list(g.spans),
                "calibration": self.calibration}
        with open(target, "wb") as fh:  # np.savez would append .npz to a name without it
            np.savez_compressed(fh, embeddings=g.embeddings.astype(np.float16), turned=g.turned.astype(np.float16),
                                templates=g.templates.astype(np.float16),
                                turned_templates=g.turned_templates.astype(np.float16),
                                **_quantised(g.details),  # type: ignore[arg-type]  # numpy's stub: **kwds may be allow_pickle
                                colours=g.colours.astype(np.float16),
                                min_colours=g.min_colours.astype(np.float32),
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
                          for k in ("embeddings", "turned", "templates", "turned_templates", "colours",
                                    "min_colours")}
                arrays["details"] = data["details"].astype(np.float32) * data["detail_scales"][:, None, None, None]
                codes = tuple(str(c) for c in data["codes"])
                gallery = Gallery(codes, **arrays, threshold=float(meta["threshold"]),
                                  min_consistency=float(meta["min_consistency"]), min_fine=float(meta["min_fine"]),
                                  spans=tuple(meta["spans"]), blurred_cuts=_blurred_cuts(meta))
                return cls(meta["game"], gallery, meta["model_sha256"], meta.get("calibration", {}))
        except _FormatError:
            raise
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"not a deck profile written by companion enroll ({_why_not(exc)})") from None


def _why_not(exc: Exception) -> str:
    """A deck file's problem in the user's terms: numpy's own messages advise loading
    the file unsafely, which a deck never needs."""
    if isinstance(exc, KeyError):
        return f"it has no {str(exc.args[0]).split()[0]} array"
    if isinstance(exc, OSError) and not isinstance(exc, EOFError):
        return exc.strerror or "it cannot be read"
    return "it is not a deck archive: another kind of file, or damaged"


def _quantised(details: np.ndarray) -> dict[str, np.ndarray]:
    """Detail images as int8 with one scale per shot: a quarter of float32's size, and
    a step far below the differences the close look weighs."""
    scales = np.maximum(np.abs(details).reshape(len(details), -1).max(axis=1), 1e-6).astype(np.float32) / 127
    return {"details": np.round(details / scales[:, None, None, None]).astype(np.int8), "detail_scales": scales}


def code_of(image: Path) -> str:
    """The card code an enrollment file stands for: the stem, less a `__N` extra-shot suffix."""
    return SHOT_SUFFIX.sub("", image.stem)


def calibrate(shots: Sequence[np.ndarray], codes: Sequence[str], embedder: Embedder) -> tuple[Gallery, dict]:
    """The gallery of these shots with its accept thresholds fixed (see module docstring).

    Every view is ranked as the identifier would rank it, once as it is (its own
    shot's similarity, consistency and colour agreement: what a true match scores) and
    once with its own code left out (the consistency and colour agreement of whatever
    wins then: what a forgotten card would show). The similarity floor takes the
    lowest true scores less a margin; each shot's colour cut is what its own views
    reach (`_colour_thresholds`); the consistency cut trades true views against
    forgotten ones (`_consistency_threshold`), and so does the fine consistency cut,
    over the true views the coarse cut refuses (the only ones it can add) against
    every forgotten one (a forgotten card the coarse cut refuses may be any of them).

    A third of the views show the card as small in the frame as a webcam shows it
    (vision/synth/augment.py: seen_small), and both print cuts are fixed per level of
    blur the shot is met at (vision/verify.py: BLURS), from the views met there: on the
    detector world's training tables, cards under 150 px were named 105 of 153 times,
    131 now (cut at their true outlines, scripts/experiments/ident_world.py), with no
    forgotten card more named. The similarity floor and the colour cuts come from the
    other views alone, as before.
    """
    cards = halved(shots)
    upside_down = [cv2.rotate(c, cv2.ROTATE_180) for c in cards]
    n = len(cards)
    unset = Gallery(tuple(codes), embedder.embed(cards), embedder.embed(upside_down), templates(cards),
                    templates(upside_down), details(cards), colour_cells(cards), threshold=0.0,
                    min_consistency=0.0, min_colours=np.zeros(n, np.float32))
    rng = random.Random(CALIBRATION_SEED)
    owners = [i for i in range(n) for _ in range(CALIBRATION_VIEWS)]
    views = [photographed(shots[i], rng, cut=edge_fit_cut(rng)) for i in owners]
    small = [i for i in range(n) for _ in range(SMALL_VIEWS)]
    views = halved(views + [seen_small(photographed(shots[i], rng, cut=edge_fit_cut(rng)), rng) for i in small])
    sims = unset.similarities(embedder.embed(views), templates(views))
    same_sim: list[float] = []
    own: list[_View] = []
    stranger: list[_View] = []
    for row, (i, detail, cells) in enumerate(zip(owners + small, details(views), colour_cells(views))):
        column = max((i, i + n), key=lambda c: sims[row, c])  # either way up, as identify does
        if row < len(owners):
            same_sim.append(float(sims[row, column]))
        ranking = unset.ranked(sims[row], detail, cells)
        if len(ranking.columns) > 1:
            winner = ranking.columns[0] % n
            own.append(_View(ranking.consistency, unset.fine(ranking), ranking.colour, winner,
                             codes[winner] == codes[i], ranking.level, row >= len(owners)))
            forgotten = unset.ranked(sims[row], detail, cells, leave_out=codes[i])
            stranger.append(_View(forgotten.consistency, unset.fine(forgotten), forgotten.colour,
                                  forgotten.columns[0] % n, False, forgotten.level, row >= len(owners)))
    min_colours = _colour_thresholds([v for v in own if not v.small], n)
    cuts: list[tuple[float, float]] = []
    for level in range(len(BLURS)):
        here = [v for v in own if v.level == level]
        if sum(v.right for v in here) < MIN_LEVEL_VIEWS and cuts:
            cuts.append(cuts[-1])
            continue
        cuts.append(_print_cuts(here, [v for v in stranger if v.level == level], min_colours))
    (min_consistency, min_fine), blurred_cuts = cuts[0], tuple(cuts[1:])
    threshold = float(np.percentile(same_sim, 1)) - SIMILARITY_MARGIN
    right = [v for v in own if v.right]
    spans = (float(np.median(same_sim)) - threshold, float(np.median([v.consistency - cuts[v.level][0] for v in right])),
             float(np.median([v.colour - min_colours[v.winner] for v in right])),
             float(np.median([v.fine - cuts[v.level][1] for v in right]))) if right else (1.0, 1.0, 1.0, 1.0)
    gallery = dataclasses.replace(unset, threshold=threshold, min_consistency=min_consistency,
                                  min_colours=min_colours, min_fine=min_fine, spans=spans, blurred_cuts=blurred_cuts)
    stats = {"views_per_shot": CALIBRATION_VIEWS, "small_views_per_shot": SMALL_VIEWS,
             "print_cuts_by_blur": [[round(c, 4) for c in level] for level in cuts],
             "views_by_blur": [sum(v.level == level for v in own) for level in range(len(BLURS))],
             "similarity": _spread(same_sim),
             "consistency": _spread([v.consistency for v in right], [v.consistency for v in stranger]),
             "fine_consistency": _spread([v.fine for v in right], [v.fine for v in stranger]),
             "colour": _spread([v.colour for v in right], [v.colour for v in stranger]),
             "colour_thresholds": _spread([float(c) for c in min_colours]),
             "spans": [round(x, 4) for x in spans],
             "own_views_ranked_right": round(len(right) / max(1, len(own)), 4)}
    return gallery, stats


def _print_cuts(own: list[_View], stranger: list[_View], min_colours: np.ndarray) -> tuple[float, float]:
    """(min_consistency, min_fine) from views at one blur level: the coarse cut over
    them all, the fine cut over the true views the coarse cut refuses (the only ones it
    can add) against every forgotten one (a forgotten card the coarse cut refuses may
    be any of them)."""
    min_consistency = _consistency_threshold(own, stranger, min_colours, "consistency")
    refused = [v for v in own if v.right and v.consistency < min_consistency]
    return min_consistency, _consistency_threshold(refused, stranger + [v for v in own if not v.right], min_colours, "fine")


def _colour_thresholds(own: list[_View], n: int) -> np.ndarray:
    """Per shot, the colour agreement all but the worst of its own views reach, less
    COLOUR_SLACK. Per shot and close under its own views, not in the middle of the gap
    to the forgotten views: that gap is only as narrow as the nearest colours this
    deck happens to hold, and the colour a forgotten card shows may be nearer (violet
    where only blue and red are enrolled). 0 for a shot with too few views."""
    cuts = np.zeros(n, np.float32)
    by_shot: dict[int, list[float]] = {}
    for view in own:
        if view.right:
            by_shot.setdefault(view.winner, []).append(view.colour)
    for shot, colours in by_shot.items():
        if len(colours) >= 2:
            cuts[shot] = sorted(colours)[1] - COLOUR_SLACK
    return cuts


def _consistency_threshold(own: list[_View], stranger: list[_View], min_colours: np.ndarray, test: str) -> float:
    """The least consistency (`test`: "consistency" or "fine") to accept: as many
    own-code views named right as possible, each view that would be named wrong (a forgotten card's look-alike, or an own view
    ranked wrong) costing WRONG_NAME_COST of them, with each view's colour held against
    its winning shot's cut as the identifier holds it. Of the cuts that do equally well,
    the middle one, so the cut sits in the gap between forgotten cards and true ones
    rather than against the cleanest true views."""
    if not stranger:
        return 0.0
    views = own + stranger
    consistency = np.array([getattr(v, test) for v in views])
    coloured = np.array([v.colour >= min_colours[v.winner] for v in views])
    good = np.array([v.right for v in views])
    grid = np.linspace(0.0, 1.0, 201)
    passes = (consistency[None, :] >= grid[:, None]) & coloured[None, :]
    value = (passes & good).sum(axis=1) - WRONG_NAME_COST * (passes & ~good).sum(axis=1)
    return float(np.median(grid[value >= value.max()]))


def _spread(same: list, other: list | None = None) -> dict:
    """What the calibration saw, for the model card and for a person wondering why."""
    def q(values: list, p: float) -> float | None:
        return round(float(np.percentile(values, p)), 4) if values else None
    spread = {"same_card_p1": q(same, 1), "same_card_p5": q(same, 5), "same_card_median": q(same, 50)}
    if other is not None:
        spread |= {"forgotten_card_median": q(other, 50), "forgotten_card_p99": q(other, 99)}
    return spread
