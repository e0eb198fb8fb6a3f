"""The live dugtungan table, turn by turn, as the FAQ tells it."""

from __future__ import annotations

import json

import pytest

from rules.core import IllegalMove
from rules.dugtungan import action_from_dict, new_game
from rules.dugtungan.events import (Challenge, Draw, Dugtong, Pass, Pitik, Reshuffle, Reveal, Sapaw,
                                     ScoreLetters, Todas)
from rules.dugtungan.state import DECK_OUT, DRAW, OVER, PITIK, PLAY, REVEAL, DugtunganState


def table(hands: list[list[str]], options: dict | None = None, deck: dict | None = None) -> DugtunganState:
    """A game whose hands the camera saw, with the PAMATO BA revealed."""
    setup: dict = {"hands": hands}
    if deck is not None:
        setup["deck"] = deck
    names = ["Ana", "Ben", "Cai", "Dan"][:len(hands)]
    return new_game(names, options, setup).apply(Reveal("BA"))


def drawn(state: DugtunganState, card: str = "A") -> DugtunganState:
    """The current player's mandatory draw (and any penalty draws) done."""
    while state.phase == DRAW:
        state = state.apply(Draw(state.turn, card))
    return state


# --- the rhythm: BUNOT, DUGTONG and a new PAMATO, or PASS ---

def test_a_turn_starts_with_the_mandatory_draw() -> None:
    state = table([["HA", "G", "KA"], ["LI", "LA"]])
    assert state.phase == DRAW and state.current_player() == 0
    with pytest.raises(IllegalMove, match="not possible now"):
        state.apply(Pass(0))
    state = state.apply(Draw(0, "O"))
    assert state.phase == PLAY and state.hands[0][-1] == "O"


def test_dugtong_then_a_new_pamato_passes_the_turn() -> None:
    state = drawn(table([["HA", "G", "KA"], ["LI", "LA"]]))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "KA"))
    assert state.pamato == "KA" and state.word == ("HA", "BA", "G")
    assert state.current_player() == 1 and state.phase == DRAW
    assert state.announcements[0] == "Ana: HABAG is a word; the PAMATO BA is inside it."


def test_an_invalid_dugtong_is_refused_with_its_reason() -> None:
    state = drawn(table([["HA", "G", "KA"], ["LI", "LA"]]))
    with pytest.raises(IllegalMove, match="GBAHA is not in the word list"):
        state.apply(Dugtong(0, ("G", "BA", "HA"), "KA"))


def test_a_player_cannot_lay_cards_they_do_not_hold() -> None:
    state = drawn(table([["HA", "KA"], ["LI", "LA"]]))
    with pytest.raises(IllegalMove, match="Ana does not hold G"):
        state.apply(Dugtong(0, ("HA", "BA", "G"), "KA"))


def test_pass_leaves_the_pamato_for_the_next_player() -> None:
    state = drawn(table([["HA", "G"], ["LI", "LA"]])).apply(Pass(0))
    assert state.pamato == "BA" and state.current_player() == 1 and state.phase == DRAW


def test_only_the_player_whose_turn_it_is_may_play() -> None:
    state = drawn(table([["HA", "G"], ["HA", "LA"]]))
    with pytest.raises(IllegalMove, match="It is Ana's turn, not Ben's"):
        state.apply(Dugtong(1, ("HA", "BA"), "LA"))


# --- action cards fire once, when they become the PAMATO ---

def test_dos_pamato_makes_the_next_player_draw_two_then_one() -> None:
    state = drawn(table([["HA", "G", "SA:+DOS", "O"], ["LI", "LA"], ["I", "U"]]))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "SA:+DOS"))
    assert state.current_player() == 1 and state.draws_due == 3
    assert "+DOS: Ben draws 2, then the usual draw." in state.announcements
    for _ in range(3):
        state = state.apply(Draw(1, "A"))
    assert state.phase == PLAY and len(state.hands[1]) == 5


def test_dos_pamato_fires_once_not_again_after_a_pass() -> None:
    state = drawn(table([["HA", "G", "SA:+DOS", "O"], ["LI", "LA"], ["I", "U"]]))
    state = drawn(state.apply(Dugtong(0, ("HA", "BA", "G"), "SA:+DOS")))
    state = state.apply(Pass(1))
    assert state.pamato == "SA:+DOS" and state.current_player() == 2
    assert state.draws_due == 1


