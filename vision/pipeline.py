"""The vision loop: a camera frame in, the table's changes (observations) out.

Detection runs every frame because it is cheap and is what tells a card is still
there (the live joint detector's network only when the table changed, see
vision/live_detect.py); identification is slow, so the tracker calls it once per new
card, on the frame that confirms it, and for a find the detector doubts it decides
whether there is a card at all. Run once a card, it can afford what `companion
recognize` does for a photo's card (vision/recognize.py: both ways up, cut again where
the face lies, the whole card round a part the detector outlined, a closer look): at
the live table a dark face may be outlined by its art panel and a white card on a
white cloth short of its ends, and read as outlined such a card is "unknown".
Everything runs on one thread: on a Raspberry Pi the other cores belong to the web
server, speech and the camera driver, and one predictable thread keeps frame times even.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Callable, Iterator

import cv2
import numpy as np

from vision.detect import rectify
from vision.detectors import sure_and_doubted
from vision.geometry import side_lengths
from vision.refine import refine_quad
from vision.interfaces import BatchIdentifier, CardDetector, Detection, FrameSource, Identifier, Reading
from vision.observations import Observation
from vision.recognize import CardRecognizer
from vision.track import Tracker, TrackerSettings, ZoneOf
from vision.view_check import ViewCheck


log = logging.getLogger(__name__)

RATE = 10.0  # frames a second read from a live source
LOOK_SIZE = (6, 8)
CHROMA_WEIGHT = 3.0


def card_look(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """What a card looks like, whichever way up it lies: a unit vector for the tracker.

    The card cut out tiny (6 x 8 pixels, about 0.1 ms) plus the same turned by 180
    degrees, in Lab with the colour axes weighted up, lightness centred, so that a
    red card and a green one beside it differ however alike their layout, and light
    getting brighter or dimmer changes little.
    """
    lab = cv2.cvtColor(_cut_small(frame, corners, LOOK_SIZE, 3), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = lab + lab[::-1, ::-1]
    lab[..., 0] -= lab[..., 0].mean()
    lab[..., 1:] = CHROMA_WEIGHT * (lab[..., 1:] - 256.0)
    return _unit(lab.ravel())


PRINT_SIZE = (18, 24)


def card_print(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The print at an outline, for the tracker to tell whether a card still lies where it
    lay: grey at 18 x 24 pixels (about 0.05 ms), lightness centred, a unit vector. Finer
    than `card_look`, whose 6 x 8 cells see two white cards that print only a letter alike."""
    grey = cv2.cvtColor(_cut_small(frame, corners, PRINT_SIZE, 2), cv2.COLOR_BGR2GRAY).astype(np.float32)
    return _unit((grey - grey.mean()).ravel())


def _cut_small(frame: np.ndarray, corners: np.ndarray, size: tuple[int, int], oversample: int) -> np.ndarray:
    """The outline cut upright at `oversample` times `size` and averaged down to it: a
    warp samples pixels, it does not average them."""
    cut = rectify(frame, corners, (oversample * size[0], oversample * size[1]))
    return cv2.resize(cut, size, interpolation=cv2.INTER_AREA)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / max(float(np.linalg.norm(vector)), 1e-6)


AROUND_GROW = 1.6      # the patch judged round a missed card: its outline grown this much about its centre
AROUND_CELLS = (12, 16)
AROUND_CHANGE = 25.0   # Lab levels: a cell of it that changed by more
AROUND_COVERED = 0.5   # share of its cells round the card that changed: covered as a whole
AROUND_TABLE = 0.1     # least share of them unchanged (the table still seen) to tell what lies on the card


