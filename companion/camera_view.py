"""What the camera sees, for the host: the latest frame, its cards outlined, cut-outs.

The camera loop (or the demo's generated camera) hands every frame it reads to
`CameraView.publish`; nothing else keeps pixels, because observations are plain facts
by design. From the latest frame the host page gets the picture of the table with every
card the table knows outlined and labelled (green named, amber unsure, red unknown) and
each question gets the cut-out of the card(s) it is about, taken the moment it is
asked, so the host judges the very pixels the camera judged.

OpenCV is imported only when a picture is drawn: a table run by hand has no frames, and
then the view says why ("the camera is switched off") instead of showing one.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

STALE_SECONDS = 5.0      # a frame older than this means the camera has stopped
VIEW_WIDTH = 640         # the picture a phone loads every second, not the full frame
PICTURE_HEIGHT = 180     # a question's cut-out, per card
JPEG_QUALITY = 75
COLOURS = {"named": (60, 170, 40), "unsure": (0, 170, 255), "unknown": (40, 40, 220)}  # BGR
NOT_STARTED = "the camera has not sent a picture yet"


@dataclass(frozen=True)
class SeenCard:
    """A card on the latest picture: where it lies and how sure the camera is of it."""

    track: int
    corners: Sequence[Sequence[float]]
    code: str | None
    confidence: float
    status: str  # named, unsure or unknown

    @property
    def label(self) -> str:
        return self.code if self.code is not None else "?"


def _ascii(text: str) -> str:
    """OpenCV draws ASCII only: Ñ becomes N rather than '??'."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode() or "?"


def _jpeg(image: np.ndarray) -> bytes:
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("the picture could not be encoded")
    return data.tobytes()


class CameraView:
    """The latest frame and why there is none; safe to use from any thread."""

    def __init__(self, problem: str = NOT_STARTED, stale_after: float = STALE_SECONDS) -> None:
        self.stale_after = stale_after
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._at = 0.0
        self._problem: str | None = problem

    def publish(self, frame: np.ndarray) -> None:
        with self._lock:
            self._frame, self._at, self._problem = frame, time.monotonic(), None

    def fail(self, problem: str) -> None:
        """The camera cannot run or has stopped: the host page says so, with `problem`."""
        with self._lock:
            self._frame, self._problem = None, problem

    def frame(self) -> np.ndarray | None:
        """The latest frame, or None when there is none or it is stale."""
        with self._lock:
            if self._frame is None or time.monotonic() - self._at > self.stale_after:
                return None
            return self._frame

    def status(self) -> dict[str, Any]:
        """`working` and, when not, the reason a person can act on."""
        with self._lock:
            frame, problem = self._frame, self._problem
            stale = frame is not None and time.monotonic() - self._at > self.stale_after
        if frame is None:
            return {"working": False, "problem": problem or NOT_STARTED}
        if stale:
            return {"working": False, "problem": f"no new picture for over {self.stale_after:.0f} s"}
        height, width = frame.shape[:2]
        return {"working": True, "problem": None, "width": width, "height": height}

    def picture(self, cards: Sequence[SeenCard]) -> bytes | None:
        """The latest frame as a JPEG at VIEW_WIDTH with `cards` outlined and labelled."""
        import cv2

        frame = self.frame()
        if frame is None:
            return None
        scale = VIEW_WIDTH / frame.shape[1]
        image = cv2.resize(frame, (VIEW_WIDTH, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        for card in cards:
            points = np.int32(np.array(card.corners, np.float32) * scale).reshape(-1, 1, 2)
            colour = COLOURS[card.status]
            cv2.polylines(image, [points], True, colour, 3, cv2.LINE_AA)
            text = _ascii(card.label)
            x, y = points[:, 0, 0].min(), max(points[:, 0, 1].min() - 6, 14)
            (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
            cv2.rectangle(image, (int(x), int(y) - h - 4), (int(x) + w + 4, int(y) + 3), colour, -1)
            cv2.putText(image, text, (int(x) + 2, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1,
                        cv2.LINE_AA)
        return _jpeg(image)

    def cut_out(self, corners: Sequence[Sequence[Sequence[float]]]) -> bytes | None:
        """The cards inside `corners` (each clockwise from its top-left) cut from the latest
        frame, upright, side by side, as a JPEG; None without a frame or a card."""
        frame = self.frame()
        if frame is None or not corners:
            return None
        from vision.detect import rectify

        width = round(PICTURE_HEIGHT * 63 / 88)
        cards = [rectify(frame, np.array(c, np.float32), (width, PICTURE_HEIGHT)) for c in corners]
        gap = np.full((PICTURE_HEIGHT, 6, 3), 255, np.uint8)
        row = [part for card in cards for part in (card, gap)][:-1]
        return _jpeg(np.hstack(row))
