"""Seat zones: every card lies in the centre or in front of exactly one seat, from the
frame alone or from printed seat markers, and the calibration survives a restart."""

import math
import subprocess
import sys

import cv2
import pytest
from hypothesis import given, settings, strategies as st

from companion.cli import main
from rules.core import BadInput
from scripts.lib.scripted import seat_table
from vision.zones import TableZones, find_seat_markers, frame_zones, marker_zones


def test_by_default_seat_zero_sits_at_the_bottom_edge_and_seats_follow_clockwise():
    zones = frame_zones(1280, 720, 4)
    assert [zones.zone_of_point(p) for p in ((640, 700), (20, 360), (640, 20), (1260, 360))] == \
        ["seat-0", "seat-1", "seat-2", "seat-3"]


def test_the_middle_of_the_frame_is_the_centre():
    assert frame_zones(1280, 720, 5).zone_of_point((660, 380)) == "centre"


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 6), st.data())
def test_a_card_in_front_of_a_seat_belongs_to_that_seat(seats, data):
    zones = frame_zones(1280, 720, seats)
    seat = data.draw(st.integers(0, seats - 1))
    offset = data.draw(st.floats(-0.4, 0.4)) * math.tau / seats
    distance = data.draw(st.floats(zones.centre_radius * 1.05, 340))
    angle = zones.seat_angles[seat] + offset
    point = (640 + distance * math.cos(angle), 360 + distance * math.sin(angle))
    assert zones.zone_of_point(point) == f"seat-{seat}"


@pytest.mark.parametrize("seats", [2, 3, 5, 6])
def test_seat_markers_place_uneven_seats_where_people_sit(seats):
    table = seat_table(seed=seats, seats=seats)
    zones = marker_zones(table.image, seats)
    found = [zones.zone_of_point(p) for p in table.points]
    assert sum(f == t for f, t in zip(found, table.zones)) >= 0.95 * len(found)


def test_calibration_names_the_seat_markers_it_cannot_see():
    table = seat_table(seed=1, seats=3)
    with pytest.raises(BadInput) as caught:
        marker_zones(table.image, 5)
    assert caught.value.field == "markers" and "4, 5" in caught.value.problem


def test_a_saved_calibration_loads_back_the_same(tmp_path):
    zones = marker_zones(seat_table(seed=2, seats=4).image, 4)
    zones.save(tmp_path / "zones.json")
    loaded = TableZones.load(tmp_path / "zones.json")
    assert loaded.to_dict() == zones.to_dict()


@pytest.mark.parametrize("size", [(640, 360), (1920, 1080), (1600, 1200)], ids=["half", "larger", "other shape"])
def test_a_calibration_holds_for_frames_of_another_size_showing_the_same_view(size, tmp_path):
    """Seats calibrated on a picture of one size (a phone's photo, a webcam at its
    640x480 default) and a camera sending another: the zones are carried over to the
    frame's pixels, so each card still lies in front of its own seat."""
    table = seat_table(seed=3, seats=4)
    zones = marker_zones(table.image, 4)
    height, width = table.image.shape[:2]
    assert zones.size == (width, height)
    zones.save(tmp_path / "zones.json")
    scaled = TableZones.load(tmp_path / "zones.json").for_frame(*size)
    sx, sy = size[0] / width, size[1] / height
    mine = [zones.zone_of_point(p) for p in table.points]
    theirs = [scaled.zone_of_point((x * sx, y * sy)) for x, y in table.points]
    assert sum(a == b for a, b in zip(mine, theirs)) >= (1.0 if sx == sy else 0.95) * len(mine)
    assert scaled.for_frame(*size) == scaled


def test_a_calibration_saved_before_its_size_was_kept_is_taken_as_it_is(tmp_path):
    path = tmp_path / "zones.json"
    path.write_text('{"centre": [640, 360], "centre_radius": 100, "seat_angles": [1.5, 3.1]}')
    zones = TableZones.load(path)
    assert zones.size is None and zones.for_frame(320, 240) == zones


def test_a_damaged_calibration_file_names_the_field(tmp_path):
    path = tmp_path / "zones.json"
    path.write_text('{"centre": [1, 2], "centre_radius": 5, "seat_angles": [0.1, "x"]}')
    with pytest.raises(BadInput) as caught:
        TableZones.load(path)
    assert caught.value.field == "seat_angles[1]"


def companion(*args, cwd):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_the_markers_command_prints_every_seat_and_the_centre(tmp_path):
    assert main(["markers", "--seats", "5", "--out", str(tmp_path / "sheet.png"), "--dpi", "150"]) == 0
    assert sorted(find_seat_markers(cv2.imread(str(tmp_path / "sheet.png")))) == [0, 1, 2, 3, 4, 49]


def test_the_markers_command_calibrates_from_a_photo(tmp_path):
    cv2.imwrite(str(tmp_path / "table.png"), seat_table(seed=3, seats=4).image)
    assert main(["markers", "--seats", "4", "--calibrate", str(tmp_path / "table.png"),
                 "--out", str(tmp_path / "zones.json")]) == 0
    assert len(TableZones.load(tmp_path / "zones.json").seat_angles) == 4


@pytest.mark.parametrize("args, message", [
    (["--seats", "9", "--out", "s.png"], "companion: seats: must be 2 to 8, got 9"),
    (["--seats", "3", "--out", "s.pdf"], "companion: s.pdf: out: the sheet is written as PNG: name the file *.png"),
    (["--seats", "3", "--calibrate", "missing.png", "--out", "z.json"],
     "companion: missing.png: calibrate: cannot read this picture"),
])
def test_bad_marker_requests_are_one_line_and_exit_status_2(tmp_path, args, message):
    done = companion("markers", *args, cwd=tmp_path)
    assert (done.returncode, done.stderr.strip()) == (2, message)
