"""A deck's names checked against the printed token in the games whose cards print their
names (vision/print_check.py): a look-alike face left out of the deck is left null where
the print says otherwise, no name the print agrees with, or cannot read, is lost, and a
card the deck refused is named where the print reads its first-ranked face in full (a
syllable, which names its face by itself, read likelier than all others together)."""

from __future__ import annotations

import random
from typing import Sequence

import cv2
import numpy as np
import pytest

from vision.embed import OnnxEmbedder
from vision.interfaces import Candidate, Reading
from vision.print_check import PrintChecked, checked_by_print
from vision.printed import PrintedReader
from vision.recognize import CardRecognizer
from vision.synth.augment import photographed
from vision.synth.faces import game_face
from vision.synth.scenes import EVAL_SEED, render_scene
from vision.synth.tables import enrolled_deck


class _Says:
    """A deck identifier that names every card `code` (as a deck confusing look-alikes
    does), or, `refused`, ranks `code` first and names nothing (as its open-set tests do
    on faint print)."""

    card_size = (200, 280)

    def __init__(self, code: str | None, refused: bool = False) -> None:
        self.code, self.refused = code, refused

    def identify(self, card: np.ndarray) -> Reading:
        return self.identify_many([card])[0]

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        candidates = (Candidate(self.code, 0.9),) if self.code else ()
        if self.refused:
            return [Reading(None, 0.3, candidates) for _ in cards]
        return [Reading(self.code, 0.9, candidates) for _ in cards]


class _Judges(_Says):
    """A deck that refuses every card, ranking `code` first, and that, asked to judge a
    card as one code, passes it only as `passes` (as its tests on that code's shot would);
    it enrolled those two codes and `enrolled`."""

    def __init__(self, code: str, passes: str | None, enrolled: tuple[str, ...] = ()) -> None:
        super().__init__(code, refused=True)
        self.passes, self.asked = passes, []
        self.codes = (code,) + ((passes,) if passes else ()) + enrolled

    def judged_as(self, cards: Sequence[np.ndarray], codes: Sequence[str]) -> list[Reading]:
        self.asked += list(codes)
        return [Reading(code if code == self.passes else None, 0.9 if code == self.passes else 0.2,
                        (Candidate(code, 0.9),)) for code in codes]


@pytest.fixture(scope="module")
def dugtungan() -> PrintedReader:
    return PrintedReader("dugtungan")


def _photo(game: str, code: str) -> np.ndarray:
    return photographed(game_face(game, code), random.Random(f"print-check:{code}"))


def test_a_name_the_print_reads_otherwise_is_left_null_with_its_candidates(dugtungan):
    card = _photo("dugtungan", "TA")
    assert dugtungan.identify(card).code == "TA"
    reading = PrintChecked(_Says("YA"), dugtungan).identify(card)
    assert reading.code is None and reading.confidence == 0.0
    assert [c.code for c in reading.candidates] == ["YA"]  # the host still sees what the deck thought


def test_a_name_the_print_agrees_with_stands(dugtungan):
    card = _photo("dugtungan", "TA")
    assert PrintChecked(_Says("TA"), dugtungan).identify(card) == Reading("TA", 0.9, (Candidate("TA", 0.9),))


def test_a_gargon_name_is_checked_by_its_value_not_its_colour():
    """The deck tells colours apart from shots of the very design; the print reader's
    colour scheme may not be the deck's, so a colour it reads otherwise is no reason."""
    reader = PrintedReader("gargon")
    card = _photo("gargon", "red-6")
    assert reader.identify(card).code == "red-6"
    assert PrintChecked(_Says("red-9"), reader).identify(card).code is None
    assert PrintChecked(_Says("blue-6"), reader).identify(card).code == "blue-6"


def test_a_name_whose_print_is_unreadable_stands(dugtungan):
    """A face with no syllable on it (a blank card): the print says nothing, so the
    deck's name is kept, as a design the reader cannot read loses nothing."""
    blank = np.full((280, 200, 3), 235, np.uint8)
    assert dugtungan.identify(blank).code is None
    assert not dugtungan.tokens_many([blank])[0].doubts("TA", dugtungan.margin)  # a flat reading doubts nothing
    assert PrintChecked(_Says("TA"), dugtungan).identify(blank).code == "TA"


def test_a_name_the_print_is_unsure_of_but_finds_far_less_likely_than_another_is_left_null(dugtungan):
    """A blurred NU (a left-out face the deck took for HU): the reader names nothing,
    but finds HU under half as likely as its leader, and NU near it."""
    card = cv2.GaussianBlur(_photo("dugtungan", "NU"), (0, 0), 5)
    printed = dugtungan.tokens_many([card])[0]
    assert printed.token is None and printed.doubts("HU", dugtungan.margin) and not printed.doubts("NU", dugtungan.margin)
    assert PrintChecked(_Says("HU"), dugtungan).identify(card).code is None
    assert PrintChecked(_Says("NU"), dugtungan).identify(card).code == "NU"


def test_a_refused_card_whose_first_candidate_the_print_reads_is_named(dugtungan):
    card = _photo("dugtungan", "YA")
    reading = PrintChecked(_Says("YA", refused=True), dugtungan).identify(card)
    assert reading.code == "YA" and reading.confidence == dugtungan.identify(card).confidence
    assert PrintChecked(_Says("NA", refused=True), dugtungan).identify(card).code is None


