"""One still image in, every card found and named: the core of `companion recognize`.

Detection, rectification and identification stay separate pieces (vision/detect.py,
vision/identify.py); this only wires them for a single frame. A quadrilateral that is
nearly square (a card seen under strong tilt) does not say which side is the short
one, so it is read both ways and the better match decides.

A card the identifier is unsure of is often one cut out a few per cent off (its rim
lost against a cloth of its colour, a cloth motif joined to its outline), and the
identifier's alignment onto its best candidate says where that candidate's face lies
in the cut-out (`Reading.outline`). Such a card is cut out again there and read once
more (as cut, and fitted to the edges there), and the clearer reading stands, cut
again from there while it keeps improving: for a card that is not the candidate,
each look is judged by the same open-set tests as the first. A card still unsure is
searched for again in a crop around it at the frame's full size (the detector
searches a whole frame shrunk, where cloth motifs merge with a card's outline or only
its art panel stands out), and any other outline found there is read too; unless the
detector's two searches outline it alike or its outline has a card's shape, and it
reads as a face never enrolled, cut just where its candidate's face would lie.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.deck import DeckProfile
from vision.detect import CARD_ASPECT, CardCutter, unrectify
from vision.detectors import card_detector, closer_detector, sure_and_doubted
from vision.embed import DEFAULT_MODEL, OnnxEmbedder
from vision.extend import whole_card_outlines
from vision.geometry import aspect, side_lengths
from vision.identify import GalleryIdentifier
from vision.imageio import DECODE_MIN_SIDE, decode
from vision.interfaces import BatchIdentifier, CardDetector, CardResult, Detection, Reading
from vision.joint_settings import AGREE
from vision.learned_detect import outline_iou
from vision.print_check import checked_by_print
from vision.refine import refine_quads

AMBIGUOUS_ASPECT = 0.5 * (CARD_ASPECT + 1)  # short/long above this: sides too alike to trust
RECUT_BELOW = 0.9   # confidence under which a card is cut out again along its candidate's face (a typical true card reads 0.95)
RECUT_MOVE = 0.03   # least move of a corner, as a share of the card's short side, worth a second cut
RECUT_LIMIT = 0.4   # a larger move is an alignment that lost its way, not a cut-out error
RECUT_ROUNDS = 3    # most cuts along the candidate's face, each from the last one that helped
CLOSER_PAD = 0.6    # a closer look searches the card's box grown by this share of its size (at least a typical card's) on every side
CLOSER_GAIN = 1.25  # ... when the frame was searched at most 1 / this of its full size


def _unsure(reading: Reading) -> bool:
    """Whether a reading is worth a second look: null or under RECUT_BELOW, from an
    identifier that matches the whole face (one that gives its outline; a printed
    reader reads a token, which a part of a card also holds)."""
    return reading.outline is not None and (reading.code is None or reading.confidence < RECUT_BELOW)


def _candidate_face(corners: np.ndarray, reading: Reading, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    """Where a card's best candidate's face lies in the image (its reading made of a
    cut-out of `size`, with an outline), and how far that is from the cut: its
    farthest corner's move, as a share of the card's short side."""
    assert reading.outline is not None
    face = unrectify(reading.outline, corners, size)
    return face, float(np.linalg.norm(face - corners, axis=1).max()) / max(float(side_lengths(corners).min()), 1.0)


def _face(corners: np.ndarray, reading: Reading, size: tuple[int, int]) -> np.ndarray | None:
    """Where an unsure card's best candidate's face lies in the image, if that is a cut
    worth making (moved more than RECUT_MOVE, less than RECUT_LIMIT); else None."""
    if not _unsure(reading) or reading.outline is None:
        return None
    face, move = _candidate_face(corners, reading, size)
    return face if RECUT_MOVE < move < RECUT_LIMIT else None


def _never_enrolled(corners: np.ndarray, reading: Reading, size: tuple[int, int]) -> bool:
    """Whether a card reads as a face never enrolled: null, though its best candidate's
    whole face, aligned onto it, lies where it was cut (within RECUT_MOVE, where the
    second cuts leave it too). Of a cut that is the card's own outline, that says its
    print is not the candidate's; but an alignment that never got going stays in
    place too, so it is asked only of a card whose outline is settled otherwise."""
    return reading.code is None and reading.outline is not None and _candidate_face(corners, reading, size)[1] <= RECUT_MOVE


def _moved(quad: np.ndarray, corners: np.ndarray) -> float:
    """How far the farthest of quad's corners lies from every one of `corners`, in
    pixels: whatever their order."""
    return float(np.linalg.norm(quad[:, None] - corners[None], axis=2).min(axis=1).max())


def _edge_fitted(image: np.ndarray, chosen: list[tuple[np.ndarray, Reading]],
                 faces: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """Each (card, face) fitted to the edges near it, where that is a new cut: one that
    lands back on the face or on the card's current cut is the same pixels, and for a
    card that is not enrolled its noise would pass for progress and buy another round."""
    fitted = refine_quads(image, [face for _, face in faces])
    return [(i, quad) for (i, face), quad in zip(faces, fitted)
            if min(_moved(quad, face), _moved(quad, chosen[i][0])) > RECUT_MOVE * float(side_lengths(face).min())]


def _settled(image: np.ndarray, chosen: list[tuple[np.ndarray, Reading]], agreed: list[bool],
             partners: list[np.ndarray | None], size: tuple[int, int]) -> list[bool]:
    """Which cards read as a face never enrolled (`_never_enrolled`, cut out at `size`)
    where their outline is settled: it has a card's shape (no whole card it would be
    part of, vision/extend.py), or the detector's two searches agree on it
    (`Detection.agreed`, or its `partner` once both are fitted to the edges,
    `_agreed_once_fitted`). A face lined up in place alone is not enough, nor an outline
    the searches agree on alone (measured on EVAL_SEED's tables: a dugtungan L cut 30%
    off, a third too thin for a card, whose candidate's face lined up in place, and a
    Lagim mambabarang the two searches outlined alike, 10% off the card, were both
    named by a closer look; of the other 54 faces never enrolled it searched for in
    vain, 45 had a card's shape and 4 more were outlined alike once fitted)."""
    never = [_unsure(reading) and _never_enrolled(corners, reading, size) for corners, reading in chosen]
    shaped = [n and not whole_card_outlines(corners) for n, (corners, _) in zip(never, chosen)]
    asked = [p if n and not (a or s) else None for p, n, a, s in zip(partners, never, agreed, shaped)]
    return [n and (a or s or f) for n, a, s, f in zip(never, agreed, shaped, _agreed_once_fitted(image, chosen, asked))]


def _agreed_once_fitted(image: np.ndarray, chosen: list[tuple[np.ndarray, Reading]],
                        partners: list[np.ndarray | None]) -> list[bool]:
    """Whether each card's outline (fitted to its edges already) and its partner (the
    detector's other outline of it, where given) fitted to the edges agree (AGREE): the
    network outlines a card from maps a quarter of its input's size, a few pixels off
    the edge that the fit finds on both. One edge fit of the partners given, where a
    closer look costs a search of a crop round the card."""
    asked = [(i, partner) for i, partner in enumerate(partners) if partner is not None]
    agreed = [False] * len(chosen)
    for (i, _), quad in zip(asked, refine_quads(image, [partner for _, partner in asked])):
        agreed[i] = outline_iou(chosen[i][0], quad) >= AGREE
    return agreed


def _fitted_apart(image: np.ndarray, tries: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    """Each (card, outline) of `tries` fitted to the edges, in the same order, no two
    outlines of one card in one fit: the fit takes the table's colour from past a
    card's sides where they do not end on another outline fitted with it, and a card's
    other outlines, lying on it, left it only the card's own face for table (measured:
    a ribbon card's whole outline, fitted with its other whole outline and its
    network outline, read null; fitted apart, named at 0.96)."""
    layers: dict[int, list[int]] = {}  # the k-th outline of every card in layer k
    count: Counter[int] = Counter()
    for k, (i, _) in enumerate(tries):
        layers.setdefault(count[i], []).append(k)
        count[i] += 1
    fitted: dict[int, np.ndarray] = {}
    for layer in layers.values():
        fitted.update(zip(layer, refine_quads(image, [tries[k][1] for k in layer])))
    return [(i, fitted[k]) for k, (i, _) in enumerate(tries)]


def _both_ways(quad: np.ndarray) -> list[np.ndarray]:
    """`quad`, and read from its next corner too where its sides are too alike to say
    which is the short one (AMBIGUOUS_ASPECT)."""
    return [quad] + ([np.roll(quad, -1, axis=0)] if aspect(quad) > AMBIGUOUS_ASPECT else [])


def _top_score(reading: Reading) -> float:
    return reading.candidates[0].score if reading.candidates else -1.0


class CardRecognizer:
    def __init__(self, detector: CardDetector, identifier: BatchIdentifier) -> None:
        self.detector = detector
        self.closer = closer_detector(detector)
        self.identifier = identifier

    @classmethod
    def for_deck(cls, deck: DeckProfile, model: Path = DEFAULT_MODEL, threads: int = 1,
                 detector: CardDetector | None = None) -> "CardRecognizer":
        return cls(detector or card_detector(),
                   checked_by_print(GalleryIdentifier(deck.gallery, OnnxEmbedder(model, threads)), deck.game, threads))

    def recognize_file(self, data: bytes, min_side: int = DECODE_MIN_SIDE) -> list[CardResult] | None:
        """Every card in an encoded photo (decoded only as large as needed: its longer
        side at least `min_side`), corners in the photo's own pixels; None if it is not
        a picture."""
        image, factor = decode(data, min_side)
        if image is None:
            return None
        return [CardResult(r.corners * factor, r.reading) for r in self.recognize(image)]

    def recognize(self, image: np.ndarray) -> list[CardResult]:
        """Every card in a BGR image, corners clockwise from the card's own top-left. A
        find the detector doubts (vision/detectors.py: `sure_and_doubted`) is a card only
        where the reader names it: a cloth's square is none of the deck's cards."""
        sure, doubted = sure_and_doubted(self.detector, image)
        results = self._read(image, sure + doubted)
        return results[:len(sure)] + [r for r in results[len(sure):] if r.reading.code is not None]

    def read_card(self, image: np.ndarray, detection: Detection) -> CardResult:
        """The one card the live table has just seen hold still, as detected, read as a
        photo's card is: both ways up, cut again where its face lies, the whole card
        round a part of it, the detector's other outline of it, a closer look
        (vision/pipeline.py)."""
        return self._read(image, [detection])[0]

    def _read(self, image: np.ndarray, detections: list[Detection]) -> list[CardResult]:
        ways = [_both_ways(q) for q in refine_quads(image, [d.corners for d in detections])]
        flat = [q for options in ways for q in options]
        cut = CardCutter(image, self.identifier.card_size)
        readings = iter(self.identifier.identify_many([cut(q) for q in flat]))
        chosen = [max(((q, next(readings)) for q in options), key=lambda qr: _top_score(qr[1])) for options in ways]
        cut_again = self._cut_again(cut, chosen)
        # what the detector's two searches say of the outlines no second cut replaced
        kept = [now[0] is before[0] for before, now in zip(chosen, cut_again)]
        settled = _settled(image, cut_again, [d.agreed and same for d, same in zip(detections, kept)],
                           [d.partner if same else None for d, same in zip(detections, kept)], cut.size)
        wholes = self._whole_cards(cut, cut_again, settled, [q for q, _ in chosen], [d.partner for d in detections])
        chosen = self._look_closer(cut, wholes, settled)
        return [CardResult(np.roll(corners, 2, axis=0) if reading.rotated else corners, reading)
                for corners, reading in chosen]

    def _look_closer(self, cut: CardCutter, chosen: list[tuple[np.ndarray, Reading]],
                     settled: list[bool]) -> list[tuple[np.ndarray, Reading]]:
        """Cards still unsure searched for again in a crop around them, at the frame's
        full size: the detector's working size merges what touches a card on a busy
        cloth, or finds only its art panel, where the full size keeps them apart. Every
        card-shaped find holding the card's centre is fitted and read; the most
        confident reading stands. A card that reads as a face never enrolled where its
        outline is settled (`_settled`) is not looked at again: no outline names it (a
        card that is not is read the same after its whole-card reads, which only a name
        replaces)."""
        image = cut.image
        if not chosen or self.closer.working_scale(image.shape) * CLOSER_GAIN > 1:
            return chosen  # (searched at nearly its full size, the frame has nothing new to show)
        h, w = image.shape[:2]
        card = float(np.median([side_lengths(corners).max() for corners, _ in chosen]))  # a typical card's length
        looks: list[tuple[int, np.ndarray]] = []
        for i, (corners, reading) in enumerate(chosen):
            if not _unsure(reading) or settled[i]:
                continue
            (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
            pad = CLOSER_PAD * max(x1 - x0, y1 - y0, card)  # room for the whole card round a part of it
            left, top = int(max(0, x0 - pad)), int(max(0, y0 - pad))
            crop = image[top: int(min(h, y1 + pad)), left: int(min(w, x1 + pad))]
            if self.closer.working_scale(crop.shape) < 1:
                continue  # a crop the search would shrink: as dear as a frame's search, for less gain
            centre = tuple(float(v) for v in corners.mean(axis=0))
            near = RECUT_MOVE * float(side_lengths(corners).min())
            for detection in self.closer.detect(crop):
                quad = detection.corners + np.array([left, top], np.float32)
                if _moved(quad, corners) > near and cv2.pointPolygonTest(quad.reshape(-1, 1, 2), centre, False) > 0:
                    looks.append((i, quad))  # another outline than the one already read
        return self._clearer(cut, chosen, _fitted_apart(image, looks))

    def _whole_cards(self, cut: CardCutter, chosen: list[tuple[np.ndarray, Reading]], settled: list[bool],
                     first: list[np.ndarray], partners: list[np.ndarray | None]) -> list[tuple[np.ndarray, Reading]]:
        """Unsure cards read again as the whole card their outline would be part of
        (vision/extend.py) and as the detector's other search outlines them (their
        `partner`: the network outlines a card whole where the contour search closed
        round its printed frame), each outline fitted to the edges near it; not a face never
        enrolled whose outline is settled (`_settled`): both searches found that outline,
        not part of a card. Only a reading that names the card replaces the one it has:
        an outline guessed past what was seen earns its place by a name, not by a null a
        little less unsure. The whole card round the outline `first` read is tried too,
        where a second cut moved it: a cut along a wrong candidate's face that reads a
        little less unsure (0.006 for 0.0) no longer has the panel's shape that tells
        where the rest of the card lies (on the training families' scenes it named one
        card more of 437, a rare case: most such parts keep their shape)."""
        tries = [(i, quad) for i, ((corners, reading), done, was) in enumerate(zip(chosen, settled, first))
                 if _unsure(reading) and not done
                 for outline in ([corners] if was is corners else [corners, was]) for quad in whole_card_outlines(outline)]
        tries += [(i, quad) for i, ((_, reading), done, partner) in enumerate(zip(chosen, settled, partners))
                  if _unsure(reading) and not done and partner is not None for quad in _both_ways(partner)]
        return self._clearer(cut, chosen, _fitted_apart(cut.image, tries), named=True)

    def _cut_again(self, cut: CardCutter, chosen: list[tuple[np.ndarray, Reading]]) -> list[tuple[np.ndarray, Reading]]:
        """Unsure cards cut out again where their best candidate's face lies, read in one
        batch; each keeps the most confident of its readings. The first round also
        reads each face fitted to the edges found near it; a card any cut helped is cut
        again from there, up to RECUT_ROUNDS, along the alignment only: the alignment of
        a card cut far off lands only part of the way (measured: a yellow-circle cut 12%
        off read 0.07, then 0.85, then 0.94), while a second edge fit from nearly the
        same start finds the same edges."""
        cards = list(range(len(chosen)))
        for round_ in range(RECUT_ROUNDS):
            faces = [(i, face) for i in cards if (face := _face(*chosen[i], cut.size)) is not None]
            if not faces:
                break
            before = [chosen[i][1].confidence for i, _ in faces]
            tries = faces + _edge_fitted(cut.image, chosen, faces) if round_ == 0 else faces
            chosen = self._clearer(cut, chosen, tries)
            cards = [i for (i, _), confidence in zip(faces, before) if chosen[i][1].confidence > confidence]
        return chosen

    def _clearer(self, cut: CardCutter, chosen: list[tuple[np.ndarray, Reading]],
                 tries: list[tuple[int, np.ndarray]], named: bool = False) -> list[tuple[np.ndarray, Reading]]:
        """`chosen` with card i's reading replaced wherever one of its other outlines
        (`tries`: (i, corners)), read in one batch, reads more confidently (and, if
        `named`, names the card)."""
        if not tries:
            return chosen
        chosen = list(chosen)
        for (i, quad), reading in zip(tries, self.identifier.identify_many([cut(q) for _, q in tries])):
            if reading.confidence > chosen[i][1].confidence and (reading.code is not None or not named):
                chosen[i] = (quad, reading)
        return chosen
