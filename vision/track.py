"""Cards over time: turn per-frame detections into a few trustworthy events.

A detector answers one frame at a time and is wrong now and then: it misses a card
under a passing hand, or briefly mistakes a hand or a shadow for a card. People only
care about cards that were put down, slid, or taken away. So a card is reported only
once it has been seen, holding still, in `confirm_frames` consecutive frames (a hand
sweeping by never holds still), and gone only after `lose_frames` frames without it; in between it coasts, keeping its identity, so a hand
sweeping over the table neither deletes nor creates anything. Identification is the
slow step, so it runs once, when a track is confirmed, never per frame, and once more
when a card comes to rest elsewhere: a card put down on or beside a card of its look and
size (a fan's next card, a pile's) can take over that card's track, and read again it
names itself, a new card, not that card moved.

A detector may doubt a find (vision/detectors.py `sure_and_doubted`: a contour find the
network saw no card in: a checked cloth's square, a strip of a card beneath, or a card
put down since the network last looked). A track whose latest sighting is doubted is
confirmed only when the reader names its card, and surely (`doubted_confidence`: the
printed reader named a floral cloth's flower "yellow-5" at 0.14, and reads a card at
0.9 or more); one the reader cannot name is refused,
reported never and read again only once a sighting of it is sure, so a cloth's square
costs one reading, not one every frame. A newcomer lying mostly inside a larger card already
reported is doubted too (`part_of`): a panel of that card's print the detector took for
a card (the network splits the project's dark Lagim faces so), while a card put down on
another is as large as it and is named. So is a newcomer both smaller than the table's
cards and of another shape: the strip of a fan's card a later card covers. A part is
read again only once its place or shape no longer make it one.

A card reported unknown is read again while it lies still, seen by a sure find, after
`reread_after` sightings and then after twice as many each time (the detector may
outline it better once a hand has gone or its network looked again, and the light
changes): named so, it is reported "named", the same track with its name, so the host
need not answer the question its unknown report raised. The wait doubles so a thing
that is no card of the deck costs a reading every few seconds, not one a frame.

A card missed while an arm or a hand rests over it is not taken away: what lay round
it is covered too, where a card taken away leaves the table round it as it was. So a
confirmed card missed in a frame whose surroundings changed as a whole (`Cover`, the
pipeline's look at the pixels) is not counted missed, for up to `longest_cover` frames;
longer (up to `longest_hidden`) only while the table is not seen where the card lay (an
arm rests there), and not at all where it is: a dense table cleared at once changes what
lay round each card too, but shows the cloth where the cards were.

A card the detector outlines otherwise for a while (a dark face split at its panels,
outlined a little off or with the cards touching it: each such outline looks unlike the
card) is still seen where it lay while the detector finds something there and the print
at its own outline is the print its last sighting showed there (`_in_place`): it is not
missed, and an outline lying mostly on it is no newcomer. A card taken away, covered,
turned over, slid, or laid on changes the print where it lay.

A card held in a hand above the table is no card laid: nearer the camera, it looks
larger than the cards lying there (`vision/table_scale.py` says how large one would look
at its place; a card of the table it hides says it better, where it says smaller: a few
cards under a steep camera give no fit, and their largest stands for every place), and a
hand never holds it quite still. A newcomer `nearer` times that size is reported only
once it has lain still to within `rest_tolerance` of a card length (or a pixel, the
detector's own tremble) for `held_frames` frames (so a card larger than the table's, or
a camera moved closer, costs 3 s, not the card); before that it is not even read. Two
touching or overlapping cards outlined as one are larger too, but hold a card of the
table whole, one the reader named that still looks as it was read, or whose corner is
one of theirs (a fan's next card and the card it mostly covers): they are read as before
(a card held squarely over a card of the table holds it whole too, but hides it, and its
corners lie beyond that card's). A card a held card hides, missed while it is held over
it, is covered, not taken away, and what is left in sight of it is not read again (no
card turned over, moved, or named while a hand holds cards over it). A doubted find the
detector's network saw as it is, in a still frame, and saw no card in (`looked`: a
checked cloth's square, two to four times a card's area) is larger too, and held, but
hides nothing: remembered as a held card, the squares round a pile froze it, its next
cards never read.

A card turned over where it lies (a Gargon play's backs turned up for the reveal, a Lagim
Forest card turned up) keeps its place, size and often much of its look (a Gargon card
shows its colour on both sides), so it goes on as the same track. So a card whose look,
holding still at the outline it was last read at, is no longer the look it was read at
is read again, once; named as another card, the card it was is "gone" and the one turned
up "appeared". A hand resting over a card changes its look too, but is read as no card
or as the same one. Only at the same outline: a card whose outline changed (a dark face
the network outlines by its panel, then whole) is no card turned over.

The tracker knows no pixels: it takes corner quadrilaterals and a callback that names
the card inside one, so it is tested on plain coordinates and the pipeline decides how
a card is cut out and read.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

import numpy as np

from vision.detect import _overlap, _polygon_area
from vision.geometry import aspect, side_lengths
from vision.interfaces import Reading
from vision.observations import Observation, as_corners
from vision.table_scale import TableScale

#: Names the card inside a quadrilateral of the current frame (corners as detected).
IdentifyCard = Callable[[np.ndarray], Reading]
#: The zone of the table a card's quadrilateral lies in ("centre", "seat-2"...), if known.
ZoneOf = Callable[[np.ndarray], "str | None"]


@dataclass(frozen=True)
class TrackerSettings:
    """How sure the tracker must be, in frames and in card lengths (the long side).

    At 10 frames a second the defaults report a card on the third frame it lies
    still in (0.2 s after it was put down) and let it vanish for up to 1.4 s (a hand
    reaching across, a card lifted and put down elsewhere) before calling it gone.
    """

    confirm_frames: int = 3      # N: consecutive sightings, holding still, before "appeared"
    lose_frames: int = 15        # M: frames without a sighting before "gone"
    longest_cover: int = 50      # frames a card missed under an arm or a hand resting on the table is kept
    longest_hidden: int = 300    # ... and while the table is not seen where it lay (`Cover.table_inside`) ...
    hidden: float = 0.5          # ... at most this share of it
    bare: float = 0.8            # a card missed where this share of its place shows the table is not covered
    gate: float = 1.2            # farthest a card may jump between frames it is seen in
    hidden_gate: float = 0.35    # ... and once it has been out of sight for two frames or more
    size_change: float = 1.5     # most a card's long side may grow or shrink between sightings
    turn: float = 35.0           # most a card's long side may turn between sightings, degrees
    doubted_confidence: float = 0.5  # least confidence of a name that makes a doubted find a card
    part_of: float = 0.7         # a newcomer this much inside a larger card reported is doubted
    larger: float = 1.25         # ... "larger": this many times its area (a card dropped on a card is as large)
    smaller: float = 0.6         # a newcomer under this share of the table's cards' area ...
    other_shape: float = 0.25    # ... and its short-over-long this far from theirs, relatively, is doubted
    min_likeness: float = 0.5    # least cosine similarity of looks for a sighting to continue a track
    move_threshold: float = 0.35  # how far a card must come to rest from where it was last reported
    read_again_off: float = 0.1  # ... and nearer, how far from where it was read to be read again
    settle_frames: int = 2       # frames a moved card must hold still before "moved"
    still_tolerance: float = 0.05  # movement between frames still counted as holding still
    reread_after: int = 10       # sightings of a card reported unknown before it is read again (then doubled)
    longest_reread_wait: int = 160  # ... but never more than this many
    turned_likeness: float = 0.9  # a look less like the one a card was read at than this: read again
    steady_likeness: float = 0.98  # ... once it is this like the sighting before (no hand passing over)
    nearer: float = 1.2          # a newcomer this many times the size of the table's cards at its place is held
    held_frames: int = 30        # ... until it has lain this many frames ...
    rest_tolerance: float = 0.01  # ... within this share of its length of where it lay
    least_rest_tolerance: float = 1.0  # ... or this many pixels, the detector's own tremble (a small, far card)
    remembered: int = 16         # cards gone whose outlines still say how large the table's cards look
    held_memory: int = 10        # frames an outline held above the table is remembered (its panels, what it hides)
    held_settle: int = 5         # frames a newcomer inside such an outline must lie still (a card put down there)
    held_reach: float = 1.5      # how far round a held card (times its size) the hand and its other cards reach
    held_hides: float = 0.2      # ... and the share of a card of the table under that which hides it
    shared_corner: float = 0.06  # a card of the table with a corner this near a larger outline's (share of its
    # length) is part of that outline: a blob's, not a card held over it
    print_likeness: float = 0.98  # least likeness of the print at a card's outline to its last sighting's there
    # for another outline lying on it to be that card's (`Cover.print_at`)


@dataclass
class _Track:
    id: int
    corners: np.ndarray          # the card's own corner order once identified
    first_seen: float
    last_seen: float
    hits: int = 1                # consecutive still sightings while unconfirmed
    missed: int = 0
    still: int = 0
    reading: Reading | None = None
    reported_centre: np.ndarray = field(default_factory=lambda: np.zeros(2))
    zone: str | None = None
    look: np.ndarray | None = None
    doubted: bool = False        # its latest sighting was a find the detector doubts ...
    looked: bool = False         # ... where its network saw the frame as it is (`Detection.looked`)
    refused: bool = False        # doubted, and the reader could not name it
    reported_corners: np.ndarray | None = None
    unread: int = 0              # sure, still sightings since an unknown card was last read
    reread_wait: int = 0         # ... and how many it waits for before its next reading
    around: np.ndarray | None = None  # what lay round it when it was last seen, once it is missed (`Cover`)
    covered: int = 0             # frames in a row it was missed under something that covers its surroundings too
    seen_look: np.ndarray | None = None  # its latest sighting's look (`look` follows light slowly)
    read_look: np.ndarray | None = None  # its look when it was last read ...
    read_corners: np.ndarray | None = None  # ... and its outline then
    rest: np.ndarray | None = None  # where it has lain still since ...
    rested: int = 0              # ... this many sightings (to within `rest_tolerance`)
    place: np.ndarray | None = None  # the print at its outline where its own sighting last showed it (`_in_place`)
    in_place: int = 0            # frames in a row it was seen so, by no sighting of its own

    @property
    def confirmed(self) -> bool:
        return self.reading is not None

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def length(self) -> float:
        return _long_side(self.corners)


def _long_axis(corners: np.ndarray) -> float:
    """The direction of a card's long side, degrees in [0, 180): the same whichever way
    up it lies and wherever its corners start."""
    sides = np.roll(corners, -1, axis=0) - corners
    dx, dy = sides[int(np.argmax(np.hypot(sides[:, 0], sides[:, 1])))]
    return float(np.degrees(np.arctan2(dy, dx))) % 180.0


def _turned(a: float, b: float) -> float:
    """Degrees between two long-axis directions."""
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def _long_side(corners: np.ndarray) -> float:
    """A card's long side in pixels: the unit every distance is measured in."""
    return float(max(side_lengths(corners).max(), 1.0))


