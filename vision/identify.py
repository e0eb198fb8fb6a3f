"""Name a rectified card against an enrolled gallery, or say honestly that it is unknown.

Two looks. A wide one ranks every shot of the gallery by a similarity that weighs the
ONNX embedding (layout, colour, pictures) and a small band-pass template of the
cut-out (vision/template.py), and keeps a shortlist of the best few codes. A close one
first aligns the card's print at twice that size onto the best shortlisted shot
(vision/alignment.py: a cut-out a few per cent off, or cut inside a rim the colour
of the table, is lined up again), then correlates it with each shortlisted shot
(`closeness`), and its corner boxes with every shot's (a design that prints its value
only small in the corners looks the same elsewhere for every value; the best code by
corners joins the shortlist): the winner is the best similarity plus corners plus closeness.

The open-set decision asks three things, each with a threshold fixed per deck from the
enrollment images alone (vision/deck.py): a floor on similarity (something that is
not one of this deck's cards at all); consistency, the card aligned onto the
winner's shot matching its print in every part of the card, not just on the whole
(vision/verify.py: what tells a forgotten GI from the enrolled DI, or red-0 from
red-8; a card the coarse cells refuse has a second chance at finer ones, which see a
value printed only small in the corners); and colour agreement with the winner's shot (vision/chroma.py: what tells a
forgotten blue-11 from the enrolled violet-11, which the band-pass print cannot).
A card that is not in the deck must come back as None, never as its look-alike.
A card about to be refused is tested against the next two shortlisted codes too
(`Gallery.second_look`): its own face may have been ranked behind a look-alike.
Each shot is enrolled both ways up, so one look at the card finds both its name and
which detected corner is its own top-left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, Sequence

import cv2
import numpy as np

from vision.interfaces import CARD_SIZE, Candidate, Reading
from vision.alignment import MARGIN, ShotModel, align
from vision.chroma import colour_agreement, colour_cells
from vision.template import DETAIL_SIZE, details, templates
from vision.verify import BLURS, FINE, PrintCells, blur_level, blurred, consistency, sharpness

SIMILARITY_WEIGHTS = (1 / 3, 2 / 3)  # embedding, template: measured best on generated tables (vision/template.py)
DETAIL_WEIGHT = 2.0  # closeness against similarity in the final ranking (measured on generated tables)
RUNNER_UP_GAP = 0.15  # score behind the best within which the runner-up is lined up with its own shot too
CONFIDENCE_SLOPE = 3.0  # a typical true card (one span over every threshold) reads 1 / (1 + e^-3), about 0.95
MIN_SPAN = 0.02  # least span a margin is measured in
READ_SIZE = (CARD_SIZE[0] // 2, CARD_SIZE[1] // 2)  # width, height cards are read at: every feature comes from there
SHORTLIST = 8  # codes the close look compares: a Gargon suit has eight or nine look-alikes the wide look barely tells apart
CORNER_WEIGHT = 1.0  # corner closeness against similarity in the ranking (the one weight tried: scripts/experiments/ident_world.py)
CORNER = (22, 26)  # width, height of each corner box of a 72x100 detail image: a corner index and its margin
CORNER_INSET = 3  # pixels the boxes keep off the detail image's edge (a cut-out's rim)
SECOND_LOOK = 2  # shortlisted codes after the winner a card about to be refused is tested against (a third named none more)


class Embedder(Protocol):
    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors for n rectified BGR cards."""


@dataclass(frozen=True)
class Ranking:
    """A shortlist in order of similarity plus closeness, and how the card agrees with
    the winner's shot: its print cell by cell (vision/verify.py), its colour
    (vision/chroma.py)."""

    columns: tuple[int, ...]  # gallery columns: shot index, plus n_shots when turned
    similarity: tuple[float, ...]
    closeness: tuple[float, ...]
    consistency: float
    colour: float  # the card's colour agreement with the winner's shot (vision/chroma.py)
    warp: np.ndarray = field(compare=False)  # the winner's shot -> the card's detail pixels (vision/alignment.py)
    aligned: np.ndarray = field(compare=False)  # the card's detail image aligned onto the winner's shot
    level: int = 0  # of vision/verify.py's BLURS: how blurred the winner's shot was to meet the card

    def score(self, i: int) -> float:
        return self.similarity[i] + DETAIL_WEIGHT * self.closeness[i]


