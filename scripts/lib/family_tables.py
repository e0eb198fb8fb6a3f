"""Generated tables dealt from one deck of a face family (scripts/lib/families.py).

The same protocol as `vision.synth.tables.game_table` (a deck with some faces never
enrolled, scenes dealt from the whole deck, so forgotten faces and their look-alikes
meet), for a deck in a design the project did not draw, sleeved or not as the deck
happens to be: what says whether identification stays decisive on unfamiliar designs.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

import numpy as np

from vision.synth.faces import game_codes
from scripts.lib.families import deck_of
from vision.synth.scenes import render_scene
from vision.synth.tables import GameTable, enrolled_deck

if TYPE_CHECKING:
    from vision.deck import DeckProfile
    from vision.embed import OnnxEmbedder


def family_deck(family: str, game: str, seed: int) -> Callable[[str], np.ndarray]:
    """The one physical deck of `family` that `family_table` deals for `seed`."""
    return deck_of(family, game, random.Random(f"deck:{family}:{game}:{seed}"))


def dealer(family: str, game: str, seed: int) -> Callable[[random.Random], tuple[str, np.ndarray]]:
    """Faces of `family_deck` dealt at random, (code, face): what scripts/detector_world.py
    lays out in rows, grids, piles and fans."""
    deck, codes = family_deck(family, game, seed), list(game_codes(game))

    def deal(rng: random.Random) -> tuple[str, np.ndarray]:
        code = rng.choice(codes)
        return code, deck(code)

    return deal


def family_table(family: str, game: str, seed: int, scenes: int, leave_out: float = 0.15,
                 cards: tuple[int, int] = (3, 8)) -> GameTable:
    """`scenes` tables of `game` dealt from `family_deck`, `leave_out` of its faces never enrolled."""
    rng = random.Random(f"{family}:{game}:{seed}")
    deck = family_deck(family, game, seed)
    codes = list(game_codes(game))
    left_out = tuple(sorted(rng.sample(codes, max(1, round(leave_out * len(codes))))))
    dealt = [render_scene(rng, [(c, deck(c)) for c in rng.sample(codes, min(len(codes), rng.randint(*cards)))])
             for _ in range(scenes)]
    return GameTable(game, tuple(c for c in codes if c not in left_out), left_out, tuple(dealt))


def enrolled_family_deck(family: str, table: GameTable, embedder: OnnxEmbedder, seed: int) -> DeckProfile:
    """The deck profile of `table`'s enrolled faces, enrolled from one generated photo each."""
    return enrolled_deck(table.game, table.enrolled, embedder, random.Random(f"enroll:{family}:{table.game}:{seed}"),
                         faces=family_deck(family, table.game, seed))
