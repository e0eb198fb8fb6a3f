"""Independently designed face families for the four games: decks the project did not draw.

A real Gargon or dugtungan deck will not look like `vision.synth.faces`, the one design
the project drew first. Each family here is a whole deck design of its own, for every
game: where the value sits (large in the centre, small in the corners, inside a circle
or a banner), light on dark or dark on light, its typefaces, its colours and its border
(white, black or none). Any face can also be put in a sleeve (`sleeved`).

One family, `HELD_OUT`, is kept out of every training run and every tuning decision and
is drawn in the typefaces the printed reader never trains on
(`scripts.lib.printed_faces.HELD_OUT_FAMILIES`): the figures measured on it are the ones
that say what an unknown real deck will do. `TRAINING` lists the others.

What identifies a card stays what the games print: a Gargon card's value and colour
(its saturated ink is its suit's colour, everything else is neutral, so
`vision.colour` can read it), a dugtungan card's syllable and action, a Bagani card's
colour and shape or name, a Lagim card's name and art. Faces are drawn once per
(family, game, code, sleeve) and copied out, since a deck is one fixed design.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import cv2
import numpy as np

from scripts.lib.printed_faces import Font, font_named, print_text
from vision.synth.faces import BGR, FACE_SIZE, game_codes, game_face, roman

W, H = FACE_SIZE
INK_DARK = (30, 30, 30)
IVORY = (215, 238, 246)
#: Sleeve colours (BGR): a clear sleeve lets the card's own rim show, a coloured one
#: shows its back's colour round the face.
SLEEVES = {"clear": None, "black": (25, 25, 25), "blue": (120, 40, 20), "red": (30, 30, 150)}


@dataclass(frozen=True)
class Type:
    """A design's two typefaces: `big` for its main token, `small` for indices and words."""

    big: Font
    small: Font


Drawer = Callable[[str, str, Type], np.ndarray]  # (game, code, typefaces) -> face


@dataclass(frozen=True)
class Family:
    """One deck design for all four games."""

    name: str
    summary: str
    draw: Drawer
    type: Type | None  # None: the project's own faces (OpenCV's Hershey font)

    def face(self, game: str, code: str, sleeve: str | None = None, type: Type | None = None) -> np.ndarray:
        """A copy of `code`'s face in this design, in `sleeve` (a SLEEVES key) if any;
        `type` redraws it in other typefaces (training the printed reader)."""
        if type is not None:
            face = self.draw(game, code, type)
            return sleeved(face, sleeve) if sleeve else face
        return _cached(self.name, game, code, sleeve).copy()


@lru_cache(maxsize=4096)
def _cached(family: str, game: str, code: str, sleeve: str | None) -> np.ndarray:
    chosen = FAMILIES[family]
    face = game_face(game, code) if chosen.type is None else chosen.draw(game, code, chosen.type)
    return sleeved(face, sleeve) if sleeve else face


