"""The Bagani tracker, turn by turn, as the rulebook's Game Turn section reads."""

import pytest

from rules import bagani
from rules.bagani.events import (Defeat, Discard, Done, Draw, End, PutDown, Refill, Reveal, Setup,
                                  Show)
from rules.bagani.cards import Halimaw
from rules.core import IllegalMove

B = "biyaya"
DECK = {"halimaw": [
    {"name": "Sarimaw", "color": "violet", "dp": 8},
    {"name": "Higante", "color": "blue", "dp": 4, "count": 2},
    {"name": "Dragon", "color": "red", "lakas": 4, "dp": 5},
    {"name": "Mansisilat", "color": "green", "lakas": 2, "dp": 3, "attacks": []},
    {"name": "Kapre", "color": "yellow", "lakas": 2, "dp": 2, "attacks": ["reveal-hands"],
     "count": 4},
    {"name": "Tikbalang", "color": "violet", "lakas": 1, "dp": 1, "attacks": ["discard-random"],
     "count": 4},
    {"name": "Aswang", "color": "red", "lakas": 3, "dp": 3, "attacks": ["pass-left"], "count": 4},
    {"name": "Tiyanak", "color": "blue", "lakas": 2, "dp": 2, "attacks": ["draw-right"],
     "count": 4},
]}
SMALL_DECK = {"halimaw": [{"name": "Sarimaw", "color": "violet", "lakas": 5, "dp": 8},
                          {"name": "Mansisilat", "color": "green", "lakas": 2, "dp": 3,
                           "attacks": [], "count": 5}]}
ROW = ["biyaya", "blue-circle", "red-square", "green-circle", "yellow-square"]
HANDS = [["red-square"] * 3, ["blue-circle"] * 3]


def start(options=None, deck=DECK, halimaw=("Higante", "Dragon", "Mansisilat", "Kapre"),
          hands=HANDS):
    return bagani.new_game(["Ana", "Ben"], options, {
        "deck": deck, "bagani": ROW, "halimaw": list(halimaw), "hands": hands})


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def pass_turn(state, seat):
    return play(state, Draw(seat, "deck", "violet-circle"), Draw(seat, "deck", "violet-circle"),
                Done(seat))


# --- step 1: drawing ----------------------------------------------------------------

def test_first_player_draws_first():
    state = start()
    assert state.current_player() == 0 and state.phase == "draw"
    with pytest.raises(IllegalMove, match="Ana's turn"):
        state.apply(Draw(1, "deck"))


def test_a_face_up_biyaya_is_the_first_and_only_draw():
    state = play(start(), Draw(0, "row", B), Refill("red-circle"))
    assert state.phase == "attack"
    assert state.hands[0].count == 4


def test_a_face_up_biyaya_cannot_be_the_second_draw():
    state = start().apply(Draw(0, "deck"))
    with pytest.raises(IllegalMove, match="first draw"):
        state.apply(Draw(0, "row", B))


def test_a_biyaya_from_the_deck_top_allows_a_second_draw():
    state = start().apply(Draw(0, "deck", B))
    assert state.phase == "draw"
    state = state.apply(Draw(0, "deck"))
    assert state.phase == "attack" and state.hands[0].count == 5


def test_drawing_ends_when_the_last_refill_leaves_only_face_up_biyaya():
    """"If you already drew a card, you can no longer get a face-up Biyaya ni Apo card":
    with the deck and discard pile empty, nothing is left for the second draw."""
    deck = {**DECK, "bagani": {"cards": {B: 5, "red-square": 4, "blue-circle": 3}}}
    state = bagani.new_game(["Ana", "Ben"], None, {
        "deck": deck, "bagani": [B, B, "red-square", B, B],
        "halimaw": ["Higante", "Dragon", "Mansisilat", "Kapre"], "hands": HANDS})
    state = play(state, Draw(0, "row", "red-square"), Refill(B))
    assert (state.bagani_deck, state.discard_pile) == (0, 0)
    assert state.phase == "attack" and state.current_player() == 0
    assert state.hands[0].count == 4


def test_first_draw_face_up_second_from_the_deck():
    state = play(start(), Draw(0, "row", "green-circle"), Refill("violet-square"),
                 Draw(0, "deck"))
    assert state.phase == "attack"
    assert state.bagani_row[3] == "violet-square"


def test_a_taken_face_up_card_is_replaced_before_anything_else():
    state = start().apply(Draw(0, "row", "green-circle"))
    assert state.current_player() is None
    with pytest.raises(IllegalMove, match="fill"):
        state.apply(Draw(0, "deck"))


