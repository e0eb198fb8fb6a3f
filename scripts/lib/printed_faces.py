"""Gargon, dugtungan and Lagim faces printed in any font, for training and judging the printed reader.

A printed reader must read a "7", a "KA" or a "VIII" whatever typeface a deck was
printed in, so it is trained on the games' card layouts (the same as
`vision.synth.faces`) drawn in many fonts, and judged in fonts it never saw. Fonts are OpenCV's Hershey fonts or
TrueType files (Debian's fonts-dejavu, fonts-liberation, fonts-noto-core); TrueType
drawing needs Pillow, a training-time dependency, imported only when used.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

from vision.synth.faces import BGR, FACE_SIZE, game_codes, lagim_face, roman

FONT_DIR = Path("/usr/share/fonts")
PACKAGES = "Debian fonts-dejavu, fonts-liberation, fonts-noto-core, fonts-urw-base35"
#: Font families by path under FONT_DIR. URW's base 35 add the faces printed matter is most often set in
#: (Century Schoolbook and Bookman, whose 3 has ball terminals; Palatino, Times, Helvetica, Avant Garde).
LATIN_FAMILIES = ("truetype/dejavu/DejaVuSans", "truetype/dejavu/DejaVuSansCondensed", "truetype/dejavu/DejaVuSansMono",
                  "truetype/dejavu/DejaVuSerif", "truetype/dejavu/DejaVuSerifCondensed", "truetype/liberation/LiberationMono",
                  "truetype/liberation/LiberationSans", "truetype/liberation/LiberationSansNarrow",
                  "truetype/liberation/LiberationSerif", "truetype/noto/NotoSans", "truetype/noto/NotoSerif",
                  "truetype/noto/NotoSerifDisplay", "opentype/urw-base35/C059", "opentype/urw-base35/URWBookman",
                  "opentype/urw-base35/P052", "opentype/urw-base35/NimbusRoman", "opentype/urw-base35/NimbusSans",
                  "opentype/urw-base35/NimbusSansNarrow", "opentype/urw-base35/URWGothic")
#: Families never shown in training: a serif, a monospace and a display serif.
HELD_OUT_FAMILIES = ("truetype/liberation/LiberationSerif", "truetype/dejavu/DejaVuSansMono", "truetype/noto/NotoSerifDisplay")
HERSHEY_TRAIN = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX)
HERSHEY_HELD_OUT = (cv2.FONT_HERSHEY_TRIPLEX,)


@dataclass(frozen=True)
class Font:
    """A Hershey font (`hershey` set, drawn `weight` pixels thick at 100 px) or a TrueType file."""

    name: str
    path: Path | None = None
    hershey: int | None = None
    weight: int = 8


def font_named(stem: str) -> Font:
    """One installed TrueType face by its file stem ('LiberationSerif-Bold')."""
    found = sorted(FONT_DIR.glob(f"*/*/{stem}.[ot]tf"))
    if not found:
        raise FileNotFoundError(f"font {stem} not under {FONT_DIR} ({PACKAGES})")
    return Font(stem, path=found[0])


def fonts(held_out: bool) -> list[Font]:
    """The training fonts, or (`held_out`) the fonts kept for evaluation only."""
    families = HELD_OUT_FAMILIES if held_out else tuple(f for f in LATIN_FAMILIES if f not in HELD_OUT_FAMILIES)
    found = []
    for family in families:
        faces = [Font(p.stem, path=p) for p in sorted(FONT_DIR.glob(f"{family}*.[ot]tf")) if p.stem.split("-")[0] == Path(family).name]
        if not faces:
            raise FileNotFoundError(f"no font of {family} under {FONT_DIR} ({PACKAGES})")
        found += faces
    hershey = HERSHEY_HELD_OUT if held_out else HERSHEY_TRAIN
    return found + [Font(f"hershey-{h}-{w}", hershey=h, weight=w) for h in hershey for w in (4, 10)]


@lru_cache(maxsize=512)
def _truetype(path: Path, size: int) -> FreeTypeFont:
    from PIL import ImageFont  # training and evaluation only

    return ImageFont.truetype(str(path), size)


def _glyphs(text: str, font: Font, height: int) -> np.ndarray:
    """A grey mask (255 = ink) of `text` with capital height about `height` pixels."""
    if font.hershey is not None:
        thickness = max(1, round(font.weight * height / 100))
        (w1, h1), _ = cv2.getTextSize(text, font.hershey, 1.0, thickness)
        scale = height / max(h1, 1)
        (tw, th), base = cv2.getTextSize(text, font.hershey, scale, thickness)
        mask = np.zeros((th + base + 2 * thickness + 4, tw + 2 * thickness + 4), np.uint8)
        cv2.putText(mask, text, (thickness + 2, th + thickness + 2), font.hershey, scale, 255, thickness, cv2.LINE_AA)
        return mask
    from PIL import Image, ImageDraw

    size = max(8, round(height / 0.72))  # a font's cap height is about 0.72 of its size
    face = _truetype(font.path, size)
    left, top, right, bottom = face.getbbox(text)
    image = Image.new("L", (math.ceil(right - left) + 4, math.ceil(bottom - top) + 4), 0)  # whole pixels
    ImageDraw.Draw(image).text((2 - left, 2 - top), text, font=face, fill=255)
    return np.asarray(image)


def _stroke_width(mask: np.ndarray) -> float:
    """The glyphs' mean stroke width in pixels: twice the ink's area over its outline's length."""
    ink = (mask > 127).astype(np.uint8)
    outlines, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    return 2 * float(ink.sum()) / max(sum(cv2.arcLength(c, True) for c in outlines), 1.0)


