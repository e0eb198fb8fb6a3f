"""A generated world of cards on tables for training and judging the learned card detector
(training only: not part of the installed packages).

Why a world of its own: the project's scenes (vision/synth/scenes.py) place one face
design per game a card-length apart on five tables; real tables hold rows of touching
cards, grids, a card on a card, fans, cloths of every pattern, tilted cameras and dim
warm light. Here every scene draws a table kind, a layout, a card-design family, a
camera and a light, and the truth of each card is its visible polygon (what the cards
above it leave) and its whole outline.

Held out from training and from every tuning decision (`HELD_OUT_TABLES`,
`HELD_OUT_FAMILY`): the checked and floral cloths, and the four games' own faces
(vision/synth/faces.py), which no training scene shows. scripts/bench_vision.py
reports its figures on those, split by layout.

    nice .venv/bin/python scripts/detector_world.py --out build/detector --tiles 4000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.joint_settings import CORE, DECK_ASPECTS  # noqa: E402
from vision.learned_detect import STRIDE  # noqa: E402
from vision.synth.faces import FACE_SIZE, GAMES, game_codes, game_face  # noqa: E402

TRAIN_TABLES = ("wood", "felt", "plain_light", "plain_dark", "blotchy", "striped", "cork", "stone", "motif",
                "tiles", "tartan", "linen")
HELD_OUT_TABLES = ("checked", "floral")
TRAIN_FAMILIES = ("pips", "panel", "symbols", "flat", "back", "composed")
HELD_OUT_FAMILY = "games"
# drawn into training tiles only (`training_tile`), each twice as often as another kind: added
# after every benchmark's world was fixed, so that its scenes and figures stay comparable
TRAINING_ONLY_TABLES = ("cartoon", "cartoon")
TRAINING_ONLY_FAMILIES = ("big_pips", "big_pips")
LAYOUTS = ("apart", "row", "grid", "pile", "fan")
WHOLE = 0.9   # a card at least this visible is one the detector must find
HIDDEN = 0.5  # a card less visible than this is not a card to find; in between: either way


@dataclass
class WorldCard:
    outline: np.ndarray        # (4, 2) the whole card in the image, clockwise
    visible: np.ndarray = field(repr=False)  # bool mask of the image: what of it is seen
    share: float = 1.0         # visible area over whole area
    code: str = ""             # its face's code, where the scene was dealt from a deck (`world_scene`'s `faces`)


@dataclass
class WorldScene:
    image: np.ndarray
    cards: list[WorldCard]
    table: str
    layout: str
    family: str

    def whole(self) -> list[WorldCard]:
        return [c for c in self.cards if c.share >= WHOLE]


# --- card designs ---------------------------------------------------------------------

def _colour(rng: random.Random, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


def _bordered(rng: random.Random, inner: tuple[int, int, int]) -> tuple[np.ndarray, int]:
    """A blank face with a white, black, coloured or no border, and the border's width."""
    w, h = FACE_SIZE
    kind = rng.choice(("white", "black", "colour", "none"))
    edge = {"white": _colour(rng, 225, 255), "black": _colour(rng, 0, 30), "colour": _colour(rng),
            "none": inner}[kind]
    face = np.full((h, w, 3), edge, np.uint8)
    b = 0 if kind == "none" else rng.randint(6, 22)
    cv2.rectangle(face, (b, b), (w - 1 - b, h - 1 - b), inner, -1)
    return face, b


def _art(rng: random.Random, face: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """A picture: a gradient under blobs and strokes, framed by a line (an inner frame the
    detector must not take for the card's edge)."""
    x0, y0, x1, y1 = box
    ww, hh = x1 - x0, y1 - y0
    a, b = np.array(_colour(rng), np.float32), np.array(_colour(rng), np.float32)
    t = np.linspace(0, 1, hh, dtype=np.float32)[:, None, None]
    panel = (a * (1 - t) + b * t).repeat(ww, axis=1)
    for _ in range(rng.randint(3, 12)):
        cv2.ellipse(panel, (rng.randrange(ww), rng.randrange(hh)), (rng.randint(4, ww // 2), rng.randint(4, hh // 2)),
                    rng.uniform(0, 180), 0, 360, _colour(rng), -1)
    for _ in range(rng.randint(0, 6)):
        cv2.line(panel, (rng.randrange(ww), rng.randrange(hh)), (rng.randrange(ww), rng.randrange(hh)),
                 _colour(rng), rng.randint(1, 6))
    face[y0:y1, x0:x1] = panel.astype(np.uint8)
    cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), _colour(rng, 0, 80) if rng.random() < 0.6 else _colour(rng),
                  rng.randint(1, 5))


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("AKQJ23456789XYZWMBN") for _ in range(n))