def sleeved(face: np.ndarray, sleeve: str) -> np.ndarray:
    """The face inside a card sleeve: a rim of the sleeve's colour (or, clear, the card's
    own rim a little lighter) round the face, and a glossy band across it."""
    colour = SLEEVES[sleeve]
    rim = colour if colour is not None else tuple(int(v) for v in face[2, W // 2] * 0.85 + 38)
    out = np.full_like(face, rim)
    inset_x, inset_y = round(0.035 * W), round(0.03 * H)
    out[inset_y:H - inset_y, inset_x:W - inset_x] = cv2.resize(face, (W - 2 * inset_x, H - 2 * inset_y),
                                                                interpolation=cv2.INTER_AREA)
    gloss: np.ndarray = np.zeros((H, W), np.float32)
    cv2.line(gloss, (0, round(0.7 * H)), (W, round(0.25 * H)), 1.0, round(0.12 * W))
    gloss = cv2.GaussianBlur(gloss, (0, 0), 18)[..., None]
    return np.clip(out.astype(np.float32) * (1 - 0.12 * gloss) + 255 * 0.12 * gloss, 0, 255).astype(np.uint8)


# --- drawing helpers ---------------------------------------------------------------------

def _say(face: np.ndarray, text: str, centre: tuple[float, float], height: int, colour: tuple[int, int, int], font: Font,
         max_width: float, turned: bool = False, vary: random.Random | None = None) -> None:
    """Text centred on `centre`; `turned`: printed upside down, `centre` then measured
    from the far corner (a card's second index sits where the first does, turned round);
    `vary`: glyphs reshaped (`print_text`, training)."""
    if not turned:
        print_text(face, text, centre, height, colour, font, max_width, vary)
        return
    flipped = cv2.rotate(face, cv2.ROTATE_180)
    print_text(flipped, text, centre, height, colour, font, max_width, vary)
    face[:] = cv2.rotate(flipped, cv2.ROTATE_180)


def _underlined(face: np.ndarray, value: str, centre: tuple[float, float], height: int, colour: tuple[int, int, int]) -> None:
    """The bar under a 6 or a 9 that tells them apart on a card that may lie either way up."""
    if value in ("6", "9"):
        y = round(centre[1] + 0.62 * height)
        half = round(0.28 * abs(height))
        cv2.line(face, (round(centre[0]) - half, y), (round(centre[0]) + half, y), colour, max(2, abs(height) // 12),
                 cv2.LINE_AA)


def _shape(face: np.ndarray, shape: str, centre: tuple[int, int], size: int, colour: tuple[int, int, int],
           thickness: int = -1) -> None:
    x, y = centre
    if shape == "circle":
        cv2.circle(face, centre, size, colour, thickness, cv2.LINE_AA)
    elif shape == "square":
        cv2.rectangle(face, (x - size, y - size), (x + size, y + size), colour, thickness, cv2.LINE_AA)
    else:  # a diamond, a suit mark
        pts = np.array([(x, y - size), (x + int(0.7 * size), y), (x, y + size), (x - int(0.7 * size), y)], np.int32)
        if thickness < 0:
            cv2.fillPoly(face, [pts], colour, cv2.LINE_AA)
        else:
            cv2.polylines(face, [pts], True, colour, thickness, cv2.LINE_AA)


def _star(face: np.ndarray, centre: tuple[int, int], outer: int, colour: tuple[int, int, int], points: int = 8) -> None:
    angles = np.linspace(0, 2 * np.pi, 2 * points + 1)[:-1]
    radii = [outer if i % 2 == 0 else outer * 0.45 for i in range(2 * points)]
    pts = [(centre[0] + r * np.sin(a), centre[1] - r * np.cos(a)) for r, a in zip(radii, angles)]
    cv2.fillPoly(face, [np.array(pts, np.int32)], colour, cv2.LINE_AA)


def _art(face: np.ndarray, seed: str, box: tuple[int, int, int, int], palette: Sequence[tuple[int, int, int]],
         oval: bool = False) -> None:
    """A card's own abstract picture (seeded by its code and design), square or oval."""
    x0, y0, x1, y1 = box
    rng = random.Random(seed)
    panel = np.full((y1 - y0, x1 - x0, 3), palette[0], np.uint8)
    for _ in range(12):
        colour = rng.choice(palette[1:])
        if rng.random() < 0.5:
            cv2.circle(panel, (rng.randrange(x1 - x0), rng.randrange(y1 - y0)), rng.randint(8, 45), colour, -1,
                       cv2.LINE_AA)
        else:
            pts = np.array([[rng.randrange(x1 - x0), rng.randrange(y1 - y0)] for _ in range(3)], np.int32)
            cv2.fillPoly(panel, [pts], colour, cv2.LINE_AA)
    mask = np.zeros(panel.shape[:2], np.uint8)
    if oval:
        cv2.ellipse(mask, ((x1 - x0) // 2, (y1 - y0) // 2), ((x1 - x0) // 2 - 1, (y1 - y0) // 2 - 1), 0, 0, 360, 255,
                    -1, cv2.LINE_AA)
    else:
        mask[:] = 255
    region = face[y0:y1, x0:x1]
    a = mask[..., None].astype(np.float32) / 255
    face[y0:y1, x0:x1] = (region * (1 - a) + panel * a).astype(np.uint8)


def _gargon_ink(colour: str) -> tuple[int, int, int]:
    return INK_DARK if colour == "white" else BGR[colour]


def _title(code: str) -> str:
    return code.replace("-", " ").upper()


def _level(code: str) -> str:
    """A Lagim card's level: the card's own, whatever the design (as the project's faces print it)."""
    return roman(random.Random("level:" + code).randint(1, 10))


# --- "pips": white card, values small in two corners, a suit mark in the middle ---------------

def pips(game: str, code: str, t: Type) -> np.ndarray:
    face = np.full((H, W, 3), 250, np.uint8)
    cv2.rectangle(face, (0, 0), (W - 1, H - 1), (200, 200, 200), 2)

    def indices(text: str, colour: tuple[int, int, int], height: int = 60) -> None:
        for turned in (False, True):
            _say(face, text, (58, 60), height, colour, t.small, 96, turned)

    if game == "gargon":
        colour, value = code.rsplit("-", 1)
        ink = _gargon_ink(colour)
        indices(value, ink, 64)
        for mark in ((58, 118), (W - 59, H - 119)):
            _shape(face, "diamond", mark, 16, ink)
        _shape(face, "diamond", (W // 2, H // 2), 110, ink, 10)
        _shape(face, "diamond", (W // 2, H // 2), 60, ink)
    elif game == "dugtungan":
        syllable, _, action = code.partition(":")
        ink = (90, 60, 20)
        indices(syllable, ink)
        cv2.circle(face, (W // 2, H // 2 - 10), 95, (150, 120, 60), 6, cv2.LINE_AA)
        _star(face, (W // 2, H // 2 - 10), 70, (150, 120, 60), 6)
        if action:
            cv2.rectangle(face, (80, 352), (W - 80, 398), ink, 3)
            _say(face, action, (W / 2, 375), 26, ink, t.small, W - 180)
    elif game == "bagani":
        if code == "biyaya":
            indices("B", BGR["gold"])
            _star(face, (W // 2, H // 2), 120, BGR["gold"])
        elif "-" in code and code.split("-")[0] in BGR:
            colour, shape = code.split("-", 1)
            indices(shape[0].upper(), BGR[colour])
            for y in (150, 252, 354):
                _shape(face, shape, (W // 2, y), 40, BGR[colour])
        else:
            indices("H", INK_DARK)
            _art(face, "pips:" + code, (60, 110, W - 60, 360), [(200, 200, 215), (60, 60, 140), (40, 110, 40),
                                                                 (120, 80, 30)])
            _say(face, _title(code), (W / 2, 395), 30, INK_DARK, t.small, W - 150)
    else:  # lagim
        indices(_level(code), INK_DARK, 40)
        _art(face, "pips:" + code, (50, 120, W - 50, 370), [(180, 200, 200), (30, 30, 120), (40, 90, 90),
                                                            (100, 60, 40)])
        _say(face, _title(code), (W / 2, 400), 28, INK_DARK, t.small, W - 150)
    return face


# --- "medallion": dark card, black border, value light on dark inside a ring ------------------

def medallion(game: str, code: str, t: Type) -> np.ndarray:
    face = np.full((H, W, 3), 10, np.uint8)
    cv2.rectangle(face, (12, 12), (W - 13, H - 13), (48, 44, 42), -1)
    ring, centre = 112, (W // 2, 215)
    if game == "gargon":
        colour, value = code.rsplit("-", 1)
        ink = (205, 205, 205) if colour == "white" else BGR[colour]
        cv2.circle(face, centre, ring, ink, 16, cv2.LINE_AA)
        _say(face, value, centre, 110, (245, 245, 245), t.big, 170)
        _underlined(face, value, centre, 110, (245, 245, 245))
        cv2.rectangle(face, (40, 392), (W - 40, 450), ink, -1)
        _say(face, "GARGON", (W / 2, 421), 30, (25, 25, 25), t.small, W - 120)
    elif game == "dugtungan":
        syllable, _, action = code.partition(":")
        cv2.circle(face, centre, ring, (190, 222, 236), -1, cv2.LINE_AA)
        _say(face, syllable, centre, 92, (40, 30, 70), t.big, 180)
        if action:
            cv2.rectangle(face, (30, 390), (W - 30, 452), (20, 20, 20), -1)
            _say(face, action, (W / 2, 421), 34, (240, 240, 240), t.small, W - 90)
    elif game == "bagani":
        if code == "biyaya":
            _star(face, centre, ring, BGR["gold"], 10)
            label = "BIYAYA"
        elif "-" in code and code.split("-")[0] in BGR:
            colour, shape = code.split("-", 1)
            cv2.circle(face, centre, ring, (235, 235, 235), 6, cv2.LINE_AA)
            _shape(face, shape, centre, 70, BGR[colour])
            label = shape.upper()
        else:
            _art(face, "medallion:" + code, (centre[0] - ring, centre[1] - ring, centre[0] + ring, centre[1] + ring),
                 [(70, 50, 50), (40, 80, 170), (50, 140, 70), (150, 150, 160)], oval=True)
            label = _title(code)
        _say(face, label, (W / 2, 420), 32, (235, 235, 235), t.small, W - 70)
    else:  # lagim
        _art(face, "medallion:" + code, (centre[0] - ring, centre[1] - ring, centre[0] + ring, centre[1] + ring),
             [(40, 40, 60), (60, 60, 150), (40, 100, 100), (130, 130, 140)], oval=True)
        cv2.rectangle(face, (30, 380), (W - 30, 430), (20, 20, 20), -1)
        _say(face, _title(code), (W / 2, 405), 26, (230, 230, 230), t.small, W - 80)
        _say(face, _level(code), (W / 2, 468), 26, (200, 220, 240), t.small, 120)
    return face


# --- "ribbon": white card, thin suit-coloured frame, a large hairline value, and the value again
# light on a coloured ribbon across the foot ---------------------------------------------------

def ribbon(game: str, code: str, t: Type) -> np.ndarray:
    face = np.full((H, W, 3), 246, np.uint8)

    def framed(colour: tuple[int, int, int]) -> None:
        cv2.rectangle(face, (14, 14), (W - 15, H - 15), colour, 3, cv2.LINE_AA)

    def band(colour: tuple[int, int, int], text: str, text_colour: tuple[int, int, int] = (250, 250, 250),
             top: int = 386) -> None:
        """The ribbon: a coloured band with notched ends and `text` on it, at both ends when short."""
        pts = np.array([(14, top), (W - 15, top), (W - 40, top + 30), (W - 15, top + 60), (14, top + 60),
                        (39, top + 30)], np.int32)
        cv2.fillPoly(face, [pts], colour, cv2.LINE_AA)
        if len(text) <= 3:
            for x in (80, W - 80):
                _say(face, text, (x, top + 30), 36, text_colour, t.small, 80)
        else:
            _say(face, text, (W / 2, top + 30), 30, text_colour, t.small, W - 110)

    def dotted(value: str, centre: tuple[float, float], height: int, colour: tuple[int, int, int]) -> None:
        """6 and 9 told apart by a dot at the foot of the glyph's right side, as some decks print them."""
        if value in ("6", "9"):
            cv2.circle(face, (round(centre[0] + 0.45 * height), round(centre[1] + 0.42 * height)),
                       max(4, height // 18), colour, -1, cv2.LINE_AA)

    if game == "gargon":
        colour, value = code.rsplit("-", 1)
        ink = _gargon_ink(colour)
        framed(ink)
        _say(face, value, (W / 2, 200), 180, ink, t.big, W - 90)
        dotted(value, (W / 2, 200), 180, ink)
        band(ink, value)
    elif game == "dugtungan":
        syllable, _, action = code.partition(":")
        ink = (60, 100, 30)
        framed(ink)
        _say(face, syllable, (W / 2, 220), 150, ink, t.big, W - 80)
        band(ink, action.upper() if action else syllable, top=40 if action else 386)
    elif game == "bagani":
        if code == "biyaya":
            framed(BGR["gold"])
            _star(face, (W // 2, 210), 120, BGR["gold"], 10)
            band(BGR["gold"], "BIYAYA", INK_DARK)
        elif "-" in code and code.split("-")[0] in BGR:
            colour, shape = code.split("-", 1)
            framed(BGR[colour])
            for x in (W // 2 - 70, W // 2 + 70):
                _shape(face, shape, (x, 210), 50, BGR[colour], 4)
            band(BGR[colour], shape.upper())
        else:
            framed(INK_DARK)
            _art(face, "ribbon:" + code, (40, 40, W - 40, 370), [(210, 200, 190), (50, 120, 170), (120, 60, 60),
                                                                (60, 130, 60)])
            band(INK_DARK, _title(code))
    else:  # lagim
        framed((70, 40, 40))
        _art(face, "ribbon:" + code, (40, 40, W - 40, 370), [(60, 60, 80), (160, 120, 60), (50, 50, 160),
                                                            (110, 140, 110)])
        cv2.circle(face, (W - 62, 62), 34, (246, 246, 246), -1, cv2.LINE_AA)
        _say(face, _level(code), (W - 62, 62), 30, (70, 40, 40), t.small, 52)
        band((70, 40, 40), _title(code))
    return face


# --- "heirloom" (held out): ivory, no border, a big serif value in the middle and two corners --

def heirloom(game: str, code: str, t: Type) -> np.ndarray:
    face = np.full((H, W, 3), IVORY, np.uint8)
    for inset, width in ((16, 2), (24, 1)):
        cv2.rectangle(face, (inset, inset), (W - 1 - inset, H - 1 - inset), (90, 90, 90), width, cv2.LINE_AA)

    def corners(text: str, colour: tuple[int, int, int], height: int = 40) -> None:
        for turned, spot in ((False, (54, 58)), (True, (W - 55, H - 59))):
            _say(face, text, (54, 58), height, colour, t.small, 70, turned)
            if text in ("6", "9"):  # the bar sits under the glyph, upside down in the far corner
                _underlined(face, text, spot, -height if turned else height, colour)

    if game == "gargon":
        colour, value = code.rsplit("-", 1)
        ink = _gargon_ink(colour)
        corners(value, ink)
        _say(face, value, (W / 2, H / 2), 150, ink, t.big, W - 110)
        _underlined(face, value, (W / 2, H / 2), 150, ink)
    elif game == "dugtungan":
        syllable, _, action = code.partition(":")
        ink = (40, 60, 110)
        corners(syllable, ink, 34)
        _say(face, syllable, (W / 2, H / 2 - (30 if action else 0)), 130, ink, t.big, W - 100)
        if action:
            cv2.rectangle(face, (24, 370), (W - 25, 428), (50, 70, 60), -1)
            _say(face, action, (W / 2, 399), 30, IVORY, t.small, W - 90)
    elif game == "bagani":
        if code == "biyaya":
            corners("B", INK_DARK)
            _star(face, (W // 2, H // 2), 125, (40, 150, 200), 12)
        elif "-" in code and code.split("-")[0] in BGR:
            colour, shape = code.split("-", 1)
            corners(shape[0].upper(), BGR[colour])
            _shape(face, shape, (W // 2, H // 2 - 20), 90, BGR[colour], 18)
            _say(face, colour.upper(), (W / 2, 400), 30, BGR[colour], t.small, W - 100)
        else:
            corners("H", INK_DARK)
            _art(face, "heirloom:" + code, (60, 80, W - 60, 360), [(150, 170, 180), (40, 40, 110), (60, 110, 60),
                                                                  (100, 70, 40)], oval=True)
            _say(face, _title(code), (W / 2, 410), 30, INK_DARK, t.small, W - 80)
    else:  # lagim
        corners(_level(code), INK_DARK, 30)
        _art(face, "heirloom:" + code, (50, 90, W - 50, 360), [(90, 110, 110), (30, 30, 100), (40, 90, 90),
                                                              (100, 60, 40)], oval=True)
        cv2.rectangle(face, (24, 380), (W - 25, 430), (40, 40, 70), -1)
        _say(face, _title(code), (W / 2, 405), 26, IVORY, t.small, W - 80)
    return face


def _project(game: str, code: str, _: Type) -> np.ndarray:
    return game_face(game, code)


FAMILIES: dict[str, Family] = {
    "project": Family("project", "the project's first design: big token on a panel, one corner index, "
                      "coloured or black border, OpenCV's font", _project, None),
    "pips": Family("pips", "white card, thin grey edge, value small in two opposite corners, a suit mark in "
                   "the middle; dark on light", pips, Type(font_named("DejaVuSans-Bold"), font_named("DejaVuSans-Bold"))),
    "medallion": Family("medallion", "dark card, black border, value light on dark inside a ring in the suit "
                        "colour, a banner below", medallion,
                        Type(font_named("LiberationSans-Bold"), font_named("NotoSans-Bold"))),
    "heirloom": Family("heirloom", "ivory card with no border, double frame, a big serif value in the middle "
                       "and small ones in two corners, 6 and 9 underlined", heirloom,
                       Type(font_named("NotoSerifDisplay-Bold"), font_named("LiberationSerif-Bold"))),
    # after the held-out family: benchmarks seed each family by its place in this order
    "ribbon": Family("ribbon", "white card, thin frame in the suit colour, a large hairline value, the value "
                     "again light on a coloured ribbon across the foot, 6 and 9 dotted", ribbon,
                     Type(font_named("DejaVuSans-ExtraLight"), font_named("LiberationSansNarrow-Bold"))),
}
HELD_OUT = "heirloom"
TRAINING = tuple(name for name in FAMILIES if name != HELD_OUT)


def family_face(family: str, game: str, code: str, sleeve: str | None = None) -> np.ndarray:
    """`code`'s face in one family's design (a FAMILIES key), sleeved if `sleeve`."""
    if code not in game_codes(game):
        raise ValueError(f"{code!r} is not a {game} card")
    return FAMILIES[family].face(game, code, sleeve)


def deck_of(family: str, game: str, rng: random.Random) -> Callable[[str], np.ndarray]:
    """One physical deck of a family: sleeved in one sleeve kind, or not, for all its cards."""
    sleeve = rng.choice((None, None, *SLEEVES))
    return lambda code: family_face(family, game, code, sleeve)
