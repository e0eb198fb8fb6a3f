"""The numbers the learned detector and the joint detector share with what outlines
cards round their cores (vision/learned_detect.py, vision/outline.py): kept apart from
both so that each can read them without importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.geometry import aspect

CORE = 0.55    # a core is its card's outline shrunk about its centre by this (as trained)
AGREE = 0.85  # IoU at which two searches outline a card alike
DECK_ASPECTS = (0.57, 0.72)  # short over long side of real decks: tarot (0.58), bridge and SET (0.64) to poker (0.716)


@dataclass(frozen=True)
class JointSettings:
    core_floor: float = 0.5   # a contour find where the network's core probability nowhere reaches this is doubted
    core_fill: float = 0.1    # a find whose own core (itself shrunk by CORE) has a mean under this, a learned card beside it, too
    blob_share: float = 0.7   # a contour find holding learned cards each under this share of its area ...
    blob_cover: float = 0.75  # ... two or more no narrower than a deck's, together covering this share of it, is touching cards;
    many_cover: float = 0.5   # ... three or more of any shape covering this share, a grid of them or what they lie on
    blob_aspect: float = 0.08  # card-shaped: short over long side within this of a deck's ...
    deck_aspects: tuple[float, float] = DECK_ASPECTS  # ... from the narrowest to the widest deck,
    pair_size: float = 1.5    # ... and, where two or more other finds tell a card's size, this many times their median
    same_card: float = 0.5    # a contour find a third inside a larger learned card, with a lesser IoU, is part of it
    on_card_fill: float = 0.6  # a contour find holding one learned card, card-shaped, filling under this share of it ...
    on_card_off: float = 0.15  # ... its centre off the find's by this share of its length or more, is that card and the
                               # card(s) it lies on outlined as one (a pile, a fan): the learned card stands for it,
    on_card_size: float = 0.6  # ... where it is no smaller than this share of the network's other cards (their median)
    on_card_score: float = 0.85  # ... and the network is this sure of it (mean core probability; a card's median is 0.93)
    askew_share: float = 0.5  # `surface_cards` or more card-shaped learned cards, each under this share of an
                              # empty-cored find and all it holds, lie on it (else one is its own card askew)
    surface_cards: int = 3    # a find beyond `largest` holding this many learned cards no narrower than a deck's ...
    surface_share: float = 0.4  # ... each under this share of it is what they lie on (a mat) or make up (a row, a grid),
    surface_least: float = 0.015  # ... and over this share (cards on a mat 8 cards long are 0.02-0.04 of it; the MTG close-up's symbols 0.01);
    surface_many: int = 6     # ... or this many of any size under `surface_share`, card-shaped (a far camera's mat or grid)
    lying_share: float = 0.12  # ... or any card-shaped one under this share of it (and over `surface_least`): a card and an arm, a mat
    largest: float = 200.0    # longest side, pixels of the network's input, of a card the network judges (it was trained to 170)
    agree: float = AGREE      # IoU of a standing contour find and a learned card at which the two searches agree on its outline
    # a sure find cut at a printed band or panel grown to its card's whole outline (vision/outline.py):
    grow_core: float = 0.5    # core probability that makes a pixel part of a core, for the core a find lies on
    grow_held: float = 0.85   # the find has this share of it inside the grown outline ...
    grow_width: float = 0.65  # ... spans this share of its width at least (a part side by side with the rest) ...
    grow_least: float = 0.1   # ... and ends this share of its length short of one of its ends ...
    grow_along: float = 1.2   # ... this many times farther than from its sides (the card runs on along its length)
    grow_onto: float = 0.1    # what the growth adds overlaps no other find or learned card by over this share of either
    # a sure card far smaller than the frame's others and of another shape is doubted (a chip, a patch of cloth):
    odd_area: float = 0.4     # under this share of the median area of the frame's other sure cards (three or more) ...
    odd_shape: float = 0.15   # ... and its short over long side this share or more off their median's;
    # or, among one or more others, under this share of their median area whatever its shape: the issue's
    # smallest card (60 px tall) over its largest (400 px), further apart than one deck's cards in one frame
    tiny_area: float = (60 / 400) ** 2

    def no_narrower_than_deck(self, corners: np.ndarray) -> bool:
        """Short over long side no less than the narrowest deck's, within `blob_aspect`:
        a tilted camera widens a card, so a wider outline may still be one."""
        return aspect(corners) > self.deck_aspects[0] - self.blob_aspect

    def deck_shaped(self, corners: np.ndarray) -> bool:
        """Short over long side within `blob_aspect` of some deck's: round symbols, a
        text box and a square cloth tile are not."""
        return self.no_narrower_than_deck(corners) and aspect(corners) < self.deck_aspects[1] + self.blob_aspect
