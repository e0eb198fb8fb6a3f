"""What vision tells the live table: one tracked card appeared, moved, or is gone, or,
reported unknown, was named later.

The tracker hides frames, flicker and hands from everyone downstream; what leaves vision
is only these plain, JSON-ready facts, so the live table, the event log and the demo
replay all speak one small vocabulary and never touch an image.

Zones are strings: ``"centre"`` for the shared middle of the table and ``"seat-N"`` for
the area in front of seat N (0-based, in turn order), the names the live table uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

from rules.payload import BadInput, expect, items, opt, req

ObservationKind = Literal["appeared", "moved", "gone", "named"]
KINDS: tuple[str, ...] = ("appeared", "moved", "gone", "named")

CENTRE = "centre"

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def seat_zone(seat: int) -> str:
    """The zone name of the area in front of seat `seat` (0-based, turn order)."""
    return f"seat-{seat}"


def zone_seat(zone: str | None) -> int | None:
    """The seat a zone names, or None for the centre or no zone."""
    if zone and zone.startswith("seat-") and zone[5:].isdigit():
        return int(zone[5:])
    return None


def _candidate(value: Any, path: str) -> tuple[str, float]:
    pair = expect(value, list, path)
    if len(pair) != 2:
        raise BadInput(path, "must be [code, score]")
    return expect(pair[0], str, f"{path}[0]"), float(expect(pair[1], (int, float), f"{path}[1]"))


def _point(value: Any, path: str) -> tuple[float, float]:
    pair = expect(value, list, path)
    if len(pair) != 2:
        raise BadInput(path, "must be [x, y]")
    return (float(expect(pair[0], (int, float), f"{path}[0]")),
            float(expect(pair[1], (int, float), f"{path}[1]")))


def _corners(value: Any, path: str) -> Corners:
    points = items(expect(value, list, path), path, _point)
    if len(points) != 4:
        raise BadInput(path, "must list 4 corners")
    return (points[0], points[1], points[2], points[3])


def as_corners(points: Sequence[Sequence[float]]) -> Corners:
    """Four image points (e.g. a detection's (4, 2) array) as plain float pairs."""
    p = [(float(x), float(y)) for x, y in points]
    return (p[0], p[1], p[2], p[3])


@dataclass(frozen=True)
class Observation:
    """One tracked card changing state.

    `track` stays the same while the card stays on the table, however far it slides.
    `code` is None when the identifier was not sure; `candidates` then (and always) lists
    its best guesses, best first, so the host can be asked to choose. `corners` are image
    pixels, clockwise from the card's own top-left as last seen. `first_seen` and
    `last_seen` are the timestamps (seconds, the frame source's clock) of the first and
    latest frames the card was seen in; for "gone" the latter is when it was last seen,
    not when the tracker gave up on it. `previous_zone` is set on "moved" when the card
    crossed into another zone. "named" comes only after an "appeared" without a code:
    the camera, reading the card again, now names it.
    """

    kind: ObservationKind
    track: int
    code: str | None
    confidence: float
    corners: Corners
    zone: str | None
    first_seen: float
    last_seen: float
    previous_zone: str | None = None
    candidates: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "track": self.track, "code": self.code,
                "confidence": round(self.confidence, 4),
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "zone": self.zone, "previous_zone": self.previous_zone,
                "first_seen": round(self.first_seen, 3), "last_seen": round(self.last_seen, 3),
                "candidates": [[code, round(score, 4)] for code, score in self.candidates]}

    def covers(self, other: "Observation") -> bool:
        """Whether this card lies over the middle of `other` (put down on it: a pile's
        next card), whichever way round either's corners go."""
        (x, y) = (sum(c[0] for c in other.corners) / 4, sum(c[1] for c in other.corners) / 4)
        sides = [(bx - ax) * (y - ay) - (by - ay) * (x - ax)
                 for (ax, ay), (bx, by) in zip(self.corners, self.corners[1:] + self.corners[:1])]
        return all(side >= 0 for side in sides) or all(side <= 0 for side in sides)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Observation":
        kind = req(data, "kind", str)
        if kind not in KINDS:
            raise BadInput("kind", f"must be one of {', '.join(KINDS)}")
        return cls(kind=kind, track=req(data, "track", int), code=opt(data, "code", str, None),
                   confidence=float(req(data, "confidence", (int, float))),
                   corners=_corners(req(data, "corners", list), "corners"),
                   zone=opt(data, "zone", str, None),
                   first_seen=float(req(data, "first_seen", (int, float))),
                   last_seen=float(req(data, "last_seen", (int, float))),
                   previous_zone=opt(data, "previous_zone", str, None),
                   candidates=tuple(items(opt(data, "candidates", list, []), "candidates", _candidate)))