@dataclass(frozen=True)
class _Shot:
    model: ShotModel  # for aligning cards onto it (vision/alignment.py)
    # per level of BLURS (vision/verify.py), the shot blurred that much:
    cells: tuple[PrintCells, ...]  # for checking an aligned card against its print
    fine: tuple[PrintCells, ...]  # the same at finer cells, for a card the coarse ones refuse
    sharpness: tuple[float, ...]  # what a card as blurred as it has left (vision/verify.py)

    @classmethod
    def of(cls, image: np.ndarray) -> "_Shot":
        levels = [blurred(image, level) for level in range(len(BLURS))]
        return cls(ShotModel.of(image), tuple(PrintCells.of(b) for b in levels),
                   tuple(PrintCells.of(b, FINE) for b in levels), tuple(sharpness(b) for b in levels))


@dataclass(frozen=True)
class Gallery:
    """Enrolled faces: one row per shot; several rows may share a code."""

    codes: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), unit rows
    turned: np.ndarray  # (n, d), the same shots turned 180 degrees
    templates: np.ndarray  # (n, t), unit rows (vision/template.py)
    turned_templates: np.ndarray  # (n, t), the same shots turned 180 degrees
    details: np.ndarray  # (n, 100, 72, 3) band-pass detail images (vision/template.py)
    colours: np.ndarray  # (n, 12, 9, 3) colour cells (vision/chroma.py)
    threshold: float  # least similarity (embedding and template, SIMILARITY_WEIGHTS) to accept
    min_consistency: float  # least consistency of the card with the winner's shot (vision/verify.py)
    min_colours: np.ndarray  # (n,) per shot: least colour agreement of a card named as it (vision/chroma.py)
    # least consistency at FINE cells of a card the coarse cells refuse (vision/verify.py)
    min_fine: float = float("inf")
    # how far above each threshold a typical true card reads (the median of the deck's
    # own calibration views): the unit `confidence` measures each test's margin in
    spans: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)  # similarity, consistency, colour, fine
    # (min_consistency, min_fine) of a card met by its shot blurred, per level of BLURS past the first
    # (vision/verify.py): a blurred card is as consistent with its blurred shot as a sharp one
    # with its sharp shot, and so is a forgotten look-alike, by more or less as the print tells
    blurred_cuts: tuple[tuple[float, float], ...] = ()

    def cuts(self, level: int) -> tuple[float, float]:
        """(min_consistency, min_fine) of a card met by its shot blurred to BLURS[level]
        (a gallery with no cut for that level: the sharpest level's)."""
        return self.blurred_cuts[level - 1] if 0 < level <= len(self.blurred_cuts) else (self.min_consistency, self.min_fine)

    @cached_property
    def _both_ways(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Embeddings and templates of every shot, upright then turned, as (dim, 2n)
        matrices, and the detail images likewise, built once per deck rather than
        once per frame."""
        by_embedding, by_template = SIMILARITY_WEIGHTS
        return (np.ascontiguousarray(by_embedding * np.concatenate([self.embeddings, self.turned]).T),
                np.ascontiguousarray(by_template * np.concatenate([self.templates, self.turned_templates]).T),
                np.concatenate([self.details, np.ascontiguousarray(self.details[:, ::-1, ::-1])]))

    @cached_property
    def _inner(self) -> np.ndarray:
        """(2n, k) the shots' detail images (as `_both_ways`) inside MARGIN, each channel
        less its mean, as unit rows: what an aligned card is correlated with."""
        return _unit_rows(self._both_ways[2])

    @cached_property
    def _corners(self) -> np.ndarray:
        """(2n, k) the shots' corner boxes (as `_both_ways`), as `_corner_rows`, each
        weighed by how much print its boxes hold against the rest of its face (at most
        1): what an aligned card's corners are correlated with. Blank corners (a SET
        card, a full-bleed picture's sky) correlate as noise does, and weigh nothing."""
        shots = self._both_ways[2]
        boxes = _corner_boxes(shots)
        weight = np.minimum(1.0, _spread(boxes) / np.maximum(_spread(shots[:, MARGIN:-MARGIN, MARGIN:-MARGIN]), 1e-6))
        return _unit_rows_of(boxes) * weight[:, None].astype(np.float32)

    def _shot(self, column: int) -> "_Shot":
        """What aligning a card onto one shot and checking it there need from the shot,
        built on first use."""
        if column not in self._shots:
            self._shots[column] = _Shot.of(self._both_ways[2][column])
        return self._shots[column]

    @cached_property
    def _shots(self) -> dict[int, "_Shot"]:
        return {}

    def similarities(self, embeddings: np.ndarray, templates: np.ndarray) -> np.ndarray:
        """(n_queries, 2 n_shots) from the queries' embeddings and templates: columns
        n_shots.. are the turned shots."""
        by_embedding, by_template, _ = self._both_ways
        return embeddings @ by_embedding + templates @ by_template

    def ranked(self, similarities: np.ndarray, detail: np.ndarray, cells: np.ndarray,
               leave_out: str | None = None) -> Ranking:
        """The close look at one card: `similarities` is its row of `similarities`,
        `detail` its detail image, `cells` its colour cells (vision/chroma.py); `leave_out` ranks as if that code had never been
        enrolled (how deck calibration sees a forgotten card)."""
        n = len(self.codes)
        columns: list[int] = []
        seen = {leave_out}
        for column in np.argsort(-similarities):  # each code's best shot, either way up
            code = self.codes[column % n]
            if code not in seen:
                seen.add(code)
                columns.append(int(column))
                if len(columns) == SHORTLIST:
                    break
        widest = columns[0]
        sharp = sharpness(detail)
        first = self._aligned(detail, widest)
        first_row = _unit_rows(first[0][None])[0]
        # the corner indices of the card lined up with the widest candidate, against every
        # shot's: a design that prints its value only small in the corners gives the wide
        # look, and the whole card, nearly the same picture for every value of a suit
        corner = self._corners @ _corner_rows(first[0][None])[0]
        by_corner = next((int(c) for c in np.argsort(-corner) if self.codes[c % n] not in seen), None)
        if by_corner is not None:
            columns.append(by_corner)
        near = self._inner[columns] @ first_row
        lead = similarities + CORNER_WEIGHT * corner  # what ranks the shortlist: similarity, corners and (below) closeness
        order = sorted(range(len(columns)), key=lambda i: -(lead[columns[i]] + DETAIL_WEIGHT * near[i]))
        columns, near = [columns[i] for i in order], [float(near[i]) for i in order]
        # the best two, each seen through its own alignment, when the second is close: a
        # card cut out a little off lines up better with its own face than with a look-alike's
        scores = [lead[c] + DETAIL_WEIGHT * value for c, value in zip(columns, near)]
        close_call = len(columns) > 1 and scores[1] > scores[0] - RUNNER_UP_GAP
        finalists = {c: first if c == widest else self._aligned(detail, c) for c in columns[:1 + close_call]}
        agreement, level = {}, {}
        for i, (c, (aligned, _)) in enumerate(finalists.items()):
            near[i], agreement[c], level[c] = self._judged(aligned, c, sharp, first_row if c == widest else None)
        if close_call and (lead[columns[1]] + DETAIL_WEIGHT * near[1] + agreement[columns[1]]
                           > lead[columns[0]] + DETAIL_WEIGHT * near[0] + agreement[columns[0]]):
            columns[:2], near[:2] = columns[1::-1], near[1::-1]
        winner = columns[0]
        if agreement[winner] < self.cuts(level[winner])[0]:
            # the winner's face the other way up: a card cut short at one end may look
            # more like its turned face to the wide look, and line up only with its own
            flipped = (winner + n) % (2 * n)
            aligned, warp = self._aligned(detail, flipped)
            value, agree, blur = self._judged(aligned, flipped, sharp)
            if (lead[flipped] + DETAIL_WEIGHT * value + agree
                    > lead[winner] + DETAIL_WEIGHT * near[0] + agreement[winner]):
                winner, columns[0], near[0] = flipped, flipped, value
                agreement[winner], level[winner], finalists[winner] = agree, blur, (aligned, warp)
        return Ranking(tuple(columns), tuple(float(similarities[c]) for c in columns), tuple(near),
                       agreement[winner], colour_agreement(cells, self._colours(winner)), finalists[winner][1],
                       finalists[winner][0], level[winner])

    def second_look(self, ranking: Ranking, detail: np.ndarray, cells: np.ndarray) -> Ranking | None:
        """A card `ranked` put behind a look-alike, named after all, or None.

        Only the shortlist's winner (and a runner-up close behind it) is lined up with
        its own shot and tested, and on a design the embedder never saw the card's own
        face is now and then ranked second or third behind a look-alike, which then
        fails the tests, and the card is refused. So for a card about to be refused
        (`margin` under 0) the next SECOND_LOOK codes are lined up and tested in full
        too. The card is named only where one of them passes every test, its print at
        the coarse cells, and no other code tested passes even the print test (so never
        two): a forgotten card differs from each of its look-alikes somewhere, so each
        fails, and two codes alike in print (a colour look-alike: the winner refused
        for colour alone) are not told apart here. The fine cells' second chance is not
        given again: their cut was fixed against forgotten cards' winners only, and
        forgotten look-alikes come closest to it (a forgotten face of the held-out
        family on a training table was named by its third code at the fine cells; every
        card the second look named on the training families passed at the coarse ones).
        `detail` and `cells` are the card's as `ranked` took them; the ranking returned
        has the named code first, the rest in their order."""
        sharp = sharpness(detail)
        looks = [self._as_winner(ranking, i, detail, cells, sharp)
                 for i in range(1, min(len(ranking.columns), 1 + SECOND_LOOK))]
        named = next((look for look in looks if _coarse(look, self) >= 0 and margin(look, self) >= 0), None)
        if named is None or any(_print_passes(look, self) for look in [ranking, *looks] if look is not named):
            return None
        return named

    def _as_winner(self, ranking: Ranking, i: int, detail: np.ndarray, cells: np.ndarray, sharp: float) -> Ranking:
        """`ranking` as if its i-th code had won: the card lined up with that code's
        shot and tested there (`sharp`: the card's sharpness)."""
        column = ranking.columns[i]
        aligned, warp = self._aligned(detail, column)
        near, agreement, level = self._judged(aligned, column, sharp)
        order = [i, *(j for j in range(len(ranking.columns)) if j != i)]
        closeness = [near if j == i else ranking.closeness[j] for j in order]
        return Ranking(tuple(ranking.columns[j] for j in order), tuple(ranking.similarity[j] for j in order),
                       tuple(closeness), agreement, colour_agreement(cells, self._colours(column)), warp, aligned, level)

    def as_code(self, similarities: np.ndarray, detail: np.ndarray, cells: np.ndarray, code: str) -> Ranking:
        """The close look at one card as if `code` had won it: lined up with that code's
        shot the wide look finds likeliest, each way up, and tested the way it lines up
        best (`similarities`, `detail`, `cells` as `ranked` takes them): the wide look
        that ranked the card behind a look-alike may have turned it wrong too."""
        n = len(self.codes)
        shot = max((c for c in range(2 * n) if self.codes[c % n] == code), key=lambda c: float(similarities[c])) % n
        sharp = sharpness(detail)
        looks = []
        for column in (shot, shot + n):
            aligned, warp = self._aligned(detail, column)
            near, agreement, level = self._judged(aligned, column, sharp)
            looks.append((float(similarities[column]) + DETAIL_WEIGHT * near + agreement, column, near, agreement, level, aligned, warp))
        _, column, near, agreement, level, aligned, warp = max(looks, key=lambda look: look[0])
        return Ranking((column,), (float(similarities[column]),), (near,), agreement,
                       colour_agreement(cells, self._colours(column)), warp, aligned, level)

    def _colours(self, column: int) -> np.ndarray:
        """Shot `column`'s colour cells (vision/chroma.py), turned with it."""
        n = len(self.codes)
        return self.colours[column] if column < n else self.colours[column - n, ::-1, ::-1]

    def fine(self, ranking: Ranking) -> float:
        """The card's consistency with the winner's shot at FINE cells (vision/verify.py)."""
        return consistency(ranking.aligned, self._shot(ranking.columns[0]).fine[ranking.level])

    def _judged(self, aligned: np.ndarray, column: int, sharp: float,
                row: np.ndarray | None = None) -> tuple[float, float, int]:
        """A card's detail image aligned onto shot `column` (`sharp`: the card's
        sharpness; `row`: its `_unit_rows`, if already known): its closeness to the shot,
        its consistency with the shot's print blurred as the card is, and that blur's
        level (vision/verify.py)."""
        row = _unit_rows(aligned[None])[0] if row is None else row
        closeness = float(self._inner[column] @ row)
        shot = self._shot(column)
        level = blur_level(sharp, shot.sharpness)
        return closeness, consistency(aligned, shot.cells[level]), level

    def _aligned(self, detail: np.ndarray, column: int) -> tuple[np.ndarray, np.ndarray]:
        """The card's detail image lined up with shot `column`, and the warp that did it
        (vision/alignment.py)."""
        return align(detail, self._shot(column).model)


def halved(cards: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Rectified cards at half size (READ_SIZE from CARD_SIZE), where every size the
    identifier reads them at (vision/template.py, vision/embed.py, vision/chroma.py) is
    a few cheap steps away: halving is the one size change OpenCV does quickly from
    180x252, the others from there cost a quarter of what they cost from the full size.
    Enrollment shots go the same way (vision/deck.py), so both sides of every comparison
    are made alike; a photo's cards are cut straight at READ_SIZE (vision/detect.py:
    CardCutter) and pass as they are."""
    return [card if card.shape[1::-1] == READ_SIZE else
            cv2.resize(card, (card.shape[1] // 2, card.shape[0] // 2), interpolation=cv2.INTER_AREA)
            for card in cards]


def _outline(warp: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Where the winner's shot, its whole face, lies in a card of `size` (w, h) as it was
    cut out: the detail image's corners carried through the alignment warp."""
    dw, dh = DETAIL_SIZE
    w, h = size
    corners = np.array([[0, 0, 1], [dw - 1, 0, 1], [dw - 1, dh - 1, 1], [0, dh - 1, 1]], np.float64)
    return ((warp @ corners.T).T[:, :2] * [(w - 1) / (dw - 1), (h - 1) / (dh - 1)]).astype(np.float32)


def _unit_rows(images: np.ndarray) -> np.ndarray:
    """(k, pixels) float32: each (h, w, c) detail image inside MARGIN, channel by channel
    less its mean, as a unit row."""
    return _unit_rows_of(images[:, MARGIN:-MARGIN, MARGIN:-MARGIN])


def _unit_rows_of(inner: np.ndarray) -> np.ndarray:
    """(k, pixels) float32: each (h, w, c) image, channel by channel less its mean, as a unit row."""
    planes = inner.transpose(0, 3, 1, 2).reshape(len(inner), inner.shape[3], -1)
    rows = (planes - planes.mean(axis=2, keepdims=True)).reshape(len(inner), -1)
    return np.ascontiguousarray(rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6), np.float32)


