"""DUGTONG, SAPAW and TODAS verdicts, from the dug2ngan FAQ's own examples."""

from __future__ import annotations

import pytest

from rules import dugtungan
from rules.core import BadInput
from rules.dugtungan.cards import parse_card
from rules.dugtungan.lexicon import HouseWords
from rules.dugtungan.options import Options
from rules.dugtungan.words import Dictionary, judge_dugtong, judge_sapaw, judge_todas


def cards(*codes: str):
    return [parse_card(c, "test") for c in codes]


BA = parse_card("BA", "test")
TABLE = Dictionary()


# --- DUGTONG: "sa unahan, sa hulihan, o pagitnaan ang PAMATO" ---

def test_cards_before_the_pamato_make_haba() -> None:
    verdict = judge_dugtong(BA, cards("HA", "BA"), TABLE)
    assert verdict.valid and verdict.word == "HABA"
    assert verdict.reason == "HABA is a word; the PAMATO BA ends it"


def test_cards_around_the_pamato_make_habag() -> None:
    verdict = judge_dugtong(BA, cards("HA", "BA", "G"), TABLE)
    assert verdict.valid
    assert verdict.reason == "HABAG is a word; the PAMATO BA is inside it"


def test_cards_after_the_pamato_count_too() -> None:
    verdict = judge_dugtong(BA, cards("BA", "LA"), TABLE)
    assert verdict.valid and verdict.reason.endswith("the PAMATO BA starts it")


def test_many_cards_make_mahahabag_derived_from_habag() -> None:
    verdict = judge_dugtong(BA, cards("MA", "HA", "HA", "BA", "G"), TABLE)
    assert verdict.valid and verdict.word == "MAHAHABAG"
    assert "derived from HABAG (ma-, reduplication)" in verdict.reason
    assert verdict.judged is not None and verdict.judged.root == "habag"


def test_a_word_without_the_pamato_is_no_dugtong() -> None:
    verdict = judge_dugtong(BA, cards("HA", "LI", "KA"), TABLE)
    assert not verdict.valid and verdict.reason == "the PAMATO BA is not in HALIKA"


def test_the_pamato_alone_is_no_dugtong() -> None:
    assert not judge_dugtong(BA, cards("BA"), TABLE).valid


def test_a_string_that_is_no_word_is_refused_with_its_spelling() -> None:
    verdict = judge_dugtong(BA, cards("BA", "KWE", "ZU"), TABLE)
    assert not verdict.valid and verdict.reason == "BAKWEZU is not in the word list"


def test_one_action_card_per_turn_counts_the_words_cards() -> None:
    two_actions = cards("MA:TODAS", "HA", "HA", "BA", "G")
    assert judge_dugtong(BA, two_actions, TABLE).valid
    verdict = judge_dugtong(BA, cards("MA:TODAS", "HA", "HA:TOKI", "BA", "G"), TABLE)
    assert not verdict.valid and "one action card" in verdict.reason
    relaxed = Dictionary(Options(one_action_card_per_turn=False))
    assert judge_dugtong(BA, cards("MA:TODAS", "HA", "HA:TOKI", "BA", "G"), relaxed).valid


# --- SAPAW ---

def test_sapaw_inside_makes_halika_from_ha_ka() -> None:
    verdict = judge_sapaw(cards("HA", "KA"), cards("HA", "LI", "KA"), TABLE)
    assert verdict.valid and verdict.word == "HALIKA"
    assert verdict.reason == "HALIKA is a word; LI added to HA KA without changing its order"


def test_sapaw_may_not_reorder_ni_pa_into_paniki() -> None:
    verdict = judge_sapaw(cards("NI", "PA"), cards("PA", "NI", "KI"), TABLE)
    assert not verdict.valid
    assert "never reorders" in verdict.reason


def test_sapaw_after_makes_halikan() -> None:
    assert judge_sapaw(cards("HA", "LI", "KA"), cards("HA", "LI", "KA", "N"), TABLE).valid


def test_sapaw_with_several_cards_makes_mahahalaga_from_ha_la() -> None:
    verdict = judge_sapaw(cards("HA", "LA"), cards("MA", "HA", "HA", "LA", "GA"), TABLE)
    assert verdict.valid and verdict.word == "MAHAHALAGA"


def test_sapaw_adds_at_least_one_card() -> None:
    verdict = judge_sapaw(cards("HA", "KA"), cards("HA", "KA"), TABLE)
    assert not verdict.valid and verdict.reason == "a sapaw adds at least one card"


# --- TODAS ---

def test_todas_word_from_the_hand_alone() -> None:
    verdict = judge_todas(cards("MA:TODAS", "HAL"), TABLE)
    assert verdict.valid and "PAMATO stays in play" in verdict.reason


def test_a_hand_word_without_todas_is_refused() -> None:
    verdict = judge_todas(cards("MA", "HAL"), TABLE)
    assert not verdict.valid and "TODAS" in verdict.reason


