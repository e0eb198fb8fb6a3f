"""Card faces drawn in the project's own designs for the four games, and random card-like faces.

The real card art is not ours to use, so tests, training and benchmarks run on faces
drawn here. Each game's faces keep what makes its cards hard to tell apart in real
life: Gargon cards of one value differ only in colour (red-14 vs blue-14), dugtungan
syllables differ in a letter, Bagani shapes share colours. Every face has a printed
corner index at its own top-left only, so a face is never the same upside down and the
180-degree turn of a card on the table is decidable. Drawing uses OpenCV's built-in
fonts only, so no font files or Pillow are needed at run time.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Callable

import cv2
import numpy as np

from rules.catalogue import load_catalogue

FACE_SIZE = (360, 504)  # drawn at twice the rectified size, so scenes can scale down

BGR = {
    "white": (235, 235, 235), "blue": (200, 110, 30), "violet": (160, 50, 120),
    "red": (40, 40, 200), "yellow": (40, 200, 230), "green": (60, 150, 40),
    "black": (25, 25, 25), "gold": (40, 170, 210), "cream": (200, 225, 240),
}
FONT = cv2.FONT_HERSHEY_DUPLEX


def slug(name: str) -> str:
    """A card code from a printed name: 'Nuno sa Punso' -> 'nuno-sa-punso'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def roman(n: int) -> str:
    numerals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in numerals:
        while n >= value:
            out += letters
            n -= value
    return out


def _blank(fill: tuple[int, int, int], border: tuple[int, int, int] = BGR["black"]) -> np.ndarray:
    w, h = FACE_SIZE
    face = np.full((h, w, 3), border, np.uint8)
    cv2.rectangle(face, (14, 14), (w - 15, h - 15), fill, -1)
    return face


def _text(face: np.ndarray, text: str, centre: tuple[int, int], height: int,
          colour: tuple[int, int, int], thickness: int = 3, max_width: int | None = None) -> None:
    """Text centred on `centre`, scaled to a cap height of `height` pixels (shrunk to fit)."""
    (w1, h1), _ = cv2.getTextSize(text, FONT, 1.0, thickness)
    scale = height / max(h1, 1)
    if max_width and w1 * scale > max_width:
        scale = max_width / w1
    (tw, th), _ = cv2.getTextSize(text, FONT, scale, thickness)
    cv2.putText(face, text, (int(centre[0] - tw / 2), int(centre[1] + th / 2)), FONT, scale, colour,
                thickness, cv2.LINE_AA)


def _corner_index(face: np.ndarray, text: str, colour: tuple[int, int, int]) -> None:
    _text(face, text, (60, 56), 34, colour, 3, max_width=80)


def _art(face: np.ndarray, seed: str, box: tuple[int, int, int, int], palette: list[tuple[int, int, int]]) -> None:
    """Deterministic abstract 'illustration' for a name, so each named card has its own art."""
    rng = random.Random(seed)
    x0, y0, x1, y1 = box
    cv2.rectangle(face, (x0, y0), (x1, y1), palette[0], -1)
    for _ in range(9):
        colour = rng.choice(palette[1:])
        cx, cy = rng.randint(x0, x1), rng.randint(y0, y1)
        if rng.random() < 0.5:
            cv2.circle(face, (cx, cy), rng.randint(10, 50), colour, -1, cv2.LINE_AA)
        else:
            pts = np.array([[rng.randint(x0, x1), rng.randint(y0, y1)] for _ in range(3)], np.int32)
            cv2.fillPoly(face, [pts], colour, cv2.LINE_AA)
    cv2.rectangle(face, (x0, y0), (x1, y1), BGR["black"], 3)


# --- the four games -------------------------------------------------------------------