def _corner_boxes(images: np.ndarray) -> np.ndarray:
    """(k, 2 h, w, c) the top-left and bottom-right CORNER boxes of each (h, w, c) detail
    image, one above the other, the bottom-right one as it lies (so a card turned 180
    degrees meets its shot's boxes the same way, the other way round)."""
    (w, h), inset = CORNER, CORNER_INSET
    return np.concatenate([images[:, inset: inset + h, inset: inset + w],
                           images[:, -inset - h: -inset, -inset - w: -inset]], axis=1)


def _corner_rows(images: np.ndarray) -> np.ndarray:
    """(k, pixels) float32: each detail image's `_corner_boxes`, channel by channel less
    their mean, as a unit row."""
    return _unit_rows_of(_corner_boxes(images))


def _spread(images: np.ndarray) -> np.ndarray:
    """(k,) each (h, w, c) image's standard deviation, summed over channels: how much print it holds."""
    return images.reshape(len(images), -1, images.shape[3]).std(axis=1).sum(axis=1)


def margin(ranking: Ranking, gallery: Gallery) -> float:
    """How far the weakest of the three open-set tests passes (negative: fails), in
    its own test's span (`Gallery.spans`), so a colour agreement 0.03 over its cut (a
    lot, for colour) counts as much as a similarity 0.6 over its floor. Consistency
    passes at the coarse cells or, for a card they refuse that passes the other two
    tests, at the fine ones: its margin is then the better of the two."""
    similarity_span, _, colour_span, _ = _spans(gallery)
    others = min((ranking.similarity[0] - gallery.threshold) / similarity_span,
                 (ranking.colour - float(gallery.min_colours[ranking.columns[0] % len(gallery.codes)])) / colour_span)
    coarse = _coarse(ranking, gallery)
    if coarse < 0 <= others:
        coarse = max(coarse, _fine(ranking, gallery))
    return min(others, coarse)


