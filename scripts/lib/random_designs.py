"""Gargon and dugtungan faces in deck designs drawn at random, for training the printed reader.

The fixed face families (`scripts.lib.families`) are a handful of designs; a real deck
is another one again. So the reader is also trained on designs assembled at random from
the things the issue lists a real deck may do: the value large in the centre (bare, in
a ring, on a disc or across a banner), small in one, two or four corners, or both;
dark ink on white, cream or grey paper, or light ink on a dark card; no border, a
white, black or coloured one, a thin or double frame; 6 and 9 told apart by a bar, a
dot or nothing but an index's place. Every design is drawn in the training fonts only
(`scripts.lib.printed_faces.fonts(held_out=False)`), big token and indices in two
different faces, the big one often reshaped (`printed_faces.print_text`'s `vary`).

What still names the card is what the games print: a Gargon card's value, in its suit's
colour where the paper lets a colour show (`vision.colour` reads it), and a dugtungan
card's syllable and action word. A design here is one face's own: no two faces of
the bank need share one, since the reader learns a card, not a deck.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from scripts.lib.families import INK_DARK, W, H, _say, _shape, _star, _underlined
from scripts.lib.printed_faces import Font
from vision.synth.faces import BGR

Colour = tuple[int, int, int]


def _paper(rng: random.Random) -> tuple[Colour, bool]:
    """The card's ground and whether it is dark (light ink then)."""
    if rng.random() < 0.2:
        shade = rng.randint(12, 70)
        return (shade + rng.randint(0, 15), shade + rng.randint(0, 10), shade + rng.randint(0, 10)), True
    base = rng.randint(205, 252)
    return tuple(min(255, base + rng.randint(-20, 8)) for _ in range(3)), False  # type: ignore[return-value]


def _ink(colour: str, dark_paper: bool) -> Colour:
    """A Gargon suit's ink: its colour, white cards' in black (or light grey on a dark card)."""
    if colour == "white":
        return (215, 215, 215) if dark_paper else INK_DARK
    return BGR[colour]


def _border(face: np.ndarray, rng: random.Random, accent: Colour) -> int:
    """A border and frame of one of the kinds real decks use; returns how far in the art may start."""
    kind = rng.choice(("none", "white", "black", "colour", "frame", "double"))
    if kind in ("white", "black", "colour"):
        width = rng.randint(8, 28)
        rim = {"white": (248, 248, 248), "black": (18, 18, 18), "colour": accent}[kind]
        inner = face[width:H - width, width:W - width].copy()
        face[:] = rim
        face[width:H - width, width:W - width] = inner
        return width
    if kind in ("frame", "double"):
        inset = rng.randint(10, 26)
        line: Colour = accent if rng.random() < 0.5 else (90, 90, 90)
        cv2.rectangle(face, (inset, inset), (W - 1 - inset, H - 1 - inset), line, rng.randint(1, 4), cv2.LINE_AA)
        if kind == "double":
            cv2.rectangle(face, (inset + 8, inset + 8), (W - 9 - inset, H - 9 - inset), line, 1, cv2.LINE_AA)
        return inset
    return 0


