"""The swappable parts of recognition, as protocols, and the values they pass.

Detection, identification and frame capture change independently (a Pi camera today,
a better detector tomorrow, printed-token readers beside the enrolled identifier), so
each is a protocol and the pipeline only ever talks to these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

# Rectified card size (width, height) in pixels: a poker/trading card is 63 x 88 mm.
CARD_SIZE = (180, 252)


@dataclass(frozen=True)
class Detection:
    """One card-shaped quadrilateral in an image.

    `corners` is a (4, 2) float array in input-image pixels, clockwise, starting at a
    corner of a short side, so the card is upright up to a 180-degree turn; the
    identifier settles that turn (`Reading.rotated`). `agreed`: two independent searches
    of the detector outline it alike (vision/learned_detect.py); else `partner`, where
    the other search outlines it too, is that outline: the two as found may differ by
    what the edge fit settles (vision/recognize.py). `looked`, of a find the detector
    doubts: its network looked at this part of the frame as it is now and saw no card
    there (a cloth's square), not a part it has not seen since it changed (where a card
    may be passing in a hand: vision/live_detect.py).
    """

    corners: np.ndarray
    score: float = 1.0
    agreed: bool = False
    partner: np.ndarray | None = field(default=None, repr=False)
    looked: bool = False


@dataclass(frozen=True)
class Candidate:
    code: str
    score: float


@dataclass(frozen=True)
class Reading:
    """What an identifier says about one rectified card.

    `code` is None when the card is not accepted (unknown or unsure); the candidates
    are still reported so a person (or a tracker over several frames) can judge.
    `rotated` is True when the card lies upside down relative to the detection's
    corner order, i.e. its own top-left is the detection's third corner. `outline`,
    when the identifier can tell, is where the best candidate's whole face lies in the
    rectified card's pixels (4x2, in the cut-out's corner order): a cut-out a few per
    cent off shows there, and can be cut again.
    """

    code: str | None
    confidence: float
    candidates: tuple[Candidate, ...] = ()
    rotated: bool = False
    outline: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CardResult:
    """A found card: its corners clockwise from its own top-left, and its reading."""

    corners: np.ndarray
    reading: Reading

    def to_dict(self) -> dict:
        return {"code": self.reading.code,
                "confidence": round(float(self.reading.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


@dataclass
class FrameStats:
    """Counters a frame source keeps so the app can show camera health."""

    frames: int = 0
    dropped: int = 0
    reopens: int = 0
    online: bool = False
    last_error: str = field(default="")


class FrameSource(Protocol):
    """Anything that yields BGR frames: a webcam, a stream, a video, a folder, a demo table."""

    stats: FrameStats

    def read(self, timeout: float = 1.0) -> np.ndarray | None:
        """The newest frame, or None if none arrived within `timeout` seconds."""

    def close(self) -> None: ...


class CardDetector(Protocol):
    def detect(self, image: np.ndarray) -> list[Detection]:
        """Every card quadrilateral in a BGR image."""

    def working_scale(self, shape: tuple[int, ...]) -> float:
        """The scale the search runs at for an image of this shape (1: full size)."""


class Identifier(Protocol):
    def identify(self, card: np.ndarray) -> Reading:
        """Name one rectified card (BGR, CARD_SIZE, upright up to a 180-degree turn)."""


@runtime_checkable
class BatchIdentifier(Identifier, Protocol):
    """An identifier that names many cards in one model call (a whole photo's cards)."""

    card_size: tuple[int, int]  # (w, h) it reads cards at: a photo's cards are cut out at this size

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]: ...


__all__: Sequence[str] = ("CARD_SIZE", "Detection", "Candidate", "Reading", "CardResult",
                          "FrameStats", "FrameSource", "CardDetector", "Identifier",
                          "BatchIdentifier")