def test_todas_word_ends_the_turn_and_leaves_the_pamato_in_play() -> None:
    state = drawn(table([["MA:TODAS", "HAL", "KA"], ["LI", "LA"]]))
    state = state.apply(Todas(0, ("MA:TODAS", "HAL")))
    assert state.pamato == "BA" and state.word == ("MA:TODAS", "HAL")
    assert state.current_player() == 1 and state.phase == DRAW


def test_laktaw_skips_the_next_player_who_does_not_draw() -> None:
    state = drawn(table([["HA", "G", "LI:LAKTAW", "O"], ["LI", "LA"], ["I", "U"]]))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "LI:LAKTAW"))
    assert state.current_player() == 2 and len(state.hands[1]) == 2
    assert "LAKTAW: Ben is skipped." in state.announcements


def test_toki_reverses_the_direction_with_three_players() -> None:
    state = drawn(table([["HA", "G", "TO:TOKI", "O"], ["LI", "LA"], ["I", "U"]]))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "TO:TOKI"))
    assert state.current_player() == 2 and state.direction == -1


@pytest.mark.parametrize("action_card", ["TO:TOKI", "LI:LAKTAW"])
def test_two_players_toki_or_laktaw_gives_player_a_another_turn(action_card: str) -> None:
    state = drawn(table([["HA", "G", action_card, "O"], ["LI", "LA"]]))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), action_card))
    assert state.current_player() == 0 and state.phase == DRAW


def test_pitik_with_two_cards_left_wins_the_game() -> None:
    state = drawn(table([["HA", "PI:PITIK"], ["LI", "LA"]]), card="G")
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "PI:PITIK"))
    assert state.phase == OVER and state.winners == ("Ana",)


def test_pitik_sends_a_card_to_the_chosen_player() -> None:
    state = drawn(table([["HA", "PI:PITIK", "KA", "O"], ["LI", "LA"], ["I", "U"]]), card="G")
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "PI:PITIK"))
    assert state.phase == PITIK and state.current_player() == 0
    state = state.apply(Pitik(0, 2, "KA"))
    assert state.hands[2][-1] == "KA" and state.hands[0] == ("O",)
    assert state.current_player() == 1


def test_only_one_action_card_per_turn() -> None:
    state = drawn(table([["HA:TOKI", "G", "LI:LAKTAW", "O"], ["LI", "LA"]]))
    with pytest.raises(IllegalMove, match="one action card"):
        state.apply(Dugtong(0, ("HA:TOKI", "BA", "G"), "LI:LAKTAW"))


# --- dead cards, sapaw, the end ---

def test_a_full_round_of_passes_makes_the_pamato_a_dead_card() -> None:
    state = table([["HA"], ["LI"], ["KA"]])
    for seat in range(3):
        state = drawn(state).apply(Pass(seat))
    assert state.phase == REVEAL and state.pamato is None and state.discards == ("BA",)
    state = state.apply(Reveal("KI"))
    assert state.pamato == "KI" and state.current_player() == 0


def test_sapaw_out_of_turn_takes_the_word_but_not_the_turn() -> None:
    state = drawn(table([["HA", "KA", "O"], ["LI", "N"], ["G", "U"]]))
    state = state.apply(Dugtong(0, ("HA", "BA"), "KA"))
    state = state.apply(Sapaw(2, ("HA", "BA", "G")))
    assert state.word == ("HA", "BA", "G") and state.word_owner == 2
    assert state.current_player() == 1 and state.hands[2] == ("U",)
    assert state.announcements == ("SAPAW by Cai: HABAG is a word; G added to HA BA without changing "
                                   "its order.",)


def test_the_words_owner_sapaws_back_only_after_another_player() -> None:
    state = drawn(table([["HA", "KA", "IN", "O"], ["LI", "G"]]))
    state = state.apply(Dugtong(0, ("HA", "BA"), "KA"))
    with pytest.raises(IllegalMove, match="another player must sapaw it first"):
        state.apply(Sapaw(0, ("HA", "BA", "IN")))
    state = state.apply(Sapaw(1, ("HA", "BA", "G")))
    state = state.apply(Sapaw(0, ("HA", "BA", "G", "IN")))
    assert state.word_owner == 0 and "HABAGIN is a word" in state.announcements[0]


def test_sapaw_with_the_last_cards_wins() -> None:
    state = drawn(table([["HA", "KA", "O"], ["G"]]))
    state = state.apply(Dugtong(0, ("HA", "BA"), "KA"))
    state = state.apply(Sapaw(1, ("HA", "BA", "G")))
    assert state.phase == OVER and state.winners == ("Ben",)


