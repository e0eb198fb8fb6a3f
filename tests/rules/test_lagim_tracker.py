"""The Lagim tracker, one rulebook sentence per test: set-up, the three phases, battles,
the Lagim Limit, raids and spells, Soul Coins, elimination and the two ways to win.

Positions mid-game are arranged directly (`arrange`), taking the named Forest cards out
of the Forest Deck, then driven by the events the camera would report.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import lagim
from rules.core import BadInput, IllegalMove
from rules.lagim.events import (
    Angkla, BaryoOffering, Battle, BuildDefence, DrawBaryo, EndPhase, ForestAttack, Hasik, Pagtauli,
    RevealedDefender, SacrificeDarkCoin, SpecialKontra, Standby)
from rules.lagim.state import LagimState
from test_lagim_cards import TABLE_DECK

NAMES = ["Ana", "Ben", "Cai", "Dan", "Eva", "Fe"]
ANA, BEN, CAI = 0, 1, 2


def start(players: int = 3) -> LagimState:
    return lagim.new_game(NAMES[:players], setup={"deck": TABLE_DECK})


def arrange(players: int = 3, phase: str = "dawn", turn: int = ANA, drew: bool = True,
            **seats: dict) -> LagimState:
    """A position: `seats` maps a name to the Baryo fields it changes."""
    table = start(players).table
    forest, baryos = list(table.forest_deck), list(table.baryos)
    for seat, baryo in enumerate(baryos):
        changes = seats.get(baryo.name, {})
        for card in (*changes.get("dwellers", ()), *changes.get("captured", ())):
            forest.remove(card)
        baryos[seat] = replace(baryo, **changes)
    return LagimState(replace(table, baryos=tuple(baryos), forest_deck=tuple(forest), phase=phase,
                              turn=turn, drew=drew))


def fight(player: int, *defenders: tuple[str, ...], **extra: object) -> Battle:
    return Battle(player, tuple(RevealedDefender(d[0], tuple(d[1:])) for d in defenders), **extra)


def said(state: LagimState) -> str:
    return " ".join(state.announcements)


def refused(state: LagimState, action: object, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        state.apply(action)


THREE_LAGIM = ("Kapre", "Aswang", "Duwende")

# -- set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("players, coins, cards", [(2, 3, 4), (3, 3, 4), (4, 3, 3), (5, 2, 3), (6, 2, 3)])
def test_setup_deals_soul_coins_and_baryo_cards_by_player_count(players: int, coins: int, cards: int) -> None:
    table = start(players).table
    assert all((b.soul_coins, b.dark_coins, b.hand) == (coins, 1, cards) for b in table.baryos)
    assert (len(table.forest_deck), table.baryo_deck) == (31, 31 - cards * players)


@pytest.mark.parametrize("players", [1, 7])
def test_lagim_is_for_two_to_six_players(players: int) -> None:
    with pytest.raises(BadInput, match="2 to 6 players"):
        lagim.new_game([f"P{i}" for i in range(players)])


def test_an_unknown_setup_field_is_named() -> None:
    with pytest.raises(BadInput) as caught:
        lagim.new_game(["Ana", "Ben"], setup={"decks": TABLE_DECK})
    assert caught.value.field == "setup.decks"


def test_the_first_player_starts_at_twilight_by_drawing_a_baryo_card() -> None:
    state = start()
    assert (state.current_player(), state.table.phase) == (ANA, "twilight")
    assert state.legal_actions() == [DrawBaryo(ANA)]
    refused(state, ForestAttack(ANA, "Kapre"), "draws a Baryo card first")


def test_only_the_player_whose_move_it_is_may_act() -> None:
    refused(start(), DrawBaryo(BEN), "It is Ana's move, not Ben's")


# -- the three phases ----------------------------------------------------------------------


def test_a_turn_runs_twilight_then_midnight_then_dawn_then_passes_on() -> None:
    state = start().apply(DrawBaryo(ANA)).apply(BuildDefence(ANA, defenders=2, equips=1))
    assert state.table.baryos[ANA].defence_cards == 3 and state.table.baryos[ANA].hand == 2
    state = state.apply(ForestAttack(ANA, "Kapre"))
    assert state.table.phase == "midnight" and "Kapre attacks Ana's Baryo" in said(state)
    state = state.apply(Standby(ANA))
    assert state.table.phase == "dawn" and state.table.baryos[ANA].dwellers == ("Kapre",)
    state = state.apply(DrawBaryo(ANA))
    assert "Ana recuperates" in said(state) and "Ben's turn: Takipsilim (Twilight)" in said(state)
    assert (state.current_player(), state.table.phase) == (BEN, "twilight")


def test_a_defence_line_holds_three_cards_in_all() -> None:
    """The book: "3 Lakas cards (no equipped Kontra cards)" or "2 Lakas cards + 1 equipped
    Kontra card"; RULES-NOTES: "at most 3 cards on a Baryo at any time"."""
    state = arrange(phase="twilight", Ana={"hand": 5, "defenders": 2, "defence_cards": 2})
    refused(state, BuildDefence(ANA, defenders=2), "at most 3 cards")
    refused(state, BuildDefence(ANA, defenders=1, equips=1), "at most 3 cards")
    assert state.apply(BuildDefence(ANA, defenders=1)).table.baryos[ANA].defence_cards == 3
    assert state.apply(BuildDefence(ANA, equips=1)).table.baryos[ANA].defenders == 2