def test_only_face_up_cards_can_be_taken_from_the_row():
    with pytest.raises(IllegalMove, match="no face-up violet-circle"):
        start().apply(Draw(0, "row", "violet-circle"))


def test_an_empty_deck_is_the_shuffled_discard_pile():
    state = start()
    for turn in range(state.bagani_deck // 2 - 1):
        state = pass_turn(state, turn % 2)
    state = play(state, Draw(1, "deck"), Draw(1, "deck"), PutDown(1, (("violet-circle",) * 4,)),
                 Done(1))
    assert state.bagani_deck == 0 and state.discard_pile == 4
    state = state.apply(Draw(0, "deck"))
    assert state.bagani_deck == 3 and state.discard_pile == 0


# --- the 8-card hand limit ----------------------------------------------------------

def test_hand_limit_discards_down_to_8_before_combos():
    state = start({"hand_limit": True})
    for turn in range(4):
        state = pass_turn(state, turn % 2)
    state = play(state, Draw(0, "deck"), Draw(0, "deck"))
    assert state.phase == "discard" and state.hands[0].count == 9
    with pytest.raises(IllegalMove, match="discard"):
        state.apply(Done(0))
    state = state.apply(Discard(0, "red-square"))
    assert state.phase == "attack" and state.hands[0].count == 8


def test_no_hand_limit_without_the_advanced_rule():
    state = start()
    for turn in range(4):
        state = pass_turn(state, turn % 2)
    state = play(state, Draw(0, "deck"), Draw(0, "deck"))
    assert state.phase == "attack" and state.hands[0].count == 9


# --- step 2: combos and the attack --------------------------------------------------

def ready_to_attack(state=None):
    return play(state or start(), Draw(0, "deck", "red-square"), Draw(0, "deck", B))


def test_combos_come_from_the_hand():
    with pytest.raises(IllegalMove, match="no green-square"):
        ready_to_attack().apply(PutDown(0, (("green-square", "green-square"),)))


def test_combo_ap_is_summed_and_split_between_halimaw():
    state = play(ready_to_attack(start(halimaw=("Higante", "Tikbalang", "Mansisilat", "Kapre"))),
                 PutDown(0, (("red-square",) * 3, ("red-square", B))))
    assert state.ap == 3
    state = play(state, Defeat(0, "Mansisilat"), Defeat(0, "Tikbalang"))
    assert state.ap == 0
    assert [h.name for h in state.defeated[0]] == ["Mansisilat", "Tikbalang"]


def test_a_halimaw_needs_ap_equal_to_its_lakas():
    state = play(ready_to_attack(), PutDown(0, (("red-square", "red-square"),)))
    with pytest.raises(IllegalMove, match="needs 3 AP"):
        state.apply(Defeat(0, "Higante"))


def test_only_face_up_halimaw_can_be_defeated():
    state = play(ready_to_attack(), PutDown(0, (("red-square",) * 4,)))
    with pytest.raises(IllegalMove, match="not one of the face-up"):
        state.apply(Defeat(0, "Aswang"))


def test_an_invalid_combo_is_refused_with_the_reason():
    with pytest.raises(IllegalMove, match="Combo 1: .*same colour"):
        ready_to_attack().apply(PutDown(0, (("red-square", "green-square"),)))


def five_red_squares(state=None):
    return play(state or start(), Draw(0, "deck", "red-square"), Draw(0, "deck", "red-square"))


def test_unused_ap_is_lost_at_the_end_of_the_turn():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0), Reveal(Halimaw("Kapre")))
    assert state.turn == 1 and state.ap == 0


# --- step 3: revealing Halimaw --------------------------------------------------------

def test_setup_halimaw_do_not_attack():
    assert not any("attacks" in line for line in start().announcements)


def test_defeated_halimaw_are_replaced_one_at_a_time_after_the_attack_step():
    state = play(ready_to_attack(), PutDown(0, (("red-square",) * 3, ("red-square", B))),
                 Defeat(0, "Mansisilat"))
    assert state.phase == "attack"
    state = state.apply(Done(0))
    assert state.phase == "reveal" and state.current_player() is None
    state = state.apply(Reveal(Halimaw("Higante")))
    assert "Higante attacks! Every player passes a card to the right." in state.announcements
    assert state.turn == 1 and state.phase == "draw"
    assert "Ben's turn." in state.announcements


def test_two_defeated_halimaw_mean_two_reveals():
    state = play(ready_to_attack(start(halimaw=("Higante", "Tikbalang", "Mansisilat", "Kapre"))),
                 PutDown(0, (("red-square",) * 3, ("red-square", B))),
                 Defeat(0, "Mansisilat"), Defeat(0, "Tikbalang"), Done(0),
                 Reveal(Halimaw("Kapre")))
    assert state.phase == "reveal"
    state = state.apply(Reveal(Halimaw("Kapre")))
    assert state.turn == 1 and len(state.halimaw_row) == 4