def test_dugtong_with_the_last_cards_wins() -> None:
    state = drawn(table([["HA"], ["G"]]), card="G")
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), None))
    assert state.phase == OVER and state.winners == ("Ana",)


SMALL_DECK = {"HA": 2, "G": 1, "KA": 1, "O": 1, "LA": 1, "BA": 1, "A": 2}  # 9 cards


def two_words_to_an_empty_deck(options: dict | None = None) -> DugtunganState:
    """Ana lays HABAG, Ben lays KALA: the deck runs out as Ana's next draw falls due."""
    state = drawn(table([["HA", "G", "KA", "O"], ["LA", "HA"]], options, SMALL_DECK))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "KA"))
    return drawn(state).apply(Dugtong(1, ("KA", "LA"), "HA"))


def test_an_empty_deck_asks_the_table() -> None:
    state = two_words_to_an_empty_deck()
    assert state.phase == DECK_OUT and state.deck == 0 and state.current_player() is None
    assert set(state.legal_actions()) == {Reshuffle(), ScoreLetters((("O", "A"), ("A",)))}


def test_reshuffle_moves_every_bank_into_a_new_deck() -> None:
    state = two_words_to_an_empty_deck()
    assert state.banks[0] == ("HA", "BA", "G")
    state = state.apply(Reshuffle())
    assert state.deck == 3 and state.banks == ((), ()) and state.phase == DRAW
    assert state.current_player() == 0


def test_score_letters_ends_the_game_lowest_wins() -> None:
    state = two_words_to_an_empty_deck().apply(ScoreLetters((("O", "A"), ("A",))))
    assert state.phase == OVER and state.winners == ("Ben",)
    assert [p.total for p in state.scores().players] == [2, 1]


def test_shown_hands_must_match_what_the_camera_saw() -> None:
    with pytest.raises(IllegalMove, match="Ana's hand was seen to hold O"):
        two_words_to_an_empty_deck().apply(ScoreLetters((("A", "A"), ("A",))))


def test_deck_out_option_reshuffles_by_itself() -> None:
    state = two_words_to_an_empty_deck({"deck_runs_out": "reshuffle"})
    assert state.phase == DRAW and state.deck == 3


def test_deck_out_option_scores_letters_by_itself() -> None:
    state = two_words_to_an_empty_deck({"deck_runs_out": "score"})
    assert state.phase == OVER and state.winners == ("Ben",)


def test_nothing_to_reshuffle_when_the_banks_are_empty() -> None:
    deck = {"HA": 1, "G": 1, "KA": 1, "O": 1, "LI": 1, "BA": 1, "A": 1}
    state = drawn(table([["HA", "G", "KA", "O"], ["LI"]], deck=deck))
    state = state.apply(Dugtong(0, ("HA", "BA", "G"), "KA"))
    assert state.phase == DECK_OUT
    with pytest.raises(IllegalMove, match="nothing to reshuffle"):
        state.apply(Reshuffle())


# --- the event log ---

@pytest.mark.parametrize("action", [
    Reveal("BA"), Draw(1, None), Draw(0, "SA:+DOS"), Dugtong(0, ("HA", "BA", "G"), "KA"),
    Dugtong(1, ("HA", "BA"), None), Todas(0, ("MA:TODAS", "HAL")), Pass(2), Sapaw(1, ("HA", "LI", "KA")),
    Pitik(0, 1, None), Reshuffle(), ScoreLetters((("A",), ("NG", "BA"))), Challenge("HALIKA", False)])
def test_every_event_round_trips_through_json(action) -> None:
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_a_challenge_records_the_word_in_the_house_lists() -> None:
    state = table([["HA"], ["LI"]]).apply(Challenge("dugtungan", True))
    assert state.house.to_dict() == {"accept": ["dugtungan"], "reject": []}
    assert state.announcements == ("The table accepts DUGTUNGAN.",)


def test_unseen_hands_play_the_cards_the_camera_sees() -> None:
    state = new_game(["Ana", "Ben"], {"hand_size": 3}).apply(Reveal("BA"))
    state = state.apply(Draw(0)).apply(Dugtong(0, ("HA", "BA", "G"), "KA"))
    assert state.hands[0] == (None, ) and state.pamato == "KA"
    assert state.scores().players[0].breakdown == {"cards": 1, "unseen": 1, "letters": []}
