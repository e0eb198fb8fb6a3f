"""Speech never blocks the table, and says once why it is silent."""

from __future__ import annotations

import logging
import threading
import time

from companion.speech import QUEUE_SIZE, PromptSpeaker


class SlowEngine:
    """A speech engine that takes `seconds` per sentence, as a real one does."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.said: list[str] = []
        self.rate = None
        self.stopped = threading.Event()
        self._text = ""

    def say(self, text: str) -> None:
        self._text = text

    def runAndWait(self) -> None:  # noqa: N802
        self.stopped.clear()
        self.stopped.wait(self.seconds)
        self.said.append(self._text)

    def setProperty(self, name, value) -> None:  # noqa: N802
        self.rate = value

    def stop(self) -> None:
        self.stopped.set()


def no_problem() -> None:
    return None


def test_without_an_audio_device_prompts_stay_on_screen_with_one_log_line(caplog):
    with caplog.at_level(logging.WARNING, logger="companion.speech"):
        speaker = PromptSpeaker(check_audio=lambda: "no audio device")
        for _ in range(3):
            speaker.say("Higante attacks!")
    assert speaker.status == "text only: no audio device"
    assert [r.getMessage() for r in caplog.records] == [
        "speech off: no audio device; prompts are shown on screen only"]


def test_without_espeak_ng_the_speaker_falls_back_to_text(caplog):
    def missing():
        raise RuntimeError("espeak-ng is not available (libespeak-ng.so.1: cannot open shared object file)")

    with caplog.at_level(logging.WARNING, logger="companion.speech"):
        speaker = PromptSpeaker(engine_factory=missing, check_audio=no_problem)
        speaker.wait_ready()
    assert speaker.status.startswith("text only: espeak-ng is not available")
    assert len(caplog.records) == 1


def test_saying_never_waits_for_the_voice():
    engine = SlowEngine(seconds=0.5)
    speaker = PromptSpeaker(engine_factory=lambda: engine, check_audio=no_problem)
    started = time.monotonic()
    for i in range(20):
        speaker.say(f"prompt {i}")
    assert time.monotonic() - started < 0.1
    assert speaker.dropped >= 20 - QUEUE_SIZE - 1
    speaker.close()


def test_the_newest_prompt_survives_a_full_queue():
    engine = SlowEngine(seconds=0.2)
    speaker = PromptSpeaker(engine_factory=lambda: engine, check_audio=no_problem)
    for i in range(10):
        speaker.say(f"prompt {i}")
    deadline = time.monotonic() + 3
    while "prompt 9" not in engine.said and time.monotonic() < deadline:
        time.sleep(0.02)
    assert engine.said[-1] == "prompt 9"


def test_a_hung_utterance_is_stopped_at_its_time_limit():
    engine = SlowEngine(seconds=30)
    speaker = PromptSpeaker(engine_factory=lambda: engine, check_audio=no_problem, limit=lambda _t, _r: 0.1)
    speaker.say("a very long sentence")
    deadline = time.monotonic() + 2
    while not engine.said and time.monotonic() < deadline:
        time.sleep(0.02)
    assert engine.said == ["a very long sentence"]


def test_muted_prompts_are_not_spoken_and_the_rate_is_used():
    engine = SlowEngine(seconds=0)
    speaker = PromptSpeaker(engine_factory=lambda: engine, check_audio=no_problem, rate=150)
    speaker.muted = True
    speaker.say("quiet")
    speaker.muted = False
    speaker.rate = 220
    speaker.say("loud")
    deadline = time.monotonic() + 2
    while not engine.said and time.monotonic() < deadline:
        time.sleep(0.02)
    assert engine.said == ["loud"] and engine.rate == 220


def test_the_real_engine_speaks_a_prompt_through_espeak_ng(tmp_path):
    """The speech stack the set-up installs (pyttsx3 over espeak-ng) really produces a voice.

    Rendered to a file, because machines without a sound card (CI) cannot play it aloud.
    """
    import array
    import wave

    from companion.speech import open_pyttsx3

    engine = open_pyttsx3()
    out = tmp_path / "prompt.wav"
    engine.save_to_file("Higante attacks! Every player passes a card to the right.", str(out))
    engine.runAndWait()
    with wave.open(str(out)) as voice:
        seconds = voice.getnframes() / voice.getframerate()
        samples = array.array("h", voice.readframes(voice.getnframes()))
    assert 1.5 < seconds < 10
    assert max(abs(s) for s in samples) > 1000, "the file holds a voice, not silence"