def test_a_kontra_is_equipped_to_a_defender() -> None:
    refused(arrange(phase="twilight", Ana={"hand": 3}), BuildDefence(ANA, equips=1), "lay a Defender first")


def test_an_attack_must_be_answered_before_anything_else() -> None:
    state = arrange(phase="twilight").apply(ForestAttack(ANA, "Kapre"))
    refused(state, DrawBaryo(ANA), "must first answer")


# -- battles -----------------------------------------------------------------------------


def test_bihag_captures_the_attacking_card_into_the_hand() -> None:
    state = arrange(phase="twilight", Ana={"defenders": 1, "defence_cards": 2})
    state = state.apply(ForestAttack(ANA, "Kapre")).apply(fight(ANA, ("Dante", "Tabak, Bawang at Asin")))
    ana = state.table.baryos[ANA]
    assert (ana.captured, ana.dwellers, ana.soul_coins) == (("Kapre",), (), 3)
    assert "BIHAG" in said(state) and state.table.phase == "dawn"


def test_tabla_eliminates_the_attacking_card_to_the_graveyard() -> None:
    state = arrange(phase="twilight", Ana={"defenders": 1, "defence_cards": 2})
    state = state.apply(ForestAttack(ANA, "Kapre")).apply(fight(ANA, ("Albularyo", "Buntot Pagi")))
    assert state.table.graveyard == ("Kapre",) and state.table.baryos[ANA].captured == ()
    assert "TABLA" in said(state) and state.table.baryos[ANA].soul_coins == 3


def test_used_defenders_are_discarded_to_the_resting_pile() -> None:
    state = arrange(phase="twilight", Ana={"defenders": 2, "defence_cards": 3})
    state = state.apply(ForestAttack(ANA, "Duwende")).apply(fight(ANA, ("Dante", "Agimat")))
    ana = state.table.baryos[ANA]
    assert (ana.defenders, ana.defence_cards, state.table.resting) == (1, 1, 2)


def test_a_battle_reveals_no_more_defence_cards_than_lie_face_down() -> None:
    state = arrange(phase="twilight", Ana={"defenders": 1, "defence_cards": 1})
    state = state.apply(ForestAttack(ANA, "Kapre"))
    refused(state, fight(ANA, ("Dante", "Tabak, Bawang at Asin")), "0 Kontra equipped on the defence line")
    refused(state, fight(ANA, ("Dante",), ("Amihan",)), "1 Defenders ready on the defence line, not 2")
    refused(state, fight(ANA, ("Buntot Pagi",)), "a Defender is a Lakas card or a Special Kontra")


def test_the_attacking_card_stacks_with_dwellers_of_its_archetype_and_is_fought_whole() -> None:
    state = arrange(phase="twilight",
                    Ana={"dwellers": ("Bungisngis", "Aswang"), "defenders": 2, "defence_cards": 3})
    state = state.apply(ForestAttack(ANA, "Kapre"))
    assert "stacks with Bungisngis" in said(state)
    state = state.apply(fight(ANA, ("Dante", "Tabak, Bawang at Asin"), ("Albularyo",)))  # 8 against 4 + 3
    assert state.table.baryos[ANA].captured == ("Kapre", "Bungisngis")
    assert state.table.baryos[ANA].dwellers == ("Aswang",)


