"""Spoken prompts that never hold up the table.

A speech engine blocks for as long as the sentence lasts (pyttsx3's `runAndWait`
forever when the audio device hangs), so the engine lives on its own worker thread
behind a small bounded queue: `say` only enqueues, the newest prompt pushes out the
oldest when the queue is full, and each utterance has a time limit set by its length,
so no prompt is cut short. Where the espeak-ng command is installed it speaks, because
it takes phoneme input: Tagalog words and names are said the Tagalog way
(companion/pronounce.py). Elsewhere pyttsx3 speaks the plain text with the platform's
voice. With no audio device or no engine the speaker says so once in the log and the
prompts stay on screen only.
"""

from __future__ import annotations

import logging
import platform
import queue
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from companion.pronounce import spoken

log = logging.getLogger(__name__)

QUEUE_SIZE = 4
#: espeak-ng voices offered on the host page: British and Caribbean English and female
#: variants of them. Not American: its phoneme a is the vowel of "cat" and it flaps t
#: between vowels, so Tagalog words put in as phonemes come out English again.
VOICES = ("en-gb", "en-029", "en-gb+f3", "en-029+f2")
DEFAULT_VOICE = "en-gb"


def utterance_limit(text: str, rate: int) -> float:
    """Seconds an utterance may take before it is stopped as hung.

    Twice its length read at `rate` words a minute, plus a margin for the engine's
    start: real prompts last 11.5-15.5 s at 165, so a fixed limit would cut them.
    """
    return 5.0 + 2.0 * 60.0 * max(1, len(text.split())) / rate


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


class EspeakCommand:
    """The espeak-ng command as a speech engine: phoneme input, any of its voices.

    One process an utterance, so stopping a hung one is ending its process.
    """

    phoneme_input = True

    def __init__(self, binary: str = "espeak-ng") -> None:
        self.binary = binary
        self.voice = DEFAULT_VOICE
        self.rate = 165
        self._text = ""
        self._process: subprocess.Popen[bytes] | None = None

    def command(self, out: Path | None = None) -> list[str]:
        """The espeak-ng command line for the queued text (read from stdin)."""
        args = [self.binary, "-v", self.voice, "-s", str(self.rate)]
        return args + (["-w", str(out)] if out else [])

    def say(self, text: str) -> None:
        self._text = text

    def runAndWait(self) -> None:  # noqa: N802 (pyttsx3's name)
        self._process = subprocess.Popen(self.command(), stdin=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = self._process.communicate(self._text.encode("utf-8"))
        if self._process.returncode not in (0, -15):  # -15: stopped at its time limit
            raise RuntimeError(err.decode("utf-8", "replace").strip() or f"exit {self._process.returncode}")

    def ipa(self, text: str) -> str:
        """How the voice says `text`, in IPA, without sound (for measuring pronunciation)."""
        done = subprocess.run([*self.command(), "-q", "--ipa"], input=text.encode("utf-8"), check=True,
                              capture_output=True)
        return done.stdout.decode("utf-8").strip()

    def save_to_file(self, text: str, path: str) -> None:
        subprocess.run(self.command(Path(path)), input=text.encode("utf-8"), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def setProperty(self, name: str, value: Any) -> None:  # noqa: N802
        setattr(self, name, value)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()


def audio_problem() -> str | None:
    """Why prompts cannot be heard on this machine, or None when they can."""
    if platform.system() != "Linux":
        return None
    cards = Path("/proc/asound/cards")
    if not cards.exists() or "no soundcards" in cards.read_text(errors="replace"):
        return "no audio device"
    if shutil.which("espeak-ng") is None and shutil.which("aplay") is None:
        return "aplay is not installed (apt install alsa-utils)"
    return None


def open_engine() -> TTSEngine:
    """espeak-ng where its command is installed, else pyttsx3 with the platform's voice."""
    binary = shutil.which("espeak-ng")
    return EspeakCommand(binary) if binary else open_pyttsx3()


def open_pyttsx3() -> TTSEngine:
    """The pyttsx3 engine; RuntimeError when its espeak-ng library is missing."""
    import pyttsx3

    try:
        return pyttsx3.init()
    except Exception as exc:  # pyttsx3 raises whatever its driver raises
        raise RuntimeError(f"espeak-ng is not available ({exc})") from exc


@dataclass(frozen=True)
class Prompt:
    """A prompt with what its pronunciation needs: the players' names, and whether
    capitals are dugtungan cards."""

    text: str
    names: tuple[str, ...] = ()
    syllable_cards: bool = False


class PromptSpeaker:
    """Speaks prompts on a worker thread; falls back to text on screen with one log line."""

    def __init__(self, enabled: bool = True, rate: int = 165, voice: str = DEFAULT_VOICE,
                 limit: Callable[[str, int], float] = utterance_limit,
                 engine_factory: Callable[[], TTSEngine] = open_engine,
                 check_audio: Callable[[], str | None] = audio_problem) -> None:
        self.muted = not enabled
        self.rate = rate
        self.voice = voice
        self.limit = limit
        self.spoken = 0
        self.dropped = 0
        self.last: Prompt | None = None
        self.names: tuple[str, ...] = ()
        self.syllable_cards = False
        self._queue: queue.Queue[Prompt | None] = queue.Queue(maxsize=QUEUE_SIZE)
        self._problem: str | None = None
        self._hung_after: float | None = None
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

    def listen_for(self, names: Iterable[str], syllable_cards: bool) -> None:
        """The game at the table: its players' names are said the Tagalog way, and in
        dugtungan capitals are cards."""
        self.names = tuple(names)
        self.syllable_cards = syllable_cards

    def _fall_back(self, problem: str) -> None:
        if self._problem is None:
            self._problem = problem
            log.warning("speech off: %s; prompts are shown on screen only", problem)

    def say(self, text: str) -> None:
        """Queue `text`; returns at once. The newest prompt wins when the queue is full."""
        if not text:
            return
        self.last = Prompt(text, self.names, self.syllable_cards)
        self._enqueue(self.last)

    def repeat(self) -> bool:
        """Say the last prompt again (the host's "say it again"); False when there is none."""
        if self.last is None:
            return False
        self._enqueue(self.last)
        return True

    def _enqueue(self, prompt: Prompt) -> None:
        if self.muted or self._problem:
            return
        if self._hung_after is not None and time.monotonic() > self._hung_after:
            self._fall_back("the speech engine hung: an utterance ran past twice its time limit")
            return
        while True:
            try:
                self._queue.put_nowait(prompt)
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
        phonemes = getattr(engine, "phoneme_input", False)
        while True:
            prompt = self._queue.get()
            if prompt is None:
                return
            if self.muted:
                continue
            engine.setProperty("rate", self.rate)
            if phonemes:
                engine.setProperty("voice", self.voice)
            seconds = self.limit(prompt.text, self.rate)
            limit = threading.Timer(seconds, engine.stop)
            limit.start()
            self._hung_after = time.monotonic() + 2 * seconds
            try:
                engine.say(spoken(prompt.text, prompt.names, prompt.syllable_cards) if phonemes
                           else prompt.text)
                engine.runAndWait()
                self.spoken += 1
            except Exception as exc:  # a driver error must not end the worker
                log.warning("could not speak %r: %s", prompt.text, exc)
            finally:
                self._hung_after = None
                limit.cancel()

    def close(self) -> None:
        if self._thread.is_alive():
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                pass