def _contrasted(mask: np.ndarray, rng: random.Random) -> np.ndarray:
    """The glyphs with high stroke contrast, as a display serif (Didone) draws them:
    horizontal strokes and rising diagonals (the / of an A or a 4) thinned towards
    hairlines, vertical stems and falling diagonals as thick or thicker. At the reader's
    resolution a hairline all but vanishes, so an E must still be told from an I, and
    a 4 from a 1, by what little is left of it."""
    width = _stroke_width(mask)
    thin, bold = round(width * rng.uniform(0.4, 0.85)), round(width * rng.uniform(0, 0.6))
    if thin >= 2:
        # strokes across the line from the kernel's top-left to its bottom-right end thin most
        lean = np.radians(rng.uniform(0, 40))
        dx, dy = thin / 2 * np.sin(lean), thin / 2 * np.cos(lean)
        size = thin | 1
        kernel = np.zeros((size, size), np.uint8)
        cv2.line(kernel, (round(size / 2 - 0.5 - dx), round(size / 2 - 0.5 - dy)),
                 (round(size / 2 - 0.5 + dx), round(size / 2 - 0.5 + dy)), 1)
        mask = cv2.erode(mask, kernel)
    if bold >= 2:
        mask = cv2.dilate(mask, np.ones((1, bold), np.uint8))
    return mask


def _varied(mask: np.ndarray, rng: random.Random) -> np.ndarray:
    """The glyphs as a typeface between the ones we have might draw them: high stroke
    contrast now and then, wider or narrower, slanted, and (when big) bolder or lighter."""
    if mask.shape[0] >= 60 and rng.random() < 0.5:
        mask = _contrasted(mask, rng)
    h, w = mask.shape
    stretch, slant = rng.uniform(0.75, 1.3), rng.uniform(-0.2, 0.2)
    shift = max(0.0, -slant * h)
    out = cv2.warpAffine(mask, np.array([[stretch, slant, shift], [0, 1, 0]], np.float32),
                         (round(w * stretch + abs(slant) * h) + 1, h), flags=cv2.INTER_LINEAR)
    if h >= 60 and rng.random() < 0.5:
        kernel = np.ones((round(h / 40), round(h / 40)), np.uint8)
        out = cv2.dilate(out, kernel) if rng.random() < 0.5 else cv2.erode(out, kernel)
    return out


