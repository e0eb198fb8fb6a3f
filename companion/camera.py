"""The camera feeding the live table, when there is one.

Vision turns frames into observations (appeared / moved / gone / named, with code, confidence
and seat zone): a frame source, the card detector, the identifier (an enrolled deck, or
for Gargon and dugtungan the printed-token reader), the tracker and the table zones
(calibrated from seat markers, or spread around the frame), run by `vision.pipeline.Pipeline`. This module only
assembles those pieces (imported lazily: the table runs without them), runs the loop on
its own thread and hands each observation to the table. Without a camera, a deck or
the recognition modules, the host enters every event by hand and the table still plays.

The camera's state is the table's to show (`/api/state`'s `camera`): `ok` while frames
arrive, `retrying` while a camera that failed is tried again with a doubling wait,
`ended` when a video file or picture folder has no more frames (the loop stops rather
than spin), `failed` when the source can never work as set (a path that is not a
camera), `none` when there is no camera at all. Each change is one log line.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from companion.camera_view import CameraView
from companion.config import CAMERA_SIZE
from companion.table import NO_CAMERA, LiveTable
from rules.registry import game_spec
from vision.observations import Observation

if TYPE_CHECKING:
    import numpy as np

    from vision.interfaces import FrameSource
    from vision.recognize import CardRecognizer

log = logging.getLogger(__name__)

RECOGNITION_MODULES = ("vision.sources", "vision.pipeline", "vision.recognize", "vision.deck", "vision.zones")
FIRST_FRAME_SECONDS = 10.0
RETRY_SECONDS = (1.0, 60.0)  # the first wait after a failure, and the longest
ENDED = "the camera source has no more frames (the end of the video file, or no pictures left in the folder)"

Report = Callable[[str, str], None]


class CameraUnusable(Exception):
    """The camera as set can never work (not a camera, a missing model): no retry."""


class WatchedSource:
    """A frame source that tells the table whether frames arrive, as it is read."""

    def __init__(self, frames: "FrameSource", report: Report,
                 shown: "Callable[[np.ndarray], None] | None" = None) -> None:
        self.frames = frames
        self.stats = frames.stats
        self._report = report
        self._shown = shown  # the host's camera view, handed every frame read
        self.unseen: str | None = None  # why the frames show no table, as the vision loop judges them

    def seen_as(self, unseen: str | None) -> None:
        """What the vision loop judges the frames to show: None, the table; else why not."""
        self.unseen = unseen

    @property
    def live(self) -> bool:
        """Frames in real time (a camera, a stream), not a file read as fast as it goes."""
        return bool(getattr(self.frames, "live", False))

    @property
    def finished(self) -> bool:
        """A video file or folder read to its end (a live camera never finishes)."""
        return bool(getattr(self.frames, "finished", False))

    def read(self, timeout: float = 1.0) -> "np.ndarray | None":
        frame = self.frames.read(timeout)
        if frame is not None:
            if self._shown is not None:
                self._shown(frame)
            self._report("ok", "frames arriving" if self.unseen is None else
                         f"the picture is {self.unseen}: the cards are kept as they were until it shows the table")
        elif not self.stats.online and not self.finished:
            self._report("retrying", self.stats.last_error or "no frames")
        return frame

    def close(self) -> None:
        self.frames.close()


@dataclass(frozen=True)
class CameraSetup:
    """What the camera loop needs from the settings and the table."""

    camera: str
    deck: str
    game: str
    zones_file: str = ""
    threads: int = 1
    size: tuple[int, int] = CAMERA_SIZE  # asked of a camera (vision/sources.py)


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
    if not setup.deck and not game_spec(setup.game).printed_cards:
        return "no enrolled deck to recognise cards with (companion enroll, then deck = ... or --deck)"
    if setup.deck and not Path(setup.deck).expanduser().exists():
        return f"the deck {setup.deck} does not exist"
    if setup.zones_file and not Path(setup.zones_file).expanduser().exists():
        return f"the zones file {setup.zones_file} does not exist (companion markers --calibrate)"
    if setup.camera == "auto" and not camera_attached():
        return "no camera is attached"
    return source_problem(setup.camera)


def source_problem(camera: str) -> str | None:
    """Why the `camera` setting names nothing that can be there, before anything is opened.

    A webcam that is plugged in later comes back by itself, but a device path that
    does not exist, or a video file or folder that is not there, is a typing mistake.
    """
    if camera in ("auto", "none", "picamera") or camera.isdigit() or "://" in camera:
        return None
    if camera.startswith("/dev/"):
        return None if Path(camera).exists() else f"the camera device {camera} does not exist"
    if not Path(camera).expanduser().exists():
        return f"{camera} is not a camera index, device, stream URL, video file or folder"
    return None


def build_recognizer(setup: CameraSetup) -> "CardRecognizer":
    """The enrolled deck's recognizer, or the printed-token reader where print names the card,
    for live play: with the joint detector as a stream of frames affords it
    (vision/live_detect.py): the contour search every frame, judged against the network's
    last view of the table, which it makes again only once the table has changed and
    settled (a Raspberry Pi core pays its ~50 ms on a few frames in a hundred, not on
    every one); a find the network doubts becomes a card only once the reader names it
    (vision/track.py). One recognizer per camera loop: the detector keeps that table's
    view (models/README.md, "What ships: the joint detector")."""
    from vision.deck import DeckProfile
    from vision.detectors import live_detector
    from vision.recognize import CardRecognizer

    detector = live_detector()
    if setup.deck:
        return CardRecognizer.for_deck(DeckProfile.load(Path(setup.deck).expanduser()), threads=setup.threads,
                                       detector=detector)
    from vision.printed import PrintedReader

    return CardRecognizer(detector, PrintedReader(setup.game, threads=setup.threads))


def _ignore(state: str, reason: str) -> None:
    """No one to report to (a test reading observations directly)."""


def live_observations(setup: CameraSetup, seats: int, stopped: Callable[[], bool],
                      report: Report = _ignore, view: CameraView | None = None) -> Iterator[Observation]:
    """Observations from the camera until `stopped()` or the source has no more frames:
    vision's pipeline on one thread; each frame read is also shown in `view`.
    CameraUnusable when the source can never work; RuntimeError when no first frame
    came in time (worth trying again)."""
    from vision.pipeline import Pipeline
    from vision.sources import open_source
    from vision.zones import TableZones, frame_zones

    try:
        recognizer = build_recognizer(setup)
        frames = WatchedSource(open_source(source_spec(setup.camera), setup.size), report,
                               view.publish if view is not None else None)
    except (ValueError, OSError, ImportError) as exc:
        raise CameraUnusable(str(exc)) from None
    try:
        deadline = time.monotonic() + FIRST_FRAME_SECONDS
        first = None
        while first is None and time.monotonic() < deadline and not stopped() and not frames.finished:
            first = frames.read(timeout=1.0)
        if first is None:
            if frames.finished or stopped():
                return
            raise RuntimeError(f"no frame from camera {setup.camera!r} in {FIRST_FRAME_SECONDS:.0f} s")
        height, width = first.shape[:2]
        zones = (TableZones.load(Path(setup.zones_file).expanduser()).for_frame(width, height) if setup.zones_file
                 else frame_zones(width, height, seats))
        pipeline = Pipeline(recognizer.detector, recognizer.identifier, zones.zone_of)
        pipeline.on_view = frames.seen_as
        yield from pipeline.run(frames, lambda: stopped() or frames.finished)
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
            self.table.set_camera("none", problem)
        else:
            self.table.set_camera("retrying", f"starting camera {self.setup.camera}")
            self._thread.start()
        return self.stop

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=3.0)

    def _report(self, state: str, reason: str) -> None:
        """The table shows the camera's state; each change is one log line."""
        if self.table.camera != {"state": state, "reason": reason}:
            level = logging.INFO if state == "ok" else logging.WARNING
            log.log(level, "camera %s: %s (%s)", self.setup.camera, state, reason)
        self.table.set_camera(state, reason)

    def _run(self) -> None:
        """Feed the table until stopped; a failure is retried with a doubling wait, never
        in a tight loop, and a source at its end stops the loop."""
        wait = RETRY_SECONDS[0]
        while not self._stop.is_set():
            try:
                for observation in live_observations(self.setup, self.seats, self._stop.is_set, self._report,
                                                     self.table.view):
                    self.table.observe(observation)
                    wait = RETRY_SECONDS[0]
            except CameraUnusable as exc:
                self._report("failed", f"{exc}; the host enters events by hand")
                return
            except Exception as exc:  # the camera failing must leave a table the host can still run
                log.debug("camera loop error", exc_info=True)
                self._report("retrying", f"{exc or type(exc).__name__}; trying again in {wait:.0f} s")
                self._stop.wait(wait)
                wait = min(wait * 2, RETRY_SECONDS[1])
                continue
            if not self._stop.is_set():
                self._report("ended", f"{ENDED}; the host enters events by hand")
            return


