"""Tagalog word building (issue 24): the words the lexicon missed, the non-words it took,
the move finder's suggestions, and the measured figures on the hand-written lists."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dugtungan.cards import deck_counts, parse_card
from rules.dugtungan.finder import find_words
from rules.dugtungan.morphology import Grammar, SuffixForms, derive
from rules.dugtungan.words import Dictionary

TABLE = Dictionary()
ROOTS = {"kain", "luto", "sulat", "takbo", "basa", "kanta", "sagot", "bura", "hugas", "araw", "tago", "bili"}
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "measure_lexicon.py"


@pytest.mark.parametrize("word", [
    "araw-araw", "dahan-dahan", "halo-halo", "sari-sari", "langoy", "languyin", "nakipag-usap",
    "pambura", "pansulat", "ikasampu", "sanlibo", "basain", "mahahabag", "halika",
])
def test_the_words_the_issue_found_refused_are_accepted(word: str) -> None:
    assert TABLE.judge(word.replace("-", "")).valid


@pytest.mark.parametrize("word", [
    "maria", "juan", "rizal", "cebu", "nbi", "gma", "deped", "ofw", "facebook", "jollibee",
    "magmagkain", "nagnagluto", "kuminain", "sinumulat", "tatatakbo", "hugashan", "tinginhan",
    "sabiin", "kantain", "sagotin", "kumaen", "ngaun", "tlga", "kumani", "kumian", "kumina",
])
def test_the_non_words_the_issue_found_accepted_are_refused(word: str) -> None:
    assert not TABLE.judge(word).valid


GLOTTAL_TAGO = SuffixForms(plain=frozenset({"tago"}))  # TAGUAN, not TAGOHAN


def parse(word: str, suffixes: SuffixForms = GLOTTAL_TAGO) -> tuple[str, tuple[str, ...]] | None:
    found = derive(word, ROOTS.__contains__, 4, suffixes, lambda w: False)
    return (found.root, found.steps) if found else None


@pytest.mark.parametrize("word, root, steps", [
    ("kumakain", "kain", ("-um-", "reduplication")),
    ("pambura", "bura", ("pam-",)),
    ("panghugas", "hugas", ("pang-",)),
    ("sagutin", "sagot", ("-in",)),
    ("araw-araw", "araw", ("whole reduplication",)),
    ("tagu-taguan", "tago", ("whole reduplication", "-an")),
    ("mamili", "bili", ("mang-", "nasal substitution")),
    ("kantahin", "kanta", ("-hin",)),
])
def test_each_rule_builds_its_word(word: str, root: str, steps: tuple[str, ...]) -> None:
    assert parse(word.replace("-", "")) == (root, steps)


@pytest.mark.parametrize("word", [
    "magmagkain",   # one prefix chain
    "kuminain",     # one infix
    "tatatakbo",    # one reduplication
    "pangbura",     # PANG- says PAM- before B
    "pamhugas",     # and PANG- before H
    "sagotin",      # the last O is said U before a suffix
    "hugashan",     # -HAN only after a vowel
    "kantain",      # -IN after a vowel only where the root ends in a glottal stop
    "kumainin",     # -UM- takes no suffix
])
def test_each_rule_refuses_its_misspelling(word: str) -> None:
    assert parse(word) is None


def test_a_root_the_lists_show_with_plain_in_takes_it_and_no_other_does() -> None:
    glottal = SuffixForms(plain=frozenset({"basa"}), with_h=frozenset({"basa"}))
    assert parse("basain", glottal) is not None and parse("basahin", glottal) is not None
    assert parse("basain", SuffixForms()) is None and parse("basahin", SuffixForms()) is not None
    only_plain = SuffixForms(plain=frozenset({"basa"}))
    assert parse("basahin", only_plain) is None


def test_a_proper_name_is_never_derived() -> None:
    grammar = Grammar({"panga"}.__contains__, is_name={"pampanga"}.__contains__)
    assert not list(grammar.analyses("pampanga"))
    assert list(Grammar({"panga"}.__contains__).analyses("pampanga"))


def test_finder_suggests_no_kumani_from_ku_and_letters() -> None:
    moves = find_words(parse_card("KU", "t"), [parse_card(c, "t") for c in ("M", "A", "I", "N")], TABLE)
    found = {m.verdict.text for m in moves}
    assert not {"kumani", "kumian", "kumina"} & found


_CARDS = sorted(card for card in deck_counts() if card.syllable and not card.action)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_CARDS), st.lists(st.sampled_from(_CARDS), min_size=1, max_size=6))
def test_every_word_the_finder_suggests_is_accepted_by_check(pamato, hand) -> None:
    for move in find_words(pamato, hand, TABLE):
        assert Dictionary().judge(move.verdict.text).valid, move.verdict.text


@pytest.mark.parametrize("word", [
    "lakad-takbo", "luksong-baka", "pantawid-gutom", "kapit-bisig", "lakarin", "bayaran",
    "sige", "iskul", "traysikel", "problema", "ideya",
    "tsardyer", "interbyu", "kukis", "eksam", "respek", "hatdog", "diskawnt",  # English respelt
])
def test_compounds_d_said_r_and_loans_in_filipino_spelling_are_accepted(word: str) -> None:
    assert TABLE.judge(word.replace("-", "")).valid


@pytest.mark.parametrize("word", [
    "kamaluto", "pagpaglaro", "bibibili", "kamagkain", "kanakain", "pinagumalis", "lakadin",
    "manila", "laurel", "magnolia", "emperador", "hose", "tau", "kumaen", "kelan", "ngaun",
    "problem", "sweater", "apartment",
    "open", "morning", "playing", "gumoli",  # English respelt: OFTEN, MOURNING; GOALIE's affixed
])
def test_glued_words_names_brands_chat_and_english_spellings_are_refused(word: str) -> None:
    assert not TABLE.judge(word).valid


@pytest.mark.parametrize("word, root", [
    ("isang", "isa"), ("kaibigang", "kaibigan"), ("pinakamagandang", "ganda"), ("kanilang", "kanila"),
])
def test_a_word_with_the_linker_written_joined_is_accepted(word: str, root: str) -> None:
    """-NG after a vowel, -G after N (ISA -> ISANG, KAIBIGAN -> KAIBIGANG), on a derived word
    too; the pronouns take it (KANILANG)."""
    found = derive(word, {"isa", "kaibigan", "ganda", "kanila"}.__contains__, 3, SuffixForms(), lambda w: False)
    assert found and found.root == root and found.steps[-1] == "linker -ng"


@pytest.mark.parametrize("word", ["pang", "sang", "mang", "mong", "yatang", "nyang", "syang", "kumainng"])
def test_the_linker_makes_no_word_of_a_prefix_a_particle_or_a_non_word(word: str) -> None:
    """PANG stays a prefix, a particle takes no linker (YATANG), nor does a chat
    spelling (NYA) or a short word (MO)."""
    assert not TABLE.judge(word).valid


@pytest.mark.parametrize("word", ["isang", "bagong", "buong", "aking", "kwento", "dyaket", "byahe", "syudad",
                                  "twalya", "gwardiya", "nagkwento", "miyerkoles", "kundisyon", "iligal"])
def test_linked_forms_and_both_spellings_of_a_glide_are_accepted(word: str) -> None:
    """BAGONG is a word though a place (Bagong Silang) holds it; KUWENTO and KWENTO, DIYAKET
    and DYAKET are both Filipino spellings, as are MIYERKULES and MIYERKOLES."""
    assert TABLE.judge(word).valid


@pytest.mark.parametrize("word", ["sya", "bwan", "dyos", "nya", "morong"])
def test_a_one_syllable_glide_spelling_is_chat_and_a_town_stays_a_name(word: str) -> None:
    assert not TABLE.judge(word).valid


def test_a_compound_names_both_halves() -> None:
    found = derive("luksongbaka", TABLE.is_root)
    assert found and found.root == "lukso" and found.steps == ("linker -ng", "compound with BAKA")


_PREFIXES = ["mag", "nag", "pag", "ma", "na", "ka", "pa", "i", "um", "pinag", "ipag", "naka", "maka"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_PREFIXES), st.sampled_from(sorted(ROOTS)))
def test_a_prefix_said_twice_is_no_compound(prefix: str, root: str) -> None:
    """PAGPAG-LARO, MAGMAG-KAIN: a prefix said twice never passes as a compound, whatever
    words its halves happen to spell (KAKAKAIN, "just ate", is an affixed form)."""
    found = TABLE.judge(prefix + prefix + root).derivation
    assert found is None or not any(step.startswith("compound") for step in found.steps)


# Every category of the dev part at the issue's bar (0.97); the held-out part is reported
# by scripts/measure_lexicon.py --part both and never tuned against.
FLOORS: dict[str, float] = {}


def test_measured_figures_on_the_dev_part_stay_at_the_reported_level() -> None:
    """The dev part's figures (scripts/measure_lexicon.py) do not fall below what the
    lexicon reached when it was built; a change that loses words or lets non-words in fails."""
    spec = importlib.util.spec_from_file_location("measure_lexicon", SCRIPT)
    assert spec and spec.loader
    measure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(measure)
    report = measure.measure("dev", Dictionary())
    assert len(report) == 14 and all(c["of"] >= 20 for c in report.values())
    low = {name: c for name, c in report.items() if c["rate"] < FLOORS.get(name, 0.97)}
    assert not low, low
