"""Starting a table: the services wired together and the web app served by uvicorn.

One place builds the store, the event bus, the live table, the push stream and the
speaker and connects them (table -> bus -> phones and speech), so `companion demo`,
`companion run` and the tests all get the same wiring. The server prints the URL, its
QR code and the host link, and stops cleanly on Ctrl-C or SIGTERM (systemd). Why uvicorn
with Flask behind it: `companion.web.front`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import Callable, Iterator

import uvicorn

from companion import qr
from companion.config import Settings
from companion.errors import UsageError
from companion.events import EventBus
from companion.speech import PromptSpeaker
from companion.store import Store, StoreError
from companion.table import LiveTable
from companion.web import Services, create_app
from companion.host_token import TOKEN_FILE, stored_host_token
from companion.web.front import MAX_PHONES, Front, listening_socket
from companion.web.stream import StateStream

log = logging.getLogger(__name__)


def build_services(settings: Settings, database: Path, base_url: str) -> Services:
    """The table's services, connected; the game in progress (if any) is restored. The
    database's folder lock is held until `close_services`: one data folder, one server."""
    try:
        store = Store(database, exclusive=True)
    except StoreError as exc:
        raise UsageError("", "", str(exc)) from None
    token_file = None if settings.host_token else database.parent / TOKEN_FILE
    try:
        host_token = settings.host_token or stored_host_token(database.parent / TOKEN_FILE)
    except UsageError:
        store.close()
        raise
    bus = EventBus()
    stream = StateStream()
    speaker = PromptSpeaker(enabled=settings.speech, rate=settings.speech_rate, voice=settings.speech_voice)
    bus.subscribe(lambda _name, snapshot: stream.publish(snapshot), "state")
    bus.subscribe(lambda _name, snapshot: speaker.listen_for(
        [p["name"] for p in snapshot["players"]], snapshot["game"] == "dugtungan"), "state")
    bus.subscribe(lambda _name, text: speaker.say(text), "prompt")
    bus.subscribe(lambda _name, text: log.info("prompt: %s", text), "prompt")
    table = LiveTable(store, bus, confidence=settings.confidence)
    services = Services(table=table, store=store, stream=stream, speaker=speaker,
                        host_token=host_token, base_url=base_url, token_file=token_file,
                        camera_size=settings.camera_size)
    try:
        restored = table.restore()
    except StoreError as exc:  # a damaged log: said, and left as it is for the host to mend
        close_services(services)
        raise UsageError("", "", str(exc)) from None
    if restored is None:
        stream.publish(table.viewer_snapshot())
    return services


def close_services(services: Services) -> None:
    services.stream.close()
    services.table.bus.close()
    services.speaker.close()
    services.store.close()


def banner(services: Services) -> str:
    """What the terminal shows: the scoreboard's URL and QR code, and the host's link."""
    viewer = services.base_url + "/"
    return (f"\nScoreboard for every phone at the table: {viewer}\n"
            f"{qr.terminal_qr(viewer)}"
            f"Host page: {services.base_url}/host?token={services.host_token}"
            f"   (host token: {services.host_token})\n")


class _Server(uvicorn.Server):
    """uvicorn's server, minus its signal handling: `serve` ends the phones' streams first
    and then returns normally, where uvicorn would re-raise the signal and skip our clean-up."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def allow_open_files(wanted: int) -> None:
    """Every phone is an open socket: raise the soft limit on open files (1024 on a Pi) as far
    as the hard limit lets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        allowed = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (allowed, hard))


def web_server(services: Services, threads: int) -> uvicorn.Server:
    """The app and the phones' streams behind one uvicorn server (`companion.web.front`)."""
    front = Front(create_app(services), services.stream, threads=threads)
    return _Server(uvicorn.Config(front, interface="asgi3", http="h11", ws="none", lifespan="off", log_config=None,
                                  access_log=False, proxy_headers=False, server_header=False,
                                  timeout_graceful_shutdown=5))


async def run_web_server(services: Services, server: uvicorn.Server, sock: socket.socket) -> None:
    """Serve on `sock` until `server.should_exit`; the stream follows phones on this loop."""
    services.stream.attach(asyncio.get_running_loop())
    try:
        await server.serve(sockets=[sock])
    finally:
        front = server.config.app
        assert isinstance(front, Front)  # web_server serves a Front
        front.flask.close()


def serve(settings: Settings, port: int, database: Path,
          start: Callable[[Services], Callable[[], None] | None] | None = None) -> int:
    """Serve the table until interrupted. `start(services)` begins the demo or the camera
    once the server listens and may return a function that stops it."""
    base_url = qr.base_url(settings.host, port)
    services = build_services(settings, database, base_url)
    try:
        sock = listening_socket(settings.host, port)
    except OSError as exc:
        close_services(services)
        raise UsageError("--port", str(port), f"cannot listen: {exc.strerror}") from None
    allow_open_files(MAX_PHONES + 256)
    server = web_server(services, settings.web_threads)
    print(banner(services), flush=True)

    def stop(signum: int, frame: FrameType | None) -> None:
        print("companion: stopping", file=sys.stderr, flush=True)
        server.should_exit = True
        services.stream.close()  # end every phone's stream, or the server waits on them

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    stop_source = None
    try:
        stop_source = start(services) if start else None
        asyncio.run(run_web_server(services, server, sock))
    finally:
        if stop_source:
            stop_source()
        sock.close()
        close_services(services)
    return 0