# --- the table's dictionary ---

def test_house_accept_list_adds_a_word() -> None:
    table = Dictionary(house=HouseWords.of(accept=["dugtungan"]))
    verdict = judge_dugtong(parse_card("DUG", "t"), cards("DUG", "TU", "NGA", "N"), table)
    assert verdict.valid and "house word" in verdict.reason


def test_house_reject_list_removes_a_lexicon_word() -> None:
    table = Dictionary(house=HouseWords.of(reject=["haba"]))
    verdict = judge_dugtong(BA, cards("HA", "BA"), table)
    assert not verdict.valid and verdict.reason == "HABA is a word this table rejected"


def test_derived_words_can_need_the_tables_vote() -> None:
    table = Dictionary(Options(derived_need_vote=True))
    verdict = judge_dugtong(BA, cards("MA", "HA", "HA", "BA", "G"), table)
    assert not verdict.valid
    assert verdict.reason == "MAHAHABAG is derived from HABAG (ma-, reduplication) and needs the table's vote"


def test_a_challenge_won_makes_the_word_a_house_word() -> None:
    house = HouseWords().with_verdict("MAHAHABAG", accepted=True)
    table = Dictionary(Options(derived_need_vote=True), house)
    assert judge_dugtong(BA, cards("MA", "HA", "HA", "BA", "G"), table).valid


def test_derived_words_can_be_switched_off() -> None:
    table = Dictionary(Options(derived_words=False))
    assert not judge_dugtong(BA, cards("MA", "HA", "HA", "BA", "G"), table).valid


# --- the contract's check requests ---

def test_check_dugtong_answers_valid_word_and_reason() -> None:
    answer = dugtungan.check({"game": "dugtungan", "check": "dugtong", "pamato": "BA",
                              "word": ["HA", "BA", "G"]})
    assert answer["valid"] is True and answer["word"] == "HABAG"
    assert answer["reason"] == "HABAG is a word; the PAMATO BA is inside it"


def test_check_sapaw_takes_the_tables_house_lists() -> None:
    request = {"game": "dugtungan", "check": "sapaw", "word": ["HA", "KA"], "new": ["HA", "LI", "KA"]}
    assert dugtungan.check(request)["valid"] is True
    refused = dugtungan.check({**request, "house": {"reject": ["halika"]}})
    assert refused["valid"] is False and "rejected" in refused["reason"]


def test_score_counts_letters_left_lowest_wins() -> None:
    answer = dugtungan.score({"game": "dugtungan", "players": [
        {"name": "Ana", "hand": ["BA", "NG", "KA"]},
        {"name": "Ben", "hand": ["SA:+DOS", "NGA"]},
        {"name": "Cai", "hand": ["A", "I", "O", "U", "E", "G"]}]})
    assert [p["total"] for p in answer["players"]] == [6, 5, 6]
    assert answer["winners"] == ["Ben"]


@pytest.mark.parametrize("code", ["ba", "Ba"])
def test_card_codes_are_read_in_any_case(code: str) -> None:
    assert parse_card(code, "t").code == "BA"


def test_a_bare_action_card_scores_no_letters_and_spells_no_word() -> None:
    """The contract writes an action card alone as `+DOS`: it has no syllable to count or spell."""
    answer = dugtungan.score({"game": "dugtungan", "players": [
        {"name": "Ana", "hand": ["+DOS", "BA"]}, {"name": "Ben", "hand": ["KA", "NG"]}]})
    assert [p["total"] for p in answer["players"]] == [2, 4]
    verdict = dugtungan.check({"game": "dugtungan", "check": "dugtong", "pamato": "BA",
                               "word": ["HA", "BA", "+DOS"]})
    assert verdict["valid"] is False
    assert verdict["reason"] == "the +DOS card has no syllable, so it cannot be part of a word"


@pytest.mark.parametrize("code", ["ABCD", "", "B1", "SA:+TRES", "+TRES"])
def test_no_card_code_is_bad_input(code: str) -> None:
    with pytest.raises(BadInput):
        parse_card(code, "hand[0]")


@pytest.mark.parametrize("request_, field", [
    ({"check": "dugtong", "pamato": "BA", "word": ["HA", "BA"], "house": {"accept": [3]}}, "house.accept[0]"),
    ({"check": "dugtong", "pamato": "BA", "word": ["HA", "BA"], "house": {"maybe": []}}, "house.maybe"),
    ({"check": "spell", "word": ["HA"]}, "check"),
    ({"check": "sapaw", "word": [], "new": ["HA"]}, "word"),
    ({"check": "dugtong", "pamato": "BA", "word": "HABA"}, "word"),
])
def test_malformed_check_requests_name_the_field(request_: dict, field: str) -> None:
    with pytest.raises(BadInput) as error:
        dugtungan.check({"game": "dugtungan", **request_})
    assert error.value.field == field
