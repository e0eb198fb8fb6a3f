"""A game's table recording rendered as camera frames, with the truth kept beside them.

The demo table has no camera and no cards, yet must go through the same vision a real
table does. A recording is a list of table changes as vision would report them
(`Observation`: a card appeared in a zone, moved to another, or is gone); this module
lays those cards out on a generated table, one change at a time, and photographs the
table frame by frame with the games' own card faces (`vision.synth.faces`), a mild
camera tilt, uneven light, sensor noise and now and then a hand sweeping across
(`vision.synth.camera`). Every card stays where it was put until the recording moves or
takes it, so vision sees a table, not a slide show.

Where a card lies: each zone gets fixed spots. A seat's spots form a row in front of
that seat, the cards turned to face it; the centre's spots are a grid, unless the
recording places its centre cards itself (distinct corners, as dugtungan's rows do),
in which case their arrangement is kept, scaled to the drawn card size. The card size
is the largest at which every spot lies inside the frame and inside its own zone
(`zones`, which the demo's pipeline then reads seats with, as a calibrated table would).
The truth is which recorded card lies under a point (`card_at`).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.geometry import side_lengths
from vision.observations import CENTRE, Observation
from vision.synth.camera import SKIN, HandSweep, Pose, camera_homography, card_corners, draw_hand, paste_card
from vision.synth.faces import BGR, FACE_SIZE, game_codes, game_face, random_face, slug
from vision.synth.scenes import table_image
from vision.zones import TableZones, frame_zones

SIZE = (1280, 720)
LONGEST_CARD = 0.2      # of the frame height: the biggest a card is drawn
MARGIN = 12             # pixels kept clear at the frame's edge
SLIDE_FRAMES = 5        # a card moved to another zone slides there over this many frames
SWEEP_CHANCE = 0.35     # share of changes a hand sweeps across the table right after
TABLES = ("wood", "felt", "dark")  # cloths a demo looks good on; patterned cloth is for the benchmarks
STRAY = "stray"         # a recorded "card" that is none of the game's: a coaster, a card of another deck
COVERED = "covered:"    # before a code: that card, lying partly under a thumb
STRAY_SEED = 7          # which card-like face the stray shows
THUMB_BGR = (120, 140, 190)


def face_code(game: str, code: str) -> str:
    """The deck's code for a card a recording names (`Higante` -> `higante`), so the
    face drawn is the one a deck enrolled from the generated faces knows."""
    return code if code in game_codes(game) or slug(code) not in game_codes(game) else slug(code)


def card_code(code: str) -> str:
    """The card a recorded code lays, however it lies (`covered:red-9` is `red-9`)."""
    return code[len(COVERED):] if code.startswith(COVERED) else code


def card_face(game: str, code: str) -> np.ndarray:
    """The face of `code`; a Gargon card lying face down shows its colour alone (`red`);
    `STRAY` is a card-like face of no game; a `COVERED` card has a thumb over its middle."""
    if code == STRAY:
        return random_face(random.Random(STRAY_SEED))
    if code.startswith(COVERED):
        face = card_face(game, card_code(code)).copy()
        w, h = FACE_SIZE
        cv2.ellipse(face, (round(0.55 * w), round(0.45 * h)), (round(0.15 * w), round(0.12 * h)), 30, 0, 360,
                    THUMB_BGR, -1, cv2.LINE_AA)
        return face
    if game == "gargon" and code in BGR and "-" not in code:
        return _gargon_back(code)
    return game_face(game, face_code(game, code))


def _gargon_back(colour: str) -> np.ndarray:
    """A Gargon back: the colour on both sides, the game's name, no value."""
    w, h = FACE_SIZE
    back = np.full((h, w, 3), (250, 250, 250), np.uint8)
    cv2.rectangle(back, (14, 14), (w - 15, h - 15), BGR[colour], -1)
    cv2.ellipse(back, (w // 2, h // 2), (w // 3, h // 5), 0, 0, 360, (250, 250, 250), 6, cv2.LINE_AA)
    cv2.putText(back, "GARGON", (w // 2 - 95, h // 2 + 14), cv2.FONT_HERSHEY_DUPLEX, 1.4, (250, 250, 250), 3,
                cv2.LINE_AA)
    return back


@dataclass(frozen=True)
class Spot:
    """Where a card may lie: its centre (pixels, on the table plane) and its turn (degrees)."""

    x: float
    y: float
    angle: float


def _spot_counts(changes: Sequence[Observation]) -> dict[str, int]:
    """The most cards each zone ever holds at once over the recording."""
    where: dict[int, str] = {}
    most: dict[str, int] = defaultdict(int)
    for change in changes:
        if change.kind == "gone":
            where.pop(change.track, None)
        elif change.zone is not None:
            where[change.track] = change.zone
        for zone in set(where.values()):
            most[zone] = max(most[zone], sum(z == zone for z in where.values()))
    return dict(most)


def _hints(changes: Sequence[Observation]) -> dict[int, tuple[float, float, float]] | None:
    """Each centre card's (x, y, long side) as the recording placed it, or None when the
    recording leaves the arrangement to us (all its centre cards share one box)."""
    boxes = {c.track: np.array(c.corners, np.float64) for c in changes if c.zone == CENTRE and c.kind != "gone"}
    if len({b.tobytes() for b in boxes.values()}) < 2:
        return None
    return {track: (*box.mean(axis=0), float(side_lengths(box).max()))
            for track, box in boxes.items()}


class TableLayout:
    """Spots for every zone of one recording, at the largest card size that fits."""

    def __init__(self, changes: Sequence[Observation], seats: int, size: tuple[int, int] = SIZE) -> None:
        self.size = size
        self.seats = seats
        self.angles = frame_zones(size[0], size[1], seats).seat_angles
        counts = _spot_counts(changes)
        hints = _hints(changes)
        self.hinted = hints
        length = LONGEST_CARD * size[1]
        while True:
            laid = self._lay(counts, hints, length)
            if laid is not None or length < 0.05 * size[1]:
                break
            length *= 0.95
        if laid is None:
            raise ValueError("the recording's cards do not fit on one table")
        self.card_length, self.spots, self.zones = length, laid[0], laid[1]

    def _lay(self, counts: dict[str, int], hints: dict[int, tuple[float, float, float]] | None,
             length: float) -> tuple[dict[str, list[Spot]], TableZones] | None:
        w, h = self.size
        cx, cy = w / 2, h / 2
        width = length * FACE_SIZE[0] / FACE_SIZE[1]
        spots: dict[str, list[Spot]] = {}
        if hints:
            xs, ys = zip(*[(x, y) for x, y, _ in hints.values()])
            mid, unit = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2), length / max(side for *_, side in hints.values())
            spots[CENTRE] = [Spot(cx + (x - mid[0]) * unit, cy + (y - mid[1]) * unit, 0.0)
                             for x, y, _ in sorted(hints.values())]
        else:
            n = counts.get(CENTRE, 0)
            columns = min(n, 5)
            rows = math.ceil(n / 5) if n else 0
            spots[CENTRE] = [Spot(cx + (k % 5 - (columns - 1) / 2) * 1.15 * width,
                                  cy + (k // 5 - (rows - 1) / 2) * 1.12 * length, 0.0) for k in range(n)]
        reach = max((math.hypot(s.x - cx, s.y - cy) for s in spots[CENTRE]), default=0.0)
        radius = reach + 0.4 * length if spots[CENTRE] else 0.6 * length
        for seat, angle in enumerate(self.angles):
            n = counts.get(f"seat-{seat}", 0)
            along = np.array([-math.sin(angle), math.cos(angle)])
            out = np.array([math.cos(angle), math.sin(angle)])
            distance = radius + 0.75 * length
            centres = np.array([cx, cy]) + distance * out + (np.arange(n)[:, None] - (n - 1) / 2) * 1.15 * width * along
            spots[f"seat-{seat}"] = [Spot(float(x), float(y), math.degrees(angle) - 90) for x, y in centres]
        zones = TableZones((cx, cy), radius, self.angles)
        for zone, places in spots.items():
            for spot in places:
                corners = card_corners(Pose(spot.x, spot.y, spot.angle), length, np.eye(3))
                inside = ((corners >= MARGIN) & (corners <= np.array([w, h]) - MARGIN)).all()
                if not inside or zones.zone_of_point((spot.x, spot.y)) != zone:
                    return None
        return spots, zones


class RecordedTable:
    """The table of one recording, photographed frame by frame as its changes are applied.

    `apply(change)` puts a card down, moves it (sliding, over a few frames) or takes it
    away; `frame()` is the next camera frame. The zones are the layout's, seen through
    the camera's tilt.
    """

    def __init__(self, game: str, changes: Sequence[Observation], seats: int, seed: int = 0,
                 size: tuple[int, int] = SIZE) -> None:
        self.game = game
        self.layout = TableLayout(changes, seats, size)
        self.rng = random.Random(seed)
        self.size = size
        self.camera = camera_homography(seed, size)
        w, h = size
        self._light = ((1 + self.rng.uniform(-0.2, 0.2) * (np.arange(w)[None, :] / w - 0.5)
                        + self.rng.uniform(-0.2, 0.2) * (np.arange(h)[:, None] / h - 0.5))
                       * self.rng.uniform(0.85, 1.05)).astype(np.float32)[..., None]
        table = table_image(self.rng.choice(TABLES), size, self.rng)
        table = cv2.warpPerspective(table, self.camera, size, borderMode=cv2.BORDER_REFLECT)
        self._table = np.clip(table * self._light, 0, 255).astype(np.uint8)
        noise = np.random.default_rng(seed)
        self._noise = [noise.normal(0, 2.5, (h, w, 3)).astype(np.int16) for _ in range(4)]
        self._faces: dict[str, np.ndarray] = {}
        self._free = {zone: list(range(len(spots))) for zone, spots in self.layout.spots.items()}
        hinted = self.layout.hinted or {}
        self._hinted = {track: k for k, track in enumerate(sorted(hinted, key=hinted.__getitem__))}
        self._cards: dict[int, tuple[str, str, int]] = {}  # track -> (code, zone, spot index)
        self._slides: dict[int, tuple[Pose, int]] = {}     # track -> (where it slides from, frames left)
        self._sweeps: list[HandSweep] = []
        self.index = 0

    @property
    def zones(self) -> TableZones:
        """The layout's zones as the camera sees them (centre and seat directions through the tilt)."""
        flat = self.layout.zones
        centre = self._seen(np.array([flat.centre]))[0]
        edge = self._seen(np.array([[flat.centre[0], flat.centre[1] - flat.centre_radius]]))[0]
        angles = tuple(math.atan2(p[1] - centre[1], p[0] - centre[0]) for p in self._seen(np.array(
            [[flat.centre[0] + 100 * math.cos(a), flat.centre[1] + 100 * math.sin(a)] for a in flat.seat_angles])))
        return TableZones((float(centre[0]), float(centre[1])), float(np.linalg.norm(edge - centre)), angles)

    def _seen(self, points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(points[None].astype(np.float32), self.camera)[0].astype(np.float64)

    def apply(self, change: Observation) -> None:
        """Carry out one recorded change on the table."""
        if change.kind == "gone":
            if change.track in self._cards:
                _, zone, spot = self._cards.pop(change.track)
                self._free[zone].append(spot)
                self._slides.pop(change.track, None)
        else:
            before = self._pose(change.track)
            if change.track in self._cards:
                _, zone, spot = self._cards.pop(change.track)
                self._free[zone].append(spot)
            zone = change.zone or CENTRE
            spot = self._take_spot(change.track, zone)
            self._cards[change.track] = (change.code or "", zone, spot)
            if change.kind == "moved" and before is not None:
                self._slides[change.track] = (before, SLIDE_FRAMES)
        if change.code != STRAY and self.rng.random() < SWEEP_CHANCE:  # (a staged stray leaves the
            self._sweep(change.track)  # recording's sweeps as they were, so its table films the same)

    def _take_spot(self, track: int, zone: str) -> int:
        free = self._free[zone]
        spot = self._hinted[track] if zone == CENTRE and track in self._hinted and self._hinted[track] in free \
            else min(free)
        free.remove(spot)
        return spot

    def _sweep(self, track: int) -> None:
        """A hand passing over the table near the card just put down or taken, soon after."""
        w, h = self.size
        pose = self._pose(track)
        reach = 0.5 if pose is None else min(0.95, max(0.3, 1.05 - pose.y / h))
        left = self.rng.random() < 0.5
        start = self.index + self.rng.randint(4, 8)
        self._sweeps.append(HandSweep(start, start + self.rng.randint(5, 9), -0.1 * w if left else 1.1 * w,
                                      1.1 * w if left else -0.1 * w, reach, self.rng.choice(SKIN)))

    def _pose(self, track: int) -> Pose | None:
        if track not in self._cards:
            return None
        _, zone, spot = self._cards[track]
        s = self.layout.spots[zone][spot]
        jitter = random.Random(track * 7919 + spot).uniform(-4, 4)
        return Pose(s.x, s.y, s.angle + jitter)

    def _drawn_pose(self, track: int) -> Pose | None:
        pose = self._pose(track)
        if pose is None or track not in self._slides:
            return pose
        start, left = self._slides[track]
        t = 1 - left / (SLIDE_FRAMES + 1)
        return Pose(start.x + t * (pose.x - start.x), start.y + t * (pose.y - start.y),
                    start.angle + t * (pose.angle - start.angle))

    def corners(self, track: int) -> np.ndarray | None:
        """Where a card lies in the frame now, clockwise from its own top-left."""
        pose = self._drawn_pose(track)
        return None if pose is None else card_corners(pose, self.layout.card_length, self.camera)

    def card_at(self, point: Sequence[float]) -> int | None:
        """The recorded card (its track in the recording) under a frame point, if any."""
        for track in self._cards:
            corners = self.corners(track)
            if corners is not None and cv2.pointPolygonTest(corners.reshape(-1, 1, 2).astype(np.float32),
                                                            (float(point[0]), float(point[1])), False) >= 0:
                return track
        return None

    def tracks(self) -> list[int]:
        """The recorded cards on the table now."""
        return list(self._cards)

    def code_of(self, track: int) -> str | None:
        """The card lying at `track` (a covered card's own code)."""
        return card_code(self._cards[track][0]) if track in self._cards else None

    def frame(self) -> np.ndarray:
        """The next camera frame of the table as it lies now."""
        image = self._table.copy()
        for track, (code, _, _) in self._cards.items():
            if code not in self._faces:
                self._faces[code] = card_face(self.game, code)
            corners = self.corners(track)
            if corners is not None:  # a card on the table always lies somewhere
                paste_card(image, self._faces[code], corners, self._light)
        for sweep in self._sweeps:
            if sweep.start <= self.index < sweep.end:
                draw_hand(image, sweep, self.index)
        self._sweeps = [s for s in self._sweeps if s.end > self.index]
        self._slides = {t: (start, left - 1) for t, (start, left) in self._slides.items() if left > 1}
        frame = np.clip(image.astype(np.int16) + self._noise[self.index % len(self._noise)], 0, 255).astype(np.uint8)
        self.index += 1
        return frame

