"""One port, two kinds of work: phones' live streams on an event loop, the Flask app on a few threads.

Why this and not the alternatives (issue 23): waitress gives each response a thread
until it ends, so every open `/api/stream` held one of its 48 threads, and 48 phones
froze every host write. Here uvicorn (its pure-Python h11 parser, so it runs wherever
Python does, a Pi included) accepts every connection on one asyncio loop. `/api/stream`
is answered on that loop by `StateStream.frames`: an idle phone is a suspended coroutine
and a socket. Every other request goes to the unchanged Flask app on a small pool of
threads (`web_threads`, `companion.web.wsgi`) that streams never take, so a host write
waits only behind other short requests. gevent was the other way to make streams cheap, but it
works by monkey-patching threads and sockets process-wide, and the camera loop and
onnxruntime are real threads doing seconds of CPU work that greenlets would serialise
behind one another; a separate streaming process would need the state carried between
processes.

A phone that closes is noticed at once (the loop sees the socket close). One that
vanishes (out of Wi-Fi range) is dropped by the kernel: the listening socket's TCP
keep-alive and user timeout end a connection whose heartbeats go unanswered for 20 s. One
that stays connected but stops reading is dropped when a frame has waited a minute
(`companion.web.stream.STALL_SECONDS`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from urllib.parse import parse_qs

from flask import Flask

from companion.web.stream import STALLED, StateStream
from companion.web.wsgi import JSON_HEADERS, Receive, Scope, Send, ThreadedWSGI

log = logging.getLogger(__name__)

STREAM_PATH = "/api/stream"
MAX_PHONES = 1000  # ~10 MiB of streams (9-10 KiB each, scripts/bench_web.py); more are told to retry
DEAD_PEER_SECONDS = 20
STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                  (b"x-accel-buffering", b"no")]
BUSY_HEADERS = [*JSON_HEADERS, (b"retry-after", b"5")]
_BUSY_BODY = b'{"error": "this table is already followed by as many phones as it serves; try again soon"}'


class Front:
    """The ASGI app uvicorn serves: `GET /api/stream` here, everything else to Flask."""

    def __init__(self, app: Flask, stream: StateStream, threads: int, max_phones: int = MAX_PHONES) -> None:
        self.stream = stream
        self.max_phones = max_phones
        self.flask = ThreadedWSGI(app, threads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == STREAM_PATH and scope["method"] == "GET":
            await self._follow(scope, receive, send)
        else:
            await self.flask(scope, receive, send)

    async def _follow(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.stream.phones >= self.max_phones:
            await send({"type": "http.response.start", "status": 503, "headers": BUSY_HEADERS})
            await send({"type": "http.response.body", "body": _BUSY_BODY})
            return
        left = asyncio.ensure_future(_disconnected(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            async for frame in self.stream.frames(_last_event_id(scope), left):
                await send({"type": "http.response.body", "body": frame, "more_body": True})
            if not left.done():
                await send({"type": "http.response.body", "body": b""})
        except asyncio.CancelledError as exc:
            if exc.args != (STALLED,):
                raise
            log.info("dropped a phone that stopped reading its stream: %s", scope.get("client"))
            await _abort(send)
        finally:
            left.cancel()


async def _abort(send: Send) -> None:
    """Drop the connection with what it could not take; closing would wait to deliver it first.
    ASGI has no word for this, so it reaches uvicorn's transport when it can."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is not None:
        transport.abort()
        await asyncio.sleep(0)  # uvicorn learns the connection is gone before the app returns


async def _disconnected(receive: Receive) -> None:
    """Returns when the phone has gone (a stream's request has no body to wait for)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _last_event_id(scope: Scope) -> str | None:
    """`Last-Event-ID` from the browser's own reconnect, or `?last=` from ours (board.js)."""
    for name, value in scope["headers"]:
        if name == b"last-event-id" and value:
            return value.decode("latin-1")
    last = parse_qs(scope["query_string"].decode("latin-1")).get("last")
    return last[0] if last else None


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket; accepted phones inherit its keep-alive and user timeout, so a
    phone that vanished without closing is dropped within about `DEAD_PEER_SECONDS`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family, backlog=1024)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux, the Pi's kernel included
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, DEAD_PEER_SECONDS // 2)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, DEAD_PEER_SECONDS // 4)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 2)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, DEAD_PEER_SECONDS * 1000)
    return sock
