"""The live Gargon tracker: a real table's events in, verdicts and announcements out."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import gargon
from rules.core import BadInput, IllegalMove
from rules.gargon.cards import Card, full_deck
from rules.gargon.events import ChooseBattle, Draw, Pass, Play, Reveal
from rules.gargon.state import GargonState

ADAM, BERND, COLLETTE, DAGMAR = range(4)
BOOK_REVEAL = Reveal((("yellow-3", "yellow-11", "red-9"), (), ("blue-8", "blue-2", "red-8"),
                      ("red-14", "red-0", "blue-12")))


def play(state: GargonState, *actions) -> GargonState:
    for action in actions:
        state = state.apply(action)
    return state


def book_round_revealed() -> GargonState:
    """The book's example round up to the reveal: Bernd passes, drawing two from the
    first pile and one from the second."""
    return play(gargon.new_game(["Adam", "Bernd", "Collette", "Dagmar"]),
                Play(ADAM, ("yellow", "yellow", "red")), Pass(BERND, (1, 1, 2)),
                Play(COLLETTE, ("blue", "blue", "red")), Play(DAGMAR, ("red", "red", "blue")),
                BOOK_REVEAL)


def test_the_books_example_round() -> None:
    state = book_round_revealed()
    assert state.hands == (7, 13, 7, 7)
    assert state.piles == (29, 30)
    assert state.current_player() == ADAM

    state = state.apply(ChooseBattle(ADAM, "yellow"))
    assert state.announcements == ("Adam wins yellow 11 and 3 without a fight.",)

    state = state.apply(ChooseBattle(ADAM, "red"))
    assert state.announcements == ("Dagmar's red 14 beats Adam's 9 and Collette's 8.",
                                   "Dagmar's red 0 is left alone and wins.",
                                   "Adam draws a card, then Collette.")
    assert state.current_player() == ADAM
    state = state.apply(Draw(ADAM, 1))
    assert state.current_player() == COLLETTE
    state = state.apply(Draw(COLLETTE, 2))
    assert state.current_player() == COLLETTE, "Adam has nothing left out: Collette chooses"

    state = state.apply(ChooseBattle(COLLETTE, "blue"))
    assert state.announcements == ("Dagmar's blue 12 beats Collette's 8.",
                                   "Collette's blue 2 is left alone and wins.",
                                   "Collette draws a card.")
    state = state.apply(Draw(COLLETTE, 1))
    assert state.announcements == ("Round 2: Bernd starts.",)
    assert [[c.code for c in w] for w in state.won] == [
        ["yellow-11", "yellow-3"], [], ["blue-2"], ["red-14", "red-0", "blue-12"]]
    assert state.hands == (8, 13, 9, 7)
    assert state.start == BERND


def test_losers_draw_in_turn_order_from_the_start_player() -> None:
    state = book_round_revealed().apply(ChooseBattle(ADAM, "red"))
    with pytest.raises(IllegalMove, match="Adam then Collette draw in this order; it is Adam's turn."):
        state.apply(Draw(COLLETTE, 1))
    with pytest.raises(IllegalMove, match="Dagmar has no card to draw now."):
        state.apply(Draw(DAGMAR, 1))


def test_whoever_forgets_to_draw_gets_no_card() -> None:
    state = book_round_revealed().apply(ChooseBattle(ADAM, "red"))
    state = state.apply(ChooseBattle(ADAM, "yellow"))
    assert state.announcements[0] == "Adam and Collette did not draw and get no card."
    assert state.hands == (7, 13, 7, 7)
    assert state.owed == ()


def test_only_the_chooser_picks_a_colour_and_only_one_they_played() -> None:
    state = book_round_revealed()
    with pytest.raises(IllegalMove, match="It is Adam's turn, not Collette's."):
        state.apply(ChooseBattle(COLLETTE, "blue"))
    with pytest.raises(IllegalMove, match="Adam has no blue card out; choose yellow or red."):
        state.apply(ChooseBattle(ADAM, "blue"))


def test_the_last_player_cannot_bring_a_new_colour() -> None:
    state = play(gargon.new_game(["Adam", "Bernd", "Collette", "Dagmar"]),
                 Play(ADAM, ("yellow", "yellow", "red")), Pass(BERND, (1, 1, 2)),
                 Play(COLLETTE, ("blue", "blue", "red")))
    with pytest.raises(IllegalMove) as caught:
        state.apply(Play(DAGMAR, ("green", "green", "blue")))
    assert caught.value.reason == ("Dagmar is the last player and may only use colours already "
                                   "played this round (yellow, red or blue), not green.")


def test_the_start_player_must_play() -> None:
    with pytest.raises(IllegalMove, match="Adam cannot pass: a round begins with the start player's play."):
        gargon.new_game(["Adam", "Bernd", "Collette"]).apply(Pass(ADAM, (1,)))


@pytest.mark.parametrize("draws", [(), (1, 1, 2, 2)])
def test_a_pass_draws_one_to_three_cards(draws: tuple[int, ...]) -> None:
    state = gargon.new_game(["Adam", "Bernd", "Collette"]).apply(Play(ADAM, ("red",)))
    with pytest.raises(IllegalMove, match="Bernd passes and must draw one to three cards."):
        state.apply(Pass(BERND, draws))


def test_a_pass_may_draw_from_either_or_both_piles_but_not_an_empty_one() -> None:
    state = gargon.new_game(["Adam", "Bernd", "Collette"], setup={"piles": [1, 30]})
    state = state.apply(Play(ADAM, ("red",)))
    assert state.apply(Pass(BERND, (2, 2, 2))).piles == (1, 27)
    with pytest.raises(IllegalMove, match="Draw pile 1 is empty."):
        state.apply(Pass(BERND, (1, 1)))


def test_a_player_cannot_play_more_cards_than_they_hold() -> None:
    state = gargon.new_game(["Adam", "Bernd", "Collette"], setup={"hand_size": 2})
    with pytest.raises(IllegalMove, match="Adam holds only 2 cards."):
        state.apply(Play(ADAM, ("red", "red", "blue")))


def test_the_cards_turned_up_must_be_the_colours_laid_down() -> None:
    state = play(gargon.new_game(["Adam", "Bernd", "Collette"]), Play(ADAM, ("red",)),
                 Pass(BERND, (1,)), Play(COLLETTE, ("red",)))
    with pytest.raises(IllegalMove, match="Adam laid red face down, but the cards shown are blue-4."):
        state.apply(Reveal((("blue-4",), (), ("red-2",))))


def test_a_card_already_won_cannot_be_turned_up_again() -> None:
    state = book_round_revealed()
    state = play(state, ChooseBattle(ADAM, "yellow"), ChooseBattle(ADAM, "red"),
                 ChooseBattle(COLLETTE, "blue"), Play(BERND, ("red",)), Pass(COLLETTE, (1,)),
                 Pass(DAGMAR, (1,)), Pass(ADAM, (1,)))
    with pytest.raises(IllegalMove, match="red-14 cannot be out twice"):
        state.apply(Reveal(((), ("red-14",), (), ())))


def test_a_start_player_with_no_cards_is_skipped() -> None:
    state = play(gargon.new_game(["Adam", "Bernd", "Collette"], setup={"hand_size": 3}),
                 Play(ADAM, ("red", "blue", "green")), Play(BERND, ("red", "blue", "green")),
                 Pass(COLLETTE, (1,)),
                 Reveal((("red-1", "blue-1", "green-1"), ("red-5", "blue-5", "green-5"), ())))
    for colour in ("red", "blue", "green"):
        state = play(state, ChooseBattle(ADAM, colour), Draw(ADAM, 1))
    assert state.hands == (3, 0, 4)
    assert state.announcements[-1] == "Round 2: Bernd holds no card, so Collette starts."
    assert state.current_player() == COLLETTE


def test_the_round_in_which_a_pile_runs_out_is_the_last_and_hands_are_discarded() -> None:
    state = play(gargon.new_game(["Adam", "Bernd", "Collette", "Dagmar"], setup={"piles": [2, 5]}),
                 Play(ADAM, ("red",)), Pass(BERND, (1, 1)))
    assert state.announcements[-1] == "Draw pile 1 is empty: this is the last round."
    assert state.last_round and not state.is_terminal()
    state = play(state, Pass(COLLETTE, (2,)), Play(DAGMAR, ("red",)),
                 Reveal((("red-5",), (), (), ("red-9",)))).apply(ChooseBattle(ADAM, "red"))
    assert state.is_terminal()
    assert state.hands == (0, 0, 0, 0)
    assert state.unseen_discards == 9 + 12 + 11 + 9
    assert state.announcements[-1] == "Dagmar wins with 11 points."
    with pytest.raises(IllegalMove, match="The game is over."):
        state.apply(Draw(ADAM, 2))


def test_the_scoreboard_shows_won_faces_only_when_won_cards_stay_face_up() -> None:
    hidden = book_round_revealed().apply(ChooseBattle(ADAM, "yellow")).to_dict()
    assert hidden["players"][ADAM]["won_colours"] == {"yellow": 2}
    assert "won" not in hidden["players"][ADAM]
    shown = play(gargon.new_game(["Adam", "Bernd", "Collette", "Dagmar"],
                                 options={"open_won_cards": True}),
                 Play(ADAM, ("yellow", "yellow", "red")), Pass(BERND, (1, 1, 2)),
                 Play(COLLETTE, ("blue", "blue", "red")), Play(DAGMAR, ("red", "red", "blue")),
                 BOOK_REVEAL, ChooseBattle(ADAM, "yellow")).to_dict()
    assert shown["players"][ADAM]["won"] == ["yellow-11", "yellow-3"]
    assert shown["players"][ADAM]["total"] == 10 + 4 + 1


@pytest.mark.parametrize("data, field", [
    ({"kind": "shuffle"}, "kind"),
    ({"kind": "draw", "seat": 0, "pile": 3}, "pile"),
    ({"kind": "play", "seat": 0, "colours": ["red", "teal"]}, "colours[1]"),
    ({"kind": "reveal", "cards": [["red-16"]]}, "cards[0][0]"),
    ({"kind": "pass", "player": "Adam", "draws": [1]}, "player"),
    ({"kind": "pass", "seat": "Adam", "draws": [1]}, "player"),  # a format-1 event, read as format 2
])
def test_a_malformed_stored_event_is_bad_input(data: dict, field: str) -> None:
    with pytest.raises(BadInput) as caught:
        gargon.action_from_dict(data)
    assert caught.value.field == field


@pytest.mark.parametrize("players, setup, field", [
    (["Adam", "Bernd"], None, "players"),
    (["Adam", "Bernd", "Adam"], None, "players[2]"),
    (["Adam", "Bernd", "Collette"], {"start": "Zed"}, "setup.start"),
    (["Adam", "Bernd", "Collette"], {"piles": [3]}, "setup.piles"),
])
def test_a_game_needs_three_to_five_named_players_and_a_sane_setup(players, setup, field) -> None:
    with pytest.raises(BadInput) as caught:
        gargon.new_game(players, setup=setup)
    assert caught.value.field == field


# --- random games at a simulated table ------------------------------------------------

class Table:
    """The physical side: the real deck, hands and piles the tracker never sees."""

    def __init__(self, seats: int, rng: random.Random) -> None:
        deck = list(full_deck())
        rng.shuffle(deck)
        self.hands = [deck[i * 10:(i + 1) * 10] for i in range(seats)]
        rest = deck[seats * 10:]
        split = len(rest) - len(rest) // 2
        self.piles = [rest[:split], rest[split:]]
        self.face_down: list[list[Card]] = [[] for _ in range(seats)]
        self.hand_discards: list[Card] = []
        self.rng = rng

    def can(self, action) -> bool:
        if isinstance(action, Play):
            held = Counter(c.colour for c in self.hands[action.player])
            return all(held[c] >= n for c, n in Counter(action.colours).items())
        return True

    def do(self, action) -> None:
        if isinstance(action, Play):
            for colour in action.colours:
                card = self.rng.choice([c for c in self.hands[action.player] if c.colour == colour])
                self.hands[action.player].remove(card)
                self.face_down[action.player].append(card)
        for pile in action.draws if isinstance(action, Pass) else (
                (action.pile,) if isinstance(action, Draw) else ()):
            self.hands[action.player].append(self.piles[pile - 1].pop(0))
        if isinstance(action, Reveal):
            self.face_down = [[] for _ in self.face_down]

    def reveal(self) -> Reveal:
        return Reveal(tuple(tuple(c.code for c in cards) for cards in self.face_down))

    def game_over(self) -> None:
        for hand in self.hands:
            self.hand_discards += hand
            hand.clear()


def assert_every_card_in_exactly_one_place(state: GargonState, table: Table) -> None:
    assert list(state.hands) == [len(h) for h in table.hands]
    assert list(state.piles) == [len(p) for p in table.piles]
    places = ([c for h in table.hands for c in h] + [c for p in table.piles for c in p]
              + [c for f in table.face_down for c in f] + table.hand_discards
              + [c for t in state.table for c in t] + [c for w in state.won for c in w]
              + list(state.discarded))
    assert Counter(places) == Counter(full_deck())
    assert state.unseen_discards == len(table.hand_discards)


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 5), st.randoms(use_true_random=False))
def test_random_legal_games_never_crash_and_lose_no_card(seats: int, rng: random.Random) -> None:
    names = ["Adam", "Bernd", "Collette", "Dagmar", "Eva"][:seats]
    state = gargon.new_game(names)
    table = Table(seats, rng)
    while not state.is_terminal():
        if state.phase == "revealing":
            action = table.reveal()
        else:
            legal = state.legal_actions()
            for other in rng.sample(legal, min(3, len(legal))):
                state.apply(other)   # every listed action is one the tracker accepts
            options = [a for a in legal if table.can(a)]
            draws = [a for a in options if isinstance(a, Draw)]
            action = rng.choice(draws if draws and rng.random() < 0.9 else options)
        assert gargon.action_from_dict(action.to_dict()) == action
        state = state.apply(action)
        table.do(action)
        if state.is_terminal():
            table.game_over()
        assert_every_card_in_exactly_one_place(state, table)
        assert json.loads(json.dumps(state.to_dict()))["round"] == state.round
    assert state.scores().winners