def test_without_reveal_after_attack_a_halimaw_is_replaced_at_once():
    state = play(five_red_squares(start({"reveal_after_attack": False})),
                 PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"))
    assert state.phase == "reveal"
    state = state.apply(Reveal(Halimaw("Tikbalang")))
    assert state.phase == "attack" and state.ap == 1
    state = play(state, Defeat(0, "Tikbalang"), Reveal(Halimaw("Kapre")))
    assert len(state.defeated[0]) == 2 and state.phase == "attack"


def test_discard_random_attack_costs_everyone_with_cards_one_card():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0), Reveal(Halimaw("Tikbalang")))
    assert "Tikbalang attacks! Every player discards a random card." in state.announcements
    assert [h.count for h in state.hands] == [0, 2]
    assert state.hands[1].known == ()  # a random card left: the camera cannot tell which


def test_pass_attack_keeps_hand_sizes_but_blurs_what_is_known():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0), Reveal(Halimaw("Aswang")))
    assert "Aswang attacks! Every player passes a card to the left." in state.announcements
    assert [h.count for h in state.hands] == [1, 3]
    assert state.hands[0].known == state.hands[1].known == ()


def test_players_without_cards_are_skipped_by_an_attack():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 3, ("red-square",) * 2)),
                 Defeat(0, "Higante"), Done(0), Reveal(Halimaw("Aswang")))
    assert [h.count for h in state.hands] == [0, 3]
    assert state.hands[1].known == ("blue-circle",) * 3  # nobody to pass to: nothing moved


def test_a_hand_shown_to_the_table_becomes_known():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0), Reveal(Halimaw("Kapre")))
    assert "Kapre attacks! Every player shows their hand to everyone." in state.announcements
    state = state.apply(Show(1, ("blue-circle",) * 3))
    assert state.hands[1].known == ("blue-circle",) * 3
    with pytest.raises(IllegalMove, match="Ana's hand holds 1 cards including red-square"):
        state.apply(Show(0, ("blue-circle",)))


def test_discard_face_up_biyaya_empties_those_slots_for_refilling():
    deck = {"halimaw": DECK["halimaw"] + [{"name": "Bakunawa", "color": "blue", "lakas": 1,
                                           "dp": 1, "attacks": ["discard-faceup-biyaya"]}]}
    state = play(five_red_squares(start(deck=deck)), PutDown(0, (("red-square",) * 4,)),
                 Defeat(0, "Mansisilat"), Done(0), Reveal(Halimaw("Bakunawa")))
    assert state.bagani_row[0] is None and state.discard_pile == 5
    assert state.current_player() is None
    state = state.apply(Refill("blue-square"))
    assert state.current_player() == 1 and state.bagani_row[0] == "blue-square"


# --- the Halimaw deck and stats -------------------------------------------------------

def test_sarimaw_is_the_last_halimaw():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0))
    with pytest.raises(IllegalMove, match="last Halimaw"):
        state.apply(Reveal(Halimaw("Sarimaw")))


