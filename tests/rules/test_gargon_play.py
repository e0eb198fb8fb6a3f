"""Gargon's card play phase, as the book tells it, through `companion check` (`play`)."""

from __future__ import annotations

import pytest

from rules import gargon
from rules.core import BadInput


def judge(*plays: list[str] | None) -> dict:
    return gargon.check({"game": "gargon", "check": "play", "plays": list(plays)})


@pytest.mark.parametrize("lead, pattern", [
    (["red"], "1:0"),
    (["red", "red"], "2:0"),
    (["red", "blue"], "1:1"),
    (["red", "red", "blue"], "2:1"),
    (["red", "blue", "green"], "1:1:1"),
])
def test_the_start_player_may_lead_any_of_the_five_patterns(lead: list[str], pattern: str) -> None:
    answer = judge(lead, None, None)
    assert answer["valid"] == [True, True, True]
    assert answer["pattern"] == pattern


def test_three_cards_of_one_colour_are_never_allowed() -> None:
    answer = judge(["red", "red", "red"], None, None)
    assert answer["valid"][0] is False
    assert "three cards of one colour are never allowed" in answer["reason"][0]
    assert answer["pattern"] is None


@pytest.mark.parametrize("cards", [[], ["red", "blue", "green", "white"]])
def test_a_play_is_one_to_three_cards(cards: list[str]) -> None:
    answer = judge(cards, None, None)
    assert answer["valid"][0] is False
    assert "a play is one to three cards" in answer["reason"][0]


def test_the_start_player_cannot_pass() -> None:
    answer = judge(None, ["red"], None)
    assert answer["valid"] == [False, False, True]
    assert answer["reason"][0] == "The start player cannot pass: a round begins with the start player's play."
    assert answer["reason"][1] == "Player 2 has no legal start play to follow."


def test_followers_may_use_any_colours_in_the_same_pattern() -> None:
    """The book's example: every one of these follows Adam's 2 yellow + 1 red."""
    answer = judge(["yellow", "yellow", "red"], ["blue", "blue", "violet"],
                   ["green", "green", "blue"], ["green", "green", "yellow"])
    assert answer["valid"] == [True, True, True, True]
    assert answer["pattern"] == "2:1"


def test_a_follower_must_keep_the_start_players_pattern() -> None:
    answer = judge(["yellow", "yellow", "red"], ["blue", "violet", "green"], None)
    assert answer["valid"] == [True, False, True]
    assert answer["reason"][1] == ("Player 2 lays 1:1:1 but must follow the start player's "
                                   "pattern 2:1.")


def test_a_follower_may_pass_instead() -> None:
    assert judge(["red"], None, None)["valid"] == [True, True, True]


def test_the_last_player_may_only_use_colours_already_played() -> None:
    """The book's round: Dagmar, last, must play red, blue or yellow in 2:1."""
    answer = judge(["yellow", "yellow", "red"], None, ["blue", "blue", "red"],
                   ["green", "green", "blue"])
    assert answer["valid"] == [True, True, True, False]
    assert answer["reason"][3] == ("Player 4 is the last player and may only use colours "
                                   "already played this round (yellow, red or blue), not green.")
    assert judge(["yellow", "yellow", "red"], None, ["blue", "blue", "red"],
                 ["red", "red", "blue"])["valid"][3] is True


def test_an_illegal_play_opens_no_colour_for_the_last_player() -> None:
    answer = judge(["red"], ["blue", "green"], ["blue"])
    assert answer["valid"] == [True, False, False]


def test_the_colour_limit_binds_only_the_last_player() -> None:
    assert judge(["red"], ["green"], ["white"], ["red"])["valid"] == [True, True, True, True]


def test_an_unknown_colour_is_bad_input_naming_the_entry() -> None:
    with pytest.raises(BadInput) as caught:
        judge(["red"], ["purple"], None)
    assert caught.value.field == "plays[1][0]"
    assert "unknown colour 'purple'" in caught.value.problem


def test_a_play_must_be_a_list_of_colours_or_null() -> None:
    with pytest.raises(BadInput, match=r"plays\[1\]: must be a list, got str"):
        judge(["red"], "red", None)