class TableCamera:
    """The table's camera as it is set up now: `setup()` is worked out afresh (from the
    settings and what the host page saved) each time the camera (re)starts, so a camera
    chosen, a deck enrolled, seats calibrated or a new game started on the phone takes
    effect on the live table at once, not at the next start of `companion run`."""

    def __init__(self, table: LiveTable, setup: Callable[[], CameraSetup | None]) -> None:
        self.table = table
        self._setup = setup
        self._feed: CameraFeed | None = None
        self._lock = threading.Lock()

    def start(self) -> Callable[[], None]:
        self.reload()
        return self.stop

    def reload(self) -> CameraSetup | None:
        """Stop the camera that runs (releasing its device) and start it as set up now;
        the setup it runs with, or None when the table has no camera."""
        with self._lock:
            self._stop_feed()
            setup = self._setup()
            if setup is None:
                self.table.set_camera(NO_CAMERA["state"], NO_CAMERA["reason"])
                return None
            log.info("starting the table's camera: %s, deck %s, zones %s", setup.camera, setup.deck or "printed",
                     setup.zones_file or "spread around the frame")
            self._feed = CameraFeed(self.table, setup, len(self.table.snapshot()["players"]))
            self._feed.start()
            return setup

    def stop(self) -> None:
        with self._lock:
            self._stop_feed()

    def _stop_feed(self) -> None:
        if self._feed is not None:
            self._feed.stop()
            self._feed = None
