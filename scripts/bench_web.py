#!/usr/bin/env python3
"""Thirty phones on one scoreboard: push latency and server memory, as one JSON object.

Starts the real server (`companion run`, no camera, a Gargon table) as a subprocess on
a free local port, connects `--phones` server-sent-event clients, then makes `--events`
host changes (seat renames, each a full scoreboard push) spaced `--gap` seconds apart.
For each change it measures the time from the host's POST being sent to the moment
every phone has received that version, and per phone. Figures are in milliseconds,
medians over `--runs` fresh servers; memory is the server's resident set (RSS) and its
peak, in MiB, read from /proc after the last event.

    .venv/bin/python scripts/bench_web.py [--phones 30] [--events 40] [--runs 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "COMPANION_HOST_TOKEN": TOKEN, "COMPANION_SPEECH": "false",
           "COMPANION_HOST": "127.0.0.1", "XDG_CONFIG_HOME": str(folder)}
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


class Phone(threading.Thread):
    """One SSE client: records when each scoreboard version arrives."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[int, float] = {}
        self.connected = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        self.connected.set()
        for raw in response:
            line = raw.decode("utf-8")
            if line.startswith("data: "):
                now = time.perf_counter()
                self.arrived[json.loads(line[6:])["version"]] = now


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/host/{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def memory_mib(pid: int) -> dict[str, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return {"rss_mib": round(fields["VmRSS"], 1), "peak_rss_mib": round(fields["VmHWM"], 1)}


def one_run(phones: int, events: int, gap: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            clients = [Phone(port) for _ in range(phones)]
            for client in clients:
                client.start()
            for client in clients:
                client.connected.wait(10)
            time.sleep(0.5)
            sent: dict[int, float] = {}
            for i in range(events):
                started = time.perf_counter()
                version = post(port, "rename", {"seat": i % 3, "name": f"Player {i}"})["version"]
                sent[version] = started
                time.sleep(gap)
            time.sleep(1.0)
            memory = memory_mib(server.pid)
        finally:
            server.terminate()
            server.wait(10)
        all_phones, per_phone, missed = [], [], 0
        for version, started in sent.items():
            arrivals = [c.arrived.get(version) for c in clients]
            missed += sum(1 for a in arrivals if a is None)
            got = [a - started for a in arrivals if a is not None]
            per_phone += got
            if len(got) == len(clients):
                all_phones.append(max(got))
        ms = lambda xs, q: round(1000 * statistics.quantiles(xs, n=100)[q - 1], 2)  # noqa: E731
        return {"every_phone_median_ms": round(1000 * statistics.median(all_phones), 2),
                "every_phone_p95_ms": ms(all_phones, 95),
                "per_phone_median_ms": round(1000 * statistics.median(per_phone), 2),
                "per_phone_p95_ms": ms(per_phone, 95), "missed_updates": missed, **memory}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between host changes")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = [one_run(args.phones, args.events, args.gap) for _ in range(args.runs)]
    summary = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    print(json.dumps({
        "benchmark": "web push to phones (SSE)", "phones": args.phones, "events_per_run": args.events,
        "runs": args.runs, "goal": "every_phone_median_ms < 100",
        "meets_goal": summary["every_phone_median_ms"] < 100, "median_of_runs": summary,
        "each_run": runs, "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                      "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