def test_an_agimat_splits_one_card_from_the_stack_and_the_rest_stays() -> None:
    state = arrange(phase="twilight", Ana={"dwellers": ("Bungisngis",), "defenders": 1, "defence_cards": 2})
    state = state.apply(ForestAttack(ANA, "Tikbalang"))
    state = state.apply(fight(ANA, ("Dante", "Agimat"), split=("Bungisngis",)))  # 4 against Bungisngis' 3
    ana = state.table.baryos[ANA]
    assert (ana.captured, ana.dwellers) == (("Bungisngis",), ("Tikbalang",))


def test_losing_a_battle_against_a_forest_attack_costs_a_soul_coin_to_the_coin_vessel() -> None:
    state = arrange(phase="twilight", Ana={"dwellers": ("Puno ng Acacia", "Aswang"), "captured": ("Duwende",),
                                           "hand": 2, "defenders": 2, "defence_cards": 2})
    state = state.apply(ForestAttack(ANA, "Kapre")).apply(fight(ANA, ("Amihan",)))  # 2 against 4 + 2
    ana, table = state.table.baryos[ANA], state.table
    assert (ana.soul_coins, table.vessel_soul, ana.dwellers, ana.defence_cards) == (2, 1, (), 0)
    assert sorted(table.graveyard) == ["Aswang", "Kapre", "Puno ng Acacia"]
    assert (ana.captured, ana.hand) == (("Duwende",), 2)  # cards in hand are kept
    assert "Ana loses a Soul Coin to the Coin Vessel" in said(state)


def test_standby_makes_the_attacking_card_a_dweller() -> None:
    state = arrange(phase="twilight").apply(ForestAttack(ANA, "Aswang")).apply(Standby(ANA))
    assert state.table.baryos[ANA].dwellers == ("Aswang",) and "Aswang becomes a Dweller" in said(state)


def test_repelling_a_dweller_at_dawn_captures_it_and_ends_the_turn() -> None:
    state = arrange(Ana={"dwellers": ("Kapre", "Aswang"), "defenders": 1, "defence_cards": 2})
    refused(state, fight(ANA, ("Dante", "Tabak, Bawang at Asin"), archetype="witch"), "name the archetype")
    state = state.apply(fight(ANA, ("Dante", "Tabak, Bawang at Asin"), archetype="giant"))
    assert state.table.baryos[ANA].captured == ("Kapre",) and state.current_player() == BEN


def test_a_battle_with_a_card_of_unknown_level_asks_for_the_deck_file() -> None:
    state = lagim.new_game(["Ana", "Ben"]).apply(DrawBaryo(ANA)).apply(BuildDefence(ANA, defenders=1))
    state = state.apply(ForestAttack(ANA, "Kapre"))
    refused(state, fight(ANA, ("Dante",)), "entity level of Dante is not known: tell it as the card prints it")


def test_with_no_deck_file_the_host_tells_the_levels_the_cards_print_and_the_battle_is_judged() -> None:
    """"Entity levels are printed on the cards" (RULES-NOTES): a table with no deck file
    learns each one when the host reads it off the card, as an event the log replays."""
    state = lagim.new_game(["Ana", "Ben"]).apply(DrawBaryo(ANA)).apply(BuildDefence(ANA, defenders=1))
    state = state.apply(ForestAttack(ANA, "Kapre"))
    for told in ({"kind": "printed", "card": "Dante", "level": "III"}, {"kind": "printed", "card": "kapre", "level": 4}):
        state = state.apply(lagim.action_from_dict(told))
    assert state.current_player() == ANA  # a fact about the deck, not a move: still Ana's answer
    refused(state, lagim.action_from_dict({"kind": "printed", "card": "Kapre", "level": "V"}),
            "Kapre already has level IV")
    state = state.apply(fight(ANA, ("Dante",)))
    assert "Kapre" in " ".join(state.announcements)


@pytest.mark.parametrize("told, problem", [
    ({"kind": "printed", "card": "Kapre"}, "give the card's printed level"),
    ({"kind": "printed", "card": "Kapre", "level": "IIII"}, "not a level"),
    ({"kind": "printed", "card": "Kapre", "level": 21}, "must be 0 to 20"),
    ({"kind": "printed", "level": "I"}, "card"),
])
def test_a_printed_fact_that_is_no_level_is_refused_naming_the_field(told: dict, problem: str) -> None:
    with pytest.raises(BadInput, match=problem):
        lagim.action_from_dict(told)