@pytest.mark.parametrize("options, allowed", [({}, False), ({"random_sarimaw": True}, True)])
def test_random_sarimaw_may_come_among_the_last_four(options, allowed):
    state = play(five_red_squares(start(options, deck=SMALL_DECK, halimaw=("Mansisilat",) * 4)),
                 PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"), Done(0))
    assert state.halimaw_deck == 2
    if allowed:
        row = state.apply(Reveal(Halimaw("Sarimaw"))).halimaw_row
        assert "Sarimaw" in [h.name for h in row]
    else:
        with pytest.raises(IllegalMove):
            state.apply(Reveal(Halimaw("Sarimaw")))


def test_removing_four_halimaw_shortens_the_halimaw_deck():
    assert start().halimaw_deck - start({"remove_four_halimaw": True}).halimaw_deck == 4


def test_a_halimaw_the_deck_does_not_hold_is_refused():
    state = play(five_red_squares(), PutDown(0, (("red-square",) * 4,)), Defeat(0, "Mansisilat"),
                 Done(0))
    with pytest.raises(IllegalMove, match="No Mansisilat is left"):
        state.apply(Reveal(Halimaw("Mansisilat")))


def test_unknown_stats_must_come_with_the_card():
    state = bagani.new_game(["Ana", "Ben"])
    with pytest.raises(IllegalMove, match="Nobody has told me Kapre's colour, Lakas, DP"):
        state.apply(Setup(tuple(ROW), (Halimaw("Kapre"),) * 4))
    kapre = Halimaw("Kapre", "yellow", 2, 2, ())
    state = state.apply(Setup(tuple(ROW), (kapre,) * 4))
    assert state.halimaw_row[0] == kapre and state.deck.kind("Kapre") == kapre


def test_stats_that_contradict_the_deck_are_refused():
    with pytest.raises(IllegalMove, match="lakas 3, not 4"):
        bagani.new_game(["Ana", "Ben"], None, {
            "bagani": ROW, "halimaw": [{"name": "Higante", "lakas": 4, "color": "blue", "dp": 1},
                                       "Dragon", "Kapre", "Kapre"]})


# --- the end of the game ----------------------------------------------------------------

def sarimaw_waits(options=None):
    """Three players; Ana clears the Mansisilat and Sarimaw appears before Ben's turn."""
    state = bagani.new_game(["Ana", "Ben", "Cy"], options, {
        "deck": SMALL_DECK, "bagani": ROW, "halimaw": ["Mansisilat"] * 4,
        "hands": [["red-square"] * 3, ["blue-circle"] * 3, ["green-circle"] * 3]})
    state = play(five_red_squares(state), PutDown(0, (("red-square",) * 4,)),
                 Defeat(0, "Mansisilat"), Done(0), Reveal(Halimaw("Mansisilat")))
    state = pass_turn(pass_turn(state, 1), 2)
    state = play(five_red_squares(state), PutDown(0, (("red-square",) * 3,)),
                 Defeat(0, "Mansisilat"), Done(0), Reveal(Halimaw("Sarimaw")))
    assert "Sarimaw attacks! Discard every face-up Biyaya ni Apo." in state.announcements
    assert state.announcements.count("Sarimaw appears!") == 1, "each prompt is spoken once"
    return state.apply(Refill("yellow-circle"))


def ben_defeats_sarimaw(state):
    # the camera has not seen Ben's hand since Sarimaw's random discard
    apo = ("yellow-square", "blue-square", "red-square", "green-square", "violet-square", B)
    return play(state, Draw(1, "deck", "violet-square"), Draw(1, "deck", B),
                PutDown(1, (apo,)), Defeat(1, "Sarimaw"), Done(1))


def test_the_game_is_over_once_sarimaw_is_defeated():
    state = ben_defeats_sarimaw(sarimaw_waits())
    assert state.phase == "over" and state.current_player() is None
    assert not state.is_terminal()
    state = state.apply(End(((), (), ("green-circle",) * 4)))
    assert state.is_terminal()
    totals = {p.name: p.total for p in state.scores().players}
    # Ana: 2 Mansisilat (6 DP) + green 7; Ben: Sarimaw 8 + violet 7; Cy: a green Quadro 2 x 3
    assert totals == {"Ana": 13, "Ben": 15, "Cy": 6}
    assert state.scores().winners == ("Ben",)
    assert state.announcements == ("Ben wins with 15 Dangal Points!",)


def test_the_final_round_gives_everyone_equal_turns():
    state = ben_defeats_sarimaw(sarimaw_waits({"final_round": True}))
    assert state.phase == "draw" and state.current_player() == 2
    state = pass_turn(state, 2)
    assert state.phase == "over"


def test_final_hands_must_match_what_the_table_saw():
    state = ben_defeats_sarimaw(sarimaw_waits())
    with pytest.raises(IllegalMove, match="Cy's hand holds 4 cards"):
        state.apply(End(((), (), ())))


def test_winners_are_named_only_at_the_end():
    assert sarimaw_waits().scores().winners == ()


# --- events and the state as data -------------------------------------------------------

def test_events_round_trip_through_json():
    events = [Setup(tuple(ROW), (Halimaw("Higante", "blue", 3, 4, ("pass-right",)),) * 4,
                    ((B,) * 3, ("red-square",) * 3)),
              Draw(0, "row", B), Draw(1, "deck"), Refill("blue-square"), Discard(0),
              PutDown(0, (("red-square", B),)), Defeat(0, "Higante"), Done(1),
              Reveal(Halimaw("Kapre")), Show(1, ("red-square", B)), End(((B,), ()))]
    for event in events:
        assert bagani.action_from_dict(event.to_dict()) == event


def test_every_listed_action_is_legal():
    state = five_red_squares()
    for action in state.legal_actions():
        state.apply(action)
    assert Done(0) in state.legal_actions()
    assert PutDown(0, (("red-square",) * 4,)) in state.legal_actions()
