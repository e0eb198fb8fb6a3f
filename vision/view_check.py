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
  frames had under half that. A camera that stays so is the new normal after
  LONGEST_SKIP frames: its frames count again.

Not judged: blur. The detail of a frame (its Laplacian's variance) falls as much when
the cards are taken off a plain dark cloth as when the camera refocuses, and a blur rule
tried so missed 4 of the tracking benchmark's 115 events (scripts/bench_tracking.py).
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

DARK = 16.0
DARKER = 0.3
WASHED_OUT = 0.6
THUMB_WIDTH = 160       # px: the small grey copy judged
RECENT = 30             # frames that showed the table: the norm
LONGEST_SKIP = 100      # frames (10 s at 10 a second) skipped as washed out before that is the norm


class ViewCheck:
    """Judges each frame of one stream against the frames before it."""

    def __init__(self) -> None:
        self._lightness: deque[float] = deque(maxlen=RECENT)
        self._bright: deque[float] = deque(maxlen=RECENT)
        self._washed = 0  # washed-out frames in a row
        self.skipped = 0  # frames judged to show no table, in all

    def why_unseen(self, frame: np.ndarray) -> str | None:
        """None where `frame` shows the table; else why not ("dark", "washed out").
        Each frame is judged once, in stream order."""
        small = cv2.resize(frame, (THUMB_WIDTH, max(1, round(THUMB_WIDTH * frame.shape[0] / frame.shape[1]))),
                           interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        lightness, bright = float(grey.mean()), float(np.count_nonzero(grey >= 250)) / grey.size
        known = len(self._lightness) >= 5
        if known and lightness < DARK and lightness < DARKER * float(np.median(self._lightness)):
            self.skipped += 1
            return "dark"
        if known and bright > WASHED_OUT and float(np.median(self._bright)) < WASHED_OUT / 2:
            self._washed += 1
            if self._washed <= LONGEST_SKIP:
                self.skipped += 1
                return "washed out"
            self._lightness.clear()  # the camera stays so: its frames are the norm now
            self._bright.clear()
        self._washed = 0
        self._lightness.append(lightness)
        self._bright.append(bright)
        return None