def test_a_printed_fact_names_a_card_of_the_game() -> None:
    refused(lagim.new_game(["Ana", "Ben"]), lagim.action_from_dict({"kind": "printed", "card": "Pikachu", "level": 2}),
            "no Lagim card called Pikachu")


# -- the Lagim Limit -----------------------------------------------------------------------


def test_a_fourth_lagim_landing_on_three_lagim_dwellers_exceeds_the_lagim_limit() -> None:
    state = arrange(phase="twilight", Ana={"dwellers": (*THREE_LAGIM, "Puno ng Acacia"),
                                           "captured": ("Nuno sa Punso",),
                                           "hand": 3, "defenders": 2, "defence_cards": 3})
    state = state.apply(ForestAttack(ANA, "Mangkukulam")).apply(Standby(ANA))
    ana, table = state.table.baryos[ANA], state.table
    assert "exceeds the Lagim Limit" in said(state)
    assert (ana.soul_coins, table.vessel_soul) == (2, 1)
    assert (ana.dwellers, ana.defenders, ana.defence_cards) == ((), 0, 0)
    assert sorted(table.graveyard) == sorted([*THREE_LAGIM, "Puno ng Acacia", "Mangkukulam"])
    assert (ana.captured, ana.hand, table.resting) == (("Nuno sa Punso",), 3, 3)


def test_hiwaga_dwellers_do_not_count_towards_the_lagim_limit() -> None:
    state = arrange(phase="twilight",
                    Ana={"dwellers": ("Kapre", "Aswang", "Puno ng Acacia", "Tiktik at Buwan")})
    state = state.apply(ForestAttack(ANA, "Mangkukulam")).apply(Standby(ANA))
    assert len(state.table.baryos[ANA].dwellers) == 5 and state.table.baryos[ANA].soul_coins == 3


def test_a_hiwaga_landing_on_three_lagim_dwellers_does_not_exceed_the_limit() -> None:
    state = arrange(phase="twilight", Ana={"dwellers": THREE_LAGIM})
    state = state.apply(ForestAttack(ANA, "Altar ng Kulam")).apply(Standby(ANA))
    assert state.table.baryos[ANA].soul_coins == 3 and "Altar ng Kulam" in state.table.baryos[ANA].dwellers


def test_a_raid_that_exceeds_the_lagim_limit_puts_the_coin_on_the_raiders_spirit_path() -> None:
    state = arrange(Ana={"captured": ("Mambabarang", "Altar ng Kulam")}, Ben={"dwellers": THREE_LAGIM})
    state = state.apply(Hasik(ANA, BEN, ("Mambabarang", "Altar ng Kulam"))).apply(Standby(BEN))
    table = state.table
    assert (table.baryos[BEN].soul_coins, table.baryos[ANA].spirit_path, table.vessel_soul) == (2, 1, 0)
    assert "Ana steals a Soul Coin from Ben: 1 on the Spirit Path" in said(state)
    assert state.current_player() == BEN and table.phase == "twilight"


# -- raids -------------------------------------------------------------------------------


def test_hasik_uses_at_most_three_lagim_of_one_archetype() -> None:
    giants = ("Kapre", "Kapre", "Bungisngis", "Tikbalang")
    state = arrange(Ana={"captured": giants})
    refused(state, Hasik(ANA, BEN, giants), "at most 3 Lagim cards")
    assert state.apply(Hasik(ANA, BEN, giants[:3])).current_player() == BEN


def test_a_hasik_stack_is_one_archetype_of_captured_cards() -> None:
    state = arrange(Ana={"captured": ("Kapre", "Aswang")})
    refused(state, Hasik(ANA, BEN, ("Kapre", "Aswang")), "one archetype")
    refused(state, Hasik(ANA, BEN, ("Bungisngis",)), "Ana has no captured Bungisngis")
    refused(state, Hasik(ANA, ANA, ("Kapre",)), "another player's Baryo")


