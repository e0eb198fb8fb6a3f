"""The demo table: a scripted game played through the whole pipeline in real time.

A newcomer with no camera and no cards still sees everything work: the recording's
observations go through the same `LiveTable.observe` a camera feeds, its host taps go
through the same calls the host page makes, and the phones follow by push. A question
the camera asks waits for the real host first; the script answers only if nobody did,
or, with `answer_myself`, never: the recording then pauses until the host answers.
"""

from __future__ import annotations

import logging
import threading

from companion.adapters import Recording, Step, adapter_for
from companion.table import LiveTable
from rules.core import BadInput, IllegalMove

log = logging.getLogger(__name__)

PAUSE_BETWEEN_GAMES = 20.0


class DemoPlayer:
    """Plays a recording on a daemon thread; `speed` 2 plays twice as fast."""

    def __init__(self, table: LiveTable, game: str, speed: float = 1.0, loop: bool = True,
                 answer_myself: bool = False) -> None:
        self.table = table
        self.answer_myself = answer_myself
        self.game = game
        self.recording: Recording = adapter_for(game).recording()
        self.speed = speed
        self.loop = loop
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)

    def start(self) -> "DemoPlayer":
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a recording played once to end; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def _run(self) -> None:
        while not self._stop.is_set():
            rec = self.recording
            self.table.start_game(self.game, rec.players, rec.options, rec.setup)
            for step in rec.steps:
                if self._stop.wait(step.delay / self.speed) or not self._wait_for_answers():
                    return
                self._play(step)
            if not self.loop or self._stop.wait(PAUSE_BETWEEN_GAMES / self.speed):
                return

    def _wait_for_answers(self) -> bool:
        """With `answer_myself`, hold the recording while a question is open; False if stopped."""
        while self.answer_myself and self.table.open_questions():
            if self._stop.wait(0.1):
                return False
        return True

    def _play(self, step: Step) -> None:
        try:
            if step.observation is not None:
                self.table.observe(step.observation)
            elif step.host is not None and step.host.action is not None:
                self.table.submit(step.host.action, source="host")
            elif step.host is not None and step.host.end:
                self.table.end()
            elif step.host is not None and step.host.answer is not None and not self.answer_myself:
                waiting = self.table.open_questions()
                if waiting:  # the real host may have answered already
                    self.table.answer(waiting[0], step.host.answer)
        except (IllegalMove, BadInput) as exc:
            # A real host may have changed the game under the script; carry on with the rest.
            log.info("demo step skipped: %s", getattr(exc, "reason", exc))
        except Exception:  # a bug in one step must not stop the demo the phones are watching
            log.exception("demo step failed")
