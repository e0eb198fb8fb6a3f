"""Phones' live stream on the event loop: what each phone receives, and phones coming and going.

The server here is the real one (`web_server`: uvicorn, the front, the Flask app) on a
loopback port in this process, with a short heartbeat; the load test at the end runs
`companion run` as its own process.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest
import uvicorn

from companion.server import run_web_server, web_server
from companion.web import Services
from companion.web.front import DEAD_PEER_SECONDS, listening_socket
from tests.companion.servers import Server


@dataclass
class Live:
    port: int
    server: uvicorn.Server
    services: Services

    def open(self, path: str = "/api/stream", headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        return conn.getresponse()

    def state(self) -> dict:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", "/api/state")
        return json.load(conn.getresponse())


@pytest.fixture
def live(gargon: Services) -> Iterator[Live]:
    gargon.stream.heartbeat = 0.2
    sock = listening_socket("127.0.0.1", 0)
    server = web_server(gargon, threads=2)
    thread = threading.Thread(target=asyncio.run, args=(run_web_server(gargon, server, sock),), daemon=True)
    thread.start()
    until(lambda: server.started, "the server to start")
    yield Live(sock.getsockname()[1], server, gargon)
    server.should_exit = True
    gargon.stream.close()
    thread.join(10)
    sock.close()


def until(condition, what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.02)


def next_event(response: http.client.HTTPResponse) -> list[str]:
    """The lines of the next server-sent event (or comment), without the blank line that ends it."""
    lines = []
    while (line := response.readline().decode("utf-8")) not in ("\n", ""):
        lines.append(line.rstrip("\n"))
    return lines


def test_a_phone_gets_the_retry_then_the_whole_scoreboard_with_its_id(live):
    live.services.table.bus.flush()
    response = live.open()
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
    assert response.getheader("Cache-Control") == "no-cache"
    assert next_event(response) == ["retry: 2000"]
    ident, kind, data = next_event(response)
    assert ident == f"id: {live.services.stream.current_id}" and kind == "event: state"
    assert json.loads(data.removeprefix("data: ")) == live.state()


def test_a_phone_resuming_with_the_current_id_gets_heartbeats_until_the_next_change(live):
    live.services.table.bus.flush()
    response = live.open(headers={"Last-Event-ID": live.services.stream.current_id})
    assert next_event(response) == ["retry: 2000"]
    assert next_event(response) == [": heartbeat"]
    live.services.table.rename(0, "Anna")
    while (event := next_event(response)) == [": heartbeat"]:
        pass
    assert event[0] == f"id: {live.services.stream.current_id}"
    assert json.loads(event[2].removeprefix("data: "))["players"][0]["name"] == "Anna"


def test_our_own_reconnect_resumes_from_the_id_in_the_query(live):
    live.services.table.bus.flush()
    response = live.open(f"/api/stream?last={live.services.stream.current_id}")
    assert next_event(response) == ["retry: 2000"]
    assert next_event(response) == [": heartbeat"]


def test_every_phone_gets_every_change_and_a_phone_that_closes_is_forgotten(live):
    phones = [live.open() for _ in range(30)]
    until(lambda: live.services.stream.phones == 30, "30 phones to follow")
    for name in ("Anna", "Bea"):
        live.services.table.rename(1, name)
        for phone in phones:
            while not any(name in line for line in next_event(phone)):
                pass
    for phone in phones:
        phone.close()
    until(lambda: live.services.stream.phones == 0, "the closed phones to be forgotten", seconds=5)
    assert live.state()["players"][1]["name"] == "Bea"


def test_past_the_limit_a_phone_is_told_to_come_back_later(live):
    live.server.config.app.max_phones = 2
    kept = [live.open(), live.open()]
    until(lambda: live.services.stream.phones == 2, "2 phones to follow")
    refused = live.open()
    assert refused.status == 503 and refused.getheader("Retry-After") == "5"
    assert "try again" in json.load(refused)["error"]
    assert all(phone.status == 200 for phone in kept)


def test_closing_the_stream_ends_every_phones_response(live):
    phones = [live.open() for _ in range(3)]
    until(lambda: live.services.stream.phones == 3, "3 phones to follow")
    live.services.stream.close()
    for phone in phones:
        assert phone.read()  # returns once the server has ended the response
    assert live.services.stream.phones == 0


def test_a_phone_that_stops_reading_is_dropped(live, caplog):
    caplog.set_level(logging.INFO, "companion.web.front")
    live.services.stream.stall = 0.3
    sleeper = socket.socket()
    sleeper.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # its window fills at once
    sleeper.connect(("127.0.0.1", live.port))
    sleeper.sendall(b"GET /api/stream HTTP/1.1\r\nHost: phone\r\n\r\n")
    until(lambda: live.services.stream.phones == 1, "the phone to follow")
    for i in range(200):  # up to 40 MB it never reads: far past every buffer on the way
        if live.services.stream.phones == 0:
            break
        live.services.stream.publish({"version": i, "padding": "x" * 200_000})
        time.sleep(0.01)
    until(lambda: live.services.stream.phones == 0, "the phone that stopped reading to be dropped")
    assert "dropped a phone that stopped reading its stream" in caplog.text
    assert "without completing" not in caplog.text
    sleeper.settimeout(5)
    while sleeper.recv(1 << 20):  # what the kernel already held, then the end
        pass
    sleeper.close()


def test_the_app_behind_the_loop_gets_raw_paths_and_refuses_huge_bodies(live):
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    conn.request("GET", "/history/%E2%9C%93")
    assert conn.getresponse().status == 404
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    try:
        conn.request("POST", "/api/host/rename", body=b"x" * (2 * 1024 * 1024),
                     headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 413
    except ConnectionResetError:  # refused before it finished sending: also a refusal
        pass
    assert live.state()["game"] == "gargon"


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="Linux only")
def test_an_accepted_phone_carries_the_timeouts_that_cut_a_vanished_one():
    with listening_socket("127.0.0.1", 0) as server, socket.create_connection(server.getsockname()):
        accepted, _ = server.accept()
        with accepted:
            assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == DEAD_PEER_SECONDS * 1000


# -- a real server process, phones opened and abandoned by the hundred ------------------------------

RUN = ["run", "--game", "gargon", "--camera", "none", "--players", "Ana,Ben,Carla"]


def proc_status(pid: int) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())


def open_fds(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def phone(port: int) -> socket.socket:
    """A phone that asked for the stream and got its first scoreboard."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: phone\r\n\r\n")
    received = b""
    while b"event: state" not in received:
        received += sock.recv(65536)
    return sock


