"""The lexicon, the affix analysis and the move finder."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dugtungan.cards import parse_card
from rules.dugtungan.finder import find_words
from rules.dugtungan.lexicon import HouseWords, lexicon_words, normalise
from rules.dugtungan.morphology import derive
from rules.dugtungan.options import Options
from rules.dugtungan.words import Dictionary, judge_dugtong, judge_todas

DATA = Path(__file__).parent / "data"
TABLE = Dictionary()


def written_down(name: str) -> list[str]:
    """A word list written by hand for these measurements, as the cards spell it."""
    lines = (DATA / name).read_text("utf-8").splitlines()
    return [normalise(w).replace("-", "") for w in lines if w.strip() and not w.startswith("#")]


def cards(*codes: str):
    return [parse_card(c, "test") for c in codes]


def test_lexicon_holds_dictionary_and_wordfreq_words_without_abbreviations() -> None:
    words = lexicon_words(3.0)
    assert 60000 < len(words) < 75000  # 41,000 of the lists, 30,000 English loans respelt (SELPON)
    assert {"habag", "haba", "halika", "paniki", "ng", "mga"} <= words
    assert not {"tv", "ltfrb", "the", "school"} & words


def test_english_compounds_written_as_one_word_are_loans_in_filipino_spelling() -> None:
    """SOFT DRINKS, FISHBALL, LOVE LIFE, TEXTMATE, HIGH BLOOD, BEST FRIEND: rare in English
    as one word, written so in Filipino (scripts/build_lexicon.py `english_compounds`); but
    PROSESONG, MODELONG are PROSESO and MODELO with the linker, not PROSE+SONG, MODE+LONG,
    so their English readings (PROSONG, MADELONG) are no words."""
    assert all(TABLE.judge(w).source == "lexicon"
               for w in ("sopdrinks", "pisbol", "lablayp", "teksmeyt", "hayblad", "bestpren", "bespren"))
    assert not any(TABLE.judge(w).valid for w in ("prosong", "madelong"))


def test_a_loan_is_no_name_because_a_foreign_name_respells_the_same() -> None:
    """TEXT, TOPIC, SECRET, CHANNEL respelt are TEKS, TOPIK, SIKRET, TSANEL, which the
    Filipino spelling of the first names TEX, TOFIK, ZIKRET, CHANEL also gives; HOSE, JOSE's
    Filipino spelling, and names as written stay refused."""
    assert all(TABLE.judge(w).source == "lexicon" for w in ("teks", "topik", "sikret", "tsanel"))
    assert not any(TABLE.judge(w).valid for w in ("hose", "juan", "maria"))


def test_a_higher_frequency_floor_keeps_fewer_words() -> None:
    assert len(lexicon_words(4.0)) < len(lexicon_words(3.5)) < len(lexicon_words(3.0))
    assert "habag" not in Dictionary(Options(min_zipf=4.0, derived_words=False)).words


def test_lexicon_accepts_nearly_all_common_words_written_by_hand() -> None:
    words = written_down("dugtungan_common_words.txt")
    assert len(words) >= 100
    missed = [w for w in words if not TABLE.judge(w).valid]
    assert len(missed) / len(words) < 0.03, missed


def test_affix_analysis_accepts_affixed_forms_the_word_list_lacks() -> None:
    verdicts = [TABLE.judge(w) for w in written_down("dugtungan_affixed_words.txt")]
    derived = [v for v in verdicts if v.source == "derived"]
    assert sum(v.valid for v in verdicts) / len(verdicts) >= 0.9
    assert len(derived) >= 5 and "mahahabag" in [v.text for v in derived]


@pytest.mark.parametrize("written, spelled", [("TALÂ", "tala"), ("Halíka", "halika"), ("™", "tm")])
def test_words_are_normalised_to_lower_case_without_diacritics(written: str, spelled: str) -> None:
    assert normalise(written) == spelled


@pytest.mark.parametrize("word, root, steps", [
    ("mahahabag", "habag", ("ma-", "reduplication")),
    ("naghahabag", "habag", ("nag-", "reduplication")),
    ("kumain", "kain", ("-um-",)),
    ("umalis", "alis", ("-um-",)),
    ("kinain", "kain", ("-in-",)),
    ("inumin", "inom", ("-in",)),
    ("habagan", "habag", ("-an",)),
    ("basahan", "basa", ("-han",)),
    ("pagluto", "luto", ("pag-",)),
    ("kasama", "sama", ("ka-",)),
])
def test_affixes_and_reduplication_lead_back_to_the_root(word: str, root: str, steps: tuple) -> None:
    found = derive(word, {root}.__contains__)
    assert found is not None and (found.root, found.steps) == (root, steps)


def test_a_root_shorter_than_the_floor_is_not_enough() -> None:
    assert derive("maaso", {"aso"}.__contains__, min_root_letters=4) is None
    assert derive("maaso", {"aso"}.__contains__, min_root_letters=3) is not None


# --- the move finder ---

def test_finder_lists_the_faqs_words_for_pamato_ba_longest_first() -> None:
    moves = find_words(parse_card("BA", "t"), cards("MA", "HA", "HA", "G", "LA"), TABLE)
    words = [m.verdict.text for m in moves]
    assert {"haba", "habag", "mahahabag", "bala"} <= set(words)
    assert [m.letters for m in moves] == sorted((m.letters for m in moves), reverse=True)


@pytest.mark.parametrize("hand", [("HA", "LI", "N", "MA", "TA", "A", "SA:+DOS", "NG"),
                                  ("KA", "LA", "N", "A")])  # the second holds the PAMATO's syllable too
def test_every_found_word_is_a_valid_dugtong_of_the_hand(hand: tuple[str, ...]) -> None:
    pamato, hand = parse_card("KA", "t"), cards(*hand)
    for move in find_words(pamato, hand, TABLE):
        assert move.cards[move.pamato_at] == pamato
        assert judge_dugtong(pamato, move.cards, TABLE).valid
        spent = list(move.from_hand)
        assert all(spent.count(c) <= hand.count(c) for c in spent)


def test_finder_spends_at_most_one_action_card() -> None:
    hand = cards("HA:TOKI", "G:LAKTAW")
    found = [m.verdict.text for m in find_words(parse_card("BA", "t"), hand, TABLE)]
    assert "haba" in found and "habag" not in found
    relaxed = Dictionary(Options(one_action_card_per_turn=False))
    assert "habag" in [m.verdict.text for m in find_words(parse_card("BA", "t"), hand, relaxed)]


def test_finder_says_when_a_hand_has_no_move() -> None:
    assert find_words(parse_card("BA", "t"), cards("X", "Q"), TABLE) == []


def test_finder_finds_todas_words_from_the_hand_alone() -> None:
    todas = parse_card("MA:TODAS", "t")
    moves = find_words(todas, cards("HAL", "TA", "A"), TABLE, actions_left=0)
    assert moves and all(judge_todas(m.cards, TABLE).valid for m in moves)


def test_finder_suggests_house_words() -> None:
    table = Dictionary(house=HouseWords.of(accept=["dugtungan"]))
    moves = find_words(parse_card("DUG", "t"), cards("TU", "NGA", "N"), table)
    assert "dugtungan" in [m.verdict.text for m in moves]
