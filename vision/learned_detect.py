"""Find each card's own outline with a small learned model: the detector `companion
recognize` and the live table use (models/card_detector.onnx, trained offline by
scripts/train_detector.py on the generated world of scripts/detector_world.py; see its
model card in models/README.md).

Why a model: the contour detector (vision/detect.py) finds cards only where an edge or
a colour step closes round each card. Touching cards merge into one blob, a card on a
card shares its outline with the one below, a checked cloth's squares close into
card-sized boxes, a white card on a light table or a dark one on dark cloth has no
edge at all, and a printed inner frame is as straight as the card's edge.

The network reads the frame shrunk to `input_size` and gives two maps at a quarter of
that: where cards are (interior) and where their cores are (each card's outline shrunk
about its centre to CORE). Cores of cards that touch or overlap stay apart where the
interiors merge, so each core is one card; the card's outline is the interior around its
core, the core grown back by 1 / CORE bounding it (a card partly under another is cut
where the core's share ends), fitted with four corners, each side then moved a pixel of
the input outward: traced through the centres of the interior's border pixels, from maps
a quarter of the input's size, the fitted outline lay inside the card (a median 0.86 of
its area on tables of cards apart, tests/vision), too far in for the edge fit's outward
search. The edge fit (vision/refine.py) then puts each side on the card's own edge at
full resolution.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, NamedTuple

import cv2
import numpy as np

from vision.cardness import blank_of_table
from vision.detect import ContourCardDetector, ContourDetectorSettings, _inside_frame, _ordered_clockwise, _overlap, _polygon_area, _working_copy
from vision.geometry import aspect, moved_out, side_lengths
from vision.interfaces import Detection
from vision.joint_settings import CORE, JointSettings
from vision.model_files import MODELS_DIR
from vision.outline import grown_to_cores

DEFAULT_MODEL = MODELS_DIR / "card_detector.onnx"
STRIDE = 4     # the maps are this much smaller than the network's input
MULTIPLE = 32  # the network's input sides are a multiple of this (five halvings)


@dataclass(frozen=True)
class LearnedDetectorSettings:
    input_size: int = 512          # longest side the network reads (a 60-pixel card of a 1280x720 frame is 24 there)
    core_threshold: float = 0.5    # core probability that makes a pixel part of a card's core
    interior_threshold: float = 0.5
    min_core_area: float = 10.0    # least core area, pixels of the input: a card 20 pixels tall has ~60
    min_score: float = 0.6         # least mean core probability over a core
    grow_slack: float = 1.15       # the outline may reach this much past the core grown back by 1 / CORE
    min_aspect: float = 0.3        # short over long: a card seen at 45 degrees stays well above this
    in_view: float = 0.75          # least share of a card the frame cuts that must lie in it (the core grown back)
    outline_out: float = 1.0       # pixels of the input each side of a fitted outline is moved outward (`_fitted`)


class LearnedCardDetector:
    """`CardDetector` over the card-interior and card-core maps of a small ONNX network."""

    def __init__(self, model: Path = DEFAULT_MODEL, settings: LearnedDetectorSettings | None = None,
                 threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.settings = settings or LearnedDetectorSettings()

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return min(1.0, self.settings.input_size / max(shape[:2]))

    def maps(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Interior and core probabilities at the network's input size (cropped to the
        image), and the scale the image was shrunk by."""
        small, scale = _working_copy(image, self.settings.input_size)
        h, w = small.shape[:2]
        ph, pw = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
        padded = cv2.copyMakeBorder(small, 0, ph - h, 0, pw - w, cv2.BORDER_REPLICATE)
        logits = self.session.run(None, {"image": padded.astype(np.float32).transpose(2, 0, 1)[None]})[0][0]
        probs = 1 / (1 + np.exp(-logits))
        up = [cv2.resize(p, (pw, ph), interpolation=cv2.INTER_LINEAR)[:h, :w] for p in probs]
        return up[0], up[1], scale

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self.cards_of_maps(*self.maps(image))

    def cards_of_maps(self, interior: np.ndarray, core: np.ndarray, scale: float) -> list[Detection]:
        """`detect` from maps already made (`maps`)."""
        found = self._cards(interior, core)
        if not found:
            return []
        quads = np.array([q for q, _, _ in found], np.float32).reshape(-1, 4, 2)
        inside = _inside_frame(quads, interior.shape)
        kept = _one_per_card([(q, s) for (q, s, in_view), keep in zip(found, inside)
                              if keep or in_view >= self.settings.in_view])
        ordered = _ordered_clockwise(np.array([q / scale for q, _ in kept], np.float32).reshape(-1, 4, 2))
        return [Detection(corners=q, score=s) for q, (_, s) in zip(ordered, kept)]

    def _cards(self, interior: np.ndarray, core: np.ndarray) -> list[tuple[np.ndarray, float, float]]:
        """(quad, score, share in view) of each core: the interior nearest it, within its
        core grown back (`_share_in_view`)."""
        s = self.settings
        seeds = (core > s.core_threshold).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(seeds, connectivity=8)
        if count <= 1:
            return []
        # each pixel's nearest core: the label of the nearest seed pixel, looked up in each
        # core's own window only (the whole map's lookups were a third of this search)
        _, nearest = cv2.distanceTransformWithLabels(1 - seeds, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
        seeded = seeds.view(bool)
        owner = np.zeros(int(nearest.max()) + 1, np.int32)
        owner[nearest[seeded]] = labels[seeded]
        solid = interior > s.interior_threshold
        h, w = core.shape
        found = []
        for k in range(1, count):
            x, y, bw, bh, area = stats[k]
            if area < s.min_core_area:
                continue
            mask = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8)
            score = float(core[y:y + bh, x:x + bw][mask > 0].mean())
            if score < s.min_score:
                continue
            contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0],
                          key=cv2.contourArea) + np.array([x, y], np.int32)
            rect = cv2.minAreaRect(contour.astype(np.float32))
            centre = np.array(rect[0], np.float32)
            grown = cv2.boxPoints((rect[0], (rect[1][0] / CORE + 1, rect[1][1] / CORE + 1), rect[2])).astype(np.float32)
            reach = float(np.hypot(rect[1][0], rect[1][1])) / 2 / CORE * s.grow_slack + 2
            x0, y0 = np.maximum(np.floor(centre - reach).astype(int), 0)
            x1, y1 = np.minimum(np.ceil(centre + reach).astype(int) + 1, [w, h])
            if x1 <= x0 or y1 <= y0:
                continue
            near = (np.arange(x0, x1)[None, :] - centre[0]) ** 2 + (np.arange(y0, y1)[:, None] - centre[1]) ** 2 <= reach ** 2
            region = near & solid[y0:y1, x0:x1] & (owner[nearest[y0:y1, x0:x1]] == k)
            quad = moved_out(_fitted(region.astype(np.uint8), np.array([x0, y0], np.float32), grown), s.outline_out)
            if aspect(quad) >= s.min_aspect:
                found.append((quad, score, 0.0 if _core_cut(labels, k, min(rect[1])) else _share_in_view(grown, core.shape)))
        return found


