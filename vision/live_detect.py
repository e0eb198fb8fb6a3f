"""The joint detector at the live table: the network's judgement made when the table has
changed and settled, and reused for the frames in between.

Why: the joint detector (vision/learned_detect.py) keeps touching cards, a card on a
card and a checked cloth's squares apart where the contour search alone merges or
invents them, but its network costs a Raspberry Pi core ~50 ms a frame on top of the
contour search. At a table most frames show what the frame before showed: cards lie
still, and what changes (a card put down, a hand passing) is over in a few frames. So
the contour search runs every frame, as it always did, and is judged against the
network's last view of the table (`NetworkView`); the network looks again only once the
frame differs from the one it last saw and has held still since the frame before (a
card put down and the hand gone: the moment the tracker would confirm it), when it has
differed for `restless` frames without settling (a card put down while a hand moves
elsewhere), or when its view is `max_age` frames old (light drifting, a change too slow
to notice). Where the
frame differs from the one the view was made of (a card taken away or slid off, a hand),
the view says nothing: its cards there are dropped (else a card carried off would stay
on the table until the network looked again) and a contour find there is doubted, as
one the network saw no card in. So a card newly put down is doubted until the network
has looked (the next settled frame), and the tracker takes a doubted find only where the
reader names it (vision/track.py): it is not lost, only checked. A doubted find is
`looked` (vision/interfaces.py) where the view still holds and was made of a still
frame: the network saw that part of the table as it is and no card in it (a checked
cloth's square), which the tracker never takes for a card held above the table, as it
may a find where a hand is passing (a view made while a hand moves, `restless`, may
hold a card it carries that the network does not see: a dark face of a design far
from its training).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.interfaces import Detection
from vision.learned_detect import JointCardDetector, NetworkView


@dataclass(frozen=True)
class LiveSettings:
    small_side: int = 160         # the frame is compared with others shrunk to this longest side
    changed_level: int = 18       # grey levels a pixel of it must move by to count as changed (noise is ~1 there)
    changed_share: float = 0.002  # share of its pixels changed that makes a change (a 60-pixel card is ~0.0025)
    restless: int = 5             # frames a changed table is waited on to settle at most
    max_age: int = 30             # frames a view is reused at most (3 s at 10 frames a second)


def _thumbnail(image: np.ndarray, side: int) -> np.ndarray:
    """The frame shrunk to `side` on its longest side, grey, as int16 for differences."""
    h, w = image.shape[:2]
    scale = side / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16)


class LiveJointDetector:
    """`CardDetector` for a stream of frames of one table: the joint detector with its
    network's view reused while the table has not changed (module docstring)."""

    def __init__(self, joint: JointCardDetector | None = None, settings: LiveSettings | None = None) -> None:
        self.joint = joint or JointCardDetector()
        self.settings = settings or LiveSettings()
        self.frames = 0        # frames judged
        self.network_runs = 0  # ... of which the network looked at
        self._view: NetworkView | None = None
        self._seen: np.ndarray | None = None      # the thumbnail of the frame the view was made of
        self._previous: np.ndarray | None = None  # ... and of the frame before this one
        self._age = 0
        self._restless = 0  # frames in a row that differed from the view's
        self._settled = True  # whether the view's frame was as the frame before it

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return self.joint.working_scale(shape)

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self.sure_and_doubted(image)[0]

    def sure_and_doubted(self, image: np.ndarray) -> tuple[list[Detection], list[Detection]]:
        """The joint detector's cards and doubted finds in this frame, against the network's
        view of it, or of a recent frame of the same table where this one is unchanged."""
        small = _thumbnail(image, self.settings.small_side)
        view, changed = self._view, None
        changes = self._changes(small, self._seen) if self._seen is not None and self._seen.shape == small.shape else None
        self._restless = self._restless + 1 if changes is not None and self._changed(changes) else 0
        if view is None or changes is None or self._due(small):
            view = self._view = self.joint.network_view(image)
            self._settled = self._previous is None or not self._changed(self._changes(small, self._previous))
            self._seen, self._age, self._restless = small, 0, 0
            self.network_runs += 1
        elif self._restless:
            changed = _grown(changes)
            view = _unchanged_part(view, changed)
        self._previous = small
        self._age += 1
        self.frames += 1
        sure, doubted = self.joint.sure_and_doubted(image, view)
        to_small = small.shape[1] / image.shape[1]
        return sure, [replace(d, looked=True) if self._settled and (changed is None or not _reaches(d.corners * to_small, changed))
                      else d for d in doubted]

    def _due(self, small: np.ndarray) -> bool:
        """Whether the network must look at this frame (one of the view's size): a view too
        old, or a table that changed since the view and has now settled or stayed
        restless too long."""
        if self._previous is None or self._age >= self.settings.max_age:
            return True
        return bool(self._restless) and (self._restless >= self.settings.restless
                                         or not self._changed(self._changes(small, self._previous)))

    def _changes(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Where thumbnail `a` differs from `b`: a mask of `a`'s size."""
        return np.abs(a - b) > self.settings.changed_level

    def _changed(self, changes: np.ndarray) -> bool:
        return float(np.count_nonzero(changes)) > self.settings.changed_share * changes.size


def _grown(changes: np.ndarray, grow: int = 2) -> np.ndarray:
    """Where the frame changed, grown by `grow` thumbnail pixels (a card's rim), as 0/1."""
    return cv2.dilate(changes.astype(np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))


def _reaches(box: np.ndarray, changed: np.ndarray) -> bool:
    """Whether an outline in thumbnail pixels reaches where the frame changed."""
    mask = np.zeros_like(changed)
    cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    return bool(np.any(np.logical_and(changed, mask)))


def _unchanged_part(view: NetworkView, changed: np.ndarray) -> NetworkView:
    """`view` where the frame is as the view saw it (`changed`: where it is not, `_grown`):
    no core there, and none of its cards that reach there."""
    h, w = view.core.shape
    core = np.where(cv2.resize(changed, (w, h), interpolation=cv2.INTER_NEAREST) > 0, 0.0, view.core).astype(view.core.dtype)
    to_small = view.scale * changed.shape[1] / w  # frame pixels -> thumbnail pixels
    return NetworkView(core, view.scale, [card for card in view.cards if not _reaches(card.corners * to_small, changed)])
