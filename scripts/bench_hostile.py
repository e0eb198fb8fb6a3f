#!/usr/bin/env python3
"""The host's answers while hostile clients hammer the server: latency as JSON.

Starts the real server (`companion run`, no camera, a Gargon table) on 127.0.0.1, then
runs two attackers in child processes, from another loopback address than the host's
(127.0.0.2, as another machine on the network), for the same stretch of time: one guesses the host
token `--guesses` times over HTTP (half at the login page, half as bearer tokens on a host
write), as fast as the server answers; the other opens live streams `--streams` at a
time, reads the first event and drops them (half closed, half reset), `--waves` times.
Meanwhile the host writes (a seat rename, a full scoreboard push) `--rate` times a
second; the report gives the host's write latency (median, p95, max) beside the same
with no attacker, what the guesses were answered (403 wrong, 429 slowed) and how many
streams came and went. Everything stays on loopback, bounded in count and time.

    .venv/bin/python scripts/bench_hostile.py [--guesses 10000] [--streams 100] [--waves 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import socket
import struct
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import free_port, host_writes, ms, start_server  # noqa: E402

ATTACK_SECONDS = 120  # the attackers give up after this, whatever is left
ATTACKER = ("127.0.0.2", 0)  # another loopback address: the login guard slows a client by its address


def guesser(port: int, guesses: int, pipe: Connection) -> None:
    """Wrong tokens as fast as the server answers them; the statuses counted."""
    answered: Counter[int] = Counter()
    deadline = time.monotonic() + ATTACK_SECONDS
    for guess in range(guesses):
        if time.monotonic() > deadline:
            break
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=ATTACKER)
        try:
            if guess % 2:
                conn.request("POST", "/api/host/undo", body="{}",
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer g{guess:05d}"})
            else:
                conn.request("GET", f"/host/login?token=g{guess:05d}")
            response = conn.getresponse()
            response.read()
            answered[response.status] += 1
        except OSError:
            answered[0] += 1
        finally:
            conn.close()
    pipe.send(dict(answered))


def stream_dropper(port: int, streams: int, waves: int, pipe: Connection) -> None:
    """Waves of live streams opened, read once and abandoned (closed or reset)."""
    opened = dropped = 0
    deadline = time.monotonic() + ATTACK_SECONDS
    for _ in range(waves):
        if time.monotonic() > deadline:
            break
        socks = []
        for _ in range(streams):
            s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=ATTACKER)
            s.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            socks.append(s)
        for s in socks:
            try:
                if s.recv(4096):
                    opened += 1
            except OSError:
                pass
        for n, s in enumerate(socks):
            if n % 2:  # a phone that vanishes: reset, not a polite close
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            dropped += 1
    pipe.send({"opened": opened, "dropped": dropped})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", type=int, default=10_000)
    parser.add_argument("--streams", type=int, default=100, help="streams opened at a time")
    parser.add_argument("--waves", type=int, default=5)
    parser.add_argument("--rate", type=float, default=2.0, help="host writes a second")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp), port)
        try:
            _, quiet = host_writes(port, 10, 1 / args.rate, 0)
            pipes, attackers = [], []
            for target, extra in ((guesser, (args.guesses,)), (stream_dropper, (args.streams, args.waves))):
                mine, theirs = multiprocessing.Pipe()
                attackers.append(multiprocessing.Process(target=target, args=(port, *extra, theirs), daemon=True))
                pipes.append(mine)
            started = time.monotonic()
            for attacker in attackers:
                attacker.start()
            attacked: list[float] = []
            first = 10
            while any(a.is_alive() for a in attackers) and time.monotonic() - started < ATTACK_SECONDS + 30:
                _, latency = host_writes(port, 4, 1 / args.rate, first)
                attacked += latency
                first += 4
            guesses, streams = (pipe.recv() if pipe.poll(5) else {} for pipe in pipes)
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps({
        "seconds_under_attack": round(time.monotonic() - started, 1),
        "host_write_ms_quiet": {"median": ms(quiet), "p95": ms(quiet, 95), "max": ms(quiet, 100)},
        "host_write_ms_attacked": {"median": ms(attacked), "p95": ms(attacked, 95), "max": ms(attacked, 100),
                                   "writes": len(attacked)},
        "guesses_answered": guesses, "streams": streams,
        "target": "host writes within 100 ms throughout",
        "met": bool(attacked) and ms(attacked, 100) < 100,
    }, indent=1))


if __name__ == "__main__":
    main()
