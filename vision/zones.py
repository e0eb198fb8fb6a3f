"""Which part of the table a card lies in: the shared centre or the area of one seat.

A table is modelled as a centre point with a round centre region, and one direction
(an angle around that point) per seat; a card outside the centre belongs to the seat
whose direction is nearest its own. The same model comes from two places:

- by default, from the frame alone: the centre of the picture, seats spread evenly
  around it starting from the bottom edge (the camera usually stands at the host's
  seat) and going clockwise on screen, in turn order;
- better, from printed ArUco seat markers (`companion markers` prints them): marker k
  lies in front of seat k, so seats may sit anywhere around any table, and the centre
  is the middle of the markers.

Calibration is done once, with the markers in view, and saved to a small JSON file;
the markers may then be removed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from rules.payload import BadInput, expect, items, req
from vision.observations import CENTRE, seat_zone

#: The marker family the sheet prints and calibration looks for: large cells, read from afar.
MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
MAX_SEATS = 8
CENTRE_MARKER = 49  # the dictionary's last id, far from any seat's


@dataclass(frozen=True)
class TableZones:
    """A table's centre (pixels), its centre region's radius (pixels) and each seat's
    direction from the centre (radians, image axes: 0 points right, pi/2 down)."""

    centre: tuple[float, float]
    centre_radius: float
    seat_angles: tuple[float, ...]
    size: tuple[int, int] | None = None  # (width, height) of the picture they were found in, where known

    def for_frame(self, width: int, height: int) -> "TableZones":
        """The zones in a frame of another size showing the same view: a calibration
        photographed at one size (a phone's photo, a webcam at 640x480) and a camera
        sending another. Without a known size they are taken as they are."""
        if self.size is None or self.size == (width, height):
            return self
        sx, sy = width / self.size[0], height / self.size[1]
        angles = tuple(math.atan2(math.sin(a) * sy, math.cos(a) * sx) for a in self.seat_angles)
        return TableZones((self.centre[0] * sx, self.centre[1] * sy), self.centre_radius * math.sqrt(sx * sy),
                          angles, (width, height))

    def zone_of_point(self, point: Sequence[float]) -> str:
        dx, dy = float(point[0]) - self.centre[0], float(point[1]) - self.centre[1]
        if math.hypot(dx, dy) <= self.centre_radius:
            return CENTRE
        angle = math.atan2(dy, dx)
        gaps = [abs(math.remainder(angle - seat, math.tau)) for seat in self.seat_angles]
        return seat_zone(gaps.index(min(gaps)))

    def zone_of(self, corners: np.ndarray) -> str:
        """The zone a card's quadrilateral lies in, by its centre."""
        return self.zone_of_point(np.asarray(corners, dtype=np.float64).reshape(-1, 2).mean(axis=0))

    def to_dict(self) -> dict[str, Any]:
        return {"centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
                "centre_radius": round(self.centre_radius, 1),
                "seat_angles": [round(a, 5) for a in self.seat_angles]} | (
                    {} if self.size is None else {"size": list(self.size)})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TableZones":
        centre = items(req(data, "centre", list), "centre", lambda v, p: float(expect(v, (int, float), p)))
        if len(centre) != 2:
            raise BadInput("centre", "must be [x, y]")
        angles = items(req(data, "seat_angles", list), "seat_angles",
                       lambda v, p: float(expect(v, (int, float), p)))
        if not 1 <= len(angles) <= MAX_SEATS:
            raise BadInput("seat_angles", f"must list 1 to {MAX_SEATS} seats")
        radius = float(req(data, "centre_radius", (int, float)))
        if radius < 0:
            raise BadInput("centre_radius", "must not be negative")
        size = None
        if "size" in data:  # (files saved before it was kept have none)
            size = items(req(data, "size", list), "size", lambda v, p: expect(v, int, p))
            if len(size) != 2 or min(size) < 1:
                raise BadInput("size", "must be [width, height] in pixels")
        return cls((centre[0], centre[1]), radius, tuple(angles), None if size is None else (size[0], size[1]))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n")

    @classmethod
    def load(cls, path: Path) -> "TableZones":
        """Zones saved by `save`; a damaged file is a BadInput naming the field."""
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError as exc:
            raise BadInput(str(path), f"not JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_dict(expect(data, dict, str(path)))


def check_seats(seats: int) -> None:
    """Seat counts the zones and the marker sheet support (one A4 page holds eight)."""
    if not 2 <= seats <= MAX_SEATS:
        raise BadInput("seats", f"must be 2 to {MAX_SEATS}, got {seats}")


def frame_zones(width: int, height: int, seats: int, centre_fraction: float = 0.25) -> TableZones:
    """The default table: seats evenly round the frame centre, seat 0 at the bottom edge,
    then clockwise on screen; the centre region's radius is `centre_fraction` of the
    frame's shorter side."""
    check_seats(seats)
    angles = tuple(math.remainder(math.pi / 2 + k * math.tau / seats, math.tau) for k in range(seats))
    return TableZones((width / 2, height / 2), centre_fraction * min(width, height), angles)


def find_seat_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id -> its centre (pixels) for every seat marker visible in a BGR image."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners)}


def marker_zones(image: np.ndarray, seats: int, centre_fraction: float = 0.45) -> TableZones:
    """Calibrate from a picture of the table with seat markers 0..seats-1 in view.

    The centre is the centre marker where it lies on the table, else the mean of the
    seat markers (right only when seats are spread evenly); the centre region's radius
    is `centre_fraction` of the nearest seat marker's distance from it, so a card
    pushed halfway to a seat still counts as that seat's.
    """
    check_seats(seats)
    found = find_seat_markers(image)
    missing = [k for k in range(seats) if k not in found]
    if missing:
        names = ", ".join(str(k + 1) for k in missing)
        raise BadInput("markers", f"seat marker(s) {names} not found in the picture")
    points = np.array([found[k] for k in range(seats)], dtype=np.float64)
    centre = found[CENTRE_MARKER] if CENTRE_MARKER in found else points.mean(axis=0)
    offsets = points - centre
    angles = tuple(float(math.atan2(dy, dx)) for dx, dy in offsets)
    radius = centre_fraction * float(np.linalg.norm(offsets, axis=1).min())
    height, width = image.shape[:2]
    return TableZones((float(centre[0]), float(centre[1])), radius, angles, (width, height))
