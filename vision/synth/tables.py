"""Generated decks and tables for one game: enrollment photos, left-out faces, scenes.

The benchmark and the tests score the same thing, so both build their data here: a
deck of one game where a few faces were never enrolled (a user forgot them). Most
left-out faces have enrolled look-alikes (in Gargon red-14 left out while blue-14 and
red-13 are enrolled), which is exactly where an identifier is tempted to guess.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from vision.synth.faces import game_codes, game_face
from vision.synth.scenes import Scene, render_scene

if TYPE_CHECKING:
    from vision.deck import DeckProfile
    from vision.embed import OnnxEmbedder


@dataclass(frozen=True)
class GameTable:
    game: str
    enrolled: tuple[str, ...]
    left_out: tuple[str, ...]
    scenes: tuple[Scene, ...]


RETAKES = 3
CONFIRM_TOLERANCE = 0.03  # a cut-out this far off a true corner looks wrong to a person
PLAIN_TABLES = {"dark": (28, 28, 28), "felt": (50, 115, 35), "white": (220, 220, 220)}  # BGR, about


def enrollment_photo(game: str, code: str, rng: random.Random) -> np.ndarray:
    return enrollment_scene(game, code, rng).image


def enrollment_scene(game: str, code: str, rng: random.Random, face: np.ndarray | None = None) -> Scene:
    """One card, roughly upright, filling half the frame's height, on a plain surface
    that its edge stands out from, as the enroll instructions ask (a white-edged card
    on a white table has no edge to find, and a card cut out without its margin is a
    different picture to everything that compares it later). No hand over it: the
    person is holding the camera. Upright matters only for corner order: enrollment
    takes the side nearer the top of the photo as the card's top. `face`: the card in
    another design than the project's (scripts/lib/families.py)."""
    face = game_face(game, code) if face is None else face
    rim = np.concatenate([face[:4].reshape(-1, 3), face[-4:].reshape(-1, 3),
                          face[:, :4].reshape(-1, 3), face[:, -4:].reshape(-1, 3)]).mean(axis=0)
    table = max(PLAIN_TABLES, key=lambda kind: float(np.linalg.norm(rim - np.array(PLAIN_TABLES[kind]))))
    return render_scene(rng, [(code, face)], size=(960, 720), max_turn=25, table=table,
                        card_height=(0.45, 0.6), hand_chance=0.0)


def enrolled_deck(game: str, codes: Iterable[str], embedder: OnnxEmbedder, rng: random.Random,
                  faces: Callable[[str], np.ndarray] | None = None) -> DeckProfile:
    """A deck profile enrolled from one generated photo of each code, as a person would:
    the enroll flow shows the cut-out, and a person who sees it missed the card's edges
    takes the photo again (up to RETAKES times). `faces`: the deck's design, if not the
    project's (code -> face)."""
    from vision.detect import ContourCardDetector
    from vision.enroll import Enrollment, card_nearest_centre

    detector = ContourCardDetector()
    enrollment = Enrollment(game, detector)
    for code in codes:
        for _ in range(RETAKES):
            scene = enrollment_scene(game, code, rng, faces(code) if faces else None)
            corners = card_nearest_centre(scene.image, detector)
            if cut_out_looks_right(corners, scene.cards[0].corners):
                break
        enrollment.add(scene.image, code, corners)
    return enrollment.profile(embedder)


def cut_out_looks_right(corners: np.ndarray, truth: np.ndarray) -> bool:
    """What a person confirming the cut-out sees: every corner within CONFIRM_TOLERANCE
    of the card's length of a true corner (in any order: enrollment turns the card
    upright later)."""
    length = float(np.linalg.norm(truth[0] - truth[3]))
    gaps = np.linalg.norm(corners[:, None, :] - truth[None, :, :], axis=2).min(axis=1)
    return bool(np.all(gaps <= CONFIRM_TOLERANCE * length))


def game_table(game: str, seed: int, scenes: int, leave_out: float = 0.15,
               cards: tuple[int, int] = (3, 8)) -> GameTable:
    """A deck of `game` with `leave_out` of its faces never enrolled, and `scenes`
    table scenes dealt from the whole deck (so left-out faces do appear)."""
    rng = random.Random(f"{game}:{seed}")
    codes = list(game_codes(game))
    left_out = tuple(sorted(rng.sample(codes, max(1, round(leave_out * len(codes))))))
    enrolled = tuple(c for c in codes if c not in left_out)
    dealt = []
    for _ in range(scenes):
        hand = rng.sample(codes, min(len(codes), rng.randint(*cards)))
        dealt.append(render_scene(rng, [(c, game_face(game, c)) for c in hand]))
    return GameTable(game, enrolled, left_out, tuple(dealt))
