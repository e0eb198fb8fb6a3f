"""Enrolled identification: right names, honest unknowns, the card's own top-left first."""

from __future__ import annotations

import dataclasses
import random

import cv2
import numpy as np
import pytest

from scripts.lib.families import family_face
from tests.vision.realdata import REAL_PHOTOS, needs_real_photos
from vision.deck import DeckProfile
from vision.detect import CardCutter, ContourCardDetector, order_clockwise
from vision.embed import OnnxEmbedder
from vision.enroll import Enrollment, card_nearest_centre
from scripts.lib.evaluate import (TABLE_CONFIDENCE, Tally, TruthCard, match_by_centre, one_shot_gallery, one_shot_shots,
                             real_photo_truth, without_gallery)
from vision.chroma import colour_cells
from vision.identify import CORNER, CORNER_INSET, Gallery, GalleryIdentifier, halved, margin
from vision.interfaces import CARD_SIZE
from vision.interfaces import Detection
from vision.template import details, templates
from vision.extend import whole_card_outlines
from vision.live_detect import LiveJointDetector
from vision.pipeline import Pipeline
from vision.recognize import CardRecognizer, _settled
from vision.refine import refine_quads
from vision.synth.augment import photographed, seen_small
from vision.synth.faces import game_face
from vision.synth.scenes import EVAL_SEED, render_scene
from vision.synth.tables import enrolled_deck, game_table

LOOKALIKES = [f"{colour}-{value}" for colour in ("red", "blue", "green") for value in (13, 14, 15)]


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder(threads=1)


def _deck(game: str, codes, embedder: OnnxEmbedder) -> DeckProfile:
    return enrolled_deck(game, codes, embedder, random.Random(f"test-enroll:{game}"))


@pytest.fixture(scope="module")
def gargon_without_red_14(embedder) -> CardRecognizer:
    deck = _deck("gargon", [c for c in LOOKALIKES if c != "red-14"], embedder)
    return CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))


def _scene(codes, seed: int, game: str = "gargon"):
    return render_scene(random.Random(seed), [(c, game_face(game, c)) for c in codes])


def _by_truth(results, scene):
    match = match_by_centre([r.corners for r in results], [TruthCard(c.code, tuple(c.corners.mean(0))) for c in scene.cards])
    return {scene.cards[t].code: results[p] for p, t in match.pairs}


def test_a_forgotten_card_is_unknown_never_its_lookalike(gargon_without_red_14):
    for seed in range(EVAL_SEED, EVAL_SEED + 4):
        scene = _scene(["red-14", "blue-14", "red-13", "red-15"], seed)
        said = {code: r.reading.code for code, r in _by_truth(gargon_without_red_14.recognize(scene.image), scene).items()}
        assert "red-14" in said, said
        assert said["red-14"] is None, said
        assert all(name in (None, code) for code, name in said.items()), said


class _CutShort:
    """A detector that finds every card of a scene with its top end cut off (a header
    band the colour of the cloth, lost against it): the truth's top corners moved
    `share` of the way down its long sides."""

    def __init__(self, scene, share: float) -> None:
        self.quads = [c.corners + share * (c.corners[[3, 2, 2, 3]] - c.corners) * [[1], [1], [0], [0]]
                      for c in scene.cards]

    def detect(self, image):
        return [Detection(q.astype(np.float32)) for q in self.quads]

    def working_scale(self, shape):
        return 1.0


def test_a_card_cut_out_short_is_cut_again_where_its_face_lies(gargon_without_red_14):
    """Cut-outs missing 12% of the card at one end (more than the edge fit reaches):
    as cut, the cards of one table read at about 0.6, under the live table's bar;
    cut again along the face the identifier aligned (either way up), they read clearly,
    within a few per cent of their true corners. The forgotten red-14 stays unknown,
    and nothing is named wrong."""
    clear = 0
    for seed in range(EVAL_SEED, EVAL_SEED + 3):
        scene = _scene(["red-14", "blue-14", "red-13", "red-15"], seed)
        results = _by_truth(CardRecognizer(_CutShort(scene, 0.12), gargon_without_red_14.identifier)
                            .recognize(scene.image), scene)
        for card in scene.cards:
            reading, corners = results[card.code].reading, results[card.code].corners
            assert reading.code in (None, card.code if card.code != "red-14" else None), (card.code, reading)
            if reading.code is not None and reading.confidence >= TABLE_CONFIDENCE:
                clear += 1
                short = float(np.linalg.norm(card.corners[0] - card.corners[1]))
                assert np.linalg.norm(corners - card.corners, axis=1).max() < 0.06 * short  # was 0.12 + off
    # of 9 enrolled; the rest stay unknown (a card cut short can look more like its own
    # face turned round than like its face, and not line up with either)
    assert clear >= 5, clear


