"""The Flask app behind the event loop: each request runs whole on a small thread pool.

The request body is read on the loop (bounded), the app runs on a pool thread and its
response is gathered there, and the loop sends it: one hand-over each way, so a host
write is not passed back and forth through a loop busy telling hundreds of phones about
the change it just made. Every response of this app is small and finite (the phones'
stream is not served here), so gathering it costs nothing. The environ follows PEP 3333.
"""

from __future__ import annotations

import asyncio
import io
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import unquote_to_bytes

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

MAX_BODY = 1024 * 1024  # far above the app's own limit (64 KiB), which answers in the app's words
TOO_LARGE = b'{"error": "request body over 1 MiB"}'
JSON_HEADERS = [(b"content-type", b"application/json")]


class ThreadedWSGI:
    """An ASGI app that answers each HTTP request with `app` on one of `threads` threads."""

    def __init__(self, app: WSGIApp, threads: int) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="web")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _body(receive)
        if body is None:
            status, headers, content = 413, JSON_HEADERS, TOO_LARGE
        else:
            environ = wsgi_environ(scope, body)
            status, headers, content = await asyncio.get_running_loop().run_in_executor(self.pool, self._run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _run(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return written.append

        written: list[bytes] = []
        result = self.app(environ, start_response)
        try:
            written.extend(result)
        finally:
            getattr(result, "close", lambda: None)()
        status, headers = started
        encoded = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]
        return int(status.split(" ", 1)[0]), encoded, b"".join(written)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


async def _body(receive: Receive) -> bytes | None:
    """The whole request body, or None past `MAX_BODY`."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY:
            return None
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """PEP 3333's environ for an ASGI HTTP scope: native strings hold the raw bytes as latin-1."""
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": unquote_to_bytes(scope["raw_path"]).decode("latin-1") if scope.get("raw_path")
        else scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": str(server[0]), "SERVER_PORT": str(server[1] or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)),
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = scope["client"][0], str(scope["client"][1])
    for name, value in scope["headers"]:
        key = name.decode("latin-1").upper().replace("-", "_")
        text = value.decode("latin-1")
        if key == "CONTENT_TYPE":
            environ[key] = text
        elif key != "CONTENT_LENGTH":  # the body's real length is set above
            key = "HTTP_" + key
            environ[key] = f"{environ[key]},{text}" if key in environ else text
    return environ
