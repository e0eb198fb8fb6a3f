"""Lagim rules the tracker lacked: SALAG, switching defence cards, REAP and the two-player
end. Each test quotes the rulebook (or RULES-NOTES where the book is unclear)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.lagim.events import (
    Battle, BuildDefence, Disable, DrawBaryo, EndPhase, ForestAttack, Reap, RevealedDefender, Salag, Standby,
    SwitchDefence)
from rules.lagim.state import LagimState
from test_lagim_tracker import ANA, BEN, CAI, arrange, refused, said, start


def midnight_on_ana(card: str = "Kapre", players: int = 2) -> LagimState:
    """Ana has drawn, laid 2 Defenders and turned up `card` from the Forest."""
    return (start(players).apply(DrawBaryo(ANA)).apply(BuildDefence(ANA, defenders=2))
            .apply(ForestAttack(ANA, card)))


def quiet_turn(state: LagimState, seat: int, card: str) -> LagimState:
    """A turn with nothing to fight: draw, stand by against `card`, recuperate."""
    return (state.apply(DrawBaryo(seat)).apply(ForestAttack(seat, card)).apply(Standby(seat))
            .apply(DrawBaryo(seat)))


# -- SALAG -----------------------------------------------------------------------------------

def test_an_agimat_casts_salag_without_a_wielder_and_holds_the_stack() -> None:
    """Book: "Other special nullifying cards like the Agimat does not require an active
    defender (wielder)." The held card "temporarily hold[s] it in place": it is no Dweller."""
    state = midnight_on_ana().apply(Salag(ANA, "Agimat"))
    ana = state.table.baryos[ANA]
    assert ana.dwellers == () and ana.held == ("Kapre",) and ana.hand == 2
    assert state.table.phase == "dawn" and "casts SALAG with Agimat" in said(state)


def test_a_nullifying_kontra_needs_a_lakas_wielder_of_its_archetype() -> None:
    """Book: "The nullifying card requires an active wielder on the defense line"; a Lakas
    "can only equip Kontra cards of the same Archetype"."""
    state = midnight_on_ana()
    refused(state, Salag(ANA, "Orasyon at Insenso"), "needs a wielder")
    refused(state, Salag(ANA, "Orasyon at Insenso", "Dante"), "cannot wield")
    refused(state, Salag(ANA, "Gasera"), "no nullifying ability")
    after = state.apply(Salag(ANA, "Orasyon at Insenso", "Albularyo"))
    ana = after.table.baryos[ANA]
    assert (ana.defenders, ana.defence_cards, ana.blocks[0].wielder) == (1, 1, "Albularyo")


def test_the_held_stack_is_repelled_on_the_next_turn_with_the_nullifier_equipped() -> None:
    """Book: "On your next turn, you can add a Lakas card to the nullifying card and
    completely repel the opposing Forest card (or Forest card stack)." """
    state = midnight_on_ana().apply(Salag(ANA, "Agimat"))
    refused(state, Battle(ANA, (RevealedDefender("Dante"),), "giant"), "on the next turn")
    state = quiet_turn(state.apply(DrawBaryo(ANA)), BEN, "Duwende")
    state = state.apply(DrawBaryo(ANA)).apply(ForestAttack(ANA, "Aswang")).apply(Standby(ANA))
    state = state.apply(Battle(ANA, (RevealedDefender("Dante"),), "giant"))
    ana = state.table.baryos[ANA]
    assert "Defence 4 equals Kapre at 4: TABLA" in said(state)  # Dante 3 + Agimat 1
    assert ana.blocks == () and "Kapre" in state.table.graveyard


def test_an_unrepelled_salag_lapses_at_the_end_of_the_next_turn() -> None:
    """RULES-NOTES: "the blocked card repelled next turn"; left alone it settles."""
    state = midnight_on_ana().apply(Salag(ANA, "Agimat")).apply(DrawBaryo(ANA))
    state = quiet_turn(quiet_turn(state, BEN, "Duwende"), ANA, "Aswang")
    ana = state.table.baryos[ANA]
    assert ana.blocks == () and set(ana.dwellers) == {"Kapre", "Aswang"}
    assert "The SALAG of Agimat lapses." in said(state)


def test_one_salag_holds_one_stack() -> None:
    """Book: "A single Agimat cannot be used to cast Salag on multiple Forest card stacks"."""
    state = arrange(Ana={"hand": 3, "dwellers": ("Kapre",),
                         "blocks": ()}).apply(Salag(ANA, "Agimat", archetype="giant"))
    assert state.table.baryos[ANA].held == ("Kapre",) and state.current_player() == BEN
    table = state.table
    again = LagimState(replace(table, turn=ANA, phase="dawn", baryos=(
        replace(table.baryos[ANA], dwellers=("Bungisngis",)), *table.baryos[1:])))
    refused(again, Salag(ANA, "Agimat", archetype="giant"), "already held by a SALAG")