def test_a_card_cut_far_off_is_cut_again_from_each_better_cut(embedder):
    """Golden case from the benchmark (EVAL_SEED, Bagani scene 16, its deck enrolled as
    scripts/bench_vision.py enrolls it): a yellow-circle on patterned cloth, cut out
    about 12% off. Its candidate's face, cut once, reads 0.07, still unnamed; cut again
    from there it reads 0.85, then 0.94. Nothing on the table is named wrong."""
    table = game_table("bagani", EVAL_SEED, scenes=17)
    deck = enrolled_deck("bagani", table.enrolled, embedder, random.Random(f"enroll:bagani:{EVAL_SEED}"))
    scene = table.scenes[16]
    results = _by_truth(CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))
                        .recognize(scene.image), scene)
    assert results["yellow-circle"].reading.code == "yellow-circle"
    assert results["yellow-circle"].reading.confidence >= TABLE_CONFIDENCE
    for code, result in results.items():
        assert result.reading.code in (None, code if code in table.enrolled else None), (code, result.reading)


class _PanelsOnly:
    """A detector that, searching a whole frame (at half its size, it says), finds only
    each card's middle (the art panel a busy cloth leaves it), and searching a crop
    finds what the real detector finds."""

    def __init__(self, scene) -> None:
        self.frame = scene.image.shape
        self.panels = [c.corners.mean(axis=0) + 0.55 * (c.corners - c.corners.mean(axis=0)) for c in scene.cards]

    def detect(self, image):
        if image.shape == self.frame:
            return [Detection(q.astype(np.float32)) for q in self.panels]
        return ContourCardDetector().detect(image)

    def working_scale(self, shape):
        return 0.5 if shape == self.frame else 1.0


def test_a_card_found_only_by_its_panel_is_found_whole_by_a_closer_look(gargon_without_red_14):
    """Unsure of a card, the recognizer searches a crop round it at the frame's full
    size and reads what it finds there: the whole card."""
    for seed in range(EVAL_SEED, EVAL_SEED + 2):
        scene = _scene(["red-14", "blue-14", "red-13", "red-15"], seed)
        results = _by_truth(CardRecognizer(_PanelsOnly(scene), gargon_without_red_14.identifier).recognize(scene.image),
                            scene)
        for card in scene.cards:
            result = results[card.code]
            assert result.reading.code == (None if card.code == "red-14" else card.code), (card.code, result.reading)
            if result.reading.code is not None:
                short = float(np.linalg.norm(card.corners[0] - card.corners[1]))
                assert np.linalg.norm(result.corners - card.corners, axis=1).max() < 0.1 * short  # the panel's: 0.4


class _OneAtATime:
    """The deck's identifier as a reader of one card at a time: how the live table read
    a card it had just confirmed before (vision/pipeline.py), its outline as found."""

    def __init__(self, identifier) -> None:
        self.identify = identifier.identify


def test_the_live_table_names_a_card_it_saw_only_by_its_panel_as_a_photos_card_is_named(gargon_without_red_14):
    """At the live table the detector may outline a card by its art panel (a dark face
    the network splits, a busy cloth). A card confirmed there is read as a photo's card
    (`CardRecognizer.read_card`): the closer look finds it whole and names it, where
    its panel read as outlined names no card; and it is reported its own way up."""
    for seed in range(EVAL_SEED, EVAL_SEED + 2):
        scene = _scene(["red-14", "blue-14", "red-13", "red-15"], seed)
        said = {}
        for identifier in (gargon_without_red_14.identifier, _OneAtATime(gargon_without_red_14.identifier)):
            pipeline = Pipeline(_PanelsOnly(scene), identifier)
            appeared = [o for i in range(4) for o in pipeline.process(scene.image, i / 10) if o.kind == "appeared"]
            said[identifier] = {scene.cards[t].code: appeared[p] for p, t in match_by_centre(
                [np.array(o.corners) for o in appeared],
                [TruthCard(c.code, tuple(c.corners.mean(0))) for c in scene.cards]).pairs}
        now, before = said.values()
        assert {code: o.code for code, o in now.items()} == {c.code: None if c.code == "red-14" else c.code
                                                            for c in scene.cards}, now
        assert all(o.code is None for o in before.values()), before  # its panel, as outlined, names no card
        for card in scene.cards[1:]:  # the named cards' corners from their own top-left, as the panel lies
            corners = np.array(now[card.code].corners)
            top = card.corners[:2].mean(axis=0) - card.corners.mean(axis=0)
            assert np.dot(corners[:2].mean(axis=0) - corners.mean(axis=0), top) > 0, card.code