def test_a_refused_card_the_print_reads_as_another_face_is_named_where_the_deck_passes_it_as_that_face(dugtungan):
    """The deck ranked the look-alike NA first and refused the card; the reader is sure
    it is YA: the deck is asked to judge it as YA, and it is named only if it passes."""
    card = _photo("dugtungan", "YA")
    deck = _Judges("NA", passes="YA")
    reading = PrintChecked(deck, dugtungan).identify(card)
    assert deck.asked == ["YA"] and reading.code == "YA"
    assert PrintChecked(_Judges("NA", passes=None), dugtungan).identify(card).code is None
    # the deck's first code a syllable that also comes with an action word: the reader's YA is still judged
    assert PrintChecked(_Judges("LI", passes="YA"), dugtungan).identify(card).code == "YA"


def test_a_refused_card_whose_syllable_the_reader_is_sure_of_is_named_by_its_print_alone(dugtungan):
    """The deck ranked the card behind a look-alike and its tests fail at YA too (a cut a
    few per cent off, a design whose print it cannot line up); the syllable printed names
    the face by itself, and the deck enrolled it. A Gargon value does not: its colour is
    the deck's to tell."""
    card = _photo("dugtungan", "YA")
    assert PrintChecked(_Judges("NA", passes=None, enrolled=("YA",)), dugtungan).identify(card).code == "YA"
    assert PrintChecked(_Judges("NA", passes=None), dugtungan).identify(card).code is None  # YA never enrolled
    gargon = _photo("gargon", "red-6")
    assert PrintedReader("gargon").identify(gargon).code == "red-6"
    assert PrintChecked(_Judges("blue-6", passes=None, enrolled=("red-6",)), PrintedReader("gargon")).identify(gargon).code is None


def test_a_refused_syllable_that_also_comes_with_an_action_word_stays_null(dugtungan):
    """LI and LI:LAKTAW print the same syllable; the action word is what the deck's tests
    may have caught, and the reader may miss it."""
    card = _photo("dugtungan", "LI")
    assert dugtungan.identify(card).code == "LI"
    assert PrintChecked(_Says("LI", refused=True), dugtungan).identify(card).code is None
    deck = _Judges("NI", passes="LI")  # nor is the deck asked to judge it as LI
    assert PrintChecked(deck, dugtungan).identify(card).code is None and deck.asked == []


def test_a_refused_syllable_read_with_its_action_word_is_named(dugtungan):
    """The word read is not a word missed: a LI:LAKTAW the deck ranked first but refused,
    and the reader reads in full, is named; a bare LI stays null (above)."""
    card = _photo("dugtungan", "LI:LAKTAW")
    assert dugtungan.identify(card).code == "LI:LAKTAW"
    assert PrintChecked(_Says("LI:LAKTAW", refused=True), dugtungan).identify(card).code == "LI:LAKTAW"
    assert PrintChecked(_Says("LI", refused=True), dugtungan).identify(card).code is None


class _Unsure(PrintedReader):
    """The printed reader with every reading made unsure, its likelihoods kept (as a
    syllable read at 0.97 is where neither corner index alone is sure of it)."""

    def identify_many(self, cards: Sequence[np.ndarray]) -> list[Reading]:
        return [Reading(None, read.confidence, read.candidates, read.rotated) for read in super().identify_many(cards)]


def test_a_refused_syllable_the_reader_finds_likelier_than_all_others_is_named_where_the_deck_ranks_it_first():
    """Two looks agree on a face the print names by itself; a Gargon value does not (its
    colour is the deck's to tell), nor a syllable read less likely than the others together."""
    reader = _Unsure("dugtungan")
    card = _photo("dugtungan", "YA")
    assert reader.identify(card).code is None and reader.identify(card).candidates[0].score > 0.9
    assert PrintChecked(_Says("YA", refused=True), reader).identify(card).code == "YA"
    assert PrintChecked(_Says("WA", refused=True), reader).identify(card).code is None
    faint = cv2.GaussianBlur(card, (0, 0), 5)  # YA still leads, at about a quarter
    assert reader.identify(faint).candidates[0].code == "YA" and reader.identify(faint).candidates[0].score < 0.5
    assert PrintChecked(_Says("YA", refused=True), reader).identify(faint).code is None
    gargon = _photo("gargon", "red-6")
    assert PrintChecked(_Says("red-6", refused=True), _Unsure("gargon")).identify(gargon).code is None


def test_a_refused_gargon_card_is_named_only_where_its_colour_is_read_too():
    reader = PrintedReader("gargon")
    card = _photo("gargon", "red-6")
    assert PrintChecked(_Says("red-6", refused=True), reader).identify(card).code == "red-6"
    assert PrintChecked(_Says("blue-6", refused=True), reader).identify(card).code is None


def test_only_the_games_that_print_their_names_are_checked():
    identifier = _Says("x")
    assert isinstance(checked_by_print(identifier, "gargon"), PrintChecked)
    assert isinstance(checked_by_print(identifier, "dugtungan"), PrintChecked)
    assert checked_by_print(identifier, "bagani") is identifier
    assert checked_by_print(identifier, "lagim") is identifier


def test_a_recognizer_for_a_dugtungan_deck_checks_its_names_by_print_and_still_names_its_cards():
    codes = ["TA", "YA", "NA", "KA"]
    embedder = OnnxEmbedder(threads=1)
    deck = enrolled_deck("dugtungan", codes, embedder, random.Random("print-check:enroll"))
    recognizer = CardRecognizer.for_deck(deck)
    assert isinstance(recognizer.identifier, PrintChecked)
    scene = render_scene(random.Random(EVAL_SEED), [(c, game_face("dugtungan", c)) for c in codes])
    said = sorted(r.reading.code or "" for r in recognizer.recognize(scene.image))
    assert said == sorted(codes), said
