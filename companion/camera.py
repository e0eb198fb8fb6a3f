"""The camera feeding the live table, when there is one.

Vision turns frames into observations (appeared / moved / gone, with code, confidence
and seat zone): a frame source, the card detector, the identifier (an enrolled deck, or
for Gargon and dugtungan the printed-token reader), the tracker and the table zones
(calibrated from seat markers, or spread around the frame), run by `vision.pipeline.Pipeline`. This module only
assembles those pieces (imported lazily: the table runs without them), runs the loop on
its own thread and hands each observation to the table. Without a camera, a deck or
the recognition modules, the host enters every event by hand and the table still plays.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from companion.camera_view import CameraView
from companion.table import LiveTable
from vision.observations import Observation

if TYPE_CHECKING:
    from vision.recognize import CardRecognizer

log = logging.getLogger(__name__)

RECOGNITION_MODULES = ("vision.sources", "vision.pipeline", "vision.recognize", "vision.deck", "vision.zones")
PRINTED_GAMES = ("gargon", "dugtungan")  # cards that name themselves in print: no deck needed
FIRST_FRAME_SECONDS = 10.0


@dataclass(frozen=True)
class CameraSetup:
    """What the camera loop needs from the settings and the table."""

    camera: str
    deck: str
    game: str
    zones_file: str = ""
    threads: int = 1


def camera_attached() -> bool:
    """A webcam device or the Pi camera library is present."""
    return any(Path("/dev").glob("video*")) or importlib.util.find_spec("picamera2") is not None


def source_spec(camera: str) -> str:
    """The frame source for the `camera` setting; `auto` is the Pi camera, else webcam 0."""
    if camera != "auto":
        return camera
    return "picamera" if importlib.util.find_spec("picamera2") is not None else "0"


def camera_problem(setup: CameraSetup) -> str | None:
    """Why the live camera cannot run, or None when it can."""
    if setup.camera == "none":
        return "the camera is switched off (camera = none)"
    missing = [name for name in RECOGNITION_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return f"card recognition is not installed ({', '.join(missing)} missing)"
    if not setup.deck and setup.game not in PRINTED_GAMES:
        return "no enrolled deck to recognise cards with (companion enroll, then deck = ... or --deck)"
    if setup.deck and not Path(setup.deck).expanduser().exists():
        return f"the deck {setup.deck} does not exist"
    if setup.zones_file and not Path(setup.zones_file).expanduser().exists():
        return f"the zones file {setup.zones_file} does not exist (companion markers --calibrate)"
    if setup.camera == "auto" and not camera_attached():
        return "no camera is attached"
    return None


def build_recognizer(setup: CameraSetup) -> "CardRecognizer":
    """The enrolled deck's recognizer, or the printed-token reader where print names the card."""
    from vision.deck import DeckProfile
    from vision.recognize import CardRecognizer

    if setup.deck:
        return CardRecognizer.for_deck(DeckProfile.load(Path(setup.deck).expanduser()), threads=setup.threads)
    from vision.detect import ContourCardDetector
    from vision.printed import PrintedReader

    return CardRecognizer(ContourCardDetector(), PrintedReader(setup.game, threads=setup.threads))


class _Shown:
    """A frame source whose every frame is also handed to the host's camera view."""

    def __init__(self, source: Any, view: CameraView | None) -> None:
        self.source = source
        self.view = view
        self.stats = source.stats

    def read(self, *args: Any, **kwargs: Any) -> Any:
        frame = self.source.read(*args, **kwargs)
        if frame is not None and self.view is not None:
            self.view.publish(frame)
        return frame

    def close(self) -> None:
        self.source.close()


def live_observations(setup: CameraSetup, seats: int, stopped: Callable[[], bool],
                      view: CameraView | None = None) -> Iterator[Observation]:
    """Observations from the camera until `stopped()`: vision's pipeline on one thread;
    each frame read is also shown in `view`."""
    from vision.pipeline import Pipeline
    from vision.sources import open_source
    from vision.zones import TableZones, frame_zones

    recognizer = build_recognizer(setup)
    frames = _Shown(open_source(source_spec(setup.camera)), view)
    try:
        deadline = time.monotonic() + FIRST_FRAME_SECONDS
        first = None
        while first is None and time.monotonic() < deadline and not stopped():
            first = frames.read(timeout=1.0)
        if first is None:
            raise RuntimeError(f"no frame from camera {setup.camera!r} in {FIRST_FRAME_SECONDS:.0f} s")
        height, width = first.shape[:2]
        zones = (TableZones.load(Path(setup.zones_file).expanduser()) if setup.zones_file
                 else frame_zones(width, height, seats))
        pipeline = Pipeline(recognizer.detector, recognizer.identifier, zones.zone_of)
        yield from pipeline.run(frames, stopped)
    finally:
        frames.close()


class CameraFeed:
    """Runs the camera loop on a daemon thread and feeds the table; never stops the table."""

    def __init__(self, table: LiveTable, setup: CameraSetup, seats: int) -> None:
        self.table = table
        self.setup = setup
        self.seats = seats
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> Callable[[], None]:
        """Start feeding (or say once why not); returns the function that stops it."""
        problem = camera_problem(self.setup)
        if problem:
            log.warning("no live camera: %s; the host enters events by hand", problem)
            self.table.view.fail(problem)
        else:
            self._thread.start()
        return self.stop

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=3.0)

    def _run(self) -> None:
        try:
            for observation in live_observations(self.setup, self.seats, self._stop.is_set, self.table.view):
                self.table.observe(observation)
        except Exception as exc:  # the camera failing must leave a table the host can still run
            log.exception("the camera stopped; the host enters events by hand from now on")
            self.table.view.fail(f"the camera stopped ({exc}); enter events by hand")
