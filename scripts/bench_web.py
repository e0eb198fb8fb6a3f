#!/usr/bin/env python3
"""Phones holding live streams while the host writes: push latency, host latency, server cost, as JSON.

For each count in `--phones` (30, 100 and 500 by default) and each of `--runs` fresh
servers: starts the real server (`companion run`, no camera, a Gargon table) as a
subprocess on a free port of 127.0.0.1, measures a few host writes with no phone
connected (the baseline), connects that many server-sent-event clients (real sockets,
all in one child process reading them with epoll, so the bench's own threads do not
crowd the machine), then makes `--events` host changes (seat renames, each a full scoreboard
push) at `--rate` a second. It reports the time from a host POST being sent to every
phone having that version (median, p95, max), the same per phone, the host's write
latency with and without the phones, the server's resident memory (RSS), threads and
CPU time a change (the host's request and the push to every phone) before and with the
phones, memory per phone, phones dropped and updates missed.
Times in ms, medians over runs; everything stays on loopback and ends by itself.

    .venv/bin/python scripts/bench_web.py [--phones 30,100,500] [--events 30] [--rate 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import platform
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from companion.server import allow_open_files  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"
BASELINE_WRITES = 10
CONNECT_SECONDS = 60.0
TARGETS = {"every_phone_median_ms": 250, "host_write_p95_ms": 100, "dropped_phones": 0, "missed_updates": 0}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "COMPANION_HOST_TOKEN": TOKEN, "COMPANION_SPEECH": "false",
           "COMPANION_HOST": "127.0.0.1", "XDG_CONFIG_HOME": str(folder)}
    env.pop("COMPANION_CONFIG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "run", "--game", "gargon", "--camera", "none",
         "--players", "Ana,Ben,Carla", "--port", str(port), "--data-dir", str(folder)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2).close()
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("bench_web: the server did not start")


# -- the phones: one child process, one epoll loop, one socket each --------------------------------

VERSIONS: dict[bytes, int] = {}  # each event's id line -> the game version its scoreboard shows


class Phone:
    """One SSE client on a raw socket: reads the chunked response and records each version's arrival
    (every phone receives every byte, but a scoreboard is parsed once, not once a phone)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        self.arrived: dict[int, float] = {}
        self.connected = False  # answered 200 and sent its first scoreboard
        self.ended = False  # the server closed the stream before the bench did
        self._raw = b""  # bytes not yet parsed: the response head, then chunk framing
        self._events = b""  # the event stream, de-chunked

    def readable(self) -> None:
        data = self.sock.recv(1 << 16)
        if not data:
            self.ended = True
            return
        now = time.monotonic()
        self._raw += data
        if not self.connected:
            head, found, rest = self._raw.partition(b"\r\n\r\n")
            if not found:
                return
            if not head.startswith(b"HTTP/1.1 200"):
                self.ended = True
                return
            self.connected, self._raw = True, rest
        while True:  # Transfer-Encoding: chunked
            size_line, found, rest = self._raw.partition(b"\r\n")
            if not found or len(rest) < int(size_line, 16) + 2:
                break
            size = int(size_line, 16)
            self._events += rest[:size]
            self._raw = rest[size + 2:]
        *events, self._events = self._events.split(b"\n\n")
        for event in events:
            if event.startswith(b"id: "):
                ident, _, rest = event.partition(b"\n")
                if ident not in VERSIONS:  # the first phone to get an event reads its scoreboard
                    VERSIONS[ident] = json.loads(rest.partition(b"data: ")[2])["version"]
                self.arrived[VERSIONS[ident]] = now


def phones_process(port: int, count: int, pipe: Connection) -> None:
    """Connect `count` phones, say how many are ready, follow until told to stop, send what arrived."""
    poller, phones = select.epoll(), {}
    for _ in range(count):
        try:
            phone = Phone(port)
        except OSError:
            continue
        phones[phone.sock.fileno()] = phone
        poller.register(phone.sock.fileno(), select.EPOLLIN)
    poller.register(pipe.fileno(), select.EPOLLIN)
    deadline, told = time.monotonic() + CONNECT_SECONDS, False
    while True:
        for fd, _ in poller.poll(0.05):
            if fd == pipe.fileno():
                pipe.recv()
                pipe.send([(p.connected, p.ended, p.arrived) for p in phones.values()])
                return
            phone = phones[fd]
            try:
                phone.readable()
            except OSError:
                phone.ended = True
            if phone.ended:
                poller.unregister(fd)
        if not told and (time.monotonic() > deadline or all(p.connected or p.ended for p in phones.values())):
            pipe.send(sum(p.connected for p in phones.values()))
            told = True


# -- the host and the server's cost ---------------------------------------------------------------

def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", f"/api/host/{path}", body=json.dumps(body),
                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
        return json.load(conn.getresponse())
    finally:
        conn.close()


