"""Server-sent events: every phone gets the whole scoreboard, then each change.

A snapshot is small (a few kilobytes), so each event carries the full state rather
than a diff: a phone that slept and reconnects with `Last-Event-ID` either is up to
date (nothing to send) or gets the latest snapshot, never a gap. Ids carry a token of
this server's start so a phone's id from before a restart never matches by chance.
A comment line every 15 s keeps proxies and the phone's connection awake and lets the
server notice a phone that left.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any, Iterator

HEARTBEAT_SECONDS = 15.0
RETRY_MS = 2000


class StateStream:
    """The latest scoreboard JSON with its event id; clients wait on a condition."""

    def __init__(self, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.heartbeat = heartbeat
        self._boot = secrets.token_hex(3)
        self._number = 0
        self._data = "{}"
        self._closed = False
        self._changed = threading.Condition()

    @property
    def current_id(self) -> str:
        return f"{self._boot}.{self._number}"

    def publish(self, snapshot: Any) -> None:
        text = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
        with self._changed:
            self._number += 1
            self._data = text
            self._changed.notify_all()

    def close(self) -> None:
        """Wake every client so its response ends (server shutdown)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def events(self, last_event_id: str | None = None) -> Iterator[str]:
        """The SSE text for one client, until the stream closes or the client leaves."""
        yield f"retry: {RETRY_MS}\n\n"
        sent = last_event_id  # a phone resuming with the current id needs nothing yet
        while True:
            with self._changed:
                if self._closed:
                    return
                if self.current_id == sent:
                    self._changed.wait(self.heartbeat)
                    if self._closed:
                        return
                if self.current_id == sent:
                    frame = ": heartbeat\n\n"
                else:
                    sent = self.current_id
                    frame = f"id: {sent}\nevent: state\ndata: {self._data}\n\n"
            yield frame