def _core_cut(labels: np.ndarray, k: int, short_side: float) -> bool:
    """Whether core `k` lies on the frame's border along more than half its short side:
    then how much of its card is out of view is unknown (its core grown back is only
    what is seen of it grown), while a core that only touches the border at a corner
    (a card cut off at its corner) is grown back nearly whole."""
    on_border = sum(int(np.count_nonzero(edge == k)) for edge in (labels[0], labels[-1], labels[:, 0], labels[:, -1]))
    return on_border > 0.5 * short_side


def _share_in_view(grown: np.ndarray, shape: tuple[int, ...]) -> float:
    """The share of a card's whole outline (its core grown back, the core wholly in
    view) inside the frame.

    Why: a card the frame's edge cuts (one at the edge of the camera's view, a photo
    cropped tight) has an outline whose side lies on the border, which the contour
    search drops as a hand reaching in or the table in a crop. The network has judged
    it a card by its core, so it is reported with what is visible (its interior's
    outline) while most of it lies in view; past that, what is seen is too little to
    read."""
    h, w = shape[:2]
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return _overlap(grown, frame) / max(_polygon_area(grown), 1.0)


def _one_per_card(found: list[tuple[np.ndarray, float]]) -> list[tuple[np.ndarray, float]]:
    """The surest of outlines that overlap over half the smaller one: a card whose core
    came in two pieces (a bright band across its print) gives two outlines of itself."""
    kept: list[tuple[np.ndarray, float, float]] = []
    for quad, score in sorted(found, key=lambda f: -f[1]):
        area = _polygon_area(quad)
        if all(_overlap(quad, other) <= 0.5 * min(area, other_area) for other, _, other_area in kept):
            kept.append((quad, score, area))
    return [(quad, score) for quad, score, _ in kept]


