"""Grow a contour find cut at a printed band or panel to its whole card, along the
network's outline of that card (vision/learned_detect.py).

Why: on some faces (the project's dark Lagim faces, designs with a ribbon or a banner
across them) the contour search closes round a panel of the card, not round the card:
the part below a title band, the part above a ribbon (inside the card's printed frame,
often). Such a find spans most of the card's width but only part of its length, and
its cut-out is read as a face no deck has. The network's maps do not stop at the
print: its core of that card runs on past the band, and grown back by 1 / CORE (its
card's outline, fitted to the card's interior where the network found the card) is
the whole card. That outline is coarse (the maps are a quarter of the network's
input); the edge fit (vision/refine.py) then puts its sides on the card's edges.

Only where all of this holds is a find grown: it is not `agreed` (the network outlines
it alike already) nor the network's own card; the grown outline holds the find, the
find spans its width and it runs on past the find's end along its length, farther
than past its sides (a part side by side with the rest, in the direction the card
continues); it is card-shaped (a deck's aspect); and what it adds overlaps no other
find nor another learned card (a touching neighbour's core is apart from this one's,
but a cut find beside it must not run onto it).

A grown find keeps the `partner` it was given as found (the network's card overlapping
it most): vision/recognize.py reads an unsure card again from that outline. The grown
outline follows that very card's core, so the two may now outline the card alike
(tests/vision/test_learned_detect.py); given no partner, two held-out cards of 341 were
named right below the table's bar instead of over it (`bench_vision.py --only
world_named --world-scenes 6 --families heirloom`), nothing else changed.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import _overlap, _polygon_area, order_clockwise
from vision.interfaces import Detection
from vision.joint_settings import CORE, JointSettings


def grown_to_cores(cards: list[Detection], learned: list[Detection], doubted: list[Detection], core: np.ndarray,
                   scale: float, settings: JointSettings) -> list[Detection]:
    """`cards` (the joint detector's sure cards) with each contour find cut at a panel grown
    to its whole card (module docstring). `learned`: the network's cards (those among
    `cards` are its outlines already, and stay); `doubted`: the doubted finds; neither
    may a growth run onto. `core`: the network's core map at its input size, `scale`
    the frame's shrink to it. A find beyond the sizes the network judges (`largest`: a
    close-up) stays as found."""
    out = list(cards)
    if not cards:
        return out
    finds = np.array([d.corners for d in cards], np.float32).reshape(-1, 4, 2) * scale
    network = np.array([d.corners for d in learned], np.float32).reshape(-1, 4, 2) * scale
    # the finds asked: a contour find not agreed, within the network's card sizes (not a close-up)
    sides = np.linalg.norm(finds - np.roll(finds, 1, axis=1), axis=2)
    asked = (sides.max(axis=1) <= settings.largest) & np.array([not d.agreed and not any(d is c for c in learned) for d in cards])
    past = _core_past(finds, core, settings.grow_core)
    lo, hi = finds.min(axis=1), finds.max(axis=1)
    # the network's cards near each find and larger by a real share
    near = ((network.min(axis=1)[None] <= hi[:, None]).all(axis=2) & (network.max(axis=1)[None] >= lo[:, None]).all(axis=2)
            & (np.array([_polygon_area(q) for q in network])[None]
               > (1 + settings.grow_least) * np.array([_polygon_area(f) for f in finds])[:, None]))
    for i in np.flatnonzero(asked & (past | near.any(axis=1))).tolist():
        find, card = finds[i], cards[i]
        wholes = [network[k] for k in np.flatnonzero(near[i])] + (_core_grown_back(find, core, settings.grow_core) if past[i] else [])
        neighbours = [d.corners for j, d in enumerate(cards) if j != i] + [d.corners for d in learned + doubted]
        for whole in wholes:
            grown = _grown(find, whole, settings)
            if grown is None:
                continue
            quad = order_clockwise(grown / scale)
            if not _runs_onto(card.corners, quad, neighbours, settings.grow_onto):
                out[i] = Detection(quad, card.score, card.agreed, card.partner)
                break
    return out


PROBE = 0.95  # a find's sides' mid-points moved towards its middle to this share of the way: just inside it


def _core_past(finds: np.ndarray, core: np.ndarray, least: float) -> np.ndarray:
    """Whether the core map reaches `least` at one of each find's sides (n, 4, 2): a
    card's core lies well inside its outline (CORE), so at a whole card's sides it is
    low, and the core's outline is sought (a connected-component search, most of this
    step's time) only where it is not. (Asked of every find, the search took 7 ms of a
    real photo's frame; this way 0.5 ms, the growth the same but for 3 of 27 finds
    grown on 80 training-family scenes.)"""
    middle = finds.mean(axis=1, keepdims=True)
    probes = np.round(middle + ((finds + np.roll(finds, -1, axis=1)) / 2 - middle) * PROBE).astype(int)
    h, w = core.shape
    x, y = np.clip(probes[..., 0], 0, w - 1), np.clip(probes[..., 1], 0, h - 1)
    inside = (probes[..., 0] == x) & (probes[..., 1] == y)
    return ((core[y, x] > least) & inside).any(axis=1)


def _core_grown_back(find: np.ndarray, core: np.ndarray, least: float) -> list[np.ndarray]:
    """The core the find holds most of (pixels over `least` probability), grown back by
    1 / CORE (map pixels); none where it holds none."""
    reach = int(np.ceil(np.linalg.norm(find - np.roll(find, 1, axis=0), axis=1).max()))  # a card the find is a part of runs on at most the find's length past it
    h, w = core.shape
    x0, y0 = np.maximum(np.floor(find.min(axis=0)).astype(int) - reach, 0)
    x1, y1 = np.minimum(np.ceil(find.max(axis=0)).astype(int) + reach + 1, [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return []
    count, labels = cv2.connectedComponents((core[y0:y1, x0:x1] > least).astype(np.uint8), connectivity=8)
    if count <= 1:
        return []
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(find - [x0, y0]).astype(np.int32)], 1)
    held = np.bincount(labels[inside > 0], minlength=count)  # each core's pixels inside the find
    held[0] = 0
    k = int(np.argmax(held))
    if held[k] == 0:
        return []
    contour = max(cv2.findContours((labels == k).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0],
                  key=cv2.contourArea)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour + np.array([x0, y0], np.int32))
    return [cv2.boxPoints(((cx, cy), (rw / CORE + 1, rh / CORE + 1), angle))]


def _grown(find: np.ndarray, whole: np.ndarray, s: JointSettings) -> np.ndarray | None:
    """`whole` (map pixels), widened to hold all of the find; None where it is not a
    card-shaped outline holding the find, the find spanning its width and it running on
    past the find's end along its length (a part side by side with the rest of the card)."""
    # the card's axes: u along its length, v across it; the find's gaps to the grown core's ends and sides
    sides = np.stack([whole[1] - whole[0], whole[3] - whole[0]])
    lengths = np.linalg.norm(sides, axis=1)
    long, short = float(lengths.max()), float(lengths.min())
    u, v = sides[int(np.argmax(lengths))] / long, sides[int(np.argmin(lengths))] / short
    centre = whole.mean(axis=0)
    along, across = (find - centre) @ u, (find - centre) @ v
    end_gap = max(long / 2 - float(along.max()), float(along.min()) + long / 2)
    side_gap = max(short / 2 - float(across.max()), float(across.min()) + short / 2, 0.0)
    if (_overlap(find, whole) < s.grow_held * _polygon_area(find)  # not on the card the core is of
            or float(np.ptp(across)) < s.grow_width * short  # not across its width: no part cut across the card
            or end_gap < s.grow_least * long or end_gap < s.grow_along * side_gap):  # not continued along its length
        return None
    # the grown core's outline, widened to hold the whole find (the core's edge is a quarter pixel's guess)
    a0, a1 = min(float(along.min()), -long / 2), max(float(along.max()), long / 2)
    c0, c1 = min(float(across.min()), -short / 2), max(float(across.max()), short / 2)
    grown = (centre + np.array([[a0, c0], [a1, c0], [a1, c1], [a0, c1]]) @ np.stack([u, v])).astype(np.float32)
    return grown if s.deck_shaped(grown) else None  # else what it tells is no card


def _runs_onto(find: np.ndarray, grown: np.ndarray, neighbours: list[np.ndarray], most: float) -> bool:
    """Whether what the growth adds overlaps a neighbour (another find, another learned
    card) by more than `most` of that neighbour's area or of what it adds. A learned card
    of this very card (most of it inside the grown outline and holding the find) is no
    neighbour: it is the card the growth follows."""
    added = _polygon_area(grown) - _polygon_area(find)
    lo, hi = grown.min(axis=0), grown.max(axis=0)
    for other in neighbours:
        if (other.max(axis=0) < lo).any() or (other.min(axis=0) > hi).any():
            continue
        area = _polygon_area(other)
        if _overlap(other, grown) >= (1 - most) * area and _overlap(other, find) >= (1 - most) * _polygon_area(find):
            continue  # this card's own learned outline
        if _overlap(other, grown) - _overlap(other, find) > most * min(area, added):
            return True
    return False