def around_cells(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The Lab colour of the cells of a ring round a card: its outline grown by
    AROUND_GROW, less the card itself ((n, 3), about 0.1 ms)."""
    return _cells(frame, corners)[0]


def _cells(frame: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Lab colour of the cells round a card (`around_cells`) and of those inside it."""
    corners = np.asarray(corners, np.float32)
    centre = corners.mean(axis=0)
    grown = centre + AROUND_GROW * (corners - centre)
    w, h = AROUND_CELLS
    patch = cv2.resize(rectify(frame, grown, (3 * w, 3 * h)), (w, h), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    u = np.abs((np.arange(w) + 0.5) / w * 2 - 1)[None, :]
    v = np.abs((np.arange(h) + 0.5) / h * 2 - 1)[:, None]
    ring = (u > 1 / AROUND_GROW) | (v > 1 / AROUND_GROW)
    return lab[ring], lab[~ring]


class _Surroundings:
    """`vision.track.Cover` over two frames: the one before this one, where a card just
    missed was last seen, and this one."""

    def __init__(self, before: np.ndarray, now: np.ndarray) -> None:
        self.before, self.now = before, now
        self._now: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}  # the cells of this frame, by outline

    def _cells_now(self, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`_cells` of this frame, cut once per outline (`covered`, then `table_inside`)."""
        key = np.asarray(corners, np.float32).tobytes()
        if key not in self._now:
            self._now[key] = _cells(self.now, corners)
        return self._now[key]

    def around(self, corners: np.ndarray) -> np.ndarray:
        return around_cells(self.before, corners)

    def covered(self, around: np.ndarray, corners: np.ndarray) -> bool:
        changed = np.linalg.norm(self._cells_now(corners)[0] - around, axis=1) > AROUND_CHANGE
        return float(changed.mean()) >= AROUND_COVERED

    def table_inside(self, around: np.ndarray, corners: np.ndarray) -> float | None:
        ring, inside = self._cells_now(corners)
        table = ring[np.linalg.norm(ring - around, axis=1) <= AROUND_CHANGE]
        if len(table) < AROUND_TABLE * len(ring):
            return None
        like = np.linalg.norm(inside[:, None] - table[None], axis=2).min(axis=1) <= AROUND_CHANGE
        return float(like.mean())

    def look(self, corners: np.ndarray) -> np.ndarray:
        return card_look(self.now, corners)

    def print_at(self, corners: np.ndarray, before: bool = False) -> np.ndarray:
        return card_print(self.before if before else self.now, corners)


def cut_out(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card at its own edges, upright: worth fitting the edges (a few ms) only for
    a card about to be identified, not for every card every frame."""
    return rectify(frame, refine_quad(frame, corners))


class Pipeline:
    """detect -> track -> identify new tracks -> zone -> observations, on the caller's thread.

    The identifier should itself be built with one thread (e.g. an ONNX session with
    `intra_op_num_threads=1`); OpenCV is set to one thread here.
    """

    def __init__(self, detector: CardDetector, identifier: Identifier, zone_of: ZoneOf | None = None,
                 settings: TrackerSettings | None = None, max_card_length: float = 0.6) -> None:
        cv2.setNumThreads(1)
        self.detector = detector
        self.identifier = identifier
        self.tracker = Tracker(settings, zone_of)
        self.max_card_length = max_card_length
        # a reader of many cards at once reads a new card as a photo's (module docstring)
        self.reader = CardRecognizer(detector, identifier) if isinstance(identifier, BatchIdentifier) else None
        self.size: tuple[int, int] | None = None  # (width, height) of the stream's first frame
        self._told: tuple[int, int] | None = None  # the other size last logged
        self.view = ViewCheck()
        self._before: np.ndarray | None = None  # the last frame read
        self._unseen: str | None = None  # why the frames show no table now, if they do not
        self.on_view: Callable[[str | None], None] = lambda why: None  # told when that changes

    def process(self, frame: np.ndarray, timestamp: float) -> list[Observation]:
        """One frame (BGR) taken at `timestamp` seconds; the observations it causes. A
        frame that shows no table (dark, washed out, blurred: vision/view_check.py)
        causes none and changes nothing: no card is missed in it."""
        frame = self._at_stream_size(frame)
        why = self.view.why_unseen(frame)
        if why != self._unseen:
            if why is None:
                log.info("the camera sees the table again")
            else:
                log.warning("the camera sees no table (%s): its frames are skipped", why)
            self._unseen = why
            self.on_view(why)
        if why is not None:
            return []
        sure, doubted = (self._cards(frame, finds) for finds in sure_and_doubted(self.detector, frame))
        finds = sure + doubted
        quads = [d.corners for d in finds]
        before, self._before = (frame if self._before is None else self._before), frame
        return self.tracker.update(quads, timestamp, lambda corners: self._identify(frame, corners, sure),
                                   [card_look(frame, q) for q in quads], [False] * len(sure) + [True] * len(doubted),
                                   _Surroundings(before, frame), [d.looked for d in finds])

    def _at_stream_size(self, frame: np.ndarray) -> np.ndarray:
        """`frame` at the size of the stream's first frame. A camera reopened after a
        fault may come back in another mode (1280x720, then 640x480): the tracker's
        outlines, the seat zones and the detector's view of the table are all in the
        first frame's pixels, so every card would seem to move (into another seat's
        zone, for the table a move of the game), and a card cut out where it lay in the
        larger frame fell outside the smaller one (a crash)."""
        height, width = frame.shape[:2]
        if self.size is None:
            self.size = (width, height)
        elif (width, height) != self.size:
            if self._told != (width, height):
                log.warning("the camera now sends %dx%d frames; read at the %dx%d it started with",
                            width, height, *self.size)
                self._told = (width, height)
            frame = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        return frame

    def _identify(self, frame: np.ndarray, corners: np.ndarray, sure: list[Detection]) -> Reading:
        """The reading of the card at `corners`: where it is one of the finds the detector
        is `sure` of, read as a photo's card (its other outline too: `Detection.partner`)
        and turned (`Reading.rotated`) as those corners are: the reader's outline, its
        own top-left first, may be the whole card round them, so the turn is the one that
        lays its corners nearer theirs about each outline's centre. A find it doubts (a
        checked cloth's square, most often) is read once at its outline: a checked cloth
        makes dozens at once, each read once, and read as photos' cards they held the
        frame that found them up 2.7 s instead of 0.6 s here."""
        found = next((d for d in sure if np.allclose(np.sort(d.corners, axis=0), np.sort(corners, axis=0))), None)
        if self.reader is None or found is None:
            return self.identifier.identify(cut_out(frame, corners))
        card = self.reader.read_card(frame, replace(found, corners=np.asarray(corners, np.float32)))
        own, seen = card.corners - card.corners.mean(axis=0), corners - corners.mean(axis=0)
        turned = np.linalg.norm(own - np.roll(seen, -2, axis=0)) < np.linalg.norm(own - seen)
        return replace(card.reading, rotated=bool(turned))

    def _cards(self, frame: np.ndarray, finds: list[Detection]) -> list[Detection]:
        """The finds that can be a card seen from above the table.

        A camera that sees a table never sees one card longer than `max_card_length` of
        the frame's shorter side; bigger quadrilaterals are light falling across the
        table or the table split by an arm.
        """
        longest = self.max_card_length * min(frame.shape[:2])
        return [d for d in finds if side_lengths(d.corners).max() <= longest]

    def run(self, source: FrameSource, stopped: Callable[[], bool],
            clock: Callable[[], float] = time.monotonic) -> Iterator[Observation]:
        """Observations from a live source, each frame stamped with `clock` as it arrives,
        until `stopped()`; a late frame is waited for, not fatal. A source in real time
        (its `live` true: a webcam sends 30 frames a second) is read at most RATE frames
        a second, the rate the tracker's frame counts are set and measured at (a card
        confirmed over 3 frames, given up after 15): on a fast machine a 30-frame camera
        made a hand resting half a second take a card away. A file is read frame by frame."""
        paced = bool(getattr(source, "live", False))
        last = -float("inf")
        while not stopped():
            frame = source.read()
            if frame is None:
                continue
            now = clock()
            if paced and now - last < 0.9 / RATE:  # (a 30-frame camera: every third frame)
                continue
            last = now
            yield from self.process(frame, now)