def _four_corners(contour: np.ndarray) -> np.ndarray | None:
    """Four corners of a convex blob: its hull simplified to four points, else its
    minimum-area rectangle (a blob of a few pixels, rounded corners)."""
    hull = cv2.convexHull(contour)
    if len(hull) < 3:
        return None
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _fitted(region: np.ndarray, offset: np.ndarray, grown: np.ndarray) -> np.ndarray:
    """The card's outline: four corners of `region` (its interior near its core) where
    that fills them and agrees with `grown` (the core grown back), else `grown` itself
    (a card whose interior the network saw only in part)."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return grown
    contour = max(contours, key=cv2.contourArea)
    quad = _four_corners(contour)
    if quad is None:
        return grown
    quad = quad + offset
    area = float(cv2.contourArea(quad))
    fill = float(cv2.contourArea(contour)) / max(area, 1.0)
    shared, _ = cv2.intersectConvexConvex(quad, grown.astype(np.float32))
    union = area + float(cv2.contourArea(grown)) - shared
    return quad if fill > 0.85 and shared / max(union, 1.0) > 0.5 else grown


class NetworkView(NamedTuple):
    """The network's judgement of one frame: its core map (at its input size), the scale
    the frame was shrunk by for it, and the cards it found (frame pixels)."""

    core: np.ndarray
    scale: float
    cards: list[Detection]


class JointCardDetector:
    """The contour detector's finds (vision/detect.py) checked against the network's maps,
    and the network's cards added where no contour find lies.

    Why both: the network decides best what is a card where contours fail (a checked
    cloth's squares, touching cards merged into one blob, the visible strip of a card
    beneath another, the top card of a fan), but its outlines come from
    quarter-resolution maps, while a contour find follows the card's own edge; and it
    was trained on cards up to 170 pixels tall at its input, so a card filling a
    close-up photo is beyond it (its art box and text box look like cards to it).

    So a contour find that large stands where the network sees any core in it, and what
    the network finds inside it is its print, unless that is three or more cards no
    narrower than a deck's, two filling it, or six or more of a deck's shape however small
    (`_surface`: a mat, a row or grid of touching cards); where it sees none (an envelope, a sheet of
    paper) the find is doubted. A smaller find stands where the network sees a whole
    card's core in it (`core_floor`; else it is doubted, `sure_and_doubted`), unless:
    - its own core is empty to the network (`core_fill`), the core it sees that of a
      learned card overlapping it (a phone, a paper or a mat's box beside a card): it is
      doubted, and blocks none of the network's cards; but one whose centre it holds is
      its own card outlined askew (a dark face the network hardly sees), and it stands,
      unless it holds three or more, all card-shaped and far smaller than it: cards
      lying on it (a floor tile, a small mat), and it is doubted;
    - it holds three or more learned cards of any shape filling half of it (touching
      cards seen at a tilt, a mat);
    - or two or more no narrower than a deck's filling it, where the find is about
      twice the size of the frame's other finds: touching cards of one deck (a white
      card on a white table the network outlines short of its ends, wider than any
      deck); a card whose art box and text box the network took for cards is no larger
      than the others, and stands;
    - or it is only a part of a larger learned card (`same_card`).
    A learned card is added where it overlaps no standing find by a third of either.
    Last, a card whose middle is blank and of the table's colour round it (an empty box
    printed on a mat, a floor tile: vision/cardness.py `blank_of_table`) is doubted.
    (Chosen on the training world, `scripts/experiments/learned_eval.py`: the last rule
    took the contour finds the network let stand there from 9 false finds in 40 scenes
    to 1; the size test keeps the MTG photos' land card whole, tests/vision. The
    surface, empty-core and blank rules: scripts/experiments/detect_errors.py, which
    shows the training world's false finds and misses.)"""

    def __init__(self, learned: LearnedCardDetector | None = None, contour: ContourCardDetector | None = None,
                 settings: JointSettings | None = None) -> None:
        self.learned = learned or LearnedCardDetector()
        # without the contour search's straight-edge look into fans and piles (vision/overlap.py): the
        # network finds their top cards, and on the training world the look changed one pile card of 47
        self.contour = contour or ContourCardDetector(ContourDetectorSettings(overlaps=False))
        self.settings = settings or JointSettings()

    def working_scale(self, shape: tuple[int, ...]) -> float:
        return self.contour.working_scale(shape)

    def detect(self, image: np.ndarray) -> list[Detection]:
        return self.sure_and_doubted(image)[0]

    def network_view(self, image: np.ndarray) -> NetworkView:
        """What the network makes of `image`: the part of `sure_and_doubted` a live table
        makes only now and then and reuses for the frames after (vision/live_detect.py)."""
        interior, core, scale = self.learned.maps(image)
        return NetworkView(core, scale, self.learned.cards_of_maps(interior, core, scale))

    def sure_and_doubted(self, image: np.ndarray, view: NetworkView | None = None) -> tuple[list[Detection], list[Detection]]:
        """The cards, and the contour finds the network sees no card in at all (`core_floor`):
        a checked cloth's square, a strip of a card beneath, or a card of a design far from
        any the network was trained on (the project's dark Lagim faces, to it). What only
        a deck can tell apart; vision/recognize.py keeps the doubted finds it names. A
        card whose contour find a learned card matches (`agree`) is `agreed`: the contour
        search and the network, each on its own, outline it alike; else the learned card
        overlapping it most is its `partner`. `view`: the network's
        view of this frame, or of one a moment before it, where made already (else it is
        made now, and every doubted find is `looked`: the network saw it as it is)."""
        looked = view is None
        core, scale, learned = view or self.network_view(image)
        finds = self.contour.detect(image)
        beyond = [float(side_lengths(d.corners).max()) * scale > self.settings.largest for d in finds]
        # a find beyond the network's sizes stands where it sees any card's core in it (a close-up's
        # art box); an envelope or a sheet of paper, where it sees none, is doubted; a mat or a grid of
        # touching cards, where it sees several cards of a deck's shape, is what they lie on or make up
        large = [d for d, big in zip(finds, beyond) if big and (_core_peak(d, core, scale) or 0.0) >= self.settings.core_floor]
        under = [self._surface(d, learned, holds) for d, holds in zip(large, _holding(large, learned))]
        doubted = [d for d, big in zip(finds, beyond) if big and not any(d is k for k in large)]
        large = [d for d, surface in zip(large, under) if not surface]
        learned = [d for d, held in zip(learned, np.asarray(_holding(large, learned).any(axis=0))) if not held]
        kept, beside = list(large), []
        areas = [_polygon_area(d.corners) for d in finds]
        learned_areas = np.array([_polygon_area(d.corners) for d in learned])
        for i, (d, big, holds) in enumerate(zip(finds, beyond, _holding(finds, learned))):
            if not big:
                verdict = self._verdict(d, learned, holds, core, scale, _typical(areas[:i] + areas[i + 1:], learned_areas[~holds]))
                if verdict == "card":
                    d = _with_partner(d, learned, self.settings.agree)
                (kept if verdict == "card" else doubted if verdict in ("doubted", "beside") else []).append(d)
                beside += [d] if verdict == "beside" else []
        cards = kept + unclaimed(learned, kept + [d for d in doubted if not any(d is b for b in beside)])
        blank = blank_of_table(image, np.array([d.corners for d in cards], np.float32).reshape(-1, 4, 2))
        sure = grown_to_cores([d for d, empty in zip(cards, blank) if not empty], learned, doubted, core, scale, self.settings)
        odd = _odd_ones(sure, self.settings)
        doubted += [d for d, empty in zip(cards, blank) if empty] + [d for d, o in zip(sure, odd) if o]
        return [d for d, o in zip(sure, odd) if not o], [replace(d, looked=True) for d in doubted] if looked else doubted

    def _surface(self, find: Detection, learned: list[Detection], holds: np.ndarray) -> bool:
        """Whether a find too large for the network to judge holds `surface_cards` or more
        learned cards (`holds`: whose centres it holds) no narrower than a deck's, each
        between `surface_least` and `surface_share` of it: the mat they lie on, or a row
        or grid of touching cards seen as one blob (a tilted camera widens cards, hence
        no upper bound). A close-up card's print makes at most an art box and a text box,
        the latter narrow, and symbols far smaller than a card on a mat (the MTG close-up,
        tests/vision). Or `surface_many` card-shaped ones of any smaller size: a grid seen
        from afar on a mat, its cards a hundredth of it; round symbols are no deck's shape.
        Or two no narrower than a deck's filling it, as `_verdict` asks of a smaller find:
        two large cards touching (a close-up's art box has no such twin beside it). Or
        any card-shaped one far smaller than it (`lying_share`, over `surface_least`): a
        card with the arm reaching past it closed into one blob (a pile's new card lost
        so each time the dealing hand passed it, scripts/experiments/layout_events.py), a
        mat with a card or two on it; a close-up's art box fills a quarter of it or more
        (the MTG close-up's, 0.24)."""
        s = self.settings
        area = _polygon_area(find.corners)
        held = [(_polygon_area(d.corners), d.corners) for d, inside in zip(learned, holds) if inside]
        small = [a for a, c in held if s.surface_least * area < a < s.surface_share * area and s.no_narrower_than_deck(c)]
        many = [a for a, c in held if a < s.surface_share * area and s.deck_shaped(c)]
        lying = any(s.surface_least * area < a < s.lying_share * area and s.deck_shaped(c) for a, c in held)
        return (len(small) >= s.surface_cards or len(many) >= s.surface_many or lying
                or _touching_pair([c for _, c in held], area, s))

    def _verdict(self, find: Detection, learned: list[Detection], holds: np.ndarray, core: np.ndarray, scale: float,
                 typical: float) -> str:
        """"card", "doubted" (no core of a card in it), "beside" (doubted, the core it sees
        only a learned card's overlapping it: `core_fill`) or "gone" (outside the maps, cards
        touching, a card and what it lies on (`_lies_on_a_card`), a part of a larger card:
        the network's cards stand for it). `holds`: which of the learned cards' centres
        the find holds (`_holding`). `typical`: the median area of the frame's other finds
        (0 where too few to tell): a deck's cards are one size, so touching cards make a
        find about twice it, while a card whose art and text panels the network took for
        two cards is no larger."""
        s = self.settings
        peak = _core_peak(find, core, scale)
        if peak is None:
            return "gone"
        area = _polygon_area(find.corners)
        inside = [d for d, held in zip(learned, holds) if held and _polygon_area(d.corners) < s.blob_share * area]
        shaped = [d for d in inside if s.deck_shaped(d.corners)]
        if (len(inside) >= 3 and sum(map(_polygon_area, (d.corners for d in inside))) >= s.many_cover * area
                or _touching_pair([d.corners for d in inside], area, s) and area >= s.pair_size * typical
                or int(holds.sum()) == 1 and len(shaped) == 1 and _lies_on_a_card(find, shaped[0], area, learned, holds, s)):
            return "gone"
        lo, hi = find.corners.min(axis=0), find.corners.max(axis=0)
        beside = False  # whether a learned card overlaps the find
        for d in learned:  # a part of a larger learned card (its panel, half of it)
            if (d.corners.max(axis=0) < lo).any() or (d.corners.min(axis=0) > hi).any():
                continue  # boxes apart: nothing shared
            other = _polygon_area(d.corners)
            shared = _overlap(find.corners, d.corners)
            if other > area and shared > area / 3 and shared / (area + other - shared) < s.same_card:
                return "gone"
            beside = beside or shared > 0
        if peak < s.core_floor:
            return "doubted"
        # the core it sees is a learned card's beside it (whose centre it does not hold), none of its own: that
        # card stands, and the find is doubted (a phone, a paper; or a card the network does not know, which
        # only a deck can name); a learned card it holds is its own card outlined askew (a dark face), unless
        # it holds `surface_cards` or more, all card-shaped and far smaller than it: cards lying on it (a mat, a tile)
        on_it = [d for d in shaped if _polygon_area(d.corners) < s.askew_share * area]
        lying = len(on_it) >= s.surface_cards and len(on_it) == int(holds.sum())
        return "beside" if beside and (lying or not holds.any()) and _core_fill(find, core, scale) < s.core_fill else "card"


def _lies_on_a_card(find: Detection, card: Detection, area: float, learned: list[Detection], holds: np.ndarray,
                    settings: JointSettings) -> bool:
    """Whether a find of `area` holding one learned `card` (card-shaped, its only one) is
    that card and what it lies on outlined as one: the card fills under `on_card_fill` of
    it and lies off its middle (`on_card_off`), at the end where it covers the card or
    fan beneath, and it is a card's size: no smaller than `on_card_size` of the median of
    the network's other cards (`learned` whose centres the find does not hold), where
    there are any, and the network is sure of it (`on_card_score`). The network outlines a
    card a little inside its edge, round its middle; where it outlines only a part of a
    card (a panel of its print, the half of a dark face it sees), the part is seldom a
    card's shape and size, and a patch of a face it hardly sees it is unsure of. Why the
    network's cards tell the size and not the contour finds: those include a cloth's
    tiles and motifs (a dark Lagim card on tiles in the live tuning videos,
    scripts/experiments/layout_events.py; the rule was chosen on the training world's
    cached draws, scripts/experiments/detect_errors.py)."""
    size = _polygon_area(card.corners)
    off = float(np.linalg.norm(find.corners.mean(axis=0) - card.corners.mean(axis=0)))
    if (size >= settings.on_card_fill * area or card.score < settings.on_card_score
            or off < settings.on_card_off * float(side_lengths(card.corners).max())):
        return False
    others = [_polygon_area(d.corners) for d, held in zip(learned, holds) if not held]
    return not others or size >= settings.on_card_size * float(np.median(others))


def _touching_pair(held: list[np.ndarray], area: float, settings: JointSettings) -> bool:
    """Whether two or more of the learned cards a find of `area` holds (`held`, their
    corners), each under `blob_share` of it and no narrower than a deck's, together fill
    `blob_cover` of it: touching cards closed into one outline. No upper bound on their
    shape: a white card on a white table is outlined short of its ends, wider than any
    deck."""
    pair = [a for a, c in ((_polygon_area(c), c) for c in held)
            if a < settings.blob_share * area and settings.no_narrower_than_deck(c)]
    return len(pair) >= 2 and sum(pair) >= settings.blob_cover * area


def _odd_ones(cards: list[Detection], settings: JointSettings) -> list[bool]:
    """Which cards are far smaller than the frame's others (`odd_area` of the median of
    three or more others) and of another shape (`odd_shape`): a deck's cards are one
    size and shape, and what is a fraction of them and shaped otherwise is a poker
    chip the network outlined square, a patch of cloth, a strip of a card beneath
    another. Doubted, not dropped: a deck still names one of its own cards
    (vision/recognize.py). A card farther from a tilted camera is smaller, but of its
    neighbours' shape. (Training world's cached draws, scripts/experiments/find_rules.py:
    6 of the 20 false finds and 2 on hidden cards among the cards it asks about, none
    of 565 cards.)

    And, beside one other card or more, what is under `tiny_area` of their median
    whatever its shape: a sticker of a close-up's printed cloth beside the card (no card
    of the training world's draws lies under 0.09 of its frame's others)."""
    if len(cards) < 2:
        return [False] * len(cards)
    area, shape = size_and_shape(cards)
    odd = (area < settings.odd_area) & (np.abs(shape - 1) >= settings.odd_shape) if len(cards) >= 4 else False
    return ((area < settings.tiny_area) | odd).tolist()


def size_and_shape(cards: list[Detection]) -> tuple[np.ndarray, np.ndarray]:
    """(n,) each card's area over the median of the others', and (n,) its short over
    long side over theirs: what `_odd_ones` judges."""
    areas = np.array([_polygon_area(d.corners) for d in cards])
    shapes = np.array([aspect(d.corners) for d in cards])
    others = ~np.eye(len(cards), dtype=bool)
    return (np.array([areas[i] / np.median(areas[o]) for i, o in enumerate(others)]),
            np.array([shapes[i] / np.median(shapes[o]) for i, o in enumerate(others)]))


def _typical(other_finds: list[float], learned_outside: np.ndarray) -> float:
    """The median area of the frame's other cards, as a find is judged by it (0 where
    fewer than two tell it): the other contour finds, and the network's cards outside
    the find. Why both: a blob of two touching cards among like blobs is no larger than
    the other finds, but twice the network's cards."""
    others = list(other_finds) + np.asarray(learned_outside, float).tolist()
    return float(np.median(others)) if len(others) >= 2 else 0.0


def _core_peak(find: Detection, core: np.ndarray, scale: float,
               over: Callable[[np.ndarray], Any] = np.max) -> float | None:
    """The highest core probability inside a find (None where it lies outside the maps):
    under `core_floor`, the network sees no card at all in it. `over`: what is taken of
    the probabilities inside (their highest by default)."""
    corners = np.round(find.corners * scale).astype(np.int32)
    (x0, y0), (x1, y1) = np.maximum(corners.min(axis=0), 0), np.minimum(corners.max(axis=0) + 1, core.shape[::-1])
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)  # the find's box of the map only
    cv2.fillPoly(mask, [corners - np.array([x0, y0], np.int32)], 1)
    covered = mask > 0
    return float(over(core[y0:y1, x0:x1][covered])) if covered.any() else None