class _PanelsWithTheNetworksOutline:
    """A detector that, at the frame's full size (no closer look to take), outlines each
    card by its middle panel, and gives each find's `partner` if asked: the card's own
    outline, as the joint detector's network gives it where its contour search closed
    round a printed frame."""

    def __init__(self, scene, partner: bool) -> None:
        self.cards, self.partner = scene.cards, partner

    def detect(self, image):
        return [Detection((c.corners.mean(axis=0) + 0.55 * (c.corners - c.corners.mean(axis=0))).astype(np.float32),
                          partner=c.corners.astype(np.float32) if self.partner else None) for c in self.cards]

    def working_scale(self, shape):
        return 1.0


def test_the_live_table_reads_a_find_at_the_detectors_other_outline_of_it_too(gargon_without_red_14):
    """The live table hands the reader the find as detected, with the network's outline
    of the card beside the contour search's (`Detection.partner`): a card outlined by its
    panel is named there, the forgotten one stays unknown; without that outline, and no
    closer look to take, none is named."""
    scene = _scene(["red-14", "blue-14", "red-13", "red-15"], EVAL_SEED + 1)
    truth = [TruthCard(c.code, tuple(c.corners.mean(0))) for c in scene.cards]
    for partner, named in ((True, {"blue-14", "red-13", "red-15"}), (False, set())):
        pipeline = Pipeline(_PanelsWithTheNetworksOutline(scene, partner), gargon_without_red_14.identifier)
        appeared = [o for i in range(4) for o in pipeline.process(scene.image, i / 10) if o.kind == "appeared"]
        said = {truth[t].code: appeared[p].code
                for p, t in match_by_centre([np.array(o.corners) for o in appeared], truth).pairs}
        assert said == {c.code: c.code if c.code in named else None for c in scene.cards}, (partner, said)


class _AllDoubted(LiveJointDetector):
    """The live detector, doubting every card of a scene at its own outline (as it doubts
    a checked cloth's squares: the network saw no card there)."""

    def __init__(self, scene) -> None:
        super().__init__()
        self.cards = scene.cards

    def sure_and_doubted(self, image):
        return [], [Detection(c.corners.astype(np.float32)) for c in self.cards]


class _CountingReader:
    """A deck's reader that counts the cut-outs it is asked to read."""

    def __init__(self, identifier) -> None:
        self.identifier, self.card_size, self.cuts = identifier, identifier.card_size, 0

    def identify(self, card):
        self.cuts += 1
        return self.identifier.identify(card)

    def identify_many(self, cards):
        self.cuts += len(cards)
        return self.identifier.identify_many(cards)


def test_the_live_table_reads_a_find_its_detector_doubts_once_at_its_outline(gargon_without_red_14):
    """A checked cloth makes dozens of doubted finds at once, each read once; read as
    photos' cards (both ways up, cut again, a closer look) they held a frame up for
    seconds. A doubted find is read at its outline, one cut-out, and a card named so
    is still a card."""
    scene = _scene(["red-14", "blue-14", "red-13", "red-15"], EVAL_SEED)
    reader = _CountingReader(gargon_without_red_14.identifier)
    pipeline = Pipeline(_AllDoubted(scene), reader)
    appeared = [o for i in range(4) for o in pipeline.process(scene.image, i / 10) if o.kind == "appeared"]
    assert reader.cuts == len(scene.cards)
    assert sorted(o.code for o in appeared) == ["blue-14", "red-13", "red-15"]


class _Outlines:
    """A detector that finds each card's own outline in a whole frame (at half its size,
    it says), saying whether its searches agree on them or else giving the other
    search's outline (`partner`: each card's outline grown by that factor about its
    centre), and counts the crops it is asked to search."""

    def __init__(self, scene, agreed: bool, partner: float | None = None) -> None:
        self.frame, self.cards, self.agreed, self.partner, self.crops = scene.image.shape, scene.cards, agreed, partner, 0

    def detect(self, image):
        if image.shape == self.frame:
            return [Detection(c.corners.astype(np.float32), agreed=self.agreed,
                              partner=None if self.partner is None else _grown(c.corners, self.partner))
                    for c in self.cards]
        self.crops += 1
        return ContourCardDetector().detect(image)

    def working_scale(self, shape):
        return 0.5 if shape == self.frame else 1.0


