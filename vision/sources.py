"""Frame sources: USB webcam, network stream, video file, image folder, Pi camera.

Capture never blocks the caller: a reader thread keeps only the newest frame (older
unread frames are dropped and counted), and a camera that fails or stops sending is
closed and reopened with growing back-off, so an unplugged webcam is a state the app
shows, not a crash. A missing camera at start is the same state.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from pathlib import Path
from typing import Callable, Protocol

import cv2
import numpy as np

from vision.imageio import PictureTooLarge, read_picture
from vision.interfaces import FrameSource, FrameStats

log = logging.getLogger(__name__)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
CAMERA_SIZE = (1280, 720)  # the frames recognition is measured on (scripts/bench_vision.py)


class Capture(Protocol):
    """What a reader thread pulls from: OpenCV's VideoCapture, or the Pi camera adapter."""

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


class ThreadedSource:
    """`FrameSource` over any `Capture`; newest frame wins, failures reopen with back-off.

    `live=False` (a video file) hands over every frame in order and ends at the end of
    the stream instead of reopening.
    """

    def __init__(self, open_capture: Callable[[], Capture], name: str, live: bool = True,
                 backoff: tuple[float, float] = (0.5, 8.0), stale_after: float = 3.0) -> None:
        self.stats = FrameStats()
        self.name = name
        self._open = open_capture
        self.live = live  # a camera's frames come in real time (vision/pipeline.py paces them); a file's do not
        self._backoff = backoff
        self._stale_after = stale_after
        self._frame: np.ndarray | None = None
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self.finished = False
        self._thread = threading.Thread(target=self._run, name=f"capture:{name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            capture = self._safe_open()
            last_frame = time.monotonic()
            while capture is not None and not self._stop.is_set():
                ok, frame = capture.read()
                if ok and frame is not None:
                    last_frame = time.monotonic()
                    delay = self._backoff[0]
                    self._publish(frame)
                elif not self.live:
                    self.finished = True
                    self._stop.set()
                elif time.monotonic() - last_frame > self._stale_after:
                    self._offline(f"no frame for {self._stale_after:.0f} s")
                    break
                else:
                    time.sleep(0.01)
            if capture is not None:
                capture.release()
            if not self._stop.is_set():
                self.stats.reopens += 1
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff[1])
        with self._fresh:
            self._fresh.notify_all()

    def _safe_open(self) -> Capture | None:
        try:
            capture = self._open()
        except Exception as exc:  # a driver may raise anything; the state is what matters
            self._offline(f"cannot open: {exc}")
            return None
        if isinstance(capture, cv2.VideoCapture) and not capture.isOpened():
            self._offline("cannot open")
            return None
        return capture

    def _offline(self, why: str) -> None:
        if self.stats.online or self.stats.last_error != why:
            log.warning("camera %s offline: %s", self.name, why)
        self.stats.online = False
        self.stats.last_error = why

    def _publish(self, frame: np.ndarray) -> None:
        frame = as_bgr(frame)
        with self._fresh:
            # a file has no 'now': play every frame, waiting for the reader
            while not self.live and self._frame is not None and not self._stop.is_set():
                self._fresh.wait(0.1)
            if self._frame is not None:
                self.stats.dropped += 1
            self._frame = frame
            self.stats.frames += 1
            self.stats.online = True
            self._fresh.notify_all()

    def read(self, timeout: float = 1.0) -> np.ndarray | None:
        with self._fresh:
            if self._frame is None and not self._stop.is_set():
                self._fresh.wait(timeout)
            frame, self._frame = self._frame, None
            self._fresh.notify_all()
            return frame

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A frame as every later step takes it: 8-bit BGR. Most cameras send that, but a
    device OpenCV does not convert (a monochrome or 16-bit sensor, a stream with alpha)
    would stop the camera loop at its first frame."""
    if frame.dtype == np.uint16:
        frame = (frame >> 8).astype(np.uint8)
    elif frame.dtype != np.uint8:
        frame = cv2.convertScaleAbs(frame)  # (saturated to 0-255)
    if frame.ndim == 2 or frame.shape[2] == 1:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class FolderSource:
    """`FrameSource` over the pictures in a folder, in name order, once; for tests and demos."""

    def __init__(self, folder: Path) -> None:
        self.stats = FrameStats(online=True)
        self._paths = iter(sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES))
        self.finished = False

    def read(self, timeout: float = 1.0) -> np.ndarray | None:
        for path in self._paths:
            try:
                frame = read_picture(path)
            except PictureTooLarge as exc:
                log.warning("%s: %s; passed over", path, exc)
                frame = None
            if frame is not None:
                self.stats.frames += 1
                return frame
            self.stats.dropped += 1
        self.finished = True
        self.stats.online = False
        return None

    def close(self) -> None:
        self._paths = iter(())


def _webcam(device: int | str, size: tuple[int, int]) -> cv2.VideoCapture:
    """A webcam asked for frames of `size`. Left alone, most USB webcams send 640x480,
    where the cards are half as tall as at the 1280x720 the recognition is measured at
    (models/README.md: cards under 100 px tall are named far less often). Motion JPEG
    first: over USB 2 many webcams send 1280x720 raw at a few frames a second at most.
    The camera may grant another size; the log says which."""
    capture = cv2.VideoCapture(device)
    if capture.isOpened():
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        granted = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        if granted[0] * granted[1] < size[0] * size[1]:
            log.warning("camera %s sends %dx%d frames, not the %dx%d asked: cards are read smaller",
                        device, *granted, *size)
        else:
            log.info("camera %s sends %dx%d frames", device, *granted)
    return capture


class _PiCamera:
    """picamera2 behind the `Capture` shape."""

    def __init__(self, size: tuple[int, int]) -> None:
        from picamera2 import Picamera2  # only on a Pi

        self.camera = Picamera2()
        self.camera.configure(self.camera.create_video_configuration(main={"size": size, "format": "BGR888"}))
        self.camera.start()

    def read(self) -> tuple[bool, np.ndarray | None]:
        return True, self.camera.capture_array()

    def release(self) -> None:
        self.camera.stop()
        self.camera.close()


def picamera_available() -> bool:
    return importlib.util.find_spec("picamera2") is not None


def open_source(spec: str, size: tuple[int, int] = CAMERA_SIZE) -> FrameSource:
    """A source from a setting: `picamera`, a webcam index (`0`) or device path
    (`/dev/video0`), a stream URL (`rtsp://...`, `http://...`), a video file, or a
    folder of pictures. A camera (the Pi's or a webcam) is asked for frames of `size`;
    a stream, file or folder comes at the size it has."""
    if spec == "picamera":
        if not picamera_available():
            raise ValueError("picamera2 is not installed (it comes with Raspberry Pi OS)")
        return ThreadedSource(lambda: _PiCamera(size), spec)
    if spec.isdigit() or spec.startswith("/dev/"):
        device = int(spec) if spec.isdigit() else spec
        return ThreadedSource(lambda: _webcam(device, size), spec)
    if "://" in spec:
        return ThreadedSource(lambda: cv2.VideoCapture(spec), spec)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return ThreadedSource(lambda: cv2.VideoCapture(str(path)), spec, live=False)
    raise ValueError(f"{spec!r} is not a camera index, device, stream URL, video file or folder")