def _core_fill(find: Detection, core: np.ndarray, scale: float) -> float:
    """The mean core probability over a find's own core (its outline shrunk about its
    centre by CORE, as the network was taught cores): high over a card, low over a phone,
    a paper or a mat's box the find outlines, even where a card's core beside it reaches
    into the find (which `_core_peak` alone takes for a card)."""
    centre = find.corners.mean(axis=0)
    return _core_peak(replace(find, corners=(find.corners - centre) * CORE + centre), core, scale, np.mean) or 0.0


def unclaimed(learned: list[Detection], finds: list[Detection]) -> list[Detection]:
    """The learned cards whose centre no find holds and that overlap none by a third of
    either: what the network adds where the contour search found nothing."""
    out = []
    boxes = [(c.corners.min(axis=0), c.corners.max(axis=0)) for c in finds]
    for d, claimed in zip(learned, np.asarray(_holding(finds, learned).any(axis=0))):
        if claimed:
            continue
        area, lo, hi = _polygon_area(d.corners), d.corners.min(axis=0), d.corners.max(axis=0)
        if not any(_overlap(c.corners, d.corners) > min(area, _polygon_area(c.corners)) / 3
                   for c, (c_lo, c_hi) in zip(finds, boxes) if (c_lo <= hi).all() and (lo <= c_hi).all()):
            out.append(d)
    return out