def test_the_live_table_names_a_card_once_the_chip_on_it_is_taken_off(gargon_without_red_14):
    """A card confirmed while a dark chip lay on its middle is reported unknown (the host
    is asked); read again once it lies bare, it is reported "named", the same track;
    the forgotten card stays unknown however often it is read."""
    scene = _scene(["red-14", "blue-14", "red-13", "red-15"], EVAL_SEED)
    covered = scene.image.copy()
    blue = next(c for c in scene.cards if c.code == "blue-14")
    length = float(np.linalg.norm(blue.corners[1] - blue.corners[2]))
    cv2.circle(covered, tuple(int(v) for v in blue.corners.mean(axis=0)), int(0.2 * length), (60, 60, 70), -1)
    pipeline = Pipeline(_Outlines(scene, agreed=True), gargon_without_red_14.identifier)
    settings = pipeline.tracker.settings
    frames = [covered] * settings.confirm_frames + [scene.image] * (3 * settings.reread_after)
    said = [o for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    under = [min(scene.cards, key=lambda c: np.linalg.norm(c.corners.mean(0) - np.mean(o.corners, axis=0))).code
             for o in said]
    assert [(o.kind, card, o.code) for o, card in zip(said, under)] == [
        ("appeared", "red-14", None), ("appeared", "blue-14", None), ("appeared", "red-13", "red-13"),
        ("appeared", "red-15", "red-15"), ("named", "blue-14", "blue-14")], said
    assert said[-1].track == said[1].track


class _Fixed:
    """A detector that finds each card of a scene at its own outline, whatever the frame."""

    def __init__(self, scene) -> None:
        self.cards = scene.cards

    def detect(self, image):
        return [Detection(c.corners.astype(np.float32), agreed=True) for c in self.cards]

    def working_scale(self, shape):
        return 1.0


def test_the_live_table_sees_a_gargon_back_turned_up_where_it_lies_as_the_face_appearing():
    """At the reveal a player turns a back up in place: same outline, and a look much like
    the back's (a Gargon card shows its colour on both sides), so the tracker followed it
    as the same card and the face was never reported. Now the back is gone and the face
    appeared, on a new track, within a frame of its look holding."""
    from vision.printed import PrintedReader
    from vision.synth.recording import card_face

    others = [(c, game_face("gargon", c)) for c in ("blue-14", "green-3")]
    back = render_scene(random.Random(EVAL_SEED), [("red", card_face("gargon", "red"))] + others)
    face = render_scene(random.Random(EVAL_SEED), [("red-9", game_face("gargon", "red-9"))] + others)
    assert all(np.allclose(b.corners, f.corners) for b, f in zip(back.cards, face.cards))  # turned in place
    pipeline = Pipeline(_Fixed(back), PrintedReader("gargon"))
    frames = [back.image] * 20 + [face.image] * 10
    said = [(i, o.kind, o.track, o.code) for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    assert said[:3] == [(2, "appeared", 1, None), (2, "appeared", 2, "blue-14"), (2, "appeared", 3, "green-3")]
    assert said[3:] == [(21, "gone", 1, None), (21, "appeared", 4, "red-9")]



def test_a_gargon_face_turned_over_where_it_lies_goes_on_as_that_face():
    """A battle's winner may turn the won card face down where it lies. The back is
    read (its look changed in place) but names no card, so nothing is reported: the
    track goes on as the face it was, which the table counts as a won card still lying
    in that seat (companion/adapters/gargon.py `laid_aside`)."""
    from vision.printed import PrintedReader
    from vision.synth.recording import card_face

    others = [(c, game_face("gargon", c)) for c in ("blue-14", "green-3")]
    face = render_scene(random.Random(EVAL_SEED), [("red-9", game_face("gargon", "red-9"))] + others)
    back = render_scene(random.Random(EVAL_SEED), [("red", card_face("gargon", "red"))] + others)
    pipeline = Pipeline(_Fixed(face), PrintedReader("gargon"))
    frames = [face.image] * 20 + [back.image] * 20
    said = [(i, o.kind, o.track, o.code) for i, frame in enumerate(frames) for o in pipeline.process(frame, i / 10)]
    assert said == [(2, "appeared", 1, "red-9"), (2, "appeared", 2, "blue-14"), (2, "appeared", 3, "green-3")]

def _grown(corners: np.ndarray, factor: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return (centre + factor * (corners - centre)).astype(np.float32)


def test_a_face_never_enrolled_outlined_as_a_card_buys_no_closer_look(gargon_without_red_14):
    """The forgotten red-14, outlined at its own edges and read there (on this table no
    second cut or whole-card read reads it better): its look-alike's face lines up with
    it in place and its print does not match, at an outline of a card's shape. No crop
    round it is searched, whether or not the detector's searches agree on it."""
    scene = _scene(["red-14", "blue-14", "red-13", "red-15"], EVAL_SEED + 3)
    for agreed in (True, False):
        detector = _Outlines(scene, agreed)
        said = {code: r.reading.code for code, r in
                _by_truth(CardRecognizer(detector, gargon_without_red_14.identifier).recognize(scene.image), scene).items()}
        assert said == {"red-14": None, "blue-14": "blue-14", "red-13": "red-13", "red-15": "red-15"}, said
        assert detector.crops == 0


def test_a_face_never_enrolled_off_a_cards_shape_is_settled_only_where_both_searches_agree(gargon_without_red_14):
    """The same red-14 seen squashed to 70% of its height (a camera's tilt): its outline
    no longer has a card's shape, and it might be part of a card. Its outline is settled
    (`_settled`: no closer look) only where the detector's searches agree on it, as
    found or once the other search's outline of it is fitted to the card's edges (one a
    tenth too large, as the network's coarse maps give); not where that other outline
    is its print panel, nor where there is none."""
    scene = _scene(["red-14", "blue-14", "red-13", "red-15"], EVAL_SEED + 3)
    h, w = scene.image.shape[:2]
    image = cv2.resize(scene.image, (w, int(0.7 * h)), interpolation=cv2.INTER_AREA)
    truth = next(c.corners for c in scene.cards if c.code == "red-14") * np.float32([1, 0.7])
    corners = refine_quads(image, [order_clockwise(truth)])[0]
    identifier = gargon_without_red_14.identifier
    reading = identifier.identify(CardCutter(image, identifier.card_size)(corners))
    assert reading.code is None and whole_card_outlines(corners)  # read as never enrolled, off a card's shape
    settled = {(agreed, partner): _settled(image, [(corners, reading)], [agreed],
                                           [None if partner is None else _grown(truth, partner)], identifier.card_size)[0]
               for agreed, partner in ((True, None), (False, 1.1), (False, None), (False, 0.55))}
    assert settled == {(True, None): True, (False, 1.1): True, (False, None): False, (False, 0.55): False}, settled


def test_a_forgotten_card_of_a_near_colour_is_unknown(embedder):
    """Violet and blue print alike once band-passed; only colour tells them apart."""
    deck = _deck("bagani", ["blue-square", "blue-circle", "red-square", "green-square", "biyaya"], embedder)
    recognizer = CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))
    for seed in range(EVAL_SEED, EVAL_SEED + 4):
        scene = _scene(["violet-square", "blue-square", "red-square"], seed, game="bagani")
        said = {code: r.reading.code for code, r in _by_truth(recognizer.recognize(scene.image), scene).items()}
        assert said.get("violet-square", "missing") is None, said
        assert all(name in (None, code) for code, name in said.items()), said


def test_a_named_card_has_its_own_top_left_corner_first(embedder):
    deck = _deck("bagani", ["blue-circle", "red-square", "biyaya", "green-circle", "yellow-square"], embedder)
    recognizer = CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))
    named = 0
    for seed in range(EVAL_SEED, EVAL_SEED + 6):
        scene = _scene(["blue-circle", "red-square", "biyaya", "green-circle"], seed, game="bagani")
        for card in scene.cards:
            result = _by_truth(recognizer.recognize(scene.image), scene).get(card.code)
            if result is not None and result.reading.code is not None:
                named += 1
                assert result.reading.code == card.code
                assert np.argmin(np.linalg.norm(card.corners - result.corners[0], axis=1)) == 0
    assert named >= 12  # of 24: most are named, and every named one is named right