def _mark(face: np.ndarray, value: str, centre: tuple[float, float], height: int, colour: Colour, how: str) -> None:
    """What tells a 6 from a 9: a bar under it (negative `height`: printed upside down) or a dot after it."""
    if how == "bar":
        _underlined(face, value, centre, height, colour)
    elif how == "dot" and value in ("6", "9"):
        side = 1 if height > 0 else -1
        cv2.circle(face, (round(centre[0] + side * 0.42 * abs(height)), round(centre[1] + 0.42 * height)),
                   max(3, abs(height) // 16), colour, -1, cv2.LINE_AA)


def _centre_piece(face: np.ndarray, text: str, ink: Colour, ground: Colour, dark: bool, big: Font, y: float,
                  rng: random.Random, vary: bool, mark: str) -> None:
    """The big token at height `y`: bare, or inside a ring, on a disc, or across a banner."""
    holder = rng.choice(("bare", "bare", "ring", "disc", "banner"))
    height = rng.randint(95, 190) if holder == "bare" else rng.randint(80, 130)
    width = W - rng.randint(70, 140)
    text_colour = ink
    centre = (W / 2 + rng.uniform(-10, 10), y)
    if holder == "ring":
        cv2.circle(face, (round(centre[0]), round(y)), rng.randint(95, 125), ink, rng.randint(4, 18), cv2.LINE_AA)
        width = 170
    elif holder in ("disc", "banner"):
        # the token light on the suit colour (or dark on a pale disc on a dark card)
        fill = ink if not dark or rng.random() < 0.5 else (190, 222, 236)
        text_colour = ground if sum(fill) < 400 else INK_DARK
        if sum(fill) < 400 and not dark:
            text_colour = (250, 250, 250)
        if holder == "disc":
            cv2.circle(face, (round(centre[0]), round(y)), rng.randint(95, 120), fill, -1, cv2.LINE_AA)
            width = 160
        else:
            half = rng.randint(60, 85)
            cv2.rectangle(face, (0, round(y) - half), (W - 1, round(y) + half), fill, -1)
    _say(face, text, centre, height, text_colour, big, width, vary=rng if vary else None)
    _mark(face, text, centre, height, text_colour, mark)


def _indices(face: np.ndarray, text: str, ink: Colour, small: Font, inset: int, rng: random.Random, mark: str) -> None:
    """Small copies of the token in one, two (opposite, the second upside down) or four corners."""
    height = rng.randint(26, 64)
    spot = (inset + 22 + height * 0.6 + rng.uniform(0, 12), inset + 18 + height * 0.6 + rng.uniform(0, 12))
    where = rng.choice(("one", "two", "two", "four")) if mark != "none" else "one"  # unmarked: one index tells 6 from 9
    spots = [(spot, False), ((W - spot[0], H - spot[1]), True)][:1 if where == "one" else 2]
    if where == "four":
        spots += [((W - spot[0], spot[1]), False), ((spot[0], H - spot[1]), True)]
    suit = rng.random() < 0.3
    for (x, y), turned in spots:
        sign = -1 if turned else 1
        # a turned index is drawn from the far corner, where (x, y) is measured round the card
        _say(face, text, (W - x, H - y) if turned else (x, y), height, ink, small, 90, turned=turned)
        _mark(face, text, (x, y), sign * height, ink, mark)
        if suit:
            _shape(face, "diamond", (round(x), round(y + sign * 1.1 * height)), max(6, height // 4), ink)


def random_face(game: str, code: str, big: Font, small: Font, rng: random.Random, vary: bool) -> np.ndarray:
    """`code`'s face (a Gargon `colour-value` or a dugtungan card) in a design drawn by `rng`."""
    ground, dark = _paper(rng)
    face = np.full((H, W, 3), ground, np.uint8)
    if game == "gargon":
        colour, text = code.rsplit("-", 1)
        ink, action = _ink(colour, dark), ""
    else:
        text, _, action = code.partition(":")
        ink = (220, 225, 230) if dark else (rng.randint(20, 130), rng.randint(20, 130), rng.randint(20, 130))
    inset = _border(face, rng, ink if game == "gargon" else (rng.randint(30, 200), rng.randint(30, 200), rng.randint(30, 200)))
    mark = rng.choice(("bar", "bar", "dot", "none")) if game == "gargon" else "none"
    layout = rng.choice(("centre", "centre+corners", "centre+corners", "corners"))
    if layout != "corners":
        y = H / 2 + rng.uniform(-50, 20) - (30 if action else 0)
        _centre_piece(face, text, ink, ground, dark, big, y, rng, vary, mark)
    else:
        _ornament(face, ink, rng)
    if layout != "centre" or mark == "none":  # a design with no mark still tells 6 from 9 by its index
        _indices(face, text, ink, small, inset, rng, mark)
    if action:
        top = rng.choice((rng.randint(330, 380), rng.randint(inset + 30, 70)))
        band: Colour = tuple(rng.randint(20, 170) for _ in range(3))  # type: ignore[assignment]
        cv2.rectangle(face, (inset + 10, top), (W - 11 - inset, top + 56), band, -1)
        _say(face, action, (W / 2, top + 28), rng.randint(26, 38), (245, 245, 245), small, W - 2 * inset - 60)
    elif game == "gargon" and rng.random() < 0.3:
        _say(face, "GARGON", (W / 2, H - inset - 50), rng.randint(20, 30), ink, small, W - 140)
    return face


def _ornament(face: np.ndarray, ink: Colour, rng: random.Random) -> None:
    """The middle of a corners-only design: a suit mark, a star or a ring."""
    centre = (W // 2, H // 2 + rng.randint(-20, 20))
    kind = rng.choice(("diamond", "circle", "star"))
    if kind == "star":
        _star(face, centre, rng.randint(60, 120), ink, rng.randint(5, 10))
    else:
        _shape(face, kind, centre, rng.randint(50, 110), ink, rng.choice((-1, 6, 10)))
