"""The camera feeding the live table, when there is one.

Vision turns frames into observations (appeared / moved / gone, with code, confidence
and zone); this module only starts that pipeline on its own thread and hands each
observation to the table. It is imported lazily and optional: without a camera, or
before recognition is installed, the host enters every event by hand and the table
still plays. The pipeline is expected as `vision.pipeline.observations(source, game=,
threads=, stop=)`, an iterator of `vision.observations.Observation`.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import threading
from pathlib import Path
from types import ModuleType
from typing import Callable

from companion.table import LiveTable

log = logging.getLogger(__name__)


def _pipeline() -> ModuleType | None:
    """Vision's pipeline module, if it offers the `observations` entry point."""
    try:
        module = importlib.import_module("vision.pipeline")
    except ImportError:
        return None
    return module if callable(getattr(module, "observations", None)) else None


def camera_attached() -> bool:
    """A webcam device or the Pi camera library is present."""
    return any(Path("/dev").glob("video*")) or importlib.util.find_spec("picamera2") is not None


def camera_problem(source: str) -> str | None:
    """Why the live camera cannot run with `source`, or None when it can."""
    if source == "none":
        return "the camera is switched off (camera = none)"
    if _pipeline() is None:
        return "card recognition from the camera (vision.pipeline.observations) is not installed"
    if source == "auto" and not camera_attached():
        return "no camera is attached"
    return None


class CameraFeed:
    """Runs vision's pipeline on a daemon thread and feeds the table; never stops the table."""

    def __init__(self, table: LiveTable, source: str, game: str, threads: int) -> None:
        self.table = table
        self.source = source
        self.game = game
        self.threads = threads
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> Callable[[], None]:
        problem = camera_problem(self.source)
        if problem:
            log.warning("no live camera: %s; the host enters events by hand", problem)
        else:
            self._thread.start()
        return self.stop

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=3.0)

    def _run(self) -> None:
        pipeline = _pipeline()
        assert pipeline is not None
        try:
            for observation in pipeline.observations(self.source, game=self.game, threads=self.threads,
                                                     stop=self._stop):
                self.table.observe(observation)
                if self._stop.is_set():
                    return
        except Exception:  # the camera failing must leave a table the host can still run
            log.exception("the camera pipeline stopped; the host enters events by hand from now on")