def test_a_small_generated_table_of_every_game_regression_floor(embedder):
    """Floors a little under what the shipped identifier measures on these scenes (1.0 and
    0.94 named right; see models/README.md for all four games): a change that loses
    cards here has broken something."""
    tally = Tally()
    for game in ("bagani", "lagim"):  # the benchmark covers all four; these keep CI fast
        table = game_table(game, EVAL_SEED, scenes=3)
        deck = _deck(game, table.enrolled, embedder)
        recognizer = CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))
        for scene in table.scenes:
            tally.add(recognizer.recognize(scene.image), [TruthCard(c.code, tuple(c.corners.mean(0))) for c in scene.cards],
                      set(table.enrolled), [c.corners for c in scene.cards])
    summary = tally.summary()
    assert summary["detection_recall"] >= 0.95, summary
    assert summary["detection_precision"] >= 0.95, summary
    assert summary["enrolled_accepted_and_right"] >= 0.9, summary
    # and the live table takes most of them without a question (its confidence bar)
    assert summary["enrolled_right_over_table_bar"] >= 0.8, summary
    assert summary["ranked_first_right"] >= 0.9, summary
    assert summary["unenrolled_rejected"] >= 0.95, summary
    assert summary["wrong_names"] == 0, summary
    assert summary["corners_in_order"] >= 0.9, summary