def bagani_face(code: str) -> np.ndarray:
    w, h = FACE_SIZE
    if code == "biyaya":
        face = _blank(BGR["gold"])
        star = [(w // 2 + int(r * np.sin(a)), 250 - int(r * np.cos(a)))
                for i, a in enumerate(np.linspace(0, 2 * np.pi, 11)[:-1]) for r in [(110 if i % 2 == 0 else 45)]]
        cv2.fillPoly(face, [np.array(star, np.int32)], (255, 255, 255), cv2.LINE_AA)
        _text(face, "BIYAYA", (w // 2, 430), 36, BGR["black"])
        _corner_index(face, "B", BGR["black"])
        return face
    if "-" in code:
        colour, shape = code.split("-", 1)
        face = _blank((245, 245, 245))
        cv2.rectangle(face, (14, 14), (w - 15, 95), BGR[colour], -1)
        if shape == "circle":
            cv2.circle(face, (w // 2, 270), 105, BGR[colour], -1, cv2.LINE_AA)
        else:
            cv2.rectangle(face, (w // 2 - 95, 175), (w // 2 + 95, 365), BGR[colour], -1)
        _text(face, "BAGANI", (w // 2 + 30, 56), 28, (255, 255, 255), 2)
        _text(face, shape.upper(), (w // 2, 440), 30, BGR["black"], 2)
        _corner_index(face, shape[0].upper(), (255, 255, 255))
        return face
    # a Halimaw (monster): dark card, its name, its own art
    face = _blank((60, 30, 30))
    _art(face, code, (40, 110, w - 40, 330), [(70, 70, 110), (40, 80, 160), (30, 120, 60), (150, 150, 160)])
    _text(face, code.replace("-", " ").upper(), (w // 2, 380), 30, (230, 230, 230), 2, max_width=w - 60)
    _text(face, "HALIMAW", (w // 2, 440), 22, (170, 170, 240), 2)
    _corner_index(face, "H", (230, 230, 230))
    return face


def gargon_face(code: str) -> np.ndarray:
    colour, value = code.rsplit("-", 1)
    w, h = FACE_SIZE
    face = _blank(BGR[colour], border=(250, 250, 250))
    cv2.rectangle(face, (50, 120), (w - 50, h - 90), (250, 250, 250), -1)
    ink = BGR["black"] if colour in ("white", "yellow") else BGR[colour]
    _text(face, value, (w // 2, 250), 120, ink, 12, max_width=w - 130)
    _text(face, "GARGON", (w // 2, h - 130), 26, ink, 2)
    _corner_index(face, value, BGR["black"] if colour in ("white", "yellow") else (250, 250, 250))
    return face


def dugtungan_face(code: str) -> np.ndarray:
    syllable, _, action = code.partition(":")
    w, h = FACE_SIZE
    face = _blank(BGR["cream"], border=(60, 90, 150))
    _text(face, syllable, (w // 2, 230 if action else 260), 110, (60, 40, 30), 10, max_width=w - 80)
    if action:
        cv2.rectangle(face, (40, 340), (w - 40, 420), (40, 40, 170), -1)
        _text(face, action, (w // 2, 380), 36, (255, 255, 255), 3, max_width=w - 100)
    _corner_index(face, syllable, (60, 40, 30))
    return face


def lagim_face(code: str, deck: str = "forest") -> np.ndarray:
    w, h = FACE_SIZE
    rng = random.Random("level:" + code)
    fill = (40, 70, 30) if deck == "forest" else (90, 60, 40)
    face = _blank(fill)
    _art(face, code, (34, 120, w - 34, 340), [(30, 30, 50), (60, 60, 140), (30, 90, 90), (120, 120, 130), (20, 20, 120)])
    _text(face, code.replace("-", " ").title(), (w // 2 + 20, 70), 26, (220, 230, 230), 2, max_width=w - 110)
    cv2.circle(face, (w // 2, 410), 44, (30, 30, 30), -1, cv2.LINE_AA)
    _text(face, roman(rng.randint(1, 10)), (w // 2, 410), 30, (200, 220, 240), 3, max_width=70)
    _corner_index(face, "L", (220, 230, 230))
    return face


@lru_cache(maxsize=None)
def game_codes(game: str) -> tuple[str, ...]:
    """Every distinct face of a game's deck, as card codes."""
    if game == "bagani":
        cat = load_catalogue("bagani")
        codes = [f"{c}-{s}" for c in cat["colours"] for s in cat["shapes"]] + ["biyaya"]
        return tuple(codes + [slug(k["name"]) for k in cat["halimaw"]["kinds"]])
    if game == "gargon":
        return tuple(f"{c}-{v}" for c in ("white", "blue", "violet", "red", "yellow", "green") for v in range(16))
    if game == "dugtungan":
        return tuple(load_catalogue("dugtungan")["deck"])
    if game == "lagim":
        return tuple(slug(c["name"]) for c in load_catalogue("lagim")["cards"])
    raise ValueError(f"unknown game {game!r}")


def _lagim(code: str) -> np.ndarray:
    decks = {slug(c["name"]): c["deck"] for c in load_catalogue("lagim")["cards"]}
    return lagim_face(code, decks.get(code, "forest"))


DRAWERS: dict[str, Callable[[str], np.ndarray]] = {
    "bagani": bagani_face, "gargon": gargon_face, "dugtungan": dugtungan_face, "lagim": _lagim}
GAMES = tuple(DRAWERS)  # the games whose faces vision draws (a game is listed in `rules.registry`)


def game_face(game: str, code: str) -> np.ndarray:
    return DRAWERS[game](code)


# --- random card-like faces (training and distractors) --------------------------------

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def random_face(rng: random.Random) -> np.ndarray:
    """A random face that looks like some card game's card: border, panels, art, text, an index."""
    w, h = FACE_SIZE

    def colour() -> tuple[int, int, int]:
        return (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))

    face = _blank(colour(), border=colour() if rng.random() < 0.5 else BGR["black"])
    for _ in range(rng.randint(0, 3)):  # panels
        x0, y0 = rng.randint(20, w // 2), rng.randint(20, h - 60)
        cv2.rectangle(face, (x0, y0), (rng.randint(x0 + 30, w - 20), rng.randint(y0 + 30, h - 20)), colour(), -1)
    if rng.random() < 0.7:
        y0 = rng.randint(60, 200)
        _art(face, str(rng.random()), (30, y0, w - 30, y0 + rng.randint(80, 220)), [colour() for _ in range(5)])
    for _ in range(rng.randint(0, 6)):  # shapes
        c = colour()
        if rng.random() < 0.5:
            cv2.circle(face, (rng.randint(30, w - 30), rng.randint(30, h - 30)), rng.randint(8, 80), c, -1, cv2.LINE_AA)
        else:
            cv2.line(face, (rng.randint(20, w - 20), rng.randint(20, h - 20)),
                     (rng.randint(20, w - 20), rng.randint(20, h - 20)), c, rng.randint(2, 12), cv2.LINE_AA)
    for _ in range(rng.randint(1, 4)):  # words
        word = "".join(rng.choice(_LETTERS) for _ in range(rng.randint(1, 7)))
        _text(face, word, (rng.randint(60, w - 60), rng.randint(60, h - 40)), rng.randint(14, 90), colour(),
              rng.randint(1, 8), max_width=w - 60)
    _corner_index(face, rng.choice(_LETTERS), colour())
    return face
