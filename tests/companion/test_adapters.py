"""What the camera's observations mean in each game, read like the rulebooks."""

from __future__ import annotations

import dataclasses

import pytest

from companion.adapters.bagani import DEMO_DECK
from vision.observations import CENTRE, Observation, seat_zone

BOX = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
ROW = ["blue-circle", "blue-circle", "red-square", "biyaya", "green-circle"]
HALIMAW = ["Higante", "Tikbalang", "Kapre", "Aswang"]


def card(track, code, zone, kind="appeared", previous=None, confidence=0.97, x=0.0, y=0.0):
    box = tuple((px + x, py + y) for px, py in BOX)
    return Observation(kind, track, code, confidence, box, zone, 0.0, 0.0, previous_zone=previous)


def lay_out_bagani(table):
    for track, code in enumerate(ROW + HALIMAW, start=1):
        table.observe(card(track, code, CENTRE))


def texts(table):
    return [line["text"] for line in table.snapshot()["log"]][::-1]


def test_bagani_the_face_up_rows_laid_out_start_the_game(services):
    services.table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    lay_out_bagani(services.table)
    assert texts(services.table) == [
        "Face-up rows: blue-circle, blue-circle, red-square, biyaya, green-circle; "
        "Halimaw Higante, Tikbalang, Kapre, Aswang"]


