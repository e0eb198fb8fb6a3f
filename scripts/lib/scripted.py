"""Generated table videos and seat layouts whose truth is known, for tests and benchmarks.

Tracking and zones are judged on what happens over time and around a table, which a
still scene cannot show: a video here follows a script (cards put down, slid to
another spot, taken away, a hand sweeping across) rendered frame by frame with the
synthetic faces and tables of `vision.synth`, under one camera tilt and light, with
fresh sensor noise each frame. The script is the truth the tracker's events are
scored against. A seat layout puts printed seat markers where people sit, unevenly,
and cards in front of them, to score seat assignment.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Collection, Iterator, Sequence

import cv2
import numpy as np

from scripts.detector_world import WHOLE, table_texture
from scripts.lib.evaluate import TABLE_CONFIDENCE
from vision.embed import OnnxEmbedder
from vision.identify import GalleryIdentifier
from vision.interfaces import CARD_SIZE, BatchIdentifier, Candidate, Reading
from vision.markers import marker_image
from vision.observations import CENTRE, Observation, seat_zone
from vision.print_check import checked_by_print
from vision.synth.camera import SKIN, HandSweep, Pose, camera_homography, card_corners, draw_hand, hand_mask, paste_card
from vision.synth.faces import game_codes, game_face
from vision.synth.scenes import TABLES, table_image
from vision.synth.tables import enrolled_deck
from vision.zones import CENTRE_MARKER


@dataclass
class ScriptedCard:
    """One card's life in a video: put down at `placed`, optionally moved to `moved_to`
    during frames [move_start, move_end) (slid along the table, or `carried`: lifted out
    of sight and put down there), taken away at `removed` (None: stays)."""

    code: str
    pose: Pose
    placed: int
    removed: int | None = None
    move_start: int | None = None
    move_end: int | None = None
    moved_to: Pose | None = None
    carried: bool = False

    def pose_at(self, frame: int) -> Pose | None:
        if frame < self.placed or (self.removed is not None and frame >= self.removed):
            return None
        if self.moved_to is None or self.move_start is None or self.move_end is None or frame < self.move_start:
            return self.pose
        if self.carried and frame < self.move_end:
            return None
        t = min(1.0, (frame - self.move_start + 1) / (self.move_end - self.move_start))
        a, b = self.pose, self.moved_to
        return Pose(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.angle + t * (b.angle - a.angle))


@dataclass
class TableScript:
    size: tuple[int, int]
    frames: int
    fps: float
    table: str
    cards: list[ScriptedCard] = field(default_factory=list)
    sweeps: list[HandSweep] = field(default_factory=list)
    card_length: float = 190.0
    seed: int = 0
    game: str = "gargon"  # whose faces the cards show


def make_script(seed: int, game: str = "gargon", size: tuple[int, int] = (1280, 720),
                seconds: float = 14.0, fps: float = 10.0) -> TableScript:
    """A random but plausible stretch of play: 3-6 cards put down on free spots of a
    grid, about half of them later slid to a neighbouring free spot or carried to any
    free spot, about half taken away, and 2-3 hand sweeps, one soon after the first card."""
    rng = random.Random(seed)
    w, h = size
    frames = round(seconds * fps)
    card_length = 0.27 * h
    cell = card_length * 1.25
    columns, rows = int(w // cell), int(h // cell)
    free = {(i, j) for i in range(columns) for j in range(rows)}

    def centre(spot: tuple[int, int]) -> tuple[float, float]:
        return ((w - cell * columns) / 2 + cell * (spot[0] + 0.5), (h - cell * rows) / 2 + cell * (spot[1] + 0.5))

    codes = list(game_codes(game))
    script = TableScript(size, frames, fps, rng.choice(("wood", "felt", "dark", "pattern")),
                         card_length=card_length, seed=seed, game=game)
    for _ in range(rng.randint(3, 6)):
        spot = rng.choice(sorted(free))
        free.discard(spot)
        placed = rng.randint(0, frames // 3)
        card = ScriptedCard(rng.choice(codes), Pose(*centre(spot), rng.uniform(-180, 180)), placed)
        carried = rng.random() < 0.5
        targets = sorted(free) if carried else sorted(
            t for t in free if abs(t[0] - spot[0]) + abs(t[1] - spot[1]) == 1)
        if targets and rng.random() < 0.5:
            target = rng.choice(targets)
            free.discard(target)
            card.move_start = rng.randint(placed + 20, placed + 40)
            # a carried card is out of sight briefly (a quick lift), a slid one in view throughout
            card.move_end = card.move_start + (rng.randint(2, 5) if carried else rng.randint(4, 10))
            card.moved_to = Pose(*centre(target), card.pose.angle + rng.uniform(-60, 60))
            card.carried = carried
        if rng.random() < 0.5:
            card.removed = rng.randint((card.move_end or placed) + 25, frames - 20)
        script.cards.append(card)
    first = min(c.placed for c in script.cards) + 12
    starts = [rng.randint(first, first + 20)] + [rng.randint(first, frames - 25) for _ in range(rng.randint(1, 2))]
    for start in starts:
        left = rng.random() < 0.5
        script.sweeps.append(HandSweep(start, start + rng.randint(8, 16), -0.1 * w if left else 1.1 * w,
                                       1.1 * w if left else -0.1 * w, rng.uniform(0.5, 0.95), rng.choice(SKIN)))
    return script


class ScriptedVideo:
    """Renders a `TableScript` frame by frame, with the truth for each frame."""

    def __init__(self, script: TableScript, game: str | None = None) -> None:
        game = game or script.game
        self.script = script
        rng = random.Random(script.seed)
        self.camera = camera_homography(script.seed, script.size)
        cv2.setRNGSeed(script.seed)  # a cloth's noise (OpenCV's own generator): the same video whatever ran before
        table = (table_image(script.table, script.size, rng) if script.table in TABLES
                 else table_texture(script.table, script.size, rng))  # the detector world's cloths
        self._table = cv2.warpPerspective(table, self.camera, script.size, borderMode=cv2.BORDER_REFLECT)
        self._faces = {c.code: game_face(game, c.code) for c in script.cards}
        w, h = script.size
        self._light = ((1 + rng.uniform(-0.25, 0.25) * (np.arange(w)[None, :] / w - 0.5)
                        + rng.uniform(-0.25, 0.25) * (np.arange(h)[:, None] / h - 0.5)) * rng.uniform(0.8, 1.1)
                       ).astype(np.float32)[..., None]
        self._table = np.clip(self._table * self._light, 0, 255).astype(np.uint8)
        # sensor noise: a few fixed noise frames in turn, so rendering stays cheap
        noise = np.random.default_rng(script.seed)
        self._noise = [noise.normal(0, 3, (h, w, 3)).astype(np.int16) for _ in range(5)]

    def corners(self, card: ScriptedCard, index: int) -> np.ndarray | None:
        pose = card.pose_at(index)
        return None if pose is None else card_corners(pose, self.script.card_length, self.camera)

    def covered(self, card: ScriptedCard, index: int) -> bool:
        """Whether a hand lies over any part of `card` in frame `index` (a card out of
        sight counts as covered)."""
        corners = self.corners(card, index)
        if corners is None:
            return True
        w, h = self.script.size
        for sweep in self.script.sweeps:
            hand = hand_mask(sweep, index, (w, h)) if sweep.start <= index < sweep.end else None
            if hand is None:
                continue
            (x0, y0, _, _), mask = hand
            outline = np.zeros_like(mask)
            cv2.fillConvexPoly(outline, np.round(corners - (x0, y0)).astype(np.int32), 255)
            if np.any((mask >= 128) & (outline > 0)):  # at least half the arm's colour: the soft edge is not cover
                return True
        return False

    def covered_cards(self) -> set[int]:
        """The cards a card put down later covers more than a card found whole may have
        covered (scripts/detector_world.py's WHOLE) while both lie: a pile's lower cards, a
        fan's. What a tracker should say of them once covered is either: a strip of a
        card, or gone."""
        out = set()
        for i, card in enumerate(self.script.cards):
            hidden = 0.0
            for later in self.script.cards[i + 1:]:
                mine, top = self.corners(card, later.placed), self.corners(later, later.placed)
                if mine is None or top is None:
                    continue
                hidden += float(cv2.intersectConvexConvex(mine.astype(np.float32), top.astype(np.float32))[0])
                if hidden > (1 - WHOLE) * float(cv2.contourArea(mine)):
                    out.add(i)
                    break
        return out

    def frame(self, index: int) -> np.ndarray:
        image = self._table.copy()
        for card in self.script.cards:
            corners = self.corners(card, index)
            if corners is not None:
                paste_card(image, self._faces[card.code], corners, self._light)
        for sweep in self.script.sweeps:
            if sweep.start <= index < sweep.end:
                draw_hand(image, sweep, index)
        return np.clip(image.astype(np.int16) + self._noise[index % len(self._noise)], 0, 255).astype(np.uint8)

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self.frame(i) for i in range(self.script.frames))


@lru_cache(maxsize=None)
def deck_reader(game: str) -> BatchIdentifier:
    """The product's reader of `game` at a scripted table: every face of the game enrolled
    from one generated photo of it, as a person enrolls a deck (vision/synth/tables.py),
    checked by print where the game's cards print their names. Where `ScriptFaces`
    stands in for a reader so that tracking is scored alone, this is the reader the
    live table runs."""
    embedder = OnnxEmbedder(threads=1)
    deck = enrolled_deck(game, game_codes(game), embedder, random.Random(f"scripted-deck:{game}"))
    return checked_by_print(GalleryIdentifier(deck.gallery, embedder), game)


class ScriptFaces:
    """An `Identifier` that knows only the faces a script puts on the table.

    Scoring a tracker needs codes that are right whenever the tracker hands over the
    right card; this matcher (normalised correlation of small colour images, both ways
    up) is that, without training a model or pretending to be the product's
    identifier. Like the product's readers it names nothing under `LEAST` (in the
    layout videos a cloth's flower read 0.13-0.4, most cards in play 0.6-1.0), so a find
    the detector doubts is judged at the live table as the product's reader would.
    """

    SIZE = (24, 34)
    LEAST = 0.5
    card_size = CARD_SIZE  # cut out as the product's readers cut a card (a `BatchIdentifier`: read as they read)

    def __init__(self, script: TableScript, game: str | None = None) -> None:
        game = game or script.game
        codes = sorted({c.code for c in script.cards})
        self._codes = codes
        self._faces = np.stack([self._vector(game_face(game, code)) for code in codes])

    def _vector(self, image: np.ndarray) -> np.ndarray:
        v = cv2.resize(image, self.SIZE, interpolation=cv2.INTER_AREA).astype(np.float32).ravel()
        v -= v.mean()
        return v / max(float(np.linalg.norm(v)), 1e-6)

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        return [self.identify(card) for card in cards]

    def identify(self, card: np.ndarray) -> Reading:
        upright, turned = self._vector(card), self._vector(cv2.rotate(card, cv2.ROTATE_180))
        scores = np.maximum(self._faces @ upright, self._faces @ turned)
        best = int(scores.argmax())
        rotated = bool(self._faces[best] @ turned > self._faces[best] @ upright)
        code = self._codes[best] if scores[best] >= self.LEAST else None
        ranked = sorted(zip(self._codes, scores.tolist()), key=lambda c: -c[1])[:3]
        return Reading(code, float(scores[best]), tuple(Candidate(c, float(v)) for c, v in ranked), rotated)


# --- seat layouts ---------------------------------------------------------------------

@dataclass(frozen=True)
class SeatTable:
    """A calibration picture with seat markers (and the centre marker), plus points on the
    table with the zone each truly lies in."""

    image: np.ndarray
    points: tuple[tuple[float, float], ...]
    zones: tuple[str, ...]
    seat_angles: tuple[float, ...]  # truth, on the table plane


def seat_angles(rng: random.Random, seats: int, min_gap: float = math.radians(40)) -> tuple[float, ...]:
    """Seat directions round the table in clockwise (screen) order, unevenly spaced,
    no two closer than `min_gap`."""
    while True:
        start = rng.uniform(-math.pi, math.pi)
        cuts = sorted(rng.uniform(0, math.tau) for _ in range(seats - 1))
        offsets = [0.0] + cuts
        gaps = [b - a for a, b in zip(offsets, offsets[1:] + [math.tau])]
        if min(gaps) >= min_gap:
            return tuple(math.remainder(start + o, math.tau) for o in offsets)


def seat_table(seed: int, seats: int, size: tuple[int, int] = (1280, 720), per_seat: int = 6,
               centre_cards: int = 4, even: bool = False) -> SeatTable:
    """Markers at the table's edge in front of each seat and points scattered in front of
    the seats (inside a margin of the angular boundary between neighbours) and in the
    centre. `even` spreads seats evenly from the bottom edge, as the default zones assume."""
    rng = random.Random(seed)
    w, h = size
    camera = camera_homography(seed, size)
    table = table_image(rng.choice(("wood", "felt", "dark", "pattern")), size, rng)
    centre = np.array([w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h])
    angles = (tuple(math.remainder(math.pi / 2 + k * math.tau / seats, math.tau) for k in range(seats))
              if even else seat_angles(rng, seats))
    marker = 0.11 * h

    def edge(angle: float) -> float:
        """Distance from the centre to the frame edge (less a marker) along `angle`."""
        dx, dy = math.cos(angle), math.sin(angle)
        limits = [((w - marker if dx > 0 else marker) - centre[0]) / dx if abs(dx) > 1e-9 else math.inf,
                  ((h - marker if dy > 0 else marker) - centre[1]) / dy if abs(dy) > 1e-9 else math.inf]
        return min(limits)

    def spot(angle: float, distance: float) -> np.ndarray:
        return centre + distance * np.array([math.cos(angle), math.sin(angle)])

    markers = [(k, spot(a, edge(a))) for k, a in enumerate(angles)] + [(CENTRE_MARKER, centre)]
    for marker_id, point in markers:
        half = marker / 2
        square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) + point
        square = cv2.perspectiveTransform(square[None].astype(np.float32), camera)[0]
        pad = cv2.copyMakeBorder(marker_image(marker_id, 120), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        paste_card(table, cv2.cvtColor(pad, cv2.COLOR_GRAY2BGR), square, shadow=False)
    points, zones = [], []
    inner = 0.2 * min(w, h)
    for k, a in enumerate(angles):
        gap = min(abs(math.remainder(a - b, math.tau)) for j, b in enumerate(angles) if j != k)
        for _ in range(per_seat):
            angle = a + rng.uniform(-0.35, 0.35) * gap
            points.append(spot(angle, rng.uniform(inner * 1.6, 0.85 * edge(angle))))
            zones.append(seat_zone(k))
    for _ in range(centre_cards):
        points.append(spot(rng.uniform(-math.pi, math.pi), rng.uniform(0, 0.5 * inner)))
        zones.append(CENTRE)
    seen = cv2.perspectiveTransform(np.array(points, np.float32)[None], camera)[0]
    noisy = table.astype(np.float32) + np.random.default_rng(seed).normal(0, 4, table.shape)
    return SeatTable(np.clip(noisy, 0, 255).astype(np.uint8), tuple(map(tuple, seen.tolist())),
                     tuple(zones), angles)



# --- scoring a tracker's events against the script ---------------------------------------

@dataclass(frozen=True)
class TruthEvent:
    kind: str
    card: int    # index into the script's cards
    frame: int   # when it happened on the table (a move: when the card came to rest)


def truth_events(script: TableScript, covered: Collection[int] = ()) -> list[TruthEvent]:
    """Each card's appearance, move and removal; of a card later covered (`covered`),
    its appearance only."""
    events = []
    for i, card in enumerate(script.cards):
        events.append(TruthEvent("appeared", i, card.placed))
        if i in covered:
            continue
        if card.move_end is not None:
            events.append(TruthEvent("moved", i, card.move_end))
        if card.removed is not None:
            events.append(TruthEvent("gone", i, card.removed))
    return events


def card_at(video: ScriptedVideo, point: np.ndarray, frame: int) -> int | None:
    """The script's card lying on top at `point` in `frame` (its index), if any."""
    for i, card in reversed(list(enumerate(video.script.cards))):  # the card on top first
        corners = video.corners(card, frame)
        if corners is not None and cv2.pointPolygonTest(corners.reshape(-1, 1, 2), tuple(map(float, point)), False) >= 0:
            return i
    return None


def score_events(video: ScriptedVideo, emitted: Sequence[tuple[int, Observation]],
                 window_s: float = 3.0) -> dict[str, Any]:
    """Precision and recall of (kind, card) events, and appearance latencies in seconds.

    A track is tied to the card under its first event; every later event of that track
    counts for that card, so a track that jumps to another card scores as wrong events.
    An event is right when the script has the same kind for that card no earlier than
    the script's frame and at most `window_s` later. Of a card later covered
    (`ScriptedVideo.covered_cards`), only appearances count: its other events are
    neither right nor wrong, but a second appearance of it (a strip taken for a new
    card) is wrong.

    The events that are not right (`wrong_events`) and the truth no event matched
    (`missed_events`) are listed too, for finding out why.

    Two latencies for each card that appeared: from its placement (`latencies_s`), and
    from the start of the stretch of frames in which no hand covered it up to its event
    (`in_view_latencies_s`): a card put down while an arm sweeps over it cannot be seen
    until the arm has passed, and that wait is the arm's, not the tracker's.

    Of the cards that appeared rightly, how many were named right (`codes_right`),
    named another face (`codes_wrong`), and of those named so at or above the live
    table's bar (`codes_wrong_sure`: recorded without a question to the host), and of
    those named right, how many under that bar (`codes_right_unsure`: asked about). A
    "named" event is no change of the table, so it is neither right nor wrong: of the
    cards that appeared rightly but unnamed, it counts those named right later
    (`named_later`) and wrong (`named_later_wrong`, `named_later_wrong_sure`).
    """
    fps = video.script.fps
    covered = video.covered_cards()
    truth = truth_events(video.script, covered)
    owner: dict[int, int | None] = {}
    used: set[int] = set()
    right, latencies, in_view, codes_right, codes_wrong, codes_wrong_sure, ignored = 0, [], [], 0, 0, 0, 0
    codes_right_unsure = 0
    later: Counter[str] = Counter()
    unnamed: dict[int, int] = {}  # track -> the card it rightly reported, unnamed
    wrong: list[dict] = []
    for frame, event in emitted:
        if event.kind == "named":
            ignored += 1
            card = unnamed.pop(event.track, None)
            if card is not None:
                truth_code = video.script.cards[card].code
                later["named_later" if event.code == truth_code else "named_later_wrong"] += 1
                later["named_later_wrong_sure"] += event.code != truth_code and event.confidence >= TABLE_CONFIDENCE
            continue
        if event.track not in owner:
            seen = round(event.last_seen * fps)
            owner[event.track] = card_at(video, np.mean(event.corners, axis=0), seen)
        card = owner[event.track]
        if card in covered and event.kind != "appeared":
            ignored += 1
            continue
        match = None if card is None else next(
            (k for k, t in enumerate(truth) if k not in used and t.kind == event.kind and t.card == card
             and t.frame <= frame <= t.frame + window_s * fps), None)
        if card is None or match is None:  # no card under the track's first event, or no such event of that card then
            wrong.append({"frame": frame, "kind": event.kind, "track": event.track, "card": card,
                          "code": event.code, "corners": [list(map(float, c)) for c in event.corners]})
            continue
        used.add(match)
        right += 1
        if event.kind == "appeared":
            latencies.append((frame - truth[match].frame) / fps)
            clear_from = frame
            while clear_from > truth[match].frame and not video.covered(video.script.cards[card], clear_from - 1):
                clear_from -= 1
            in_view.append((frame - clear_from) / fps)
            named_right = event.code == video.script.cards[card].code
            codes_right += named_right
            codes_right_unsure += named_right and event.confidence < TABLE_CONFIDENCE
            if event.code is None:
                unnamed[event.track] = card
            if event.code not in (None, video.script.cards[card].code):
                codes_wrong += 1
                codes_wrong_sure += event.confidence >= TABLE_CONFIDENCE
    appeared = sum(t.kind == "appeared" for t in truth)
    counted = len(emitted) - ignored
    return {"events": counted, "truth_events": len(truth), "right": right,
            "precision": right / counted if counted else 1.0,
            "recall": right / len(truth) if truth else 1.0,
            "latencies_s": latencies, "in_view_latencies_s": in_view, "codes_right": codes_right,
            "codes_right_unsure": codes_right_unsure, "codes_wrong": codes_wrong, "codes_wrong_sure": codes_wrong_sure,
            **{key: later[key] for key in ("named_later", "named_later_wrong", "named_later_wrong_sure")},
            "appeared": appeared, "wrong_events": wrong,
            "missed_events": [{"kind": t.kind, "card": t.card, "frame": t.frame}
                              for k, t in enumerate(truth) if k not in used]}