def _with_partner(find: Detection, learned: list[Detection], agree: float) -> Detection:
    """A standing contour find `agreed` where a learned card outlines it alike (IoU at
    least `agree`), else with the learned card overlapping it most, if any, as its
    `partner`: the network's outlines come from maps a quarter of its input's size, a
    few pixels off the card's edge, so two outlines of one card may miss `agree` as
    found and meet it once both are fitted to the edges (vision/recognize.py). Cards
    whose boxes lie apart from the find's are settled in one array test (a 40-card photo
    asks some 1 600 pairs, nearly all far apart)."""
    if not learned:
        return find
    corners = np.array([card.corners for card in learned])
    lo, hi = find.corners.min(axis=0), find.corners.max(axis=0)
    near = ((corners.max(axis=1) >= lo) & (corners.min(axis=1) <= hi)).all(axis=1)
    ious = np.zeros(len(learned))
    for i in np.flatnonzero(near).tolist():
        ious[i] = _iou(find, learned[i])
    best = int(np.argmax(ious))
    if ious[best] <= 0:
        return find
    return replace(find, agreed=True) if ious[best] >= agree else replace(find, partner=learned[best].corners)


def _iou(a: Detection, b: Detection) -> float:
    """Intersection over union of two detections' outlines (0 for boxes apart, uncomputed)."""
    return outline_iou(a.corners, b.corners)


def outline_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex outlines (4x2; 0 for boxes apart, uncomputed)."""
    if (a.max(axis=0) < b.min(axis=0)).any() or (b.max(axis=0) < a.min(axis=0)).any():
        return 0.0
    shared = _overlap(a, b)
    return shared / max(_polygon_area(a) + _polygon_area(b) - shared, 1e-6)


def _holding(outers: list[Detection], inners: list[Detection]) -> np.ndarray:
    """(outers, inners): whether each inner detection's centre lies inside each outer one.
    A centre outside an outer's bounding box is settled without a polygon test: a
    40-card photo asks a few thousand pairs, nearly all far apart."""
    held = np.zeros((len(outers), len(inners)), bool)
    if not outers or not inners:
        return held
    centres = np.array([d.corners.mean(axis=0) for d in inners])
    for i, outer in enumerate(outers):
        near = ((centres >= outer.corners.min(axis=0)) & (centres <= outer.corners.max(axis=0))).all(axis=1)
        for j in np.flatnonzero(near).tolist():
            centre = (float(centres[j, 0]), float(centres[j, 1]))
            held[i, j] = cv2.pointPolygonTest(outer.corners.reshape(-1, 1, 2), centre, False) > 0
    return held