def test_bagani_a_card_taken_from_the_row_is_a_draw_and_its_gap_a_refill(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    lay_out_bagani(table)
    table.observe(card(4, "biyaya", CENTRE, kind="gone"))
    table.observe(card(20, "violet-square", CENTRE))
    assert texts(table)[1:] == ["Ana draws biyaya from the row", "violet-square fills the face-up row"]
    assert table.snapshot()["prompt"] == "Ana took the face-up Biyaya ni Apo: no second draw this turn."


def test_bagani_a_halimaw_taken_with_too_little_ap_is_a_question_not_a_defeat(services):
    table = services.table
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    lay_out_bagani(table)
    table.submit({"kind": "draw", "player": 0, "source": "deck"})
    table.submit({"kind": "draw", "player": 0, "source": "deck"})
    table.observe(card(30, "red-circle", seat_zone(0)))
    table.observe(card(31, "red-circle", seat_zone(0)))
    table.observe(card(6, "Higante", seat_zone(0), kind="moved", previous=CENTRE))
    snap = table.snapshot()
    assert texts(table)[-2] == "Ana puts down red-circle, red-circle"
    (question,) = snap["questions"]
    assert question["text"] == "Did Ana defeat the Higante? The rules say: Higante needs 3 AP; Ana has 1 AP to spend."
    assert snap["players"][0]["total"] == 0


def test_bagani_a_new_halimaw_in_the_row_is_revealed_and_its_attack_spoken(services):
    table = services.table
    heard = []
    table.bus.subscribe(lambda name, text: heard.append(text), "prompt")
    table.start_game("bagani", ["Ana", "Ben"], setup={"deck": DEMO_DECK})
    lay_out_bagani(table)
    table.submit({"kind": "draw", "player": 0, "source": "deck"})
    table.submit({"kind": "draw", "player": 0, "source": "deck"})
    for track in (30, 31, 32):
        table.observe(card(track, "blue-square", seat_zone(0)))
    table.observe(card(7, "Tikbalang", seat_zone(0), kind="moved", previous=CENTRE))
    table.observe(card(12, "Manananggal", CENTRE))
    table.bus.flush()
    assert texts(table)[-3:] == ["Ana defeats Tikbalang", "Ana ends the attack step", "Manananggal is revealed"]
    assert any("Manananggal attacks! Every player passes a card to the left." in text for text in heard)


def test_dugtungan_the_row_around_the_pamato_is_read_left_to_right(services):
    table = services.table
    table.start_game("dugtungan", ["Ana", "Ben"])
    table.observe(card(1, "LA", CENTRE, x=300, y=100))
    table.observe(card(2, "HA", CENTRE, x=230, y=100))
    table.observe(card(3, "BA", CENTRE, x=160, y=100))
    assert texts(table) == ["The PAMATO is LA"]  # the word is still being laid
    table.observe(card(4, "KA", CENTRE, x=300, y=260))
    assert texts(table)[1:] == ["Ana draws", "Ana makes BAHALA; new PAMATO KA"]


def test_dugtungan_a_row_holding_the_whole_hand_is_the_word_and_the_empty_hand_wins(services):
    """No PAMATO follows the last cards in hand: the row is read once it holds them all."""
    table = services.table
    table.start_game("dugtungan", ["Ana", "Ben"], setup={"hands": [["HA", "BA"], ["SA", "TA", "PO"]]})
    table.observe(card(1, "LA", CENTRE, x=300, y=100))
    table.observe(card(2, "HA", CENTRE, x=230, y=100))
    assert texts(table) == ["The PAMATO is LA"]  # Ana holds two cards and the one she draws
    table.observe(card(3, "BA", CENTRE, x=160, y=100))
    assert texts(table) == ["The PAMATO is LA"]
    table.observe(card(5, "NG", CENTRE, x=370, y=100))  # her drawn card, unseen until laid
    assert texts(table)[1:] == ["Ana draws", "Ana makes BAHALANG"]
    assert table.snapshot()["status"] == "finished" and table.snapshot()["winners"] == ["Ana"]


def test_dugtungan_a_row_that_is_no_word_asks_the_host_with_the_verdict(services):
    table = services.table
    table.start_game("dugtungan", ["Ana", "Ben"])
    table.observe(card(1, "LA", CENTRE, x=300, y=100))
    table.observe(card(2, "ZO", CENTRE, x=230, y=100))
    table.observe(card(4, "KA", CENTRE, x=300, y=260))
    (question,) = table.snapshot()["questions"]
    assert question["text"].startswith("Did Ana make ZOLA and lay KA as the new PAMATO? The rules say: ")
    assert "ZOLA" in question["text"].split("The rules say: ")[1]


def test_gargon_the_first_card_of_a_colour_to_leave_names_the_battle(gargon):
    table = gargon.table
    for track, (code, seat) in enumerate([("red", 0), ("red", 1), ("red", 2)], start=1):
        table.observe(card(track, code, seat_zone(seat)))
    table.submit({"kind": "reveal", "cards": [["red-3"], ["red-9"], ["red-5"]]})
    table.observe(card(10, "red-9", seat_zone(1), kind="gone"))
    assert texts(table)[-1] == "Ana chooses the red battle"


def test_gargon_backs_the_camera_guesses_a_value_for_stay_backs_until_the_reveal(gargon):
    """The camera may guess a value for a card lying face down (`red-3`, as the printed
    token reader does): it is still a back, laid in a play, so Ana's play is both her
    cards, closed when Ben lays, and the reveal waits for the faces turned up."""
    table = gargon.table
    table.observe(card(1, "red-3", seat_zone(0), confidence=0.9))
    table.observe(card(2, "blue-8", seat_zone(0), confidence=0.9))
    assert texts(table) == []
    table.observe(card(3, "red-5", seat_zone(1), confidence=0.9))
    table.observe(card(4, "blue-1", seat_zone(1), confidence=0.9))
    table.submit({"kind": "pass", "player": 2, "draws": [1]})
    for track, code, seat in [(1, "red-3", 0), (2, "blue-8", 0), (3, "red-5", 1)]:
        table.observe(card(track, code, seat_zone(seat), kind="gone", confidence=0.9))
    table.observe(card(11, "red-9", seat_zone(0)))
    table.observe(card(12, "blue-4", seat_zone(0)))
    table.observe(card(13, "red-12", seat_zone(1)))
    assert texts(table)[:2] == ["Ana plays red, blue face down", "Ben plays red, blue face down"]
    assert len(texts(table)) == 3  # Ben's blue is still face down
    table.observe(card(4, "blue-1", seat_zone(1), kind="gone", confidence=0.9))
    table.observe(card(14, "blue-7", seat_zone(1)))
    assert texts(table)[-1] == "Cards turned up: Ana red-9, blue-4; Ben red-12, blue-7"


def back(track, colour, seat, chance):
    """A Gargon card face down as the printed reader reports it: no name, value guesses in
    its colour, and its colour alone, last (vision/printed.py)."""
    guesses = ((f"{colour}-13", 0.27), (f"{colour}-15", 0.22), (f"{colour}-12", 0.14), (colour, chance))
    return dataclasses.replace(card(track, None, seat_zone(seat), confidence=0.27), candidates=guesses)


def test_gargon_cards_laid_face_down_are_played_by_the_colour_on_their_backs(gargon):
    """Gargon cards show their colour on both sides, and a play is its colours: a back the
    camera reads surely by its colour is played with no question to the host."""
    table = gargon.table
    table.observe(back(1, "red", 0, 0.97))
    table.observe(back(2, "blue", 0, 0.93))
    table.observe(back(3, "green", 1, 1.0))
    assert table.open_questions() == []
    assert texts(table) == ["Ana plays red, blue face down"]
    assert {c["card"].code for c in table.seen_cards()} == {"red", "blue", "green"}


def test_gargon_a_back_whose_colour_is_unsure_is_asked_about_and_a_face_due_is_never_named_by_colour(gargon):
    table = gargon.table
    table.observe(back(1, "red", 0, 0.6))  # under the table's bar: asked, by colour
    (question,) = table.snapshot()["questions"]
    assert [(c["code"], c["confidence"]) for c in question["choices"]][:1] == [("red", 0.63)]
    table.answer(question["id"], 0)
    table.observe(card(2, "red", seat_zone(1)))
    table.submit({"kind": "pass", "player": 2, "draws": [1]})
    table.observe(card(1, "red", seat_zone(0), kind="gone"))
    table.observe(back(11, "red", 0, 1.0))  # a face turned up whose value the camera cannot read
    (question,) = table.snapshot()["questions"]
    assert [c["code"] for c in question["choices"]][:3] == ["red-13", "red-15", "red-12"]
    assert "red" not in [c["code"] for c in question["choices"]]


def test_gargon_the_last_play_of_backs_ends_when_its_first_back_is_turned_over(gargon):
    """The camera never names a back; the table knew it by its colour, and it leaves so."""
    table = gargon.table
    for track, (colour, seat) in enumerate([("green", 0), ("green", 1), ("green", 2)], start=1):
        table.observe(back(track, colour, seat, 1.0))
    assert texts(table) == ["Ana plays green face down", "Ben plays green face down"]
    table.observe(dataclasses.replace(back(3, "green", 2, 1.0), kind="gone"))
    assert texts(table)[-1] == "Carla plays green face down"


def test_gargon_the_last_play_ends_when_its_own_first_card_is_turned_over(gargon):
    table = gargon.table
    table.observe(card(1, "green-3", seat_zone(0), confidence=0.9))
    table.observe(card(2, "green-8", seat_zone(1), confidence=0.9))
    table.observe(card(3, "green-1", seat_zone(2), confidence=0.9))
    assert texts(table) == ["Ana plays green face down", "Ben plays green face down"]
    table.observe(card(3, "green-1", seat_zone(2), kind="gone", confidence=0.9))
    assert texts(table)[-1] == "Carla plays green face down"


def _gargon_round_one(table, won_back_before_the_draw: bool | None) -> None:
    """Ana and Ben lay red, Carla passes; the faces turn up; Ana's red 9 leaves, so she
    chose red; Ben's red 12 wins and he lays it face down before him (the rulebook),
    before or after Ana draws the card she lost, or (None) turns it over where it lies,
    which the camera follows as the same card."""
    table.observe(back(1, "red", 0, 1.0))
    table.observe(back(2, "red", 1, 1.0))
    table.submit({"kind": "pass", "player": 2, "draws": [1]})
    for gone, face, seat in [(1, "red-9", 0), (2, "red-12", 1)]:
        table.observe(dataclasses.replace(back(gone, "red", seat, 1.0), kind="gone"))
        table.observe(card(10 + gone, face, seat_zone(seat)))
    table.observe(card(11, "red-9", seat_zone(0), kind="gone"))
    if won_back_before_the_draw is not None:
        table.observe(card(12, "red-12", seat_zone(1), kind="gone", x=200))
    if won_back_before_the_draw:
        table.observe(back(21, "red", 1, 1.0))
    table.submit({"kind": "draw", "player": 0, "pile": 2})
    if won_back_before_the_draw is False:
        table.observe(back(21, "red", 1, 1.0))


@pytest.mark.parametrize("before_the_draw", [True, False], ids=["during the battles", "after the round turned"])
def test_gargon_a_won_card_laid_face_down_before_its_winner_is_set_aside(gargon, before_the_draw):
    """The winner of a battle lays the card face down in front of them: the camera sees a
    back appear in that seat. It is no play and needs no name; the next round's play and
    reveal count only the cards laid in that round."""
    table = gargon.table
    _gargon_round_one(table, before_the_draw)
    assert "Ana chooses the red battle" in texts(table)
    assert table.open_questions() == []
    assert (table.snapshot()["state"]["round"], table.snapshot()["current_player"]) == (2, "Ben")
    assert {c["card"].track: c["card"].code for c in table.seen_cards()} == {21: "red"}
    table.observe(back(22, "green", 1, 1.0))  # Ben leads round 2
    table.observe(back(23, "green", 2, 1.0))
    assert texts(table)[-1] == "Ben plays green face down"
    table.submit({"kind": "pass", "player": 0, "draws": [1]})
    assert texts(table)[-2:] == ["Carla plays green face down", "Ana passes and draws 1 (pile 1)"]
    for gone, face, seat in [(22, "green-13", 1), (23, "green-2", 2)]:
        table.observe(dataclasses.replace(back(gone, "green", seat, 1.0), kind="gone"))
        table.observe(card(10 + gone, face, seat_zone(seat)))
    assert texts(table)[-1] == "Cards turned up: Ben green-13; Carla green-2"
    assert table.open_questions() == []


@pytest.mark.parametrize("won_back_before_the_draw", [True, None], ids=["laid face down", "turned over in place"])
def test_gargon_a_card_of_a_colour_the_seat_did_not_win_is_played_when_the_round_turns(gargon, won_back_before_the_draw):
    """Ben leads red again: the one red he won lies before him already, laid face down
    anew or turned over where it lay (the camera still sees it there as the red 12)."""
    table = gargon.table
    _gargon_round_one(table, won_back_before_the_draw)
    assert (table.snapshot()["state"]["round"], table.snapshot()["current_player"]) == (2, "Ben")
    table.observe(back(22, "red", 1, 1.0))
    table.observe(back(23, "red", 2, 1.0))
    assert texts(table)[-1] == "Ben plays red face down"
    assert table.open_questions() == []


@pytest.mark.parametrize("won_back_before_the_draw", [True, None], ids=["laid face down", "turned over in place"])
def test_gargon_a_won_card_picked_up_again_in_the_next_round_is_no_play(gargon, won_back_before_the_draw):
    """Ben tidies the red he won onto his pile as round 2 opens, his turn to lead: the
    card leaving his seat is no play of his (it was a play's end only while the cards he
    had just laid lay there), nor is it, laid down elsewhere."""
    table = gargon.table
    _gargon_round_one(table, won_back_before_the_draw)
    before = texts(table)
    if won_back_before_the_draw:
        table.observe(dataclasses.replace(back(21, "red", 1, 1.0), kind="gone"))
    else:
        table.observe(card(12, "red-12", seat_zone(1), kind="gone", x=200))
    table.observe(dataclasses.replace(back(24, "red", 1, 1.0), corners=card(24, None, None, x=400).corners))
    assert texts(table) == before and table.open_questions() == []
    table.observe(back(22, "green", 1, 1.0))  # his lead
    table.observe(back(23, "green", 2, 1.0))
    assert texts(table)[-1] == "Ben plays green face down"


def test_gargon_a_card_laid_over_a_won_card_is_a_play_where_the_won_card_was_laid_aside(gargon):
    """Ben leads red on top of the red he won, laid face down before him: the won card,
    covered, is still there, so the red laid on it is his play."""
    table = gargon.table
    _gargon_round_one(table, won_back_before_the_draw=True)
    table.observe(dataclasses.replace(back(21, "red", 1, 1.0), kind="gone"))  # covered by the next card
    table.observe(back(22, "red", 1, 1.0))
    table.observe(back(23, "red", 2, 1.0))
    assert texts(table)[-1] == "Ben plays red face down"


def test_gargon_the_draw_piles_spread_in_the_centre_are_never_asked_about(gargon):
    """The book spreads the draw piles face down in the middle so their colours show; the
    rules count them, so a back there, even one whose colour the camera cannot tell, is
    no question, and taking one to draw during the battles chooses no battle."""
    table = gargon.table
    piles = [dataclasses.replace(back(40 + k, colour, 0, chance), zone=CENTRE)
             for k, (colour, chance) in enumerate([("red", 1.0), ("blue", 0.5), ("green", 0.0)])]
    for pile_card in piles:
        table.observe(pile_card)
    table.observe(card(50, None, CENTRE, confidence=0.2))
    assert table.open_questions() == []
    for track, (code, seat) in enumerate([("red", 0), ("red", 1), ("red", 2)], start=1):
        table.observe(card(track, code, seat_zone(seat)))
    table.submit({"kind": "reveal", "cards": [["red-3"], ["red-9"], ["red-5"]]})
    table.observe(dataclasses.replace(piles[0], kind="gone"))
    table.observe(dataclasses.replace(piles[0], track=45))  # the card under it, uncovered
    assert table.open_questions() == []
    assert not any("chooses" in line for line in texts(table))
    assert texts(table)[-1] == "Cards turned up: Ana red-3; Ben red-9; Carla red-5"


def test_gargon_only_a_face_leaving_its_seat_chooses_a_battle(gargon):
    """During the battles, a won card covered by the next one on its winner's pile (a
    back) or a discarded card covered on the discard pile is no choice of colour."""
    table = gargon.table
    for track, (code, seat) in enumerate([("red", 0), ("red", 1), ("red", 2)], start=1):
        table.observe(card(track, code, seat_zone(seat)))
    table.submit({"kind": "reveal", "cards": [["red-3"], ["red-9"], ["red-5"]]})
    table.observe(card(30, "red", seat_zone(1), kind="gone"))
    table.observe(card(31, "red-7", CENTRE, kind="gone"))
    assert not any("chooses" in line for line in texts(table))
    table.observe(card(10, "red-9", seat_zone(1), kind="gone"))
    assert texts(table)[-1] == "Ana chooses the red battle"


def test_lagim_asks_the_name_of_a_card_only_in_the_seat_of_the_player_who_must_act(services):
    """Only there does a Lagim card mean anything to the camera: the decks in the middle
    and another player's face-down defence line are never asked about."""
    table = services.table
    table.start_game("lagim", ["Ana", "Ben"])
    table.observe(card(1, None, CENTRE, confidence=0.2))  # the Forest deck, face down
    table.observe(card(2, None, seat_zone(1), confidence=0.2))  # Ben's defence line
    assert table.open_questions() == []
    table.observe(card(3, None, seat_zone(0), confidence=0.2))  # on Ana's Baryo, her turn
    (question,) = table.snapshot()["questions"]
    assert "in front of Ana" in question["text"]


def _round_trips(game: str, readings) -> list[dict]:
    """The readings' events that do not read back as themselves: an adapter builds each
    answer from the game's event class, so its stored form is the event's own."""
    from rules.registry import game_spec

    spec = game_spec(game)
    actions = [dict(c.action) for r in readings for c in r.choices if c.action is not None]
    assert actions
    return [a for a in actions if spec.action_from_dict(a).to_dict() != a]


def test_the_bagani_rows_and_a_revealed_halimaw_are_answered_as_typed_events():
    from companion.adapters.bagani import BaganiAdapter
    from rules.bagani import SPEC
    from rules.bagani.events import Draw

    adapter, state = BaganiAdapter(), SPEC.new_game(["Ana", "Ben"], None, {"deck": DEMO_DECK})
    seen = {track: card(track, code, CENTRE) for track, code in enumerate(ROW + HALIMAW, start=1)}
    (rows,) = adapter.interpret(seen[len(seen)], state, seen)
    assert _round_trips("bagani", [rows]) == []
    state = state.apply(SPEC.action_from_dict(rows.action)).apply(Draw(0, "deck")).apply(Draw(0, "deck"))
    new = card(12, "Manananggal", CENTRE)
    readings = adapter.interpret(new, state, {**seen, 12: new})
    assert readings[-1].action["kind"] == "reveal" and _round_trips("bagani", readings) == []


def test_the_dugtungan_pamato_is_answered_as_a_typed_event():
    from companion.adapters.dugtungan import DugtunganAdapter
    from rules.dugtungan import SPEC

    new = Observation("appeared", 1, "LA", 0.6, BOX, CENTRE, 0.0, 0.0, candidates=(("LA", 0.6), ("BA", 0.3)))
    readings = DugtunganAdapter().interpret(new, SPEC.new_game(["Ana", "Ben"], None, None), {1: new})
    assert [c.label for c in readings[0].choices] == ["Yes, LA", "No, BA"]
    assert _round_trips("dugtungan", readings) == []
