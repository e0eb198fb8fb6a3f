"""Server-sent events: every phone gets the whole scoreboard, then each change.

A snapshot is small (a few kilobytes), so each event carries the full state rather
than a diff: a phone that slept and reconnects with `Last-Event-ID` either is up to
date (nothing to send) or gets the latest snapshot, never a gap. Ids carry a token of
this server's start so a phone's id from before a restart never matches by chance.
A comment line every 15 s keeps proxies and the phone's connection awake and makes the
kernel find out about a phone that vanished without closing (see `companion.web.front`).

Phones are followed on one asyncio event loop, not on a thread each: a phone waiting for
the next change is a suspended coroutine and an open socket, so hundreds of phones cost
memory, and a host's request never waits for a free thread behind them. `publish` may be
called from any thread (the event bus); it encodes the event once, and every phone is
sent the same bytes. One timer on the loop, not one per phone, paces the heartbeats and
finds phones whose last frame has waited `STALL_SECONDS` to be taken.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from typing import Any, AsyncIterator

HEARTBEAT_SECONDS = 15.0
STALL_SECONDS = 60.0
WAKE_BATCH = 50
RETRY_MS = 2000
RETRY_FRAME = f"retry: {RETRY_MS}\n\n".encode()
HEARTBEAT_FRAME = b": heartbeat\n\n"
STALLED = "the phone stopped taking its stream"  # the message its task is cancelled with


class _Phone:
    """One phone's place in the fan-out: woken at each change, each heartbeat and when it leaves."""

    __slots__ = ("task", "waiter", "handed_at")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.task = asyncio.current_task(loop)
        self.waiter: asyncio.Future[None] = loop.create_future()
        self.handed_at: float | None = None  # when its frame was handed over and not yet taken

    def wake(self, *_: Any) -> None:
        if not self.waiter.done():
            self.waiter.set_result(None)


class StateStream:
    """The latest scoreboard event, the phones following it, and the loop they are followed on."""

    def __init__(self, heartbeat: float = HEARTBEAT_SECONDS, stall: float = STALL_SECONDS) -> None:
        self.heartbeat = heartbeat
        self.stall = stall
        self._boot = secrets.token_hex(3)
        self._number = 0
        self._publishing = threading.Lock()
        # One tuple swapped whole, so a reader on the loop never sees an id with another
        # event's data.
        self._latest = self._event("{}")
        self._closed = False
        self._beats = 0
        self._phones: set[_Phone] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def current_id(self) -> str:
        return f"{self._boot}.{self._number}"

    @property
    def phones(self) -> int:
        """How many phones are following now."""
        return len(self._phones)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Follow phones on `loop` (call it on that loop, before the first phone)."""
        self._loop = loop
        loop.call_later(self.heartbeat, self._beat)

    def publish(self, snapshot: Any) -> None:
        text = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":"))
        with self._publishing:
            self._number += 1
            self._latest = self._event(text)
        self._on_loop(self._wake_all)

    def _event(self, data: str) -> tuple[str, bytes]:
        ident = self.current_id
        return ident, f"id: {ident}\nevent: state\ndata: {data}\n\n".encode()

    def close(self) -> None:
        """End every phone's stream (server shutdown). Safe from a signal handler."""
        self._closed = True
        self._on_loop(self._wake_all)

    def _on_loop(self, callback: Any) -> None:
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(callback)
        except RuntimeError:  # the loop has closed: the server stopped, nobody is left to wake
            pass

    def _wake_all(self) -> None:
        self._wake_batch(list(self._phones), 0)

    def _wake_batch(self, phones: list[_Phone], start: int) -> None:
        """Wake phones `WAKE_BATCH` at a time, each batch queued behind what the loop already
        has to do, so a host's request is never answered after hundreds of phones' sends."""
        for phone in phones[start:start + WAKE_BATCH]:
            phone.wake()
        if start + WAKE_BATCH < len(phones):
            assert self._loop is not None
            self._loop.call_soon(self._wake_batch, phones, start + WAKE_BATCH)

    def _beat(self) -> None:
        """Every heartbeat: each phone sends a comment line, and phones stuck on a frame are dropped."""
        assert self._loop is not None
        if self._closed:
            return
        self._beats += 1
        now = self._loop.time()
        for phone in self._phones:
            if phone.handed_at is not None and now - phone.handed_at > self.stall and phone.task is not None:
                phone.task.cancel(STALLED)
        self._wake_all()
        self._loop.call_later(self.heartbeat, self._beat)

    async def frames(self, last_event_id: str | None, left: asyncio.Future[Any]) -> AsyncIterator[bytes]:
        """The SSE bytes for one phone, until the stream closes or `left` (the phone went) resolves.
        Each frame must be sent before the next is asked for: the time between the two is how
        long the phone took to take it."""
        if self._loop is None:
            raise RuntimeError("StateStream.attach(loop) was not called")
        phone = _Phone(self._loop)
        self._phones.add(phone)
        left.add_done_callback(phone.wake)
        try:
            sent, beats = last_event_id, self._beats  # a phone resuming with the current id needs nothing yet
            frame: bytes | None = RETRY_FRAME
            while not self._closed and not left.done():
                if frame is None:
                    await phone.waiter
                    phone.waiter = self._loop.create_future()
                    ident, latest = self._latest
                    if ident != sent:
                        sent, frame = ident, latest
                    elif beats != self._beats:
                        frame = HEARTBEAT_FRAME
                    beats = self._beats
                    continue
                phone.handed_at = self._loop.time()
                yield frame
                phone.handed_at, frame = None, None
                ident, latest = self._latest
                if ident != sent:
                    sent, frame = ident, latest
        finally:
            self._phones.discard(phone)
