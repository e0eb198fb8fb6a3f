"""Line a card's detail image up with an enrolled shot, to a fraction of a pixel.

A card cut out a few per cent off (its rim lost against a table of the same colour, a
corner pulled out by a table dot, a blurred edge) is a stretched and sheared picture
of its face, and every comparison that looks at where the print sits on the card
suffers: the right face then scores about as low as a look-alike. So before the
close look compares a card with its shortlist (vision/identify.py), its detail
image (vision/template.py) is warped onto the best candidate's shot by an affine
map found by inverse-compositional Lucas-Kanade: what each step needs from the shot
(its gradients, the 6x6 Hessian) is a property of the deck, computed once per shot
(`ShotModel`), so a step costs one warp and one small matrix product.

Lucas-Kanade only finds a nearby optimum, so it starts at half size from the best
of four guesses, the card as cut, the card cut at its rim's inner edge (the
commonest cut-out error: a dark rim on a dark table) and the card cut short at one
end by a tenth or nearly a fifth of its length (a header band printed the colour of
the cloth), each moved by the best shift of up to MARGIN pixels, and finishes at
full size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

MARGIN = 8        # pixels of a 72x100 detail image left out at the border: the band-pass
                  # filter's own border effects reach this far into a card cut inside its rim;
                  # half as many at half size, where they are also how far a shift is searched
RIM = 3           # pixels of a 72x100 detail image: a printed border of 4% of the card's width, the usual
BANDS = (0.1, 0.18)  # shares of a card's length lost at one end when a band printed there is the table's colour
COARSE_STEPS = 3  # Gauss-Newton steps at half size, from the better starting guess
FINE_STEPS = 2    # then at full size
_FLAGS = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP


@dataclass(frozen=True)
class _Level:
    """One shot at one size, with what a Lucas-Kanade step against it needs. The steps
    look at lightness alone: it holds nearly all of a card's print, and one channel
    costs a third of three."""

    image: np.ndarray     # (h, w, 3) band-pass detail image
    solve: np.ndarray     # (6, k) the inverse Hessian times the steepest-descent images of its lightness, over the inner pixels
    solved: np.ndarray    # (6,) `solve` applied to the inner pixels of its lightness
    energy: float         # their sum of squares
    inner: np.ndarray     # (h - 2 margin, w - 2 margin) the inner pixels of its lightness
    margin: int

    @classmethod
    def of(cls, image: np.ndarray, margin: int) -> "_Level":
        h, w = image.shape[:2]
        inner = (slice(margin, h - margin), slice(margin, w - margin))
        light = np.ascontiguousarray(image[..., 0])
        gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)[inner] / 8
        gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)[inner] / 8
        ys, xs = np.mgrid[inner].astype(np.float32)
        x, y = xs - (w - 1) / 2, ys - (h - 1) / 2  # centred: a better-conditioned Hessian
        steepest = np.stack([gx * x, gx * y, gx, gy * x, gy * y, gy]).reshape(6, -1)
        hessian = (steepest @ steepest.T).astype(np.float64)
        ridge = max(1e-6 * float(np.trace(hessian)), 1e-6)  # (a blank shot has no gradient at all: no step)
        solve = (np.linalg.inv(hessian + ridge * np.eye(6)) @ steepest).astype(np.float32)
        target = np.ascontiguousarray(light[inner])
        flat = target.ravel()
        return cls(image, solve, solve @ flat, float(flat @ flat), target, margin)

    def fit(self, light: np.ndarray, warp: np.ndarray, steps: int) -> np.ndarray:
        """`warp` (3x3, shot -> query pixels) improved by `steps` Gauss-Newton steps;
        `light` is the query's lightness plane. Each step solves for the update in one
        product (`solve`) and composes its inverse in closed form: at these sizes
        NumPy's per-call overhead, not arithmetic, is most of a step."""
        h, w = self.image.shape[:2]
        m = self.margin
        cx, cy = (w - 1) / 2, (h - 1) / 2
        inside = np.array([[1.0, 0, m], [0, 1, m], [0, 0, 1]])  # only the inner pixels are warped
        for _ in range(steps):
            seen = cv2.warpAffine(light, (warp @ inside)[:2].astype(np.float32), (w - 2 * m, h - 2 * m), flags=_FLAGS,
                                  borderMode=cv2.BORDER_REPLICATE).ravel()
            gain = float(seen @ self.inner.ravel()) / max(self.energy, 1e-9)  # the card's contrast against the shot's
            if gain <= 1e-3:
                break
            a, b, tx, c, d, ty = (self.solve @ seen / gain - self.solved).tolist()
            warp = warp @ _inverse(1 + a, b, tx - a * cx - b * cy, c, 1 + d, ty - c * cx - d * cy)
        return warp