def _print_passes(ranking: Ranking, gallery: Gallery) -> bool:
    """Whether the card is the winner's print, at the coarse cells or the fine ones,
    whatever the other tests say."""
    return _coarse(ranking, gallery) >= 0 or _fine(ranking, gallery) >= 0


def _coarse(ranking: Ranking, gallery: Gallery) -> float:
    """The consistency test's margin at the coarse cells, in its span."""
    return (ranking.consistency - gallery.cuts(ranking.level)[0]) / _spans(gallery)[1]


def _fine(ranking: Ranking, gallery: Gallery) -> float:
    """The consistency test's margin at the fine cells, in its span."""
    return (gallery.fine(ranking) - gallery.cuts(ranking.level)[1]) / _spans(gallery)[3]


def _spans(gallery: Gallery) -> tuple[float, ...]:
    """`Gallery.spans`, none under MIN_SPAN."""
    return tuple(max(span, MIN_SPAN) for span in gallery.spans)


def confidence(weakest: float) -> float:
    """0..1 from `margin`: 0.5 at the weakest test's threshold, about 0.95 where a
    typical true card of this deck reads; the table asks the host below its confidence
    bar (0.8 by default: a card less than about half as clear as a typical one)."""
    return float(1 / (1 + np.exp(-np.clip(CONFIDENCE_SLOPE * weakest, -50, 50))))