def reads(sock: socket.socket, text: bytes) -> bool:
    """Whether the phone receives `text` within 10 s."""
    received, deadline = b"", time.monotonic() + 10
    while text not in received and time.monotonic() < deadline:
        received = received[-len(text):] + sock.recv(65536)
    return text in received


@pytest.mark.slow
def test_hundreds_of_abandoned_phones_never_stop_the_host(tmp_path):
    server = Server(RUN, tmp_path)
    try:
        pid = server.process.pid
        for i in range(3):  # the pool's threads start on first use
            assert server.host("rename", {"seat": 0, "name": f"Warm {i}"})[0] == 200
        threads, fds = int(proc_status(pid)["Threads"]), open_fds(pid)
        most_threads = threads
        for round_ in range(2):
            phones = [phone(server.port) for _ in range(200)]
            started = time.monotonic()
            status, state = server.host("rename", {"seat": 1, "name": f"Round {round_}"})
            assert status == 200 and time.monotonic() - started < 5.0
            assert sum(reads(sock, f"Round {round_}".encode()) for sock in phones) == 200  # none missed it
            most_threads = max(most_threads, int(proc_status(pid)["Threads"]))
            for i, sock in enumerate(phones):  # half leave politely, half vanish with a reset
                if i % 2:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
            assert server.host("rename", {"seat": 2, "name": f"After {round_}"})[0] == 200
        until(lambda: open_fds(pid) <= fds + 5, "the abandoned phones' sockets to be closed")
        assert most_threads <= threads + 2  # phones took no thread
        assert server.state()["players"][2]["name"] == "After 1"
    finally:
        assert server.stop() == 0


@pytest.mark.slow
def test_the_web_bench_measures_fifty_phones(tmp_path):
    """Issue 23 item 12: past the old thread limit the bench measures instead of crashing."""
    done = subprocess.run([sys.executable, "scripts/bench_web.py", "--phones", "50", "--runs", "1", "--events", "3"],
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout)["by_phones"]["50"]["median_of_runs"]
    assert measured["phones_connected"] == 50 and measured["dropped_phones"] == 0
    assert measured["missed_updates"] == 0 and measured["every_phone_median_ms"] is not None