# -- switching defence cards -------------------------------------------------------------------

def test_defence_cards_may_be_switched_with_cards_from_the_hand() -> None:
    """Book: "You can add more defense cards or switch them with new Baryo cards from your
    hand, on your next turn." """
    state = arrange(phase="twilight", Ana={"hand": 3, "defenders": 2, "defence_cards": 3})
    switched = state.apply(SwitchDefence(ANA, back_defenders=1, back_equips=1, defenders=2))
    ana = switched.table.baryos[ANA]
    assert (ana.hand, ana.defenders, ana.defence_cards) == (3, 3, 3)
    assert SwitchDefence(ANA, 1, 1, 2, 0) in state.legal_actions()
    refused(state, SwitchDefence(ANA, back_defenders=1, defenders=2), "at most 3 cards")
    refused(state, SwitchDefence(ANA, back_defenders=2, defenders=0, equips=2), "lay a Defender first")


# -- REAP ------------------------------------------------------------------------------------

def test_a_reap_puts_the_stolen_coin_on_the_reapers_spirit_path() -> None:
    """Book: "REAP: The action of stealing a Soul coin from another player's coin stash as
    an effect of a Lagim card's ability. A stolen Soul Coin goes to the Spirit Path of the
    player who stole it." """
    state = arrange(Ben={"dwellers": ("Mangkukulam",)})
    reaped = state.apply(Reap(CAI, "Mangkukulam", BEN))  # recorded whoever's move it is
    ben, cai = reaped.table.baryos[BEN], reaped.table.baryos[CAI]
    assert (ben.soul_coins, cai.spirit_path) == (2, 1)
    assert "Mangkukulam reaps a Soul Coin from Ben" in said(reaped)
    refused(state, Reap(CAI, "Mangkukulam", ANA), "No Mangkukulam")
    refused(state, Reap(BEN, "Mangkukulam", BEN), "another player")


def test_a_card_held_by_salag_cannot_reap() -> None:
    """Book: SALAG is "using a nullifying card to block a Forest card's ... ability"."""
    state = midnight_on_ana("Mangkukulam").apply(Salag(ANA, "Agimat"))
    refused(state, Reap(BEN, "Mangkukulam", ANA), "held by SALAG")


# -- the two-player end -------------------------------------------------------------------------

def test_two_players_with_both_decks_empty_end_the_game_at_the_end_of_the_round() -> None:
    """RULES-NOTES: "With 2 players left and both decks empty (no reshuffle then), the game
    ends at the end of that round: most coins on the Spirit Path wins, then most starting
    coins left; a tie is shared. An eliminated Baryo never wins." """
    table = start(2).table
    ben = replace(table.baryos[BEN], spirit_path=1)
    ana = replace(table.baryos[ANA], soul_coins=2)
    state = LagimState(replace(table, forest_deck=(), graveyard=("Kapre",), baryo_deck=0, resting=5,
                               baryos=(ana, ben), vessel_soul=0, coins_dealt=6))
    for seat in (ANA, ANA, BEN):
        assert not state.is_terminal()
        state = state.apply(EndPhase(seat))
    state = state.apply(EndPhase(BEN))
    assert state.is_terminal() and state.scores().winners == ("Ben",)
    assert "Both decks are empty and the round is over: Ben wins" in said(state)


@pytest.mark.parametrize("players", [3])
def test_three_players_reshuffle_and_play_on(players: int) -> None:
    table = start(players).table
    state = LagimState(replace(table, forest_deck=(), graveyard=("Kapre",), baryo_deck=0, resting=5))
    assert not state.is_terminal() and ForestAttack(ANA, "Kapre") not in state.legal_actions()
    assert state.apply(DrawBaryo(ANA)).table.baryo_deck == 4


# -- disablers ---------------------------------------------------------------------------------

def test_a_disabled_defender_cannot_battle_until_its_disabler_is_gone() -> None:
    """Book: "the disabled Defender ... cannot be used until the Forest card disabler is
    captured or eliminated ... As long as the disabler is a Dweller in your Baryo, the
    disabled card will remain disabled." """
    state = arrange(Ana={"dwellers": ("Duwende",), "defenders": 2, "defence_cards": 2, "hand": 2})
    state = state.apply(Disable(ANA, "Duwende", 1))
    assert state.table.baryos[ANA].ready_defenders == 1
    refused(state, Battle(ANA, (RevealedDefender("Dante"), RevealedDefender("Amihan")), "dwarf"),
            r"1 Defenders ready on the defence line \(1 disabled\)")
    refused(state, Disable(ANA, "Aswang", 1), "No Aswang dwells")
    won = state.apply(Battle(ANA, (RevealedDefender("Dante"),), "dwarf"))
    assert "Duwende captured" in said(won)
    assert won.table.baryos[ANA].disabled == () and won.table.baryos[ANA].ready_defenders == 1