def test_a_failed_defence_against_a_raid_lets_the_stack_settle_as_dwellers() -> None:
    state = arrange(Ana={"captured": ("Kapre",)}, Ben={"defenders": 1, "defence_cards": 1})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",))).apply(fight(BEN, ("Amihan",)))
    assert state.table.baryos[BEN].dwellers == ("Kapre",) and state.table.baryos[BEN].soul_coins == 3


def test_pagtauli_needs_a_captured_hiwaga_of_the_raids_archetype() -> None:
    state = arrange(Ana={"captured": ("Kapre",)}, Ben={"captured": ("Tiktik at Buwan", "Mangkukulam")})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",)))
    refused(state, Pagtauli(BEN, "Tiktik at Buwan"), "needs a captured Giant Hiwaga")
    refused(state, Pagtauli(BEN, "Mangkukulam"), "needs a captured Giant Hiwaga")
    assert state.legal_actions() == [Standby(BEN)]


def test_a_counter_raid_chain_ends_on_the_baryo_that_stands_by() -> None:
    state = arrange(Ana={"captured": ("Kapre", "Puno ng Acacia")},
                    Ben={"captured": ("Puno ng Acacia",), "dwellers": THREE_LAGIM})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",))).apply(Pagtauli(BEN, "Puno ng Acacia"))
    assert state.current_player() == ANA and "the raid turns back on Ana's Baryo" in said(state)
    state = state.apply(Pagtauli(ANA, "Puno ng Acacia"))
    assert state.current_player() == BEN
    assert state.table.incoming.cards == ("Kapre", "Puno ng Acacia", "Puno ng Acacia")
    assert state.legal_actions() == [Standby(BEN)]  # Ben has no Giant Hiwaga left
    state = state.apply(Standby(BEN))
    assert (state.table.baryos[BEN].soul_coins, state.table.baryos[ANA].spirit_path) == (2, 1)


def test_pagtauli_counters_a_hasik_but_not_a_forest_attack() -> None:
    state = arrange(phase="twilight", Ana={"captured": ("Puno ng Acacia",)}).apply(ForestAttack(ANA, "Kapre"))
    refused(state, Pagtauli(ANA, "Puno ng Acacia"), "counters a HASIK raid only")


def test_angkla_anchors_hiwaga_on_a_same_archetype_dweller_and_cannot_be_countered() -> None:
    witch_hiwaga = ("Altar ng Kulam", "Altar ng Kulam", "Sumpa ng Manika")
    state = arrange(Ana={"captured": witch_hiwaga},
                    Ben={"dwellers": ("Mangkukulam",), "captured": ("Alakdan at Alupihan",)})
    state = state.apply(Angkla(ANA, BEN, witch_hiwaga))
    assert state.table.baryos[BEN].dwellers == ("Mangkukulam", *witch_hiwaga)
    assert state.table.incoming is None and state.current_player() == BEN
    refused(state, Pagtauli(BEN, "Alakdan at Alupihan"), "counters a HASIK raid only")


def test_angkla_needs_a_dweller_of_its_archetype_and_at_most_three_hiwaga() -> None:
    witch_hiwaga = ("Altar ng Kulam", "Altar ng Kulam", "Sumpa ng Manika", "Alakdan at Alupihan")
    state = arrange(Ana={"captured": witch_hiwaga}, Ben={"dwellers": ("Kapre",)},
                    Cai={"dwellers": ("Mambabarang",)})
    refused(state, Angkla(ANA, BEN, witch_hiwaga[:1]), "Ben has no Witch Dweller")
    refused(state, Angkla(ANA, CAI, witch_hiwaga), "at most 3 Hiwaga")


# -- spells ------------------------------------------------------------------------------


def test_two_full_moon_lagim_summon_a_third_of_their_archetype_from_the_forest_deck() -> None:
    state = arrange(Ana={"captured": ("Kapre", "Bungisngis")})
    assert Hasik(ANA, BEN, ("Bungisngis", "Kapre"), "Tikbalang") in state.legal_actions()
    state = state.apply(Hasik(ANA, BEN, ("Kapre", "Bungisngis"), summoned="Tikbalang"))
    assert state.table.incoming.cards == ("Kapre", "Bungisngis", "Tikbalang")
    assert state.table.forest_deck.count("Tikbalang") == 1 and "Full Moon summons Tikbalang" in said(state)


