"""Table videos of the layouts real tables have, for the live loop's benchmark and tests.

`make_script` (scripts/lib/scripted.py) puts cards down a card-length apart; at a real
table a dugtungan word is a row of touching cards, Bagani combos lie side by side, a
discard pile is a card on a card and a hand of cards is a fan. Here cards come down one
by one into one of those layouts (the layouts of scripts/detector_world.py, put down
over time), on the held-out cloths of that world or the project's own tables, while a
hand sweeps across now and then; a card a later one covers is scored on its appearance
only (`ScriptedVideo.covered_cards`).
"""

from __future__ import annotations

import math
import random

import numpy as np

from scripts.lib.scripted import ScriptedCard, TableScript
from vision.synth.camera import SKIN, HandSweep, Pose
from vision.synth.faces import FACE_SIZE, game_codes

LAYOUT_VIDEOS = ("row", "grid", "pile", "fan")
LAYOUT_TABLES = ("checked", "floral", "pattern", "wood")  # the held-out cloths first (scripts/detector_world.py)


def _spots(layout: str, rng: random.Random, length: float) -> list[tuple[float, float, float]]:
    """(x, y, angle) of each card in the layout's own frame, pixels of the table, in the
    order they are put down (a later card lies on an earlier one)."""
    width = length * FACE_SIZE[0] / FACE_SIZE[1]
    gap = rng.choice((0.0, 0.0, 0.005, 0.01)) * length
    if layout == "row":
        return [(i * (width + gap), rng.uniform(-0.01, 0.01) * length, rng.uniform(-2, 2))
                for i in range(rng.randint(4, 6))]
    if layout == "grid":
        columns = rng.randint(2, 3)
        return [(c * (width + gap), r * (length + gap), rng.uniform(-2, 2)) for r in range(2) for c in range(columns)]
    if layout == "pile":  # a discard pile: each card dropped on the last, off-centre and turned
        return [(rng.uniform(-0.3, 0.3) * length, rng.uniform(-0.3, 0.3) * length, rng.uniform(-180, 180))
                for _ in range(rng.randint(3, 5))]
    shift = rng.uniform(0.25, 0.45) * length  # fan: an overlapping row, each card slid along the last
    return [(i * shift, 0.0, rng.uniform(-3, 3)) for i in range(rng.randint(4, 6))]


def make_layout_script(seed: int, layout: str, table: str, game: str = "gargon",
                       size: tuple[int, int] = (1280, 720), fps: float = 10.0) -> TableScript:
    """Cards of `game` put down one by one into `layout` on `table`, 0.8-1.6 s apart,
    the whole layout turned any way and fitted inside the frame; now and then the last
    card is taken back; one or two hand sweeps. The video ends 2.5 s after the last change."""
    rng = random.Random(seed)
    w, h = size
    length = rng.uniform(0.2, 0.27) * h
    spots = _spots(layout, rng, length)
    local = np.array([(x, y) for x, y, _ in spots], np.float64)
    local -= (local.min(axis=0) + local.max(axis=0)) / 2
    for _ in range(100):  # a turn that keeps every card inside the frame, margins for the camera's tilt
        turn = rng.uniform(-180, 180)
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        placed = local @ np.array([[c, s], [-s, c]])
        reach = np.abs(placed).max(axis=0) + 0.62 * length
        if reach[0] < 0.46 * w and reach[1] < 0.44 * h:
            break
    else:
        raise ValueError(f"layout {layout} of seed {seed} does not fit a {w}x{h} frame")
    centre = np.array([w / 2, h / 2]) + [rng.uniform(-1, 1) * (0.46 * w - reach[0]),
                                         rng.uniform(-1, 1) * (0.44 * h - reach[1])]
    codes = rng.sample(list(game_codes(game)), len(spots))
    frame = rng.randint(0, 8)
    cards = []
    for code, (x, y), (_, _, angle) in zip(codes, placed + centre, spots):
        cards.append(ScriptedCard(code, Pose(float(x), float(y), angle + turn), frame))
        frame += rng.randint(8, 16)
    last = frame - 8
    if layout in ("row", "grid") and rng.random() < 0.5:  # the last card taken back
        cards[-1].removed = last = cards[-1].placed + rng.randint(25, 35)
    frames = last + 25
    sweeps = []
    for _ in range(rng.randint(1, 2)):
        start = rng.randint(10, max(11, frames - 25))
        left = rng.random() < 0.5
        sweeps.append(HandSweep(start, start + rng.randint(8, 14), -0.1 * w if left else 1.1 * w,
                                1.1 * w if left else -0.1 * w, rng.uniform(0.3, 0.95), rng.choice(SKIN)))
    return TableScript(size, frames, fps, table, cards, sweeps, card_length=length, seed=seed, game=game)