def _grown(corners: np.ndarray, factor: float) -> np.ndarray:
    """An outline grown `factor` times about its centre."""
    centre = corners.mean(axis=0)
    return centre + factor * (corners - centre)


def _alike(a: np.ndarray | None, b: np.ndarray | None, least: float) -> bool:
    """Whether two looks may be the same card; without looks, anything may."""
    return a is None or b is None or float(a @ b) >= least


def _same_place(a: np.ndarray, b: np.ndarray, tolerance: float) -> bool:
    """Whether two outlines of a card lie within `tolerance` pixels, corner for corner,
    either way round."""
    return min(float(np.abs(a - np.roll(b, k, axis=0)).max()) for k in (0, 2)) <= tolerance


def _same_orientation(previous: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """`corners` turned by 0 or 180 degrees to best continue `previous`.

    A detector restarts its corner order from the image's point of view every frame;
    a card turned past 90 degrees would otherwise flip its own top-left.
    """
    turned = np.roll(corners, -2, axis=0)
    keep = np.linalg.norm(previous - corners, axis=1).sum()
    flip = np.linalg.norm(previous - turned, axis=1).sum()
    return corners if keep <= flip else turned


class Cover(Protocol):
    """Looks round a card's outline for the tracker, which knows no pixels."""

    def around(self, corners: np.ndarray) -> np.ndarray:
        """What lay round the outline in the last frame the card was seen in."""

    def covered(self, around: np.ndarray, corners: np.ndarray) -> bool:
        """Whether what lies round the outline now is no longer `around`, as a whole."""

    def table_inside(self, around: np.ndarray, corners: np.ndarray) -> float | None:
        """The share of the outline's inside that now looks like the table still seen
        round it (the part of `around` unchanged): near all of it where a card was taken
        away, little where an arm rests; None where no table is seen round it."""

    def look(self, corners: np.ndarray) -> np.ndarray:
        """What lies at the outline in this frame, as the looks `Tracker.update` is given
        describe a card (`vision.pipeline.card_look`)."""

    def print_at(self, corners: np.ndarray, before: bool = False) -> np.ndarray:
        """The print at the outline in this frame (or the one before), fine enough to tell
        two cards of a deck apart (`vision.pipeline.card_print`): a unit vector."""


class Tracker:
    """Feeds on detections frame by frame; answers with observations when cards change."""

    def __init__(self, settings: TrackerSettings | None = None, zone_of: ZoneOf | None = None) -> None:
        self.settings = settings or TrackerSettings()
        self._zone_of = zone_of or (lambda corners: None)
        self._tracks: list[_Track] = []
        self._ids = itertools.count(1)
        self._laid: deque[np.ndarray] = deque(maxlen=self.settings.remembered)  # outlines of cards gone
        self._scale: tuple[int, list[np.ndarray], TableScale] | None = None  # the frame it was last asked in,
        # the outlines the table's card sizes were fitted to (an outline is replaced, never changed, when a card
        # is reported again), and those sizes
        self._frame = 0
        self._held_at: deque[tuple[int, int, np.ndarray]] = deque()  # (frame, track id, outline) of cards held above the table
        self._cover: Cover | None = None  # this frame's

    def update(self, detections: Sequence[np.ndarray], timestamp: float, identify: IdentifyCard,
               looks: Sequence[np.ndarray] | None = None, doubted: Sequence[bool] | None = None,
               cover: "Cover | None" = None, looked: Sequence[bool] | None = None) -> list[Observation]:
        """Take one frame's card quadrilaterals; return what changed on the table.

        `looks`, if given, holds one unit vector per detection that describes what the
        card looks like whichever way up it lies (see `vision.pipeline.card_look`); a
        track then only continues with a sighting that looks like it. `doubted`, if
        given, says of each detection whether the detector doubts it (module docstring).
        `cover`, if given, tells a card covered from one taken away (module docstring).
        `looked`, if given, says of each doubted detection whether the detector's network
        saw it as it is and no card in it (`Detection.looked`).
        """
        quads = [np.asarray(d, dtype=np.float64).reshape(4, 2) for d in detections]
        self._frame += 1
        self._cover = cover
        while self._held_at and self._held_at[0][0] <= self._frame - self.settings.held_memory:
            self._held_at.popleft()
        seen_looks: list[np.ndarray | None] = list(looks) if looks is not None else [None] * len(quads)
        doubts = list(doubted) if doubted is not None else [False] * len(quads)
        saw = list(looked) if looked is not None else [False] * len(quads)
        matched, in_place = self._associate(quads, seen_looks)
        events: list[Observation] = []
        unseen = [track for track in self._tracks if track.id not in matched and track.id not in in_place]
        for track in [track for track in self._tracks if track.id in matched]:
            i, track.place, track.in_place = matched[track.id], None, 0
            events += self._seen(track, quads[i], seen_looks[i], doubts[i], timestamp, identify, saw[i])
        for track in [track for track in self._tracks if track.id in in_place]:
            (on, look), track.in_place = in_place[track.id], track.in_place + 1
            events += self._seen(track, track.corners, look, on is not None and doubts[on], timestamp, identify,
                                 on is not None and saw[on])
        for track in unseen:  # after the seen: a card given up in this frame still holds its panels
            if not self._covered(track, cover):
                events += self._unseen(track)
        taken = set(matched.values()) | {i for i, _ in in_place.values() if i is not None}
        for i, quad in enumerate(quads):
            if i not in taken:
                self._tracks.append(_Track(next(self._ids), quad, timestamp, timestamp, look=seen_looks[i],
                                           doubted=doubts[i], looked=saw[i], rest=quad.mean(axis=0)))
                events += self._confirm_if_due(self._tracks[-1], identify)
        return events

    def _associate(self, quads: list[np.ndarray], looks: list[np.ndarray | None]
                   ) -> tuple[dict[int, int], dict[int, tuple[int | None, np.ndarray]]]:
        """Track id -> detection index: nearest first, within the gate; and track id ->
        (detection index or None, look) of the cards seen where they lay (`_in_place`).

        A card out of sight for more than a flicker, or seen only where it lay
        (`_in_place`), is looked for only where it was last seen (a hand uncovers it where
        it lay): a newcomer put down nearby must not inherit a hidden card's identity. And a
        card keeps its size (a shadow taken for a big card must not swallow a real one), its
        look (a neighbour uncovered by the same hand must not swap identities with it) and,
        within `turn`, its direction (a card dropped on a discard pile, alike in look and
        size, lies turned on the one below: it is a new card, not the one below moved). A
        card carried further is recognised by its code instead (`_confirm_if_due`).
        Confirmed cards choose first so a flickering newcomer never steals a known card's
        sighting; a sighting that looks held above the table is no card of the table's (a
        card lifted is followed again where it is put down, by its code).
        """
        s = self.settings
        lengths = [_long_side(quad) for quad in quads]
        axes = [_long_axis(quad) for quad in quads]
        above = [self._above_the_table(quad) for quad in quads] if any(t.confirmed for t in self._tracks) else []
        pairs = []
        for track in self._tracks:
            reach = (s.gate if track.missed + track.covered + track.in_place < 2 else s.hidden_gate) * track.length
            # (out of sight, or seen only where it lay: it is looked for there)
            axis = _long_axis(track.corners)
            for i, quad in enumerate(quads):
                distance = float(np.linalg.norm(quad.mean(axis=0) - track.centre))
                if (distance <= reach and 1 / s.size_change <= lengths[i] / track.length <= s.size_change
                        and _turned(axis, axes[i]) <= s.turn
                        and _alike(track.look, looks[i], s.min_likeness)
                        and not (track.confirmed and above[i])):
                    pairs.append((not track.confirmed, distance, track.id, i))
        matched: dict[int, int] = {}

        def choose(newcomers: bool, taken: set[int]) -> None:
            for _, _, track_id, i in sorted(pair for pair in pairs if pair[0] == newcomers):
                if track_id not in matched and i not in matched.values() and i not in taken:
                    matched[track_id] = i
        choose(False, set())  # the confirmed cards first; then those seen where they lay take what lies on them
        in_place = self._in_place(quads, above, matched)
        choose(True, {i for i, _ in in_place.values() if i is not None})
        return matched, in_place

    def _in_place(self, quads: list[np.ndarray], above: list[bool],
                  matched: dict[int, int]) -> dict[int, tuple[int | None, np.ndarray]]:
        """Confirmed cards no sighting continued, seen where they lay: the print at the
        card's outline is still the print its last sighting showed there
        (`print_likeness`), and the detector still finds something there, a sighting
        lying mostly on the card or holding it (`part_of`). The detector outlined the
        card otherwise: the network splits a dark face at its panels, outlines it a little
        off, or with the cards touching it, and such outlines look unlike the card's own
        (`min_likeness`), so the card was missed while a part of it was taken for a
        newcomer. A card taken away, covered, turned over or slid changes the print
        where it lay; so does a card laid on it, which a look of a few cells
        (`Cover.look`) may not tell from it where both are white and print only a letter.
        Track id -> (the sighting lying mostly on it, no newcomer then, if any; the look
        at the card's outline)."""
        if self._cover is None:
            return {}
        s, taken = self.settings, set(matched.values())
        found: dict[int, tuple[int | None, np.ndarray]] = {}
        for track in self._tracks:
            if (not track.confirmed or track.id in matched or track.read_corners is None
                    or not _same_place(track.corners, track.read_corners, s.still_tolerance * track.length)):
                continue  # (only at the outline it was read at: an outline it took over since may be a blob)
            area = _polygon_area(track.corners)
            shares = [(_overlap(quad, track.corners), _polygon_area(quad)) for quad in quads]
            if not any(common >= s.part_of * min(area, size) for common, size in shares):
                continue
            if track.place is None:
                if track.missed or track.covered:
                    continue  # (the print of its last sighting is no longer at hand)
                track.place = self._cover.print_at(track.corners, before=True)  # where it was seen a frame ago
            if _alike(self._cover.print_at(track.corners), track.place, s.print_likeness):
                on = [i for i, (common, size) in enumerate(shares) if i not in taken and not (above and above[i])
                      and common >= s.part_of * size]
                found[track.id] = (on[0] if on else None, self._cover.look(track.corners))
        return found

    def _seen(self, track: _Track, quad: np.ndarray, look: np.ndarray | None, doubted: bool, timestamp: float,
              identify: IdentifyCard, looked: bool = False) -> list[Observation]:
        corners = _same_orientation(track.corners, quad)
        steady = _alike(look, track.seen_look, self.settings.steady_likeness)
        track.seen_look = look
        if look is not None and track.look is not None:  # follow slow changes of light
            blend = 0.8 * track.look + 0.2 * look
            track.look = blend / max(float(np.linalg.norm(blend)), 1e-6)
        centre = corners.mean(axis=0)
        step = float(np.linalg.norm(centre - track.centre))
        track.still = track.still + 1 if step <= self.settings.still_tolerance * track.length else 0
        resting = track.rest is not None and np.linalg.norm(centre - track.rest) <= max(
            self.settings.rest_tolerance * track.length, self.settings.least_rest_tolerance)
        if resting:
            track.rested += 1
        else:
            track.rest, track.rested = centre, 0
        track.corners, track.last_seen = corners, timestamp
        track.missed, track.around, track.covered = 0, None, 0
        track.doubted, track.looked = doubted, looked
        if track.refused and not doubted:  # a sure sighting earns another reading, unless still a part of a card
            track.refused = self._part_of_a_card(track) or self._unlike_the_table(track)
        if not track.confirmed:
            # a newcomer must also hold still: a card put down does, a passing hand does not
            track.hits = track.hits + 1 if track.still else 1
            return self._confirm_if_due(track, identify)
        if self._under_a_held_card(track):  # what is left in sight of it may be read as anything
            return []
        return (self._turned_over(track, steady, identify)
                or (self._named_later(track, identify) + self._moved_if_settled(track, identify)))

    def _covered(self, track: _Track, cover: "Cover | None") -> bool:
        """Whether a confirmed card missed in this frame lies under something that
        covers what lay round it too (an arm resting on the table): not missed then, up
        to `longest_cover` frames in a row, and on to `longest_hidden` while what lies
        where the card lay is not the table seen round it; never where the table is seen
        there (`Cover.table_inside`)."""
        s = self.settings
        if not track.confirmed or track.covered >= s.longest_hidden:
            return False
        if track.covered < s.longest_cover and self._under_a_held_card(track):
            track.covered += 1
            track.still = 0
            return True
        if cover is None:
            return False
        if track.around is None:
            track.around = cover.around(track.corners)
        if not cover.covered(track.around, track.corners):
            return False
        table = cover.table_inside(track.around, track.corners)
        if (table is not None and table >= s.bare) or (
                track.covered >= s.longest_cover and (table is None or table > s.hidden)):
            return False
        track.covered += 1
        track.still = 0
        return True

    def _unseen(self, track: _Track) -> list[Observation]:
        track.missed += 1
        track.still = 0
        if not track.confirmed:
            self._tracks.remove(track)  # a newcomer must be seen in consecutive frames
            return []
        if track.missed >= self.settings.lose_frames:
            self._tracks.remove(track)
            whole = self._whole_outline(track)
            if whole is not None:
                self._laid.append(whole)
            return [self._observation("gone", track)]
        return []

    def _confirm_if_due(self, track: _Track, identify: IdentifyCard) -> list[Observation]:
        held = self._held(track)  # (asked at every sighting: a held card's outline is remembered)
        if track.hits < self.settings.confirm_frames or track.refused or held:
            return []
        reading = identify(track.corners)
        doubted = track.doubted or self._part_of_a_card(track) or self._unlike_the_table(track)
        if doubted and not self._named(reading):
            track.refused = True
            return []
        return self._appeared(track, reading)

    def _appeared(self, track: _Track, reading: Reading) -> list[Observation]:
        if reading.rotated:
            track.corners = np.roll(track.corners, -2, axis=0)
        carried = self._missing_card(reading.code, track.centre)
        if carried is not None:
            return self._carried(carried, track)
        track.reading = reading
        track.reported_centre, track.reported_corners = track.centre, track.corners
        track.zone = self._zone_of(track.corners)
        track.reread_wait = self.settings.reread_after
        track.read_look = track.seen_look if track.seen_look is not None else track.look
        track.read_corners = track.corners
        return [self._observation("appeared", track)]

    def _turned_over(self, track: _Track, steady: bool, identify: IdentifyCard) -> list[Observation]:
        """A card turned over where it lies (module docstring): the card it was gone, the
        one turned up appeared, on a new track."""
        s = self.settings
        if (track.doubted or not steady or track.still < s.settle_frames or track.read_corners is None
                or _alike(track.seen_look, track.read_look, s.turned_likeness)
                or not _same_place(track.corners, track.read_corners, s.still_tolerance * track.length)):
            return []
        reading = self._read(track, identify)
        if not self._named(reading) or (track.reading is not None and reading.code == track.reading.code):
            return []
        self._tracks.remove(track)
        turned_up = _Track(next(self._ids), track.corners, track.last_seen, track.last_seen, look=track.seen_look,
                           seen_look=track.seen_look)
        self._tracks.append(turned_up)
        return [self._observation("gone", track)] + self._appeared(turned_up, reading)

    @staticmethod
    def _read(track: _Track, identify: IdentifyCard) -> Reading:
        """The card where it lies now, read again; the look and outline it was read at kept."""
        track.read_look, track.read_corners = track.seen_look, track.corners
        return identify(track.corners)

    def _named_later(self, track: _Track, identify: IdentifyCard) -> list[Observation]:
        """A card reported unknown, read again once it has waited its turn (module docstring)."""
        if track.reading is None or track.reading.code is not None:
            return []
        track.unread = track.unread + 1 if track.still and not track.doubted else 0
        if track.unread < track.reread_wait:
            return []
        track.unread, track.reread_wait = 0, min(2 * track.reread_wait, self.settings.longest_reread_wait)
        reading = self._read(track, identify)
        if not self._named(reading):
            return []
        if reading.rotated:
            track.corners = np.roll(track.corners, -2, axis=0)
        track.reading = reading
        return [self._observation("named", track)]

    def _held(self, track: _Track) -> bool:
        """Whether a newcomer looks held above the table (module docstring): larger than
        the table's cards at its place, and not yet lain still long enough to be one; or
        lying inside a card held there moments ago and not yet still (a panel of its print
        the detector outlines in some frames: it moves with the hand, where a card put
        down there lies still); or lying inside a card of the table another held card
        hides part of (what is left in sight of it, read as another card), and not where
        one was held (what lies there is the card put down or its panel: the rule before).
        A newcomer taken for held is remembered as held too; it hides nothing of its own,
        or it would go on doing so while it lay there. Not one held for its size alone that
        the network saw as it is and saw no card in (`Detection.looked`): a checked cloth's
        square, larger than a card, remembered as held, hid the cards dealt round it. (A
        find inside where a card was held moments ago is remembered still: a part of a
        dark face the network outlines in part, which the hand's card passed over.)"""
        s = self.settings
        if track.rested >= s.held_frames:
            return False
        area = _polygon_area(track.corners)
        inside = [held for _, held, outline in self._held_at if _overlap(track.corners, outline) >= s.part_of * area]
        where_held = any(held != track.id for held in inside)  # where another card was held moments ago
        above = self._above_the_table(track.corners)
        held = (above
                or (track.rested < s.held_settle and bool(inside))
                or not where_held and any(other.confirmed and _overlap(track.corners, other.corners) >= s.part_of * area
                                          and self._under_a_held_card(other, track)
                                          for other in self._tracks if other is not track))
        if held and not (above and track.doubted and track.looked):
            self._held_at.append((self._frame, track.id, track.corners))
        return held

    def _above_the_table(self, corners: np.ndarray) -> bool:
        """Whether an outline is larger than a card lying on the table at its place
        would be, and holds no card of the table whole that is still in sight: two
        touching or overlapping cards outlined as one are larger too, and hold the card
        put down first, which still looks as it was read, or has a corner where the
        outline has one (a fan's next card covers most of the card before it); a card
        held squarely over a card of the table holds it whole too, but hides it, and its
        corners lie out beyond it, whichever way it is turned (named: a card's part the
        detector outlined lies inside a held card too). How large a card looks where one
        of the table's cards lies hidden under the outline is that card's own size,
        where it is smaller than the table's fit says: with few cards, or far from the
        camera, the fit says the size of larger, nearer cards (`vision/table_scale.py`),
        and a card held over a far card is no larger than they are."""
        scale, s = self._table_scale(), self.settings
        if not scale:
            return False
        under = [(t, outline) for t in self._tracks if (outline := self._whole_outline(t)) is not None
                 and _overlap(t.corners, corners) >= s.part_of * _polygon_area(t.corners)]
        size = scale.size(corners.mean(axis=0))
        if under:
            size = min(size, max(_polygon_area(outline) for _, outline in under) ** 0.5)
        return (_polygon_area(corners) ** 0.5 > s.nearer * size  # (the looks only where it is larger)
                and not any(self._in_sight(t) or self._shares_a_corner(t, corners) for t, _ in under))

    def _shares_a_corner(self, track: _Track, corners: np.ndarray) -> bool:
        """Whether a card of the table has a corner where a larger outline has one
        (`shared_corner`): the outline of a fan's next card and the card it mostly
        covers, taken as one, is cornered by the corners of the card beneath still in
        sight, where a card held over a card, larger than it and turned any way, has its
        corners out beyond it (the corners of the card beneath may cross its edges)."""
        gaps = np.linalg.norm(track.corners[:, None, :] - corners[None, :, :], axis=2)
        return float(gaps.min()) <= self.settings.shared_corner * _long_side(track.corners)

    def _in_sight(self, track: _Track) -> bool:
        """Whether a card of the table still looks, where it was read, as it was read
        (`turned_likeness`); without looks, it may."""
        if self._cover is None or track.read_look is None or track.read_corners is None:
            return True
        return _alike(self._cover.look(track.read_corners), track.read_look, self.settings.turned_likeness)

    def _table_scale(self) -> TableScale:
        """How large the table's cards look (`vision/table_scale.py`), fitted again only
        when the outlines it stands on changed."""
        if self._scale is not None and self._scale[0] == self._frame:
            return self._scale[2]
        lying = [outline for t in self._tracks if (outline := self._whole_outline(t)) is not None] + list(self._laid)
        if self._scale is None or len(self._scale[1]) != len(lying) or any(
                a is not b for a, b in zip(self._scale[1], lying)):
            self._scale = self._frame, lying, TableScale(lying)
        else:
            self._scale = self._frame, self._scale[1], self._scale[2]
        return self._scale[2]

    @staticmethod
    def _whole_outline(track: _Track) -> np.ndarray | None:
        """A card's reported outline where it is one card's whole outline, as far as the
        tracker can tell: the reader named the card there (a part of a card, or two
        touching cards outlined as one, it mostly cannot)."""
        named = track.reading is not None and track.reading.code is not None
        return track.reported_corners if named else None

    def _under_a_held_card(self, track: _Track, besides: _Track | None = None) -> bool:
        """Whether a card held above the table moments ago (other than `besides`), with the
        hand and the cards fanned round it (`held_reach`), hides `held_hides` of `track` or
        more (the detector may miss a card a fifth covered: what is left is no card's shape)."""
        area = _polygon_area(track.corners)
        s = self.settings
        return any(_overlap(track.corners, _grown(outline, s.held_reach)) >= s.held_hides * area
                   for _, held, outline in self._held_at if besides is None or held != besides.id)

    def _named(self, reading: Reading) -> bool:
        return reading.code is not None and reading.confidence >= self.settings.doubted_confidence

    def _part_of_a_card(self, track: _Track) -> bool:
        """Whether `track` lies mostly inside a larger card reported and not yet gone (in
        sight, or out of it: the detector may see only the panels of a card's print)."""
        area = _polygon_area(track.corners)
        return any(other.confirmed and _polygon_area(other.corners) > self.settings.larger * area
                   and _overlap(track.corners, other.corners) >= self.settings.part_of * area
                   for other in self._tracks if other is not track)

    def _unlike_the_table(self, track: _Track) -> bool:
        """Whether `track` is both smaller than the cards reported on this table and of
        another shape: the strip of a fan's card that a later one covers, or a panel
        of a card's print, where the card's own outline is not seen. A card of the
        table's deck lying further from the camera is smaller but of nearly their shape."""
        reported = [other.corners for other in self._tracks if other.confirmed and other is not track]
        if not reported:
            return False
        s = self.settings
        area = float(np.median([_polygon_area(c) for c in reported]))
        shape = float(np.median([aspect(c) for c in reported]))
        return (_polygon_area(track.corners) < s.smaller * area
                and abs(aspect(track.corners) / shape - 1) > s.other_shape)

    def _missing_card(self, code: str | None, near: np.ndarray) -> _Track | None:
        """The nearest confirmed card with this code that is out of sight right now, if any
        (two copies of a card may both be hidden)."""
        hidden = [t for t in self._tracks if code is not None and t.confirmed and (t.missed or t.covered)
                  and t.reading is not None and t.reading.code == code]
        return min(hidden, key=lambda t: float(np.linalg.norm(t.centre - near)), default=None)

    def _carried(self, card: _Track, newcomer: _Track) -> list[Observation]:
        """A card lifted and put down elsewhere before it was given up: the same card, moved."""
        self._tracks.remove(newcomer)
        card.corners, card.last_seen = newcomer.corners, newcomer.last_seen
        card.missed, card.covered, card.around, card.still = 0, 0, None, self.settings.settle_frames
        return self._moved_if_settled(card)

    def _moved_if_settled(self, track: _Track, identify: IdentifyCard | None = None) -> list[Observation]:
        """A card come to rest away from where it was reported: "moved", once it is read
        again as the same card (`identify`, where the tracker only followed it).

        A card put down on or beside a card of its look and size (a fan's next card, a
        grid's neighbour) can take over that card's track; read again, it names itself.
        """
        s = self.settings
        travelled = float(np.linalg.norm(track.centre - track.reported_centre))
        if track.still < s.settle_frames:
            return []
        if travelled <= s.move_threshold * track.length:
            return self._put_down_near(track, identify)
        put_down = self._read_as_another(track, identify)
        if put_down:
            return put_down
        previous, track.zone = track.zone, self._zone_of(track.corners)
        track.reported_centre, track.reported_corners = track.centre, track.corners
        return [self._observation("moved", track, previous_zone=previous)]

    def _put_down_near(self, track: _Track, identify: IdentifyCard | None) -> list[Observation]:
        """A card put down over the card `track` followed, a little off it (a pile's next
        card): the track takes it over without coming far enough to be "moved" nor lying
        where the card was read to be turned over; read again it names itself
        (`_put_down_over`). (A pile's new card was lost so whenever it lay within a third
        of a card's length of the hidden card beneath, scripts/experiments/layout_events.py.)
        It is read again however it looks: two cards of a deck that differ in a syllable
        look alike at the tracker's few cells (0.93-0.98 where `turned_likeness` is 0.9),
        and a card nudged, read again as itself, costs one reading. It must lie
        `read_again_off` of its length from where it was read: a card whose outline
        flickers between the contour search's and the network's rougher one shifts a few
        pixels, and read at the rough one it was named as another card."""
        s = self.settings
        if (track.doubted or track.read_corners is None
                or np.linalg.norm(track.centre - track.read_corners.mean(axis=0)) <= s.read_again_off * track.length):
            return []
        return self._read_as_another(track, identify)

    def _read_as_another(self, track: _Track, identify: IdentifyCard | None) -> list[Observation]:
        """`track`'s card read again where it lies (`identify`, where the tracker does not
        only follow cards): named as another card than the one reported, that card was put
        down over it (`_put_down_over`)."""
        if identify is None or track.reading is None or track.reading.code is None:
            return []
        reading = self._read(track, identify)
        if self._named(reading) and reading.code != track.reading.code:
            return self._put_down_over(track, reading)
        return []

    def _put_down_over(self, track: _Track, reading: Reading) -> list[Observation]:
        """The sighting `track` followed is another card: that card is new (or a hidden one
        carried there), and `track` is back where it was reported, out of sight."""
        newcomer = _Track(next(self._ids), track.corners, track.last_seen, track.last_seen, look=track.look)
        self._tracks.append(newcomer)
        if track.reported_corners is not None:
            track.corners = track.reported_corners
        track.missed, track.still = 1, 0
        return self._appeared(newcomer, reading)

    def _observation(self, kind: str, track: _Track, previous_zone: str | None = None) -> Observation:
        reading = track.reading
        assert reading is not None  # only confirmed tracks are ever reported
        return Observation(kind=kind, track=track.id, code=reading.code,  # type: ignore[arg-type]
                           confidence=float(reading.confidence), corners=as_corners(track.corners.tolist()),
                           zone=track.zone, first_seen=track.first_seen, last_seen=track.last_seen,
                           previous_zone=previous_zone,
                           candidates=tuple((c.code, float(c.score)) for c in reading.candidates))
