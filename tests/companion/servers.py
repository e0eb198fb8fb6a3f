"""Running the real `companion` server as a subprocess for tests: free port, temp data, clean stop."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Sequence

HOST_TOKEN = "host-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment(data_dir: Path, token: str | None) -> dict[str, str]:
    env = {**os.environ, "COMPANION_SPEECH": "false", "COMPANION_HOST": "127.0.0.1",
           "XDG_CONFIG_HOME": str(data_dir / "config")}
    env.pop("COMPANION_CONFIG", None)
    env.pop("COMPANION_HOST_TOKEN", None)
    if token is not None:
        env["COMPANION_HOST_TOKEN"] = token
    return env


def _command(args: Sequence[str], data_dir: Path, port: int, prefix: Sequence[str]) -> list[str]:
    return [*prefix, sys.executable, "-m", "companion.cli", *args, "--port", str(port), "--data-dir", str(data_dir)]


def refused(args: Sequence[str], data_dir: Path, prefix: Sequence[str] = (), timeout: float = 45.0
            ) -> subprocess.CompletedProcess[str]:
    """Run a server that is expected to refuse to start: its exit status and output."""
    return subprocess.run(_command(args, data_dir, free_port(), prefix), capture_output=True, text=True,
                          env=_environment(data_dir, HOST_TOKEN), timeout=timeout)


class Server:
    """`companion ARGS --port P --data-dir DIR` with speech off and a known host token
    (`token=None`: the server keeps its own in the data folder). `prefix` runs it under
    another command (e.g. `setpriv` to drop root)."""

    def __init__(self, args: Sequence[str], data_dir: Path, port: int | None = None,
                 token: str | None = HOST_TOKEN, prefix: Sequence[str] = (), log_dir: Path | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open((log_dir or data_dir) / f"server-{self.port}-{time.monotonic_ns()}.log", "w+")
        self.process = subprocess.Popen(_command(args, data_dir, self.port, prefix),
                                        stdout=self.log, stderr=subprocess.STDOUT,
                                        env=_environment(data_dir, token))
        self.wait_ready()

    def wait_ready(self, timeout: float = 45.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited {self.process.returncode}:\n{self.output()}")
            try:
                self.state()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text()

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/api/state", timeout=5) as response:
            return json.load(response)

    def host_state(self) -> dict[str, Any]:
        """The host's view (`/api/state` is the viewers')."""
        request = urllib.request.Request(self.url + "/api/host/state", headers={"Authorization": f"Bearer {HOST_TOKEN}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)

    def host_page(self) -> str:
        """The host page's HTML, opened the way a phone does: the host link, then its cookie."""
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(f"{self.url}/host?token={HOST_TOKEN}", timeout=5) as response:
            return response.read().decode("utf-8")

    def host(self, path: str, body: dict[str, Any] | None = None, key: str | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {HOST_TOKEN}"}
        if key:
            headers["Idempotency-Key"] = key
        request = urllib.request.Request(self.url + "/api/host/" + path, data=json.dumps(body or {}).encode(),
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def kill(self) -> None:
        """kill -9: no chance to flush or close anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(5)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()
        return self.process.returncode