def test_a_summon_needs_two_full_moon_lagim() -> None:
    state = arrange(Ana={"captured": ("Kapre", "Tikbalang")})
    refused(state, Hasik(ANA, BEN, ("Kapre", "Tikbalang"), summoned="Bungisngis"), "two Full Moon Lagim")


def test_a_defender_with_a_nullifying_kontra_sends_the_summoned_card_back() -> None:
    state = arrange(Ana={"captured": ("Kapre", "Bungisngis")}, Ben={"defenders": 1, "defence_cards": 2})
    state = state.apply(Hasik(ANA, BEN, ("Kapre", "Bungisngis"), summoned="Tikbalang"))
    state = state.apply(fight(BEN, ("Albularyo", "Buntot Pagi")))  # 4 against Kapre 4 + Bungisngis 3
    assert "Buntot Pagi nullifies the summon" in said(state)
    assert state.table.forest_deck.count("Tikbalang") == 2
    assert state.table.baryos[BEN].dwellers == ("Kapre", "Bungisngis")


def test_a_dark_soul_coin_captures_two_of_your_own_dwellers() -> None:
    state = arrange(Ana={"dwellers": ("Kapre", "Aswang", "Duwende")})
    refused(state, SacrificeDarkCoin(ANA, dwellers=("Kapre",)), "captures 2 cards, not 1")
    state = state.apply(SacrificeDarkCoin(ANA, dwellers=("Kapre", "Aswang")))
    ana = state.table.baryos[ANA]
    assert (ana.dwellers, ana.captured, ana.dark_coins, state.table.vessel_dark) == (
        ("Duwende",), ("Kapre", "Aswang"), 0, 4)


def test_a_dark_soul_coin_captures_two_cards_from_the_forest_deck() -> None:
    state = arrange().apply(SacrificeDarkCoin(ANA, from_deck=("Tikbalang", "Dugo at Langis")))
    assert state.table.baryos[ANA].captured == ("Tikbalang", "Dugo at Langis")
    assert len(state.table.forest_deck) == 29


def test_a_baryo_without_a_dark_soul_coin_cannot_sacrifice_one() -> None:
    state = arrange(Ana={"dwellers": ("Kapre", "Aswang"), "dark_coins": 0})
    refused(state, SacrificeDarkCoin(ANA, dwellers=("Kapre", "Aswang")), "Ana has no Dark Soul Coin")


def test_a_baryo_offering_of_one_lakas_and_four_different_kontra_gains_a_dark_soul_coin() -> None:
    kontra = ("Agimat", "Gasera", "Buntot Pagi", "Sibat at Sulo")
    state = arrange(Ana={"hand": 5})
    refused(state, BaryoOffering(ANA, "Dante", ("Agimat", "Agimat", "Gasera", "Buntot Pagi")),
            "4 different Kontra")
    state = state.apply(BaryoOffering(ANA, "Dante", kontra))
    ana = state.table.baryos[ANA]
    assert (ana.dark_coins, ana.hand, state.table.resting) == (2, 0, 5)


def test_a_special_kontra_spell_is_cast_from_the_hand_and_discarded() -> None:
    state = arrange(Ana={"hand": 1})
    refused(state, SpecialKontra(ANA, "Dante"), "not a Special Kontra")
    state = state.apply(SpecialKontra(ANA, "Gasera"))
    assert "reorder the two cards on top of the Forest Deck" in said(state) and state.table.resting == 1


# -- Soul Coins, elimination, winning ------------------------------------------------------


def test_the_third_stolen_coin_completes_the_spirit_path_and_wins() -> None:
    state = arrange(Ana={"captured": ("Kapre",), "spirit_path": 2},
                    Ben={"dwellers": THREE_LAGIM, "soul_coins": 2},
                    Cai={"soul_coins": 2})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",))).apply(Standby(BEN))
    assert state.is_terminal() and state.scores().winners == ("Ana",) and state.current_player() is None
    assert "Ana completes the Spirit Path and wins!" in said(state)
    refused(state, DrawBaryo(BEN), "The game is over: Ana won")