def server_cost(pid: int) -> dict[str, float]:
    """Resident memory, threads and CPU seconds used so far (user + system) of the server."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    ticks = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[11:13]
    return {"rss_mib": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
            "peak_rss_mib": round(int(fields["VmHWM"].split()[0]) / 1024, 1),
            "threads": int(fields["Threads"]), "cpu_s": sum(map(int, ticks)) / os.sysconf("SC_CLK_TCK")}


def host_writes(port: int, count: int, gap: float, first: int) -> tuple[dict[int, float], list[float]]:
    """`count` renames `gap` s apart: when each version's POST was sent, and each POST's latency (s)."""
    sent, latency = {}, []
    for i in range(count):
        started = time.monotonic()
        version = post(port, "rename", {"seat": (first + i) % 3, "name": f"Player {first + i}"})["version"]
        latency.append(time.monotonic() - started)
        sent[version] = started
        time.sleep(max(0.0, gap - latency[-1]))
    return sent, latency


def ms(values: list[float], q: int | None = None) -> float | None:
    """Median (q None), q-th percentile or max (q 100) of seconds, in ms; None when nothing was measured."""
    if not values:
        return None
    if q is None:
        value = statistics.median(values)
    elif q == 100 or len(values) < 2:
        value = max(values)
    else:
        value = statistics.quantiles(values, n=100, method="inclusive")[q - 1]
    return round(1000 * value, 2)


def one_run(phones: int, events: int, rate: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        clients = None
        try:
            fresh = server_cost(server.pid)
            _, alone = host_writes(port, BASELINE_WRITES, 0.1, 0)
            idle = server_cost(server.pid)
            clients = multiprocessing.get_context("fork").Process(target=phones_process, args=(port, phones, theirs))
            clients.start()
            connected = ours.recv() if ours.poll(CONNECT_SECONDS + 10) else 0
            time.sleep(0.5)
            followed = server_cost(server.pid)
            sent, latency = host_writes(port, events, 1.0 / rate, BASELINE_WRITES)
            time.sleep(1.0)
            during = server_cost(server.pid)
            ours.send("stop")
            results = ours.recv() if ours.poll(30) else []
        finally:
            if clients is not None:
                clients.join(10)
                if clients.is_alive():
                    clients.kill()
            server.terminate()
            server.wait(10)
    every, per_phone, missed = [], [], 0
    for version, started in sent.items():
        got = [arrived[version] - started for ok, _, arrived in results if ok and version in arrived]
        missed += connected - len(got)
        per_phone += got
        if got and len(got) == connected:
            every.append(max(got))
    return {
        "phones_connected": connected, "dropped_phones": phones - connected + sum(ended for _, ended, _ in results),
        "missed_updates": missed,
        "every_phone_median_ms": ms(every), "every_phone_p95_ms": ms(every, 95), "every_phone_max_ms": ms(every, 100),
        "per_phone_median_ms": ms(per_phone), "per_phone_p95_ms": ms(per_phone, 95),
        "host_write_median_ms": ms(latency), "host_write_p95_ms": ms(latency, 95),
        "host_write_max_ms": ms(latency, 100),
        "host_write_alone_median_ms": ms(alone), "host_write_alone_p95_ms": ms(alone, 95),
        "server_rss_idle_mib": idle["rss_mib"], "server_rss_mib": during["rss_mib"],
        "server_peak_rss_mib": during["peak_rss_mib"],
        "rss_per_phone_kib": round(1024 * (followed["rss_mib"] - idle["rss_mib"]) / max(connected, 1), 1),
        "server_threads_idle": idle["threads"], "server_threads": max(followed["threads"], during["threads"]),
        "server_cpu_ms_per_change_alone": round(1000 * (idle["cpu_s"] - fresh["cpu_s"]) / BASELINE_WRITES, 1),
        "server_cpu_ms_per_change": round(1000 * (during["cpu_s"] - followed["cpu_s"]) / events, 1),
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary = {}
    for key in runs[0]:
        values = [r[key] for r in runs if r[key] is not None]
        worst = key.startswith(("dropped", "missed")) or key.endswith("max_ms")
        summary[key] = (max(values) if worst else statistics.median(values)) if values else None
    return summary


def meets(summary: dict[str, Any]) -> bool:
    return all(summary[key] is not None and summary[key] <= limit if key.endswith("_ms") else summary[key] == limit
               for key, limit in TARGETS.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", default="30,100,500", help="comma-separated phone counts, each measured in turn")
    parser.add_argument("--events", type=int, default=30, help="host changes per run")
    parser.add_argument("--rate", type=float, default=2.0, help="host changes a second")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.phones.split(",")]
        if not counts or min(counts) < 1 or max(counts) > 1000:
            raise ValueError
    except ValueError:
        print(f"bench_web: --phones: {args.phones!r}: expected counts from 1 to 1000, like 30,100,500", file=sys.stderr)
        raise SystemExit(2) from None
    allow_open_files(2 * max(counts) + 256)  # a socket each here and in the server, a child
    by_phones = {}
    for count in counts:
        runs = [one_run(count, args.events, args.rate) for _ in range(args.runs)]
        summary = summarise(runs)
        by_phones[str(count)] = {"meets_targets": meets(summary), "median_of_runs": summary, "each_run": runs}
    print(json.dumps({
        "benchmark": "phones holding live streams (SSE) while the host writes", "phone_counts": counts,
        "host_changes_per_run": args.events, "host_changes_per_second": args.rate, "runs": args.runs,
        "targets": TARGETS, "by_phones": by_phones,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
