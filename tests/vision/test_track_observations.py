"""Observation events are the only thing vision hands the live table: they must survive
JSON both ways and reject malformed input with the field named."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.core import BadInput
from vision.observations import Observation, seat_zone, zone_seat

coordinate = st.floats(min_value=0, max_value=4000, allow_nan=False).map(lambda v: round(v, 1))
point = st.tuples(coordinate, coordinate)
observations = st.builds(
    Observation,
    kind=st.sampled_from(["appeared", "moved", "gone"]),
    track=st.integers(min_value=0, max_value=10**6),
    code=st.none() | st.text(min_size=1, max_size=12),
    confidence=st.floats(min_value=0, max_value=1).map(lambda v: round(v, 4)),
    corners=st.tuples(point, point, point, point),
    zone=st.none() | st.just("centre") | st.integers(0, 5).map(seat_zone),
    first_seen=st.floats(min_value=0, max_value=1e5).map(lambda v: round(v, 3)),
    last_seen=st.floats(min_value=0, max_value=1e5).map(lambda v: round(v, 3)),
    previous_zone=st.none() | st.integers(0, 5).map(seat_zone),
    candidates=st.lists(st.tuples(st.text(min_size=1, max_size=8),
                                  st.floats(0, 1).map(lambda v: round(v, 4))), max_size=3).map(tuple),
)


@settings(max_examples=60, deadline=None)
@given(observations)
def test_an_observation_survives_a_json_round_trip(observation):
    assert Observation.from_dict(json.loads(json.dumps(observation.to_dict()))) == observation


def test_seat_zones_name_their_seat_and_the_centre_names_none():
    assert zone_seat(seat_zone(3)) == 3
    assert zone_seat("centre") is None
    assert zone_seat(None) is None


@pytest.mark.parametrize("change, field", [
    ({"kind": "flipped"}, "kind"),
    ({"corners": [[0, 0], [1, 0], [1, 1]]}, "corners"),
    ({"corners": [[0, 0], [1, 0], [1, 1], ["a", 1]]}, "corners[3][0]"),
    ({"track": "7"}, "track"),
])
def test_a_malformed_observation_names_the_bad_field(change, field):
    good = Observation("appeared", 1, "g-red-5", 0.9, ((0, 0), (1, 0), (1, 1), (0, 1)),
                       "centre", 0.0, 0.5).to_dict()
    with pytest.raises(BadInput) as caught:
        Observation.from_dict({**good, **change})
    assert caught.value.field == field


def test_a_card_covers_the_card_whose_middle_it_lies_over_whichever_way_its_corners_go():
    def at(x, y, turned=False):
        box = ((x, y), (x + 63, y), (x + 63, y + 88), (x, y + 88))
        return Observation("appeared", 1, None, 0.5, box[::-1] if turned else box, None, 0.0, 0.0)

    below = at(0, 0)
    assert at(20, 30).covers(below) and at(20, 30, turned=True).covers(below)
    assert not at(40, 0).covers(below) and not at(0, 50, turned=True).covers(below)
