"""Gargon's battle phase (cases A, B, C and the 0 rules) through `companion check` (`battle`)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import gargon
from rules.core import BadInput
from rules.gargon.cards import COLOURS, full_deck

BOOK_ROUND = {
    "Adam": ["yellow-3", "yellow-11", "red-9"],
    "Collette": ["blue-8", "blue-2", "red-8"],
    "Dagmar": ["red-14", "red-0", "blue-12"],
}


def battle(revealed: dict[str, list[str]], players: list[str] | None = None) -> dict:
    return gargon.check({"game": "gargon", "check": "battle",
                         "players": players or ["Adam", "Bernd", "Collette", "Dagmar"],
                         "revealed": revealed})


def test_the_books_round_yellow_red_and_blue_battles() -> None:
    answer = battle(BOOK_ROUND)
    assert answer["order"] == ["yellow", "red", "blue"]
    assert answer["colours"]["yellow"] == [
        {"winner": "Adam", "won": ["yellow-11", "yellow-3"], "discarded": [], "draws": [], "case": "A"}]
    assert answer["colours"]["red"] == [
        {"winner": "Dagmar", "won": ["red-14"], "discarded": ["red-9", "red-8"],
         "draws": ["Adam", "Collette"], "case": "B"},
        {"winner": "Dagmar", "won": ["red-0"], "discarded": [], "draws": [], "case": "C"}]
    assert answer["colours"]["blue"] == [
        {"winner": "Dagmar", "won": ["blue-12"], "discarded": ["blue-8"], "draws": ["Collette"],
         "case": "B"},
        {"winner": "Collette", "won": ["blue-2"], "discarded": [], "draws": [], "case": "C"}]
    assert answer["won_by_player"] == {"Adam": ["yellow-11", "yellow-3"], "Bernd": [],
                                       "Collette": ["blue-2"],
                                       "Dagmar": ["red-14", "red-0", "blue-12"]}
    assert answer["announcements"][1] == "Dagmar's red 14 beats Adam's 9 and Collette's 8."


def test_case_a_a_lone_colour_wins_without_a_fight_even_a_zero() -> None:
    answer = battle({"Adam": ["green-0", "green-0", "red-4"], "Bernd": ["red-5", "red-6", "blue-1"]},
                    ["Adam", "Bernd", "Collette"])
    assert answer["colours"]["green"] == [
        {"winner": "Adam", "won": ["green-0", "green-0"], "discarded": [], "draws": [], "case": "A"}]


def test_losers_draw_in_turn_order_from_the_start_player() -> None:
    answer = battle({"Adam": ["red-3"], "Bernd": ["red-9"], "Collette": ["red-5"], "Dagmar": ["red-2"]})
    assert answer["colours"]["red"][0]["draws"] == ["Adam", "Collette", "Dagmar"]
    assert answer["colours"]["red"][0]["discarded"] == ["red-3", "red-5", "red-2"]


def test_only_a_players_highest_card_fights_in_battle_one() -> None:
    answer = battle({"Adam": ["red-10", "red-1"], "Bernd": ["red-7", "red-6"]}, ["Adam", "Bernd", "Collette"])
    first, second = answer["colours"]["red"]
    assert (first["winner"], first["won"], first["discarded"]) == ("Adam", ["red-10"], ["red-7"])
    assert (second["winner"], second["won"], second["discarded"]) == ("Bernd", ["red-6"], ["red-1"])
    assert second["draws"] == ["Adam"]


def test_a_zero_loses_any_contested_battle() -> None:
    answer = battle({"Adam": ["red-0"], "Bernd": ["red-1"]}, ["Adam", "Bernd", "Collette"])
    assert answer["colours"]["red"] == [
        {"winner": "Bernd", "won": ["red-1"], "discarded": ["red-0"], "draws": ["Adam"], "case": "B"}]


def test_zeros_of_one_colour_from_two_players_are_both_discarded_first() -> None:
    answer = battle({"Adam": ["red-0", "red-7", "green-2"], "Bernd": ["red-0", "blue-3", "blue-4"]},
                    ["Adam", "Bernd", "Collette"])
    zeros, rest = answer["colours"]["red"]
    assert zeros == {"winner": None, "won": [], "discarded": ["red-0", "red-0"],
                     "draws": ["Adam", "Bernd"], "case": "0s"}
    assert (rest["winner"], rest["won"], rest["case"]) == ("Adam", ["red-7"], "A")


def test_a_players_own_two_zeros_fight_one_at_a_time() -> None:
    answer = battle({"Adam": ["red-0", "red-0", "blue-2"], "Bernd": ["red-5", "green-1", "green-3"]},
                    ["Adam", "Bernd", "Collette"])
    first, second = answer["colours"]["red"]
    assert (first["winner"], first["discarded"]) == ("Bernd", ["red-0"])
    assert (second["winner"], second["won"], second["case"]) == ("Adam", ["red-0"], "C")


def test_colours_are_chosen_by_the_start_player_then_the_next_player_left() -> None:
    answer = battle({"Adam": ["red-3"], "Bernd": ["green-9"], "Collette": ["blue-5"],
                     "Dagmar": ["red-2"]})
    assert answer["order"] == ["red", "green", "blue"]


@pytest.mark.parametrize("revealed, field, problem", [
    ({"Zed": ["red-1"]}, "revealed.Zed", "not among players"),
    ({"Adam": ["red-16"]}, "revealed.Adam[0]", "unknown card code 'red-16'"),
    ({"Adam": ["pink-3"]}, "revealed.Adam[0]", "unknown card code 'pink-3'"),
    ({"Adam": ["red-1", "red-2", "red-3"]}, "revealed.Adam", "three cards of one colour"),
    ({"Adam": ["red-1", "blue-2"], "Bernd": ["red-4", "red-5"]}, "revealed.Bernd",
     "must follow the start player's pattern 1:1"),
    ({"Bernd": ["red-1"]}, "revealed", "Adam cannot pass: a round begins"),
    ({"Adam": ["red-1"], "Bernd": ["red-1"]}, "revealed", "red-1 is revealed more often"),
])
def test_a_battle_of_plays_that_could_not_be_made_is_bad_input(
        revealed: dict, field: str, problem: str) -> None:
    with pytest.raises(BadInput) as caught:
        battle(revealed)
    assert caught.value.field == field
    assert problem in caught.value.problem


@st.composite
def legal_reveals(draw: st.DrawFn) -> dict[str, list[str]]:
    """Distinct cards from one deck, laid in one shared legal pattern, some players passing;
    the last player keeps to colours already out."""
    deck = list(draw(st.permutations(full_deck())))
    pattern = draw(st.sampled_from([(1,), (2,), (1, 1), (2, 1), (1, 1, 1)]))
    players = ["Adam", "Bernd", "Collette", "Dagmar"]
    revealed: dict[str, list[str]] = {}
    for name in players:
        if revealed and not draw(st.booleans()):
            continue
        used = list(dict.fromkeys(c.split("-")[0] for cards in revealed.values() for c in cards))
        choices = used if name == players[-1] else list(COLOURS)
        hand = []
        for colour, count in zip(draw(st.permutations(choices)), pattern):
            for _ in range(count):
                card = next(c for c in deck if c.colour == colour)
                deck.remove(card)
                hand.append(card.code)
        revealed[name] = hand
    return revealed


@settings(max_examples=60, deadline=None)
@given(legal_reveals())
def test_every_revealed_card_is_won_or_discarded_once_and_each_discard_is_replaced(
        revealed: dict[str, list[str]]) -> None:
    answer = battle(revealed)
    won = [c for cards in answer["won_by_player"].values() for c in cards]
    battles = [b for bs in answer["colours"].values() for b in bs]
    discarded = [c for b in battles for c in b["discarded"]]
    assert Counter(won + discarded) == Counter(c for cards in revealed.values() for c in cards)
    assert sum(len(b["draws"]) for b in battles) == len(discarded)
    for b in battles:
        if b["case"] == "B":
            assert int(b["won"][0].split("-")[1]) > max(int(c.split("-")[1]) for c in b["discarded"])