def _put(face: np.ndarray, text: str, org: tuple[int, int], scale: float, colour, thick: int) -> None:
    cv2.putText(face, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def face_pips(rng: random.Random) -> np.ndarray:
    """A playing card: cream face, a rank and suit in two corners, pips or a framed court picture."""
    w, h = FACE_SIZE
    face, _ = _bordered(rng, _colour(rng, 215, 255))
    ink = rng.choice(((20, 20, 200), (20, 20, 20), (160, 30, 30)))
    rank = rng.choice(["A", "K", "Q", "J", "10"] + [str(i) for i in range(2, 10)])
    for flip in (False, True):
        corner = np.zeros_like(face)
        _put(corner, rank, (12, 40), 1.1, ink, 3)
        cv2.circle(corner, (24, 60), 9, ink, -1)
        if flip:
            corner = corner[::-1, ::-1]
        face = np.where(corner.any(axis=2, keepdims=True), corner, face)
    face = np.ascontiguousarray(face)
    if rank in ("K", "Q", "J") or rng.random() < 0.2:  # a court picture, its frame anywhere from near the edge inwards
        mx, my = rng.randint(14, 50), rng.randint(14, 56)
        _art(rng, face, (mx, my, w - mx, h - my))
    else:
        for _ in range(rng.randint(1, 10)):
            centre = (rng.randint(55, w - 55), rng.randint(60, h - 60))
            if rng.random() < 0.5:
                cv2.circle(face, centre, rng.randint(10, 18), ink, -1, cv2.LINE_AA)
            else:
                s = rng.randint(10, 18)
                pts = np.int32([[centre[0], centre[1] - s], [centre[0] + s, centre[1]],
                                [centre[0], centre[1] + s], [centre[0] - s, centre[1]]])
                cv2.fillConvexPoly(face, pts, ink, cv2.LINE_AA)
    return face


def _suit(face: np.ndarray, suit: str, centre: tuple[float, float], r: float, ink, upside_down: bool = False) -> None:
    """A heart, diamond, spade or club `r` pixels in radius at `centre`, as real decks print them."""
    cx, cy = centre
    s = -1 if upside_down else 1

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return int(round(cx + dx * r)), int(round(cy + s * dy * r))

    if suit == "diamond":
        cv2.fillConvexPoly(face, np.int32([pt(0, -1), pt(0.75, 0), pt(0, 1), pt(-0.75, 0)]), ink, cv2.LINE_AA)
        return
    if suit == "club":
        for dx, dy in ((0, -0.45), (-0.5, 0.2), (0.5, 0.2)):
            cv2.circle(face, pt(dx, dy), max(1, int(0.45 * r)), ink, -1, cv2.LINE_AA)
    else:  # heart, or a spade: a heart upside down
        f = 1 if suit == "heart" else -1
        for dx in (-0.45, 0.45):
            cv2.circle(face, pt(dx, -0.35 * f), max(1, int(0.5 * r)), ink, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(face, np.int32([pt(-0.93, -0.2 * f), pt(0.93, -0.2 * f), pt(0, 0.95 * f)]), ink, cv2.LINE_AA)
    if suit != "heart":  # a stem
        cv2.fillConvexPoly(face, np.int32([pt(0, 0.3), pt(0.35, 1.0), pt(-0.35, 1.0)]), ink, cv2.LINE_AA)


def face_big_pips(rng: random.Random) -> np.ndarray:
    """A playing card as real decks print it: large corner indices and suit pips in two or
    three columns, an ace's one pip a third of the card wide, or a court picture. Why: on
    real bridge fans under a hand's shadow the network took such pips and indices for small
    cards (models/README.md, "A fine-tune on CPU for real fans and printed cloths")."""
    w, h = FACE_SIZE
    face = _bordered(rng, _colour(rng, 225, 255))[0] if rng.random() < 0.3 else np.full((h, w, 3), _colour(rng, 225, 255), np.uint8)
    suit = rng.choice(("heart", "diamond", "spade", "club"))
    ink = rng.choice(((30, 30, 190), (40, 20, 200))) if suit in ("heart", "diamond") else (25, 25, 25)
    rank = rng.choice(["A", "K", "Q", "J", "10"] + [str(i) for i in range(2, 10)])
    scale = rng.uniform(1.2, 2.0)
    for flip in (False, True):
        corner = np.zeros_like(face)
        _put(corner, rank, (8, int(34 * scale)), scale, ink, max(2, int(2 * scale)))
        _suit(corner, suit, (14 + 12 * scale, 52 * scale), 11 * scale, ink)
        if flip:
            corner = corner[::-1, ::-1]
        face = np.where(corner.any(axis=2, keepdims=True), corner, face)
    face = np.ascontiguousarray(face)
    if rank in ("K", "Q", "J"):
        m = rng.randint(50, 75)
        _art(rng, face, (m, m + 10, w - m, h - m - 10))
    elif rank == "A":
        _suit(face, suit, (w / 2, h / 2), rng.uniform(0.15, 0.3) * w, ink)
    else:
        n = 10 if rank == "10" else int(rank)
        r = rng.uniform(0.08, 0.13) * w
        columns = (w * 0.3, w * 0.7) if n > 3 else (w / 2,)
        per = max(1, (n - (n % 2 if n > 3 else 0)) // len(columns))
        for x in columns:
            for k in range(per):
                y = h * (0.2 + 0.6 * (k + 0.5) / per)
                _suit(face, suit, (x, y), r, ink, upside_down=y > h / 2)
        if n > 3 and n % 2:
            _suit(face, suit, (w / 2, h / 2), r, ink)
    return face


def face_panel(rng: random.Random) -> np.ndarray:
    """A trading card: a thick border, a title bar, a big art panel in its own frame, a text box."""
    w, h = FACE_SIZE
    face, b = _bordered(rng, _colour(rng))
    b = max(b, rng.randint(8, 16))
    cv2.rectangle(face, (b + 4, b + 4), (w - b - 5, b + 34), _colour(rng), -1)
    _put(face, _word(rng, rng.randint(3, 7)), (b + 10, b + 28), 0.7, _colour(rng, 0, 60), 2)
    top = b + 42
    _art(rng, face, (b + 6, top, w - b - 6, top + rng.randint(100, 150)))
    cv2.rectangle(face, (b + 6, h - b - 80), (w - b - 7, h - b - 8), _colour(rng, 150, 255), -1)
    for i in range(rng.randint(1, 3)):
        _put(face, _word(rng, rng.randint(4, 10)), (b + 12, h - b - 58 + 20 * i), 0.45, (30, 30, 30), 1)
    return face


def face_symbols(rng: random.Random) -> np.ndarray:
    """A pattern card: white face, one to three shapes, filled, striped or empty."""
    w, h = FACE_SIZE
    face, _ = _bordered(rng, _colour(rng, 225, 255)) if rng.random() < 0.5 else (np.full((h, w, 3), _colour(rng, 225, 255), np.uint8), 0)
    ink = _colour(rng, 0, 200)
    n = rng.randint(1, 3)
    shape = rng.choice(("oval", "diamond", "rect"))
    fill = rng.choice(("solid", "empty", "striped"))
    horizontal = rng.random() < 0.5
    for i in range(n):
        offset = (i - (n - 1) / 2) * 70
        cx, cy = (w // 2, int(h / 2 + offset)) if horizontal else (int(w / 2 + offset * 0.6), h // 2)
        mask = np.zeros((h, w), np.uint8)
        sx, sy = (60, 24) if horizontal else (18, 70)
        if shape == "oval":
            cv2.ellipse(mask, (cx, cy), (sx, sy), 0, 0, 360, 255, -1)
        elif shape == "diamond":
            cv2.fillConvexPoly(mask, np.int32([[cx - sx, cy], [cx, cy - sy], [cx + sx, cy], [cx, cy + sy]]), 255)
        else:
            cv2.rectangle(mask, (cx - sx, cy - sy), (cx + sx, cy + sy), 255, -1)
        if fill == "solid":
            face[mask > 0] = ink
        else:
            edge = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((5, 5), np.uint8))
            if fill == "striped":
                stripes = np.zeros_like(mask)
                stripes[:, ::6] = 255
                face[(mask > 0) & (stripes > 0)] = ink
            face[edge > 0] = ink
    return face


def face_flat(rng: random.Random) -> np.ndarray:
    """A number card: one colour, a big numeral in a circle or banner, small ones in corners."""
    w, h = FACE_SIZE
    face, b = _bordered(rng, _colour(rng))
    ink = _colour(rng)
    number = str(rng.randint(0, 20))
    if rng.random() < 0.5:
        cv2.ellipse(face, (w // 2, h // 2), (w // 2 - b - 8, h // 3), rng.uniform(-30, 30), 0, 360, _colour(rng), -1)
    else:
        cv2.rectangle(face, (b + 4, h // 2 - 40), (w - b - 5, h // 2 + 40), _colour(rng), -1)
    _put(face, number, (w // 2 - 30 * len(number), h // 2 + 30), 2.6, ink, 7)
    _put(face, number, (b + 6, b + 30), 0.9, ink, 2)
    _put(face, number, (w - b - 40, h - b - 12), 0.9, ink, 2)
    return face


def face_back(rng: random.Random) -> np.ndarray:
    """A card back: a border round a repeating pattern."""
    w, h = FACE_SIZE
    face, b = _bordered(rng, _colour(rng))
    ink = _colour(rng)
    step = rng.randint(8, 24)
    for y in range(b, h - b, step):
        for x in range(b, w - b, step):
            if rng.random() < 0.5:
                cv2.circle(face, (x, y), step // 3, ink, -1)
            else:
                cv2.line(face, (x, y), (x + step, y + step), ink, 2)
    cv2.rectangle(face, (b, b), (w - b - 1, h - b - 1), _colour(rng), rng.randint(1, 4))
    return face


def _paper(rng: random.Random) -> tuple[int, int, int]:
    """A card's ground: white or cream paper mostly, now and then a dark or a coloured card."""
    pick = rng.random()
    if pick < 0.55:
        return _colour(rng, 205, 255)
    return _colour(rng, 0, 55) if pick < 0.8 else _colour(rng)


def face_composed(rng: random.Random) -> np.ndarray:
    """A design put together at random from what real decks print: white, dark or coloured
    paper; bands across the card (a title bar, a suit's stripe, a name banner), edge to
    edge or inside a border; a picture reaching to the edge or framed inside it; a thin
    printed frame a few pixels in; a big token in a disc or bare; indices in corners; or
    almost nothing at all. None of these lines is the card's edge."""
    w, h = FACE_SIZE
    ground = _paper(rng)
    face, b = _bordered(rng, ground) if rng.random() < 0.6 else (np.full((h, w, 3), ground, np.uint8), 0)
    ink = _colour(rng, 0, 70) if sum(ground) > 400 else _colour(rng, 150, 255)
    if rng.random() < 0.3:  # sparse: one to three thin shapes on a blank card
        n, along = rng.randint(1, 3), rng.random() < 0.5
        for i in range(n):
            offset = int((i - (n - 1) / 2) * 80)
            centre = (w // 2, h // 2 + offset) if along else (w // 2 + offset, h // 2)
            axes = (rng.randint(40, 90), rng.randint(15, 35)) if along else (rng.randint(15, 35), rng.randint(40, 90))
            cv2.ellipse(face, centre, axes, 0, 0, 360, ink, rng.randint(2, 5), cv2.LINE_AA)
        return face
    if rng.random() < 0.35:  # a picture, full bleed or nearly
        m = rng.choice((0, 0, rng.randint(2, 12)))
        _art(rng, face, (b + m, b + m, w - b - m, b + m + rng.randint(h // 3, h - 2 * b - 2 * m)))
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        y0 = rng.randint(0, h - 30)
        y1 = min(h, y0 + rng.randint(h // 25, h // 3))
        x0, x1 = (0, w) if rng.random() < 0.5 else (b, w - b)
        cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), _colour(rng), -1)
        if y1 - y0 > 30 and rng.random() < 0.6:
            _put(face, _word(rng, rng.randint(2, 8)), (x0 + 14, (y0 + y1) // 2 + 10), 0.9, _colour(rng), 2)
    if rng.random() < 0.4:  # a thin printed frame inside the card
        inset = b + rng.randint(4, 30)
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset), _colour(rng), rng.randint(1, 4))
    token = rng.choice([str(rng.randint(0, 99)), _word(rng, rng.randint(1, 3))])
    if rng.random() < 0.5:
        cv2.circle(face, (w // 2, h // 2), rng.randint(50, 120), _colour(rng), -1, cv2.LINE_AA)
    _put(face, token, (w // 2 - 35 * len(token), h // 2 + 30), rng.uniform(1.6, 3.2), ink, rng.randint(3, 9))
    for corner in range(rng.choice((0, 2, 4))):
        x = b + 8 if corner % 2 == 0 else w - b - 50
        y = b + 36 if corner < 2 else h - b - 12
        _put(face, token[:2], (x, y), 0.9, ink, 2)
    return face


def face_games(rng: random.Random) -> np.ndarray:
    game = rng.choice(GAMES)
    return game_face(game, rng.choice(game_codes(game)))


FAMILIES = {"pips": face_pips, "big_pips": face_big_pips, "panel": face_panel, "symbols": face_symbols, "flat": face_flat,
            "back": face_back, "composed": face_composed, "games": face_games}


def sleeved(rng: random.Random, face: np.ndarray) -> np.ndarray:
    """The face in a sleeve: a few pixels of clear or coloured plastic round it, a little gloss."""
    pad = rng.randint(3, 9)
    rim = _colour(rng) if rng.random() < 0.5 else (235, 235, 235)
    out = cv2.copyMakeBorder(face, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=rim)
    out = cv2.addWeighted(out, 0.88, np.full_like(out, 255), 0.12, 0)
    return cv2.resize(out, FACE_SIZE, interpolation=cv2.INTER_AREA)


# --- tables ---------------------------------------------------------------------------

def _noise(shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """Gaussian noise, float32 (cv2.randn: a tenth of NumPy's cost at a megapixel)."""
    out = np.empty(shape, np.float32)
    cv2.randn(out, 0.0, sigma)
    return out


def table_texture(kind: str, size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A table of `kind` as seen from straight above, `size` (w, h)."""
    w, h = size
    base = np.array(_colour(rng), np.float32)
    if kind == "wood":
        base = np.array([rng.randint(30, 150), rng.randint(60, 190), rng.randint(100, 230)], np.float32)
        across, along = np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]
        if rng.random() < 0.5:
            across, along = along, across
        grain = np.sin(across / rng.uniform(2, 9) + rng.uniform(2, 5) * np.sin(along / rng.uniform(40, 200)))
        img = np.ascontiguousarray(base * (0.82 + 0.12 * grain[..., None]))
    elif kind == "felt":
        base = np.array([rng.randint(20, 90), rng.randint(60, 150), rng.randint(10, 70)], np.float32)
        if rng.random() < 0.3:
            base = base[[2, 1, 0]] if rng.random() < 0.5 else base[[1, 0, 2]]
        img = np.broadcast_to(base, (h, w, 3)).copy()
        img += cv2.GaussianBlur(_noise((h, w), 20), (0, 0), 2)[..., None]
    elif kind == "plain_light":
        img = np.broadcast_to(np.array(_colour(rng, 190, 250), np.float32), (h, w, 3)).copy()
    elif kind == "plain_dark":
        img = np.broadcast_to(np.array(_colour(rng, 5, 60), np.float32), (h, w, 3)).copy()
    elif kind in ("blotchy", "stone"):
        k = rng.uniform(4, 30)
        noise = cv2.GaussianBlur(_noise((h, w), 1), (0, 0), k)
        noise /= noise.std() + 1e-6
        other = np.array(_colour(rng), np.float32)
        t = np.clip(0.5 + 0.35 * noise, 0, 1)[..., None]
        img = base * (1 - t) + other * t
        if kind == "stone":
            img = cv2.cvtColor(cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR).astype(np.float32)
            img = img * rng.uniform(0.4, 1.1) + _noise((h, w, 1), 12)
            for _ in range(rng.randint(0, 12)):  # veins
                pts = np.int32([[rng.randrange(w), rng.randrange(h)] for _ in range(4)])
                cv2.polylines(img, [pts], False, _colour(rng, 150, 255), rng.randint(1, 3))
    elif kind == "cork":
        base = np.array([rng.randint(60, 110), rng.randint(110, 160), rng.randint(150, 210)], np.float32)
        img = base + _noise((h, w, 1), 25)
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
    elif kind == "striped":
        step = rng.randint(6, 60)
        other = np.array(_colour(rng), np.float32)
        x = np.arange(w)[None, :] + rng.uniform(-1, 1) * np.arange(h)[:, None]
        t = ((x // step) % 2).astype(np.float32)[..., None]
        img = base * (1 - t) + other * t
    elif kind == "tiles":  # a tiled table top: tiles of one to three colours between grout lines
        th = rng.randint(25, 160)  # square tiles, or bricks two to three times as long laid in offset rows
        tw = int(th * rng.uniform(0.9, 1.1)) if rng.random() < 0.6 else int(th * rng.uniform(2, 3))
        grout = rng.randint(1, 6)
        colours = np.array([_colour(rng) for _ in range(rng.randint(1, 3))], np.float32)
        jitter = np.array([rng.uniform(0.85, 1.1) for _ in range(64)], np.float32)
        iy = np.arange(h)[:, None] // th
        shifted = np.arange(w)[None, :] + (iy % 2) * (tw // 2 if tw > 1.5 * th else 0)
        ix = shifted // tw
        tile = (ix * 7 + iy * 13) % 64
        pick = colours[(ix * 3 + iy * 5 + (ix * iy) % 7) % len(colours)] if len(colours) > 1 else colours[np.zeros_like(tile)]
        img = pick * jitter[tile][..., None]
        line = ((shifted % tw) < grout) | ((np.arange(h)[:, None] % th) < grout)
        img[line] = np.array(_colour(rng), np.float32)
    elif kind == "tartan":  # plaid: bands of several widths and colours crossing, each colour mixed
        img = np.broadcast_to(base, (h, w, 3)).copy()
        for axis in (0, 1):
            n = (w, h)[axis]
            bands = np.zeros(n, np.float32)
            pos = 0
            while pos < n:
                width = rng.randint(3, 40)
                bands[pos:pos + width] = rng.choice((0.0, 0.0, 0.5, 1.0))
                pos += width + rng.randint(3, 40)
            colour = np.array(_colour(rng), np.float32)
            t = (bands[None, :] if axis == 0 else bands[:, None])[..., None] * rng.uniform(0.3, 0.6)
            img = img * (1 - t) + colour * t
    elif kind == "linen":  # a fine weave: threads crossing at one or two pixels
        img = np.broadcast_to(base, (h, w, 3)).copy()
        weave = _noise((h, 1), 1) + _noise((1, w), 1)
        img += rng.uniform(6, 20) * weave[..., None]
    elif kind == "checked":
        step = rng.randint(8, 60)
        other = np.array(_colour(rng), np.float32)
        xs, ys = (np.arange(w)[None, :] // step) % 2, (np.arange(h)[:, None] // step) % 2
        t = (0.5 * xs + 0.5 * ys).astype(np.float32)[..., None]
        img = base * (1 - t) + other * t
    elif kind == "floral":
        img = np.broadcast_to(base, (h, w, 3)).copy()
        palette = [_colour(rng) for _ in range(3)]
        step = rng.randint(25, 80)
        for y in range(0, h + step, step):
            for x in range(0, w + step, step):
                cx, cy = x + rng.randint(-step // 3, step // 3), y + rng.randint(-step // 3, step // 3)
                r = rng.randint(step // 6, step // 3)
                for p in range(5):
                    a = 2 * math.pi * p / 5
                    cv2.ellipse(img, (int(cx + r * math.cos(a)), int(cy + r * math.sin(a))), (r, max(2, r // 2)),
                                math.degrees(a), 0, 360, palette[p % 2], -1)
                cv2.circle(img, (cx, cy), max(2, r // 2), palette[2], -1)
    elif kind == "cartoon":  # a printed cloth or mat of scattered cartoon things (toast, cakes, stickers) of a card's size
        img = np.broadcast_to(base, (h, w, 3)).copy()
        palette = [_colour(rng, 120, 255) for _ in range(4)]
        step = rng.randint(70, 280)
        for _ in range(int(w * h / step ** 2 * rng.uniform(0.4, 0.9))):
            cx, cy, angle = rng.randrange(w), rng.randrange(h), rng.uniform(0, 180)
            size = (step * rng.uniform(0.45, 0.8), step * rng.uniform(0.45, 0.8))
            box = cv2.boxPoints(((cx, cy), size, angle))
            r = int(min(size) * rng.uniform(0.12, 0.35))  # rounder than a card: a card is what the network must find
            inner = (box - box.mean(axis=0)) * (1 - 2 * r / max(min(size), 1)) + box.mean(axis=0)
            fill = rng.choice(palette)
            cv2.fillConvexPoly(img, inner.astype(np.int32), fill, cv2.LINE_AA)
            cv2.polylines(img, [inner.astype(np.int32)], True, fill, max(1, 2 * r), cv2.LINE_AA)
            if rng.random() < 0.5:  # a toast's crust, a sticker's rim
                cv2.polylines(img, [box.astype(np.int32)], True, _colour(rng, 40, 200), rng.randint(1, 3), cv2.LINE_AA)
            ink = _colour(rng, 0, 70)
            d = min(size) * 0.12
            for side in (-1, 1):  # a face: two eyes and a smile, or a blob of butter
                cv2.circle(img, (int(cx + side * d), int(cy - d * 0.5)), max(1, int(d / 3)), ink, -1, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.ellipse(img, (int(cx), int(cy + d * 0.3)), (int(d), int(d * 0.6)), 0, 20, 160, ink, max(1, int(d / 4)))
            else:
                cv2.circle(img, (int(cx + d), int(cy + 2 * d)), max(2, int(1.3 * d)), rng.choice(palette), -1, cv2.LINE_AA)
    else:  # motif: tiled dots and squares
        img = np.broadcast_to(base, (h, w, 3)).copy()
        step = rng.randint(20, 90)
        for yy in range(0, h + step, step):
            for xx in range(0, w + step, step):
                c = _colour(rng)
                if rng.random() < 0.5:
                    cv2.circle(img, (xx + (yy // step % 2) * step // 2, yy), step // 4, c, -1)
                else:
                    cv2.rectangle(img, (xx, yy), (xx + step // 3, yy + step // 3), c, -1)
    img = img + _noise(img.shape, 4)
    return np.clip(img, 0, 255).astype(np.uint8)


# --- layouts (on the table plane, in card heights) ------------------------------------

def deck_aspect(rng: random.Random) -> float:
    """Short over long side of a scene's deck: half the time a poker deck's, else any
    of the real decks' from tarot to poker (bridge and SET are 0.64), so that no
    card shape is the only one the detector knows."""
    return 63 / 88 if rng.random() < 0.5 else rng.uniform(*DECK_ASPECTS)


def _place(layout: str, rng: random.Random, n: int, aspect: float) -> list[tuple[float, float, float]]:
    """(x, y, angle degrees) of each card of `aspect`, in units of a card's height, drawn
    in order (a later card lies on an earlier one)."""
    gap = rng.choice((0.0, 0.0, 0.005, 0.01, 0.03))
    if layout == "row":
        turn = rng.uniform(-180, 180)
        step = aspect + gap
        spots = [(i * step, rng.uniform(-0.01, 0.01), rng.uniform(-2, 2)) for i in range(n)]
    elif layout == "grid":
        cols = rng.randint(2, 5)
        rows = max(2, -(-n // cols))
        turn = rng.uniform(-180, 180)
        spots = [(c * (aspect + gap), r * (1 + gap), rng.uniform(-2, 2)) for r in range(rows) for c in range(cols)]
    elif layout == "pile":  # piles of two to four, each card turned on the one below
        turn = 0.0
        spots = []
        for p in range(max(1, n // rng.randint(2, 3))):
            px, py = p * 1.6 + rng.uniform(-0.2, 0.2), rng.uniform(-0.3, 0.3)
            for _ in range(rng.randint(2, 4)):
                spots.append((px + rng.uniform(-0.35, 0.35), py + rng.uniform(-0.35, 0.35), rng.uniform(-180, 180)))
    elif layout == "fan":
        turn = rng.uniform(-180, 180)
        spread = rng.uniform(4, 15)
        pivot = rng.uniform(0.3, 0.6)
        if rng.random() < 0.5:  # an overlapping row: cards slid along
            shift = rng.uniform(0.12, 0.4)
            spots = [(i * shift, 0.0, rng.uniform(-3, 3)) for i in range(n)]
        else:
            spots = []
            for i in range(n):
                a = math.radians((i - n / 2) * spread)
                spots.append((pivot * math.sin(a), -pivot * math.cos(a), math.degrees(a)))
    else:  # apart
        turn = 0.0
        spots = []
        for _ in range(300):
            if len(spots) == n:
                break
            x, y = rng.uniform(0, 3.5), rng.uniform(0, 2.2)
            if all(math.hypot(x - a, y - b) > 1.05 for a, b, _ in spots):
                spots.append((x, y, rng.uniform(-180, 180)))
    spots = spots[:max(n, 1)] if layout != "grid" else spots
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return [(x * c - y * s, x * s + y * c, a + turn) for x, y, a in spots]


def _card_outline(x: float, y: float, angle: float, height: float, aspect: float = 63 / 88) -> np.ndarray:
    """(4, 2) corners of a card (or any rectangle of `aspect`) of `height` centred at
    (x, y) turned `angle` degrees, clockwise from top-left."""
    w = height * aspect
    box = np.float32([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return box @ np.float32([[c, s], [-s, c]]) + np.float32([x, y])


def _camera(rng: random.Random, size: tuple[int, int], tilt_max: float) -> np.ndarray:
    """A homography from the table plane (centred on the view's centre, in pixels at the
    view's centre) to the image: the camera tilted up to `tilt_max` degrees, turned any way."""
    w, h = size
    tilt = math.radians(rng.uniform(0, tilt_max) if rng.random() < 0.8 else 0.0)
    yaw = rng.uniform(0, 2 * math.pi)
    f = rng.uniform(0.8, 1.6) * max(w, h)
    ca, sa, cy, sy = math.cos(tilt), math.sin(tilt), math.cos(yaw), math.sin(yaw)
    rot_z = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    rot_x = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
    r = rot_x @ rot_z
    # plane point (X, Y, 0) -> camera: R [X Y 0] + t, t = (0, 0, f): at the centre, one pixel per unit
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    extr = np.column_stack([r[:, 0], r[:, 1], [0, 0, f]])
    return k @ extr


def _project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(pts).reshape(1, -1, 2), hom)[0]


def _near(rng: random.Random, xy: np.ndarray, card_h: float) -> tuple[float, float]:
    """A spot on the plane within two card heights of some card."""
    x, y = xy[rng.randrange(len(xy))] if len(xy) else (0.0, 0.0)
    return float(x) + rng.uniform(-2, 2) * card_h, float(y) + rng.uniform(-2, 2) * card_h


def _distractor(rng: random.Random, image: np.ndarray, hom: np.ndarray, x: float, y: float, card_h: float,
                cover: np.ndarray, kinds: tuple[str, ...]) -> None:
    """A chip, coin, die, phone or paper (one of `kinds`) on the table at (x, y) (plane
    pixels), drawn into `image` and marked in `cover` (what it hides of the cards below)."""
    kind = rng.choice(kinds)
    h, w = image.shape[:2]
    if kind in ("chip", "coin"):
        r = card_h * (0.2 if kind == "chip" else 0.12) * rng.uniform(0.8, 1.2)
        pts = np.float32([[x + r * math.cos(t), y + r * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 32, endpoint=False)])
        poly = _project(hom, pts).astype(np.int32)
        colour = _colour(rng) if kind == "chip" else rng.choice(((40, 140, 190), (170, 170, 170)))
        cv2.fillPoly(image, [poly], colour, cv2.LINE_AA)
        cv2.fillPoly(cover, [poly], 1)
        if kind == "chip":
            inner = _project(hom, (pts - [x, y]) * 0.7 + [x, y]).astype(np.int32)
            cv2.polylines(image, [inner], True, (240, 240, 240), max(1, int(r / 8)), cv2.LINE_AA)
        return
    if kind == "die":
        size, aspect = card_h * 0.18, 1.0
    elif kind == "phone":
        size, aspect = card_h * rng.uniform(1.2, 1.7), rng.uniform(0.45, 0.5)
    else:  # paper: envelopes, notes, price tags of any shape, left blank: papers printed with lines taught a
        # network that white cards with thin shapes on them are paper (models/README.md, fourth session)
        size, aspect = card_h * rng.uniform(0.3, 2.5), rng.uniform(0.3, 1.0)
        if DECK_ASPECTS[0] - 0.05 < aspect < DECK_ASPECTS[1] + 0.08:  # a card's shape: a card to learn from, not paper
            aspect = 0.45
    poly = _project(hom, _card_outline(x, y, rng.uniform(0, 180), size, aspect)).astype(np.int32)
    colour = {"die": _colour(rng, 150, 255), "phone": _colour(rng, 0, 50)}.get(kind, _colour(rng, 170, 255))
    cv2.fillPoly(image, [poly], colour, cv2.LINE_AA)
    cv2.fillPoly(cover, [poly], 1)
    if kind == "phone":
        cv2.fillPoly(image, [((poly - poly.mean(axis=0)) * 0.9 + poly.mean(axis=0)).astype(np.int32)], _colour(rng), cv2.LINE_AA)


def _mat(rng: random.Random, image: np.ndarray, hom: np.ndarray, x: float, y: float, card_h: float) -> None:
    """A play mat, board or tray under the cards at (x, y) (plane pixels): a rounded
    rectangle several cards across, felt or printed, with lines, arcs and empty card-sized
    boxes printed on it; its corners and boxes are not cards."""
    long = card_h * rng.uniform(2.5, 8)
    size = (long, long * rng.uniform(0.4, 1.0))
    angle = rng.uniform(0, 180)
    outline = _card_outline(x, y, angle, size[0], size[1] / size[0])
    corner = rng.uniform(0, 0.4) * card_h
    centre = outline.mean(axis=0)
    rounded = []
    for i in range(4):  # each corner cut round by `corner`
        p, prev, nxt = outline[i], outline[i - 1], outline[(i + 1) % 4]
        a, b = p + (prev - p) / np.linalg.norm(prev - p) * corner, p + (nxt - p) / np.linalg.norm(nxt - p) * corner
        rounded += [(1 - t) ** 2 * a + 2 * (1 - t) * t * p + t ** 2 * b for t in np.linspace(0, 1, 6)]  # a quadratic Bezier
    poly = _project(hom, np.float32(rounded)).astype(np.int32)
    colour = _colour(rng) if rng.random() < 0.5 else (rng.randint(20, 90), rng.randint(70, 150), rng.randint(10, 80))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [poly], 255, cv2.LINE_AA)
    fill = np.clip(np.array(colour, np.float32) + cv2.GaussianBlur(_noise(image.shape[:2], 14), (0, 0), 1.5)[..., None], 0, 255)
    a = mask.astype(np.float32)[..., None] / 255
    image[:] = (image * (1 - a) + fill * a).astype(np.uint8)
    ink = _colour(rng, 180, 255) if sum(colour) < 400 else _colour(rng, 0, 80)
    if rng.random() < 0.6:  # a line printed round the mat's edge
        inner = _project(hom, (np.float32(rounded) - centre) * rng.uniform(0.85, 0.97) + centre).astype(np.int32)
        cv2.polylines(image, [inner], True, ink, rng.randint(1, 3), cv2.LINE_AA)
    for _ in range(rng.choice((0, 1, 2, 4, 6))):  # empty boxes where cards go, card-sized or not
        bx, by = centre + np.float32([rng.uniform(-0.35, 0.35) * size[0], rng.uniform(-0.35, 0.35) * size[1]])
        box = _card_outline(float(bx), float(by), angle + rng.choice((0, 90)), card_h * rng.uniform(0.8, 1.3),
                            rng.uniform(0.6, 1.0))
        cv2.polylines(image, [_project(hom, box).astype(np.int32)], True, ink, rng.randint(1, 3), cv2.LINE_AA)
    if rng.random() < 0.4:  # an arc of printed words
        r = rng.uniform(0.6, 1.5) * card_h
        for t in np.linspace(0.2, 1.2, rng.randint(4, 12)):
            px, py = centre + r * np.float32([math.cos(t + math.radians(angle)), math.sin(t + math.radians(angle))])
            q = _project(hom, np.float32([[px, py]]))[0].astype(int)
            _put(image, rng.choice("ABCDEFGHJKLMNPRSTUVW"), (int(q[0]), int(q[1])), card_h / 200, ink, max(1, int(card_h / 120)))


def _light(image: np.ndarray, rng: random.Random, crisp: bool = False) -> np.ndarray:
    """Uneven, warm or dim light, glare, a shadow (soft, or if `crisp` as a lamp's can be:
    sharp-edged across the cards), blur, noise and JPEG, each drawn at random."""
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    gx, gy = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)
    ramp = 1 + gx * (np.arange(w)[None, :] / w - 0.5) + gy * (np.arange(h)[:, None] / h - 0.5)
    img *= ramp[..., None] * rng.uniform(0.45, 1.2)
    if rng.random() < 0.5:  # warm or coloured cast
        img *= np.array([rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.0), rng.uniform(0.9, 1.15)], np.float32)
    if rng.random() < 0.35:  # glare
        glare = np.zeros((h, w), np.float32)
        cv2.ellipse(glare, (rng.randrange(w), rng.randrange(h)), (rng.randint(w // 20, w // 4), rng.randint(h // 20, h // 5)),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        img += rng.uniform(60, 160) * cv2.GaussianBlur(glare, (0, 0), w / 30)[..., None]
    if rng.random() < 0.3:  # a shadow of a hand or a phone
        shadow = np.zeros((h, w), np.float32)
        pts = np.int32([[rng.randrange(w), rng.randrange(h)] for _ in range(rng.randint(3, 6))])
        cv2.fillPoly(shadow, [cv2.convexHull(pts)], 1.0)
        spread = w / rng.choice((60, 150, 400)) if crisp else w / 60
        img *= 1 - rng.uniform(0.3, 0.6) * cv2.GaussianBlur(shadow, (0, 0), spread)[..., None]
    if rng.random() < 0.15:  # a hand over part of the table
        hand = np.zeros((h, w), np.uint8)
        cv2.ellipse(hand, (rng.randrange(w), h + h // 20), (w // rng.randint(10, 16), h // rng.randint(3, 6)),
                    rng.uniform(-40, 40), 0, 360, 255, -1)
        a = cv2.GaussianBlur(hand, (0, 0), 2).astype(np.float32)[..., None] / 255
        img = img * (1 - a) + np.array([rng.randint(60, 150), rng.randint(100, 180), rng.randint(150, 230)], np.float32) * a
    sigma = rng.choice((0, 0, 0.5, 0.9, 1.4, 2.0))
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img += _noise(img.shape, rng.uniform(1, 9))
    img = np.clip(img, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 92)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def world_scene(rng: random.Random, size: tuple[int, int], tables: tuple[str, ...], families: tuple[str, ...],
                layout: str | None = None, card_px: tuple[float, float] = (50, 400), tilt_max: float = 45,
                faces: Callable[[random.Random], tuple[str, np.ndarray]] | None = None,
                crisp_shadows: bool = False) -> WorldScene:
    """One photo of cards on a table: table kind from `tables`, card designs from
    `families` (one deck, or now and then two) or dealt by `faces` ((code, face) of one
    deck: identification is scored on its cards), layout from LAYOUTS unless named;
    `crisp_shadows` (`_light`) for training tiles only, so that every benchmark's scenes
    stay as they were drawn."""
    cv2.setRNGSeed(rng.randrange(2 ** 31))  # its noise (`_noise`): the same scene from the same `rng`, whatever ran before
    w, h = size
    table = rng.choice(tables)
    layout = layout or rng.choice(LAYOUTS)
    family = rng.choice(families)
    second = rng.choice(families)
    hom = _camera(rng, size, tilt_max)
    card_h = rng.uniform(*card_px)
    n = {"apart": rng.randint(1, 8), "row": rng.randint(2, 8), "grid": rng.randint(4, 12),
         "pile": rng.randint(4, 9), "fan": rng.randint(3, 9)}[layout]
    shape = deck_aspect(rng)  # drawn either way, so that the rest of the scene does not depend on `faces`
    if faces is not None:
        shape = FACE_SIZE[0] / FACE_SIZE[1]  # a given deck keeps its own shape
    spots = _place(layout, rng, n, shape)
    xy = np.float32([(x, y) for x, y, _ in spots]) * card_h
    xy -= xy.mean(axis=0) - np.float32([rng.uniform(-0.2, 0.2) * w, rng.uniform(-0.2, 0.2) * h])
    # the plane: what the camera sees of it, through the inverse homography, table texture drawn there
    inv = np.linalg.inv(hom)
    view = _project(inv, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    lo, hi = view.min(axis=0), view.max(axis=0)
    span = np.minimum(hi - lo, 6 * max(w, h))
    lo = np.maximum(lo, -3 * max(w, h))
    tex_scale = max(1.0, float(span.max()) / 900)
    tex = table_texture(table, (int(span[0] / tex_scale) + 2, int(span[1] / tex_scale) + 2), rng)
    to_plane = np.array([[tex_scale, 0, lo[0]], [0, tex_scale, lo[1]], [0, 0, 1]])
    image = cv2.warpPerspective(tex, hom @ to_plane, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.3:
        _mat(rng, image, hom, *_near(rng, xy, card_h), card_h)
    for _ in range(rng.choice((0, 1, 2, 3, 5))):  # chips, coins, dice, phones and papers beside the cards
        _distractor(rng, image, hom, *_near(rng, xy, card_h), card_h, np.zeros((h, w), np.uint8),
                    ("chip", "coin", "die", "phone", "paper", "paper"))
    order = np.zeros((h, w), np.int32)   # which card (1-based) is on top at each pixel; 0 = table
    outlines = []
    fw, fh = FACE_SIZE
    face_box = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    sleeve = rng.random() < 0.25
    radius = rng.uniform(0, 0.06)
    shade = (rng.uniform(0.05, 0.45), rng.uniform(1.0, 4.0))  # the shadow a card casts on what lies below: strength, spread
    for i, ((_, _, angle), (x, y)) in enumerate(zip(spots, xy)):
        code, face = ("", FAMILIES[family if rng.random() < 0.85 else second](rng)) if faces is None else faces(rng)
        if sleeve:
            face = sleeved(rng, face)
        outline = _project(hom, _card_outline(float(x), float(y), angle, card_h, shape))
        if not np.isfinite(outline).all() or np.abs(outline).max() > 4 * max(w, h):
            continue
        mask = np.zeros((fh, fw), np.uint8)
        r = int(radius * fh)
        cv2.rectangle(mask, (r, 0), (fw - 1 - r, fh - 1), 255, -1)
        cv2.rectangle(mask, (0, r), (fw - 1, fh - 1 - r), 255, -1)
        for cx, cy in ((r, r), (fw - 1 - r, r), (r, fh - 1 - r), (fw - 1 - r, fh - 1 - r)):
            cv2.circle(mask, (cx, cy), r, 255, -1)
        face_h = cv2.getPerspectiveTransform(face_box, outline)
        x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 4, 0)
        x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 4, [w, h])
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        roi = (int(x1 - x0), int(y1 - y0))
        small = max(1, int(fh / max(1.0, float(np.linalg.norm(outline[0] - outline[3]))) / 2))
        src = cv2.resize(face, (fw // small, fh // small), interpolation=cv2.INTER_AREA) if small > 1 else face
        src_h = face_h @ np.diag([small, small, 1.0])
        warped = cv2.warpPerspective(src, shift @ src_h, roi, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(mask, shift @ face_h, roi, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        patch = image[y0:y1, x0:x1].astype(np.float32)
        shadow = cv2.GaussianBlur(alpha[..., 0], (0, 0), shade[1])[..., None]
        patch *= 1 - shade[0] * shadow
        image[y0:y1, x0:x1] = (patch * (1 - alpha) + warped * alpha).astype(np.uint8)
        order[y0:y1, x0:x1][alpha[..., 0] > 0.5] = i + 1
        outlines.append((i + 1, outline, code))
    cover = np.zeros((h, w), np.uint8)
    for _ in range(rng.choice((0, 0, 1, 2, 3))):  # chips, coins, dice on the cards now and then
        _distractor(rng, image, hom, *_near(rng, xy, card_h), card_h, cover, ("chip", "coin", "die"))
    order[cover > 0] = 0
    image = _light(image, rng, crisp_shadows)
    cards = []
    for label, outline, code in outlines:
        visible = order == label
        share = float(visible.sum()) / max(1.0, cv2.contourArea(outline))  # what the frame cuts off is hidden too
        cards.append(WorldCard(outline.astype(np.float32), visible, share, code))
    return WorldScene(image, cards, table, layout, family)


def targets(scene: WorldScene, out: tuple[int, int]) -> np.ndarray:
    """The detector's truth at `out` (w, h): 3 planes, card interior (whole cards' visible
    pixels), card core (whole cards' outlines shrunk by CORE), and the weight of each
    pixel (0 over cards neither whole nor hidden: either answer is right)."""
    h, w = scene.image.shape[:2]
    interior = np.zeros((h, w), np.float32)
    core = np.zeros((h, w), np.float32)
    weight = np.ones((h, w), np.float32)
    for card in scene.cards:
        if card.share >= WHOLE:
            interior[card.visible] = 1
            centre = card.outline.mean(axis=0)
            shrunk = (card.outline - centre) * CORE + centre
            cv2.fillPoly(core, [np.round(shrunk * 8).astype(np.int32)], 1.0, shift=3)
        elif card.share >= HIDDEN:
            weight[card.visible] = 0
    for card in scene.cards:  # a core is only where its card is seen
        if card.share >= WHOLE:
            continue
        core[card.visible & (interior == 0)] = 0
    planes = np.stack([interior, core, weight], axis=2)
    return cv2.resize(planes, out, interpolation=cv2.INTER_AREA)


def training_tile(rng: random.Random, size: int) -> tuple[np.ndarray, np.ndarray]:
    """One training tile `size` pixels square and its truth (`targets` at 1/STRIDE, 0-255).
    Drawn at twice the size and halved, as a photo shrunk to the detector's input is."""
    scene = world_scene(rng, (2 * size, 2 * size), TRAIN_TABLES + TRAINING_ONLY_TABLES,
                        TRAIN_FAMILIES + TRAINING_ONLY_FAMILIES, card_px=(40, 340), crisp_shadows=True)
    image = cv2.resize(scene.image, (size, size), interpolation=cv2.INTER_AREA)
    truth = np.round(targets(scene, (size // STRIDE, size // STRIDE)) * 255).astype(np.uint8)
    return image, truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tiles", type=int, default=4000)
    parser.add_argument("--size", type=int, default=320, help="tile side at the detector's input scale")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    n, s = args.tiles, args.size
    images = np.zeros((n, s, s, 3), np.uint8)
    truth = np.zeros((n, s // STRIDE, s // STRIDE, 3), np.uint8)
    rng = random.Random(f"detector-train:{args.seed}")
    for i in range(n):
        images[i], truth[i] = training_tile(rng, s)
        if i % 200 == 0:
            print(i, flush=True)
    np.savez(args.out / f"tiles-{args.seed}.npz", images=images, truth=truth)


if __name__ == "__main__":
    main()
