"""Frame sources: never block, newest frame wins, a dead camera is a state, not a crash."""

from __future__ import annotations

import itertools
import time

import cv2
import numpy as np
import pytest

from vision.sources import FolderSource, ThreadedSource, open_source


def _frame(i: int) -> np.ndarray:
    return np.full((48, 64, 3), i % 256, np.uint8)


class CountingCamera:
    """A camera that sends numbered frames as fast as it can (stands in for hardware)."""

    def __init__(self) -> None:
        self.count = itertools.count()

    def read(self):
        time.sleep(0.001)
        return True, _frame(next(self.count))

    def release(self) -> None:
        pass


def test_a_folder_plays_its_pictures_in_name_order_then_ends(tmp_path):
    for i in (3, 1, 2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _frame(i))
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    seen = [int(source.read()[0, 0, 0]) for _ in range(3)]
    assert seen == [1, 2, 3]
    assert source.read() is None and source.finished


def test_a_folder_passes_over_a_broken_picture_and_one_larger_than_any_photo(tmp_path, caplog):
    cv2.imwrite(str(tmp_path / "1.png"), _frame(1))
    (tmp_path / "2.jpg").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "3.png"), np.zeros((11000, 11000), np.uint8))  # 121 MP in a small file
    cv2.imwrite(str(tmp_path / "4.png"), _frame(4))
    source = open_source(str(tmp_path))
    assert [int(source.read()[0, 0, 0]) for _ in range(2)] == [1, 4]
    assert source.read() is None and source.stats.frames == 2 and source.stats.dropped == 2
    assert "3.png: 11000x11000 px is larger than any camera's photo" in caplog.text


def test_a_video_file_hands_over_every_frame_in_order(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(_frame(i * 50))
    writer.release()
    source = open_source(str(path))
    seen = []
    while (frame := source.read(timeout=2)) is not None:
        seen.append(round(float(frame.mean()) / 50))
    source.close()
    assert seen == [0, 1, 2, 3, 4]


def test_the_newest_frame_wins_and_older_ones_are_dropped():
    source = ThreadedSource(CountingCamera, "fake")
    time.sleep(0.2)
    first = source.read()
    time.sleep(0.2)
    second = source.read()
    source.close()
    assert first is not None and second is not None
    assert source.stats.dropped > 0
    assert source.stats.frames > 20  # the reader kept up instead of waiting for us


def test_a_camera_that_cannot_open_is_offline_and_retried():
    def broken():
        raise OSError("no such device")
    source = ThreadedSource(broken, "gone", backoff=(0.05, 0.1))
    started = time.monotonic()
    assert source.read(timeout=0.3) is None
    assert time.monotonic() - started < 1
    time.sleep(0.3)
    source.close()
    assert not source.stats.online
    assert source.stats.reopens >= 2
    assert "no such device" in source.stats.last_error


def test_an_unknown_source_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ValueError, match="not a camera index"):
        open_source(str(tmp_path / "missing.mp4"))


class SettableCamera:
    """OpenCV's VideoCapture as a webcam driver answers it: it grants sizes it has."""

    sizes = {(640, 480), (1280, 720)}

    def __init__(self, device) -> None:
        self.device, self.asked, self.props = device, [], {cv2.CAP_PROP_FRAME_WIDTH: 640, cv2.CAP_PROP_FRAME_HEIGHT: 480}

    def isOpened(self) -> bool:
        return True

    def set(self, prop, value) -> bool:
        self.asked.append((prop, value))
        if prop == cv2.CAP_PROP_FRAME_HEIGHT:
            wanted = (self.asked[-2][1], value)
            granted = max((s for s in self.sizes if s[0] <= wanted[0] and s[1] <= wanted[1]), default=(640, 480))
            self.props[cv2.CAP_PROP_FRAME_WIDTH], self.props[cv2.CAP_PROP_FRAME_HEIGHT] = granted
        return True

    def get(self, prop) -> float:
        return float(self.props.get(prop, 0))


@pytest.mark.parametrize("spec, size, granted", [("0", (1280, 720), "1280x720"), ("/dev/video2", (1920, 1080), "1280x720")])
def test_a_webcam_is_asked_for_motion_jpeg_at_the_size_set_and_the_log_says_what_it_grants(monkeypatch, caplog, spec,
                                                                                           size, granted):
    """Left alone a webcam sends 640x480, where cards come out half the size recognition is
    measured at; a smaller size than asked is a warning."""
    import logging

    from vision import sources

    opened = []
    monkeypatch.setattr(sources.cv2, "VideoCapture", lambda device: opened.append(SettableCamera(device)) or opened[-1])
    with caplog.at_level(logging.INFO, logger="vision.sources"):
        camera = sources._webcam(int(spec) if spec.isdigit() else spec, size)
    assert camera.asked == [(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")),
                            (cv2.CAP_PROP_FRAME_WIDTH, size[0]), (cv2.CAP_PROP_FRAME_HEIGHT, size[1])]
    (record,) = caplog.records
    assert f"sends {granted} frames" in record.getMessage()
    assert record.levelno == (logging.INFO if size == (1280, 720) else logging.WARNING)


@pytest.mark.parametrize("frame", [np.full((48, 64), 7, np.uint8), np.full((48, 64, 1), 7, np.uint8),
                                   np.full((48, 64, 4), 7, np.uint8), np.full((48, 64, 3), 7 * 256, np.uint16)],
                         ids=["grey", "one channel", "with alpha", "16-bit"])
def test_a_camera_that_sends_another_format_than_8_bit_bgr_is_read_as_8_bit_bgr(frame):
    class Odd(CountingCamera):
        def read(self):
            time.sleep(0.001)
            return True, frame

    source = ThreadedSource(Odd, "odd")
    try:
        got = source.read(timeout=2.0)
    finally:
        source.close()
    assert got is not None and got.shape == (48, 64, 3) and got.dtype == np.uint8 and int(got.max()) == 7
