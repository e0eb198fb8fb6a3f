"""A recording rendered as camera frames: the real vision finds each recorded card where
the recording laid it, and an empty table gives no observation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import ContourCardDetector
from vision.observations import CENTRE, Observation, seat_zone
from vision.pipeline import Pipeline
from vision.printed import PrintedReader
from vision.synth.recording import RecordedTable, TableLayout

BOX = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def change(kind: str, track: int, code: str, zone: str) -> Observation:
    return Observation(kind, track, code, 1.0, BOX, zone, 0.0, 0.0)  # type: ignore[arg-type]


RECORDING = [change("appeared", 1, "red-9", seat_zone(0)), change("appeared", 2, "blue-4", seat_zone(1)),
             change("appeared", 3, "green-13", CENTRE), change("gone", 1, "red-9", seat_zone(0))]


def film(table: RecordedTable, pipeline: Pipeline, frames: int) -> list[Observation]:
    seen = []
    for _ in range(frames):
        seen += pipeline.process(table.frame(), table.index / 8)
    return seen


@pytest.fixture(scope="module")
def reader() -> PrintedReader:
    return PrintedReader("gargon")


def test_every_spot_lies_in_its_own_zone_and_inside_the_frame():
    layout = TableLayout(RECORDING, seats=3)
    w, h = layout.size
    for zone, spots in layout.spots.items():
        for spot in spots:
            assert layout.zones.zone_of_point((spot.x, spot.y)) == zone
            assert 0 < spot.x < w and 0 < spot.y < h


def test_a_table_with_no_card_on_it_gives_no_observation(reader):
    table = RecordedTable("gargon", RECORDING, seats=3, seed=2)
    pipeline = Pipeline(ContourCardDetector(), reader, table.zones.zone_of)
    assert film(table, pipeline, 6) == []


def test_a_recorded_card_is_found_in_its_zone_with_its_code_and_is_gone_once_taken(reader):
    table = RecordedTable("gargon", RECORDING, seats=3, seed=2)
    pipeline = Pipeline(ContourCardDetector(), reader, table.zones.zone_of)
    table.apply(RECORDING[0])
    appeared = film(table, pipeline, 6)
    assert [(o.kind, o.code, o.zone) for o in appeared] == [("appeared", "red-9", seat_zone(0))]
    assert table.card_at(np.mean(appeared[0].corners, axis=0)) == 1
    table.apply(RECORDING[3])
    gone = film(table, pipeline, 20)
    assert [(o.kind, o.track) for o in gone] == [("gone", appeared[0].track)]


def test_a_gargon_card_lying_face_down_shows_its_colour_alone():
    from vision.synth.recording import card_face

    back = card_face("gargon", "red")
    face = card_face("gargon", "red-9")
    assert back.shape == face.shape and not np.array_equal(back, face)