def test_a_deck_profile_holds_features_not_photos(tmp_path, embedder):
    deck = _deck("gargon", ["blue-14", "red-13"], embedder)
    written = deck.save(tmp_path / "deck.npz")
    loaded = DeckProfile.load(written)
    assert loaded.gallery.codes == ("blue-14", "red-13")
    assert loaded.gallery.embeddings.shape == (2, embedder.dim)
    assert abs(loaded.gallery.threshold - deck.gallery.threshold) < 1e-9
    assert loaded.gallery.min_fine == deck.gallery.min_fine and loaded.gallery.spans == deck.gallery.spans
    # a card met blurred is judged by the cuts calibrated for its blur, loaded or not
    assert deck.gallery.blurred_cuts and loaded.gallery.blurred_cuts == deck.gallery.blurred_cuts
    with np.load(written) as data:
        assert set(data.files) == {"embeddings", "turned", "templates", "turned_templates", "details",
                                   "detail_scales", "colours", "min_colours", "codes", "meta"}
        # templates are band-passed 36x50 thumbnails: no brightness or colour level is left
        assert data["templates"].shape == (2, 36 * 50 * 3)
        assert np.abs(data["templates"].astype(np.float32).mean(axis=1)).max() < 0.01
        # detail images likewise, at 72x100
        assert data["details"].shape == (2, 100, 72, 3)
        assert np.abs(data["details"].astype(np.float32).mean(axis=(1, 2))).max() < 2.0  # of +-127
        # colour as the means of 9x12 cells (what a card's light is fitted to), no finer
        assert data["colours"].shape == (2, 12, 9, 3)
    assert written.stat().st_size < 80_000  # two shots; one enrollment photo alone is larger


@needs_real_photos
def test_real_photos_one_shot_protocol(embedder):
    truth = real_photo_truth(REAL_PHOTOS)
    enrollment = Enrollment("generic", ContourCardDetector())
    for code, image in one_shot_shots(REAL_PHOTOS):
        enrollment.add(image, code)
    deck = enrollment.profile(embedder)
    recognizer = CardRecognizer(ContourCardDetector(), GalleryIdentifier(deck.gallery, embedder))
    gallery = set(one_shot_gallery(truth))
    tally = Tally()
    for photo, cards in truth.items():
        results = recognizer.recognize(cv2.imread(str(REAL_PHOTOS / photo)))
        tally.add(*without_gallery(photo, results, cards, gallery), set(enrollment.codes))
    summary = tally.summary()
    assert summary["detection_recall"] >= 0.98 and summary["detection_precision"] >= 0.98, summary
    assert summary["ranked_first_right"] >= 0.97, summary  # the targets
    assert summary["enrolled_accepted_and_right"] >= 0.95, summary
    assert summary["unenrolled_rejected"] >= 0.95, summary
    assert summary["wrong_names"] == 0, summary


@needs_real_photos
def test_an_enrollment_close_up_whose_print_breaks_the_outline_still_enrolls_the_card():
    """At the detector's working size this card's outline is broken by its own print and
    nothing card-shaped is found; enrollment must still cut out the card, not the whole
    photo with its neighbours."""
    _, image = next(shot for shot in one_shot_shots(REAL_PHOTOS) if shot[0] == "orcish-artillery")
    h, w = image.shape[:2]
    corners = card_nearest_centre(image, ContourCardDetector())
    card_area = cv2.contourArea(corners.astype(np.float32))
    assert 0.3 * h * w < card_area < 0.6 * h * w  # one card of the crop, not the crop (neighbours show at its edges)
    assert np.linalg.norm(corners.mean(axis=0) - (w / 2, h / 2)) < 0.05 * w


def test_an_unfamiliar_deck_is_named_under_warm_dim_light_and_small_in_the_frame(embedder):
    """A deck in another design (the `medallion` family: dark cards, the value light on
    dark in a ring of the suit's colour) read under the detector world's warmest,
    dimmest light, and as small in the frame as a webcam shows it (55-160 px long).
    Before cards were relit to their shot's light and calibration saw small views,
    14 and 20 of 28 were named; the forgotten red-14 is never named either way."""
    codes = ["red-14", "blue-14", "red-13", "red-15", "red-4", "violet-14", "green-11", "red-11"]

    def face(code: str) -> np.ndarray:
        return family_face("medallion", "gargon", code)

    deck = enrolled_deck("gargon", codes[1:], embedder, random.Random("test-enroll:gargon"), faces=face)
    identifier = GalleryIdentifier(deck.gallery, embedder)
    rng = random.Random(5)
    warm_dim = np.array([0.6, 0.82, 1.1]) * 0.5  # BGR gains

    def warm(code: str) -> np.ndarray:
        view = photographed(face(code), rng, cut=(0.01, 0.0)).astype(np.float32)
        return np.clip(view * warm_dim, 0, 255).astype(np.uint8)

    def small(code: str) -> np.ndarray:
        return seen_small(photographed(face(code), rng, cut=(0.01, 0.0)), rng)

    for view, floor in ((warm, 25), (small, 22)):
        said = [(code, identifier.identify(view(code)).code) for code in codes for _ in range(4)]
        assert [s for s in said if s[1] not in (None, s[0])] == []  # no wrong name
        assert [name for code, name in said if code == "red-14"] == [None] * 4
        assert sum(code == name for code, name in said) >= floor, said



