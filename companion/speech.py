"""Spoken prompts that never hold up the table.

pyttsx3's `runAndWait` blocks for as long as the sentence lasts (and forever when the
audio device hangs), so the engine lives on its own worker thread behind a small
bounded queue: `say` only enqueues, the newest prompt pushes out the oldest when the
queue is full, and each utterance has a time limit. With no audio device, no aplay or
no espeak-ng the speaker says so once in the log and the prompts stay on screen only.
"""

from __future__ import annotations

import logging
import platform
import queue
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Callable, Protocol

log = logging.getLogger(__name__)

QUEUE_SIZE = 4
UTTERANCE_TIMEOUT = 12.0


class Speaker(Protocol):
    muted: bool
    rate: int

    def say(self, text: str) -> None: ...

    @property
    def status(self) -> str: ...

    def close(self) -> None: ...


class TTSEngine(Protocol):
    def say(self, text: str) -> None: ...

    def runAndWait(self) -> None: ...  # noqa: N802 (pyttsx3's name)

    def setProperty(self, name: str, value: Any) -> None: ...  # noqa: N802

    def stop(self) -> None: ...


def audio_problem() -> str | None:
    """Why prompts cannot be heard on this machine, or None when they can."""
    if platform.system() != "Linux":
        return None
    cards = Path("/proc/asound/cards")
    if not cards.exists() or "no soundcards" in cards.read_text(errors="replace"):
        return "no audio device"
    if shutil.which("aplay") is None:
        return "aplay is not installed (apt install alsa-utils)"
    return None


def open_pyttsx3() -> TTSEngine:
    """The pyttsx3 engine; RuntimeError when its espeak-ng library is missing."""
    import pyttsx3

    try:
        return pyttsx3.init()
    except Exception as exc:  # pyttsx3 raises whatever its driver raises
        raise RuntimeError(f"espeak-ng is not available ({exc})") from exc


class PromptSpeaker:
    """Speaks prompts on a worker thread; falls back to text on screen with one log line."""

    def __init__(self, enabled: bool = True, rate: int = 165, timeout: float = UTTERANCE_TIMEOUT,
                 engine_factory: Callable[[], TTSEngine] = open_pyttsx3,
                 check_audio: Callable[[], str | None] = audio_problem) -> None:
        self.muted = not enabled
        self.rate = rate
        self.timeout = timeout
        self.spoken = 0
        self.dropped = 0
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=QUEUE_SIZE)
        self._problem: str | None = None
        self._busy_since: float | None = None
        self._engine_factory = engine_factory
        self._ready = threading.Event()
        problem = check_audio() if enabled else None
        if problem:
            self._fall_back(problem)
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        if self._problem is None:
            self._thread.start()
        else:
            self._ready.set()

    @property
    def status(self) -> str:
        if self._problem:
            return f"text only: {self._problem}"
        return "muted" if self.muted else "speaking"

    def wait_ready(self, timeout: float = 5.0) -> bool:
        """True once the engine is open (or known to be missing)."""
        return self._ready.wait(timeout)

    def _fall_back(self, problem: str) -> None:
        if self._problem is None:
            self._problem = problem
            log.warning("speech off: %s; prompts are shown on screen only", problem)

    def say(self, text: str) -> None:
        """Queue `text`; returns at once. The newest prompt wins when the queue is full."""
        if self.muted or self._problem or not text:
            return
        if self._busy_since is not None and time.monotonic() - self._busy_since > 2 * self.timeout:
            self._fall_back(f"the speech engine hung for over {2 * self.timeout:.0f} s")
            return
        while True:
            try:
                self._queue.put_nowait(text)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                    self.dropped += 1
                except queue.Empty:
                    pass

    def _work(self) -> None:
        try:
            engine = self._engine_factory()
        except RuntimeError as exc:
            self._fall_back(str(exc))
            self._ready.set()
            return
        self._ready.set()
        while True:
            text = self._queue.get()
            if text is None:
                return
            if self.muted:
                continue
            engine.setProperty("rate", self.rate)
            limit = threading.Timer(self.timeout, engine.stop)
            limit.start()
            self._busy_since = time.monotonic()
            try:
                engine.say(text)
                engine.runAndWait()
                self.spoken += 1
            except Exception as exc:  # a driver error must not end the worker
                log.warning("could not speak %r: %s", text, exc)
            finally:
                self._busy_since = None
                limit.cancel()

    def close(self) -> None:
        if self._thread.is_alive():
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                pass