def print_text(face: np.ndarray, text: str, centre: tuple[float, float], height: int, colour: tuple[int, int, int],
           font: Font, max_width: float, vary: random.Random | None = None) -> None:
    """Print `text` centred on `centre`, shrunk to `max_width` if too wide; `vary`:
    change the glyphs' shape at random (training only)."""
    mask = _glyphs(text, font, height)
    if vary is not None:
        mask = _varied(mask, vary)
    if mask.shape[1] > max_width:
        mask = cv2.resize(mask, None, fx=max_width / mask.shape[1], fy=max_width / mask.shape[1],
                          interpolation=cv2.INTER_AREA)
    h, w = mask.shape
    x0, y0 = int(centre[0] - w / 2), int(centre[1] - h / 2)
    fh, fw = face.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + w, fw), min(y0 + h, fh)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    alpha = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(np.float32)[..., None] / 255
    region = face[cy0:cy1, cx0:cx1].astype(np.float32)
    face[cy0:cy1, cx0:cx1] = (region * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)


def _blank(fill: tuple[int, int, int], border: tuple[int, int, int]) -> np.ndarray:
    w, h = FACE_SIZE
    face = np.full((h, w, 3), border, np.uint8)
    cv2.rectangle(face, (14, 14), (w - 15, h - 15), fill, -1)
    return face


def gargon_face(colour: str, value: int, font: Font, rng: random.Random, vary: bool = False) -> np.ndarray:
    """A Gargon card's face in `font`: colour fill, white panel, big value, corner index.
    `vary`: the big value's glyphs reshaped as `_varied` says (training)."""
    w, h = FACE_SIZE
    face = _blank(BGR[colour], border=(250, 250, 250))
    cv2.rectangle(face, (50, 120), (w - 50, h - 90), (250, 250, 250), -1)
    ink = BGR["black"] if colour in ("white", "yellow") else BGR[colour]
    print_text(face, str(value), (w / 2 + rng.uniform(-8, 8), 255 + rng.uniform(-12, 12)), rng.randint(100, 135), ink,
           font, w - 130, rng if vary else None)
    if rng.random() < 0.7:
        print_text(face, "GARGON", (w / 2, h - 130), rng.randint(20, 28), ink, font, w - 140)
    print_text(face, str(value), (60, 56), rng.randint(28, 38), BGR["black"] if colour in ("white", "yellow")
           else (250, 250, 250), font, 80)
    return face


def dugtungan_face(code: str, font: Font, rng: random.Random, vary: bool = False) -> np.ndarray:
    """A dugtungan card's face in `font`: the syllable, an action banner if any, corner index.
    `vary`: the syllable's glyphs reshaped as `_varied` says (training)."""
    syllable, _, action = code.partition(":")
    w, h = FACE_SIZE
    ink = (60, 40, 30)
    face = _blank(BGR["cream"], border=(60, 90, 150))
    print_text(face, syllable, (w / 2 + rng.uniform(-8, 8), (230 if action else 260) + rng.uniform(-12, 12)),
           rng.randint(95, 125), ink, font, w - 80, rng if vary else None)
    if action:
        cv2.rectangle(face, (40, 340), (w - 40, 420), (40, 40, 170), -1)
        print_text(face, action, (w / 2, 380), rng.randint(30, 40), (255, 255, 255), font, w - 100)
    print_text(face, syllable, (60, 56), rng.randint(28, 38), ink, font, 80)
    return face


def lagim_level_face(level: int, font: Font, rng: random.Random, vary: bool = False) -> np.ndarray:
    """A Lagim card (the project's face of a random card of the set) with its level
    circle printed over in `font`: the numeral is what is read, the rest is context.
    `vary`: the numeral's glyphs stretched or slanted (training)."""
    face = lagim_face(rng.choice(game_codes("lagim")), rng.choice(("forest", "baryo")))
    w = FACE_SIZE[0]
    centre = (w / 2 + rng.uniform(-4, 4), 410 + rng.uniform(-4, 4))
    shade = rng.randint(15, 60)
    cv2.circle(face, (round(centre[0]), round(centre[1])), rng.randint(42, 48), (shade, shade, shade), -1, cv2.LINE_AA)
    ink = (rng.randint(170, 250), rng.randint(170, 250), rng.randint(170, 250))
    print_text(face, roman(level), centre, rng.randint(22, 34), ink, font, rng.randint(60, 74), rng if vary else None)
    return face