class GalleryIdentifier:
    """`Identifier` over an enrolled `Gallery` with an ONNX `Embedder`."""

    card_size = READ_SIZE  # cut out at the size it reads cards at: nothing to shrink

    def __init__(self, gallery: Gallery, embedder: Embedder, top: int = 3) -> None:
        self.gallery = gallery
        self.embedder = embedder
        self.top = top

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    @property
    def codes(self) -> Sequence[str]:
        """The codes enrolled."""
        return self.gallery.codes

    def judged_as(self, cards: Sequence[np.ndarray], codes: Sequence[str]) -> list[Reading]:
        """Each card named `codes[i]` (an enrolled code) where it passes every open-set
        test of that code's shot, its print at the coarse cells (as `Gallery.second_look`
        asks of a code ranked behind the winner); else null. For a second reader sure of
        a code this one ranked behind a look-alike (vision/print_check.py): named only
        where the two agree."""
        g = self.gallery
        readings = [Reading(None, 0.0, ()) for _ in cards]
        known = [i for i, code in enumerate(codes) if code in g.codes]
        for i, (sims, detail, cells, size) in zip(known, self._looks([cards[i] for i in known])):
            code = codes[i]
            ranking = g.as_code(sims, detail, cells, code)
            weakest = min(margin(ranking, g), _coarse(ranking, g))  # the fine cells' second chance not given
            readings[i] = Reading(code if weakest >= 0 else None, confidence(weakest), (Candidate(code, round(ranking.score(0), 4)),),
                                  rotated=bool(ranking.columns[0] >= len(g.codes)), outline=_outline(ranking.warp, size))
        return readings

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        """One reading per rectified card (at CARD_SIZE or READ_SIZE; its outline in its
        own pixels): one batch through the network and one matrix product shortlist
        codes, the close look ranks them and checks the winner, and a card it would
        refuse has a second look at the codes ranked next."""
        g = self.gallery
        n = len(g.codes)
        readings: list[Reading] = []
        for sims, detail, cells, size in self._looks(cards):
            ranking = g.ranked(sims, detail, cells)
            weakest = margin(ranking, g)
            if weakest < 0 and (second := g.second_look(ranking, detail, cells)) is not None:
                ranking, weakest = second, margin(second, g)
            column = ranking.columns[0]
            readings.append(Reading(
                code=g.codes[column % n] if weakest >= 0 else None,
                confidence=confidence(weakest),
                candidates=tuple(Candidate(g.codes[c % n], round(ranking.score(i), 4))
                                 for i, c in enumerate(ranking.columns[: self.top])),
                rotated=bool(column >= n), outline=_outline(ranking.warp, size)))
        return readings

    def _looks(self, cards: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]]:
        """What every look at a card starts from, for a batch in one network call: its
        row of `Gallery.similarities`, its detail image, its colour cells and its size."""
        if not cards:
            return []
        sizes = [card.shape[1::-1] for card in cards]
        halves = halved(cards)
        shot_sims = self.gallery.similarities(self.embedder.embed(halves), templates(halves))
        return list(zip(shot_sims, details(halves), colour_cells(halves), sizes))