def test_a_baryo_that_loses_its_last_soul_coin_is_eliminated_and_skipped() -> None:
    state = arrange(Ana={"captured": ("Kapre",)}, Ben={"dwellers": THREE_LAGIM, "soul_coins": 1, "hand": 2})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",))).apply(Standby(BEN))
    ben = state.table.baryos[BEN]
    assert ben.eliminated and "Ben has no Soul Coins left: the Baryo is eliminated" in said(state)
    assert (ben.hand, ben.dark_coins, state.table.resting) == (0, 0, 2)
    assert state.current_player() == CAI and not state.is_terminal()
    assert ben.spirit_path == 0 and state.table.baryos[ANA].spirit_path == 1


def test_the_last_baryo_standing_wins_without_a_spirit_path() -> None:
    state = arrange(players=2, Ana={"captured": ("Kapre",)}, Ben={"dwellers": THREE_LAGIM, "soul_coins": 1})
    state = state.apply(Hasik(ANA, BEN, ("Kapre",))).apply(Standby(BEN))
    assert state.scores().winners == ("Ana",) and "Ana is the last Baryo standing and wins!" in said(state)


def test_elimination_by_a_forest_attack_passes_the_turn() -> None:
    state = arrange(phase="twilight", Ana={"dwellers": THREE_LAGIM, "soul_coins": 1})
    state = state.apply(ForestAttack(ANA, "Mangkukulam")).apply(Standby(ANA))
    assert state.table.baryos[ANA].eliminated and state.current_player() == BEN
    assert state.table.phase == "twilight"


def test_an_eliminated_baryo_cannot_be_raided() -> None:
    state = arrange(Ana={"captured": ("Kapre",)}, Ben={"soul_coins": 0})
    refused(state, Hasik(ANA, BEN, ("Kapre",)), "Ben's Baryo is eliminated")


# -- decks running out ---------------------------------------------------------------------


def test_an_empty_forest_deck_takes_back_the_graveyard() -> None:
    state = arrange(phase="twilight")
    state = LagimState(replace(state.table, forest_deck=(), graveyard=("Kapre", "Aswang")))
    state = state.apply(ForestAttack(ANA, "Aswang"))
    assert "Graveyard is shuffled into a new Forest Deck" in said(state)
    assert (state.table.forest_deck, state.table.graveyard) == (("Kapre",), ())


def test_with_only_two_players_left_the_discards_are_not_reshuffled() -> None:
    state = arrange(players=2, phase="twilight")
    state = LagimState(replace(state.table, forest_deck=(), graveyard=("Kapre",)))
    refused(state, ForestAttack(ANA, "Kapre"), "No Kapre is left")
    assert state.legal_actions()[-1] == EndPhase(ANA)
    assert state.apply(EndPhase(ANA)).table.phase == "dawn"


# -- the event log -------------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    DrawBaryo(1), BuildDefence(0, 2, 1), ForestAttack(2, "Nuno sa Punso"), Standby(0),
    fight(1, ("Dante", "Agimat", "Tabak, Bawang at Asin"), ("Amihan",), split=("Kapre",)),
    fight(0, ("Albularyo",), archetype="giant"), Hasik(0, 2, ("Kapre", "Bungisngis"), "Tikbalang"),
    Pagtauli(1, "Puno ng Acacia"), Angkla(0, 1, ("Altar ng Kulam",)),
    SacrificeDarkCoin(0, dwellers=("Kapre", "Aswang")),
    BaryoOffering(0, "Dante", ("Agimat", "Gasera", "Buntot Pagi", "Sibat at Sulo")),
    SpecialKontra(0, "Gasera"), EndPhase(1),
])
def test_every_event_round_trips_through_its_dict(action: object) -> None:
    assert lagim.action_from_dict(action.to_dict()) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize("data, field", [
    ({"kind": "summon", "player": 0}, "kind"),
    ({"kind": "hasik", "player": 0, "target": 1}, "cards"),
    ({"kind": "battle", "player": "Ana", "defenders": []}, "player"),
    ({"kind": "battle", "player": 0, "defenders": [{"equip": []}]}, "defenders[0].name"),
])
def test_a_malformed_event_names_its_field(data: dict, field: str) -> None:
    with pytest.raises(BadInput) as caught:
        lagim.action_from_dict(data)
    assert caught.value.field == field


def test_a_refused_event_leaves_the_state_as_it_was() -> None:
    state = arrange(Ana={"captured": ("Kapre",)})
    before = state.to_dict()
    refused(state, Hasik(ANA, BEN, ("Kapre", "Kapre")), "no captured Kapre")
    assert state.to_dict() == before