def test_a_deck_that_prints_its_value_only_in_the_corners_is_ranked_by_them(embedder):
    """The `pips` family prints a syllable only small in two corners, round one suit mark
    every card shares: the wide look and the whole-card closeness see nearly the same
    picture for every syllable and often ranked a look-alike first (so the card was
    null at best). The card's corner boxes, lined up with its shot, tell them apart.
    Measured: ranked first 29 of 44 before, 36 now; named 4 before, 14 now; the
    forgotten TA never named."""
    codes = ["TA", "KA", "NA", "PA", "SA", "DA", "BA", "GA", "LA", "MA", "RA", "YA"]

    def face(code: str) -> np.ndarray:
        return family_face("pips", "dugtungan", code)

    deck = enrolled_deck("dugtungan", codes[1:], embedder, random.Random("test-enroll:dugtungan"), faces=face)
    identifier = GalleryIdentifier(deck.gallery, embedder)
    rng = random.Random(7)
    views = [(code, photographed(face(code), rng, cut=(0.03, 0.0))) for code in codes for _ in range(4)]
    readings = identifier.identify_many([view for _, view in views])
    said = [(code, reading.code) for (code, _), reading in zip(views, readings)]
    assert [s for s in said if s[1] not in (None, s[0])] == []  # no wrong name
    assert [name for code, name in said if code == "TA"] == [None] * 4
    first = sum(reading.candidates[0].code == code for (code, _), reading in zip(views, readings) if code != "TA")
    assert first >= 34, first
    assert sum(code == name for code, name in said) >= 10, said


def test_blank_corners_weigh_nothing_in_the_ranking():
    """A design with nothing printed in its corners (a SET card, full-bleed art's sky)
    has corner boxes that correlate as noise does: they must not rank its cards."""
    rng = np.random.default_rng(0)
    printed = rng.normal(0, 10, (100, 72, 3)).astype(np.float32)
    blank = printed.copy()
    (w, h), inset = CORNER, CORNER_INSET
    blank[: inset + h + 2, : inset + w + 2] = rng.normal(0, 0.1, (inset + h + 2, inset + w + 2, 3))
    blank[-inset - h - 2:, -inset - w - 2:] = rng.normal(0, 0.1, (inset + h + 2, inset + w + 2, 3))
    unit = np.eye(2, 4, dtype=np.float32)
    gallery = Gallery(("printed", "blank"), unit, unit, unit, unit, np.stack([printed, blank]),
                      np.zeros((2, 12, 9, 3), np.float32), threshold=0.0, min_consistency=0.0,
                      min_colours=np.zeros(2, np.float32))
    weights = np.linalg.norm(gallery._corners, axis=1)  # both ways up: printed, blank, printed, blank
    assert weights[[0, 2]].min() > 0.95 and weights[[1, 3]].max() < 0.05, weights


class _Favouring:
    """An embedder that ranks every card by fixed weights on a gallery's shots (rows of
    `weights`: the wide look's similarity of each code, whatever the card shows)."""

    def __init__(self, weights: list[float]) -> None:
        self.vector = 3 * np.array(weights, np.float32)  # similarity is a third embedding

    def embed(self, cards):
        return np.tile(self.vector, (len(cards), 1))


