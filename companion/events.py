"""An event bus on a queue: whoever fires an event never waits on whoever listens.

The live table fires "state" and "prompt" events while holding its lock; the web push,
the speech worker and the log listen. A slow listener (a stuck speaker, thirty phones)
must never hold up the camera loop or a host's request, so firing only enqueues and one
dispatcher thread calls the listeners (the pattern of OctoPrint's `events.py`).
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any, Callable

log = logging.getLogger(__name__)

Listener = Callable[[str, Any], None]
_STOP = object()


class EventBus:
    """Fire-and-forget events, delivered in order by one daemon thread."""

    def __init__(self) -> None:
        self._listeners: list[tuple[str | None, Listener]] = []
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._dispatch, name="event-bus", daemon=True)
        self._thread.start()

    def subscribe(self, listener: Listener, name: str | None = None) -> None:
        """Call `listener(name, payload)` for events named `name` (every event if None)."""
        self._listeners.append((name, listener))

    def fire(self, name: str, payload: Any = None) -> None:
        """Queue an event; returns at once whatever the listeners do."""
        self._queue.put((name, payload))

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every event fired so far has been delivered (for shutdown and tests)."""
        delivered = threading.Event()
        self._queue.put(delivered)
        return delivered.wait(timeout)

    def close(self, timeout: float = 2.0) -> None:
        """Deliver what is queued, then stop the dispatcher."""
        self._queue.put(_STOP)
        self._thread.join(timeout)

    def _dispatch(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if isinstance(item, threading.Event):
                item.set()
                continue
            name, payload = item
            for wanted, listener in list(self._listeners):
                if wanted is None or wanted == name:
                    try:
                        listener(name, payload)
                    except Exception:  # a broken listener must not stop the others
                        log.exception("listener for %r failed", name)