def _inverse(a: float, b: float, tx: float, c: float, d: float, ty: float) -> np.ndarray:
    """The 3x3 inverse of the affine map [[a, b, tx], [c, d, ty]], in closed form
    (np.linalg.inv cost more than a step's warp)."""
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return np.array([[ia, ib, -(ia * tx + ib * ty)], [ic, id_, -(ic * tx + id_ * ty)], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class ShotModel:
    """One enrolled shot, at full and half size, ready to have cards aligned onto it."""

    fine: _Level
    coarse: _Level

    @classmethod
    def of(cls, shot: np.ndarray) -> "ShotModel":
        return cls(_Level.of(shot, MARGIN), _Level.of(cv2.pyrDown(shot), MARGIN // 2))

    @property
    def image(self) -> np.ndarray:
        return self.fine.image


def _rescaled(warp: np.ndarray, factor: float) -> np.ndarray:
    """The same map in pixels `factor` times the size."""
    scale = np.diag([factor, factor, 1.0])
    return scale @ warp @ np.diag([1 / factor, 1 / factor, 1.0])


@lru_cache(maxsize=4)
def _guesses(w: int, h: int) -> tuple[tuple[np.ndarray, np.ndarray | None], ...]:
    """Where `align` starts, for a detail image of w x h, at half size: the card as cut
    (no warp), cut at its rim's inner edge, and cut short at one end by each of BANDS;
    each as a 3x3 map and the 2x3 float32 one OpenCV warps by."""
    starts = ((w / (w - 2 * RIM), h / (h - 2 * RIM)),) + tuple((1.0, 1 / (1 - band)) for band in BANDS)
    guesses: list[tuple[np.ndarray, np.ndarray | None]] = [(np.eye(3), None)]
    for sx, sy in starts:
        guess = _rescaled(np.array([[sx, 0, (w - 1) / 2 * (1 - sx)], [0, sy, (h - 1) / 2 * (1 - sy)], [0, 0, 1]]), 0.5)
        guesses.append((guess, guess[:2].astype(np.float32)))
    return tuple(guesses)


def align(query: np.ndarray, shot: ShotModel) -> tuple[np.ndarray, np.ndarray]:
    """`query` (a detail image of the shot's size) warped onto the shot's pixels, and
    the warp (3x3, shot pixels -> query pixels): where the shot's face lies in the card
    as cut, which is how a cut-out a few per cent off is cut again (vision/recognize.py)."""
    h, w = shot.image.shape[:2]
    light = np.ascontiguousarray(query[..., 0])
    small = cv2.pyrDown(light)
    coarse = shot.coarse
    m = coarse.margin
    guesses = _guesses(w, h)
    sh, sw = small.shape
    # every guess's view side by side, matched in one call (one call costs about as much
    # as each of four small ones); a shift that would span two views is never read
    views = np.empty((sh, sw * len(guesses)), np.float32)
    for k, (_, affine) in enumerate(guesses):
        if affine is None:
            views[:, :sw] = small
        else:
            cv2.warpAffine(small, affine, (sw, sh), dst=views[:, k * sw:(k + 1) * sw], flags=_FLAGS,
                           borderMode=cv2.BORDER_REPLICATE)
    every = cv2.matchTemplate(views, coarse.inner, cv2.TM_CCOEFF_NORMED)
    best, best_fit = np.eye(3), -np.inf
    for k, (guess, _) in enumerate(guesses):
        _, fit, _, (x, y) = cv2.minMaxLoc(every[:, k * sw: k * sw + 2 * m + 1])  # every shift of up to `m` pixels
        if fit > best_fit:
            best, best_fit = guess @ np.array([[1, 0, x - m], [0, 1, y - m], [0, 0, 1]]), fit
    warp = coarse.fit(small, best, COARSE_STEPS)
    warp = shot.fine.fit(light, _rescaled(warp, 2.0), FINE_STEPS)
    return cv2.warpAffine(query, warp[:2].astype(np.float32), (w, h), flags=_FLAGS, borderMode=cv2.BORDER_REPLICATE), warp