def _big_value(value: str, ink: tuple[int, int, int] = (40, 40, 160)) -> np.ndarray:
    """A pale card with a frame and one large value in the middle."""
    w, h = CARD_SIZE
    card = np.full((h, w, 3), 230, np.uint8)
    cv2.rectangle(card, (8, 8), (w - 9, h - 9), ink, 4)
    cv2.putText(card, value, (w // 2 - 45, h // 2 + 45), cv2.FONT_HERSHEY_SIMPLEX, 4.0, ink, 12, cv2.LINE_AA)
    return card


def _lookalike_identifier(faces: dict[str, np.ndarray], weights: list[float]) -> GalleryIdentifier:
    """An identifier over `faces` (code: face) whose wide look ranks codes by `weights`
    (so a look-alike can be put first), with cuts any card of its own face passes: print
    consistency 0.9 at the coarse cells, no fine cells, colour unasked."""
    shots = halved(list(faces.values()))
    n = len(shots)
    flat = np.zeros((n, len(templates(shots[:1])[0])), np.float32)
    gallery = Gallery(tuple(faces), np.eye(n, dtype=np.float32), np.zeros((n, n), np.float32), flat, flat,
                      details(shots), colour_cells(shots), threshold=0.0, min_consistency=0.9,
                      min_colours=np.full(n, -1.0, np.float32))
    return GalleryIdentifier(gallery, _Favouring(weights))


def test_a_card_ranked_behind_a_lookalike_is_named_by_the_second_look():
    """The wide look puts the look-alike 3 first and the card's own 8 second: the 3
    fails the print test, the 8 passes it, and no other code does."""
    identifier = _lookalike_identifier({"x-3": _big_value("3"), "x-8": _big_value("8"), "x-5": _big_value("5")},
                                       [1.0, 0.4, 0.2])
    g = identifier.gallery
    card = _big_value("8")
    (detail,), (cells,) = details(halved([card])), colour_cells(halved([card]))
    first = g.ranked(g.similarities(identifier.embedder.embed([card]), templates(halved([card])))[0], detail, cells)
    assert [g.codes[c % 3] for c in first.columns[:2]] == ["x-3", "x-8"] and margin(first, g) < 0
    reading = identifier.identify(card)
    assert reading.code == "x-8" and reading.confidence > 0.5, reading


def test_a_card_whose_two_candidates_both_pass_stays_unknown():
    """Two codes enrolled with one face: a second look that finds both cannot choose."""
    identifier = _lookalike_identifier({"x-3": _big_value("3"), "x-8": _big_value("8"), "y-8": _big_value("8")},
                                       [1.0, 0.4, 0.3])
    assert identifier.identify(_big_value("8")).code is None


def test_a_card_whose_first_candidate_is_its_print_is_not_named_as_another():
    """A winner refused for colour alone is the card's print: a second look must not
    name the next code even where it passes every test, since the card may be the
    winner's face under a strange light (a colour look-alike passes the print test too)."""
    identifier = _lookalike_identifier({"x-8": _big_value("8"), "y-8": _big_value("8"), "x-5": _big_value("5")},
                                       [1.0, 0.4, 0.2])
    identifier.gallery.min_colours[0] = 2.0  # no card passes x-8's colour test
    assert identifier.identify(_big_value("8")).code is None


def test_a_second_look_names_no_card_that_passes_only_at_the_fine_cells():
    """The fine cells are the first ranking's second chance, not the second look's."""
    identifier = _lookalike_identifier({"x-3": _big_value("3"), "x-8": _big_value("8"), "x-5": _big_value("5")},
                                       [1.0, 0.4, 0.2])
    fine_only = dataclasses.replace(identifier.gallery, min_consistency=1.01, min_fine=0.9)
    assert GalleryIdentifier(fine_only, identifier.embedder).identify(_big_value("8")).code is None


def test_a_card_never_enrolled_stays_unknown_after_the_second_look():
    identifier = _lookalike_identifier({"x-3": _big_value("3"), "x-8": _big_value("8"), "x-5": _big_value("5")},
                                       [1.0, 0.4, 0.2])
    assert identifier.identify(_big_value("6")).code is None


def test_a_card_judged_as_a_code_is_named_only_where_it_passes_that_codes_tests():
    """An 8 the wide look ranks behind three look-alikes, judged as 8 (where a second
    reader is sure of it) passes every test, either way up; judged as 3 it fails the
    print test, and a code the deck never enrolled names nothing."""
    faces = {f"x-{v}": _big_value(v) for v in "3568"}
    identifier = _lookalike_identifier(faces, [1.0, 0.5, 0.4, 0.2])
    card = _big_value("8")
    judged = identifier.judged_as([card, card, card], ["x-8", "x-3", "x-9"])
    assert [r.code for r in judged] == ["x-8", None, None]
    assert judged[0].confidence > 0.5 and judged[0].outline is not None and not judged[0].rotated
    upside_down = identifier.judged_as([cv2.rotate(card, cv2.ROTATE_180)], ["x-8"])[0]
    assert upside_down.code == "x-8" and upside_down.rotated
    assert identifier.judged_as([], []) == []


def test_a_card_judged_as_a_code_is_not_named_on_the_fine_cells_alone():
    identifier = _lookalike_identifier({f"x-{v}": _big_value(v) for v in "3568"}, [1.0, 0.5, 0.4, 0.2])
    fine_only = dataclasses.replace(identifier.gallery, min_consistency=1.01, min_fine=0.9)
    assert GalleryIdentifier(fine_only, identifier.embedder).judged_as([_big_value("8")], ["x-8"])[0].code is None
