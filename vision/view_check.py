"""Whether a frame shows the table at all: a frame that does not is not evidence.

The tracker reports a card gone once it has missed it for a few frames. A frame in
which the camera sees nothing (the lights switched off, the lens covered, the picture
washed out while the camera's exposure catches up) misses every card at once, and the
table would read all of them taken away and, a moment later, put down again: draws,
plays and reveals that never happened. Such a frame is told by the picture as a whole,
against the recent frames that showed the table (a black felt cloth is dark, and a white
one bright, all the time), and skipped: the cards stay as they were, and a card really
taken away meanwhile is missed once the camera sees again.

- dark: its mean lightness under DARK (of 255) and under DARKER of the recent frames':
  no card can be seen in it, however long the dark lasts (a camera that sends nothing
  takes no card away either);
- washed out: more than WASHED_OUT of it at the top of the range, where the recent
  frames had under half that;

- blurred (the camera refocusing): it looks more like the last frame that showed the
  table, blurred, than like that frame itself (BLUR_LIKENESS), and holds under half its
  detail. Detail alone (the Laplacian's variance under a fifth of the recent frames') was
  tried first and taken out: it falls as much when the cards are taken off a plain dark
  cloth, and missed 4 of the tracking benchmark's 115 events (scripts/bench_tracking.py);
  a table with a card taken away still looks like itself, not like itself blurred.
A camera that stays washed out or blurred is the new normal after LONGEST_SKIP frames.
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

DARK = 16.0
DARKER = 0.3
WASHED_OUT = 0.6
THUMB_WIDTH = 320       # px: the small grey copy judged
BLUR_SIGMA = 2.0        # px of that copy: the blur a refocusing camera shows there
BLUR_LIKENESS = 0.7     # blurred: its difference from the last table blurred under this share of that from it
RECENT = 30             # frames that showed the table: the norm
LONGEST_SKIP = 100      # frames (10 s at 10 a second) skipped as washed out or blurred before that is the norm


class ViewCheck:
    """Judges each frame of one stream against the frames before it."""

    def __init__(self) -> None:
        self._lightness: deque[float] = deque(maxlen=RECENT)
        self._bright: deque[float] = deque(maxlen=RECENT)
        self._poor = 0    # washed-out or blurred frames in a row
        self._table: np.ndarray | None = None  # the last frame that showed the table, small and grey
        self.skipped = 0  # frames judged to show no table, in all

    def why_unseen(self, frame: np.ndarray) -> str | None:
        """None where `frame` shows the table; else why not ("dark", "washed out",
        "blurred"). Each frame is judged once, in stream order."""
        small = cv2.resize(frame, (THUMB_WIDTH, max(1, round(THUMB_WIDTH * frame.shape[0] / frame.shape[1]))),
                           interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        lightness, bright = float(grey.mean()), float(np.count_nonzero(grey >= 250)) / grey.size
        known = len(self._lightness) >= 5
        if known and lightness < DARK and lightness < DARKER * float(np.median(self._lightness)):
            self.skipped += 1
            return "dark"
        why = None
        if known and bright > WASHED_OUT and float(np.median(self._bright)) < WASHED_OUT / 2:
            why = "washed out"
        elif self._table is not None and self._table.shape == grey.shape and self._blurred(grey, self._table):
            why = "blurred"
        if why is not None:
            self._poor += 1
            if self._poor <= LONGEST_SKIP:
                self.skipped += 1
                return why
            self._lightness.clear()  # the camera stays so: its frames are the norm now
            self._bright.clear()
        self._poor = 0
        self._lightness.append(lightness)
        self._bright.append(bright)
        self._table = grey
        return None

    @staticmethod
    def _blurred(grey: np.ndarray, table: np.ndarray) -> bool:
        """Whether `grey` looks like `table` blurred more than like `table`, with under
        half its detail."""
        now, then = grey.astype(np.float32), table.astype(np.float32)
        soft = cv2.GaussianBlur(then, (0, 0), BLUR_SIGMA)
        if float(np.abs(now - soft).mean()) >= BLUR_LIKENESS * float(np.abs(now - then).mean()):
            return False
        return float(cv2.Laplacian(now, cv2.CV_32F).var()) < 0.5 * float(cv2.Laplacian(then, cv2.CV_32F).var())
