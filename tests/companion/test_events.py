"""The event bus: firing never waits on listeners, and every listener hears every event."""

from __future__ import annotations

import threading
import time

from companion.events import EventBus


def test_firing_returns_while_a_listener_is_still_busy():
    bus = EventBus()
    release = threading.Event()
    bus.subscribe(lambda name, payload: release.wait(5))
    started = time.monotonic()
    for i in range(100):
        bus.fire("state", i)
    assert time.monotonic() - started < 0.5
    release.set()
    assert bus.flush()


def test_listeners_hear_their_events_in_order():
    bus = EventBus()
    heard, prompts = [], []
    bus.subscribe(lambda name, payload: heard.append((name, payload)))
    bus.subscribe(lambda name, payload: prompts.append(payload), "prompt")
    bus.fire("state", 1)
    bus.fire("prompt", "Higante attacks!")
    bus.fire("state", 2)
    bus.flush()
    assert heard == [("state", 1), ("prompt", "Higante attacks!"), ("state", 2)]
    assert prompts == ["Higante attacks!"]


def test_a_failing_listener_does_not_silence_the_others():
    bus = EventBus()
    heard = []
    bus.subscribe(lambda name, payload: 1 / 0)
    bus.subscribe(lambda name, payload: heard.append(payload))
    bus.fire("state", "still delivered")
    bus.flush()
    assert heard == ["still delivered"]
