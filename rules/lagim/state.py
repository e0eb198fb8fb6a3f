"""The live Lagim tracker: set-up by player count and the GameState the companion feeds.

`LagimState` wraps a `Table` (the position) and `play` (the rules of each event) in the
interface every engine shares. `legal_actions` lists the events whose cards are public;
a battle, an offering and a Special Kontra spell reveal cards from a hand or the face-down
defence line that the tracker cannot know beforehand, so they are checked when they come
rather than listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Mapping, Sequence

from rules.core import BadInput, ScoreResult, check_player_count
from rules.lagim.events import (
    Angkla, BuildDefence, DrawBaryo, EndPhase, ForestAttack, Hasik, Pagtauli, SacrificeDarkCoin, Standby,
    SwitchDefence)
from rules.lagim.cards import load_deck
from rules.lagim.scoring import DEFENCE_LINE_CARDS, MAX_PLAYERS, MIN_PLAYERS, soul_coins_each
from rules.lagim.options import Options
from rules.lagim.position import (
    PHASE_NAMES, RAID_MAX_CARDS, Baryo, Table, starting_baryo_cards)
from rules.lagim.turns import acting_seat, play
from rules.options import parse_options
from rules.payload import expect, obj



@dataclass(frozen=True)
class LagimState:
    """A Lagim game at one moment; `apply` returns the next one or raises IllegalMove."""

    table: Table

    @property
    def announcements(self) -> tuple[str, ...]:
        return self.table.announcements

    def current_player(self) -> int | None:
        return acting_seat(self.table)

    def apply(self, action: Any) -> "LagimState":
        return LagimState(play(self.table, action))

    def is_terminal(self) -> bool:
        return bool(self.table.winners())

    def scores(self) -> ScoreResult:
        return self.table.standings()

    def to_dict(self) -> dict[str, Any]:
        seat = self.current_player()
        return {"game": "lagim", "current_player": None if seat is None else self.table.baryos[seat].name,
                **self.table.to_dict(),
                "announcements": list(self.announcements)}

    def legal_actions(self) -> list[Any]:
        seat = self.current_player()
        if seat is None:
            return []
        t = self.table
        if t.incoming is not None:
            return [Standby(seat), *_counter_raids(t, seat)]
        if t.phase == "twilight":
            return _twilight(t, seat)
        return _dawn(t, seat)


def _distinct(names: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """The different hands of `size` cards that `names` (with repeats) can give."""
    return sorted(set(combinations(sorted(names), size)))


def _counter_raids(t: Table, seat: int) -> list[Pagtauli]:
    if t.incoming is None or t.incoming.raider is None:
        return []
    archetype = t.archetype(t.incoming.cards[0])
    return [Pagtauli(seat, n) for n in sorted(set(t.baryos[seat].captured))
            if t.info(n).kind == "hiwaga" and t.archetype(n) == archetype]


def _twilight(t: Table, seat: int) -> list[Any]:
    b = t.baryos[seat]
    if not t.drew and t.can_draw_baryo():
        return [DrawBaryo(seat)]
    room = DEFENCE_LINE_CARDS - b.defence_cards
    actions: list[Any] = [
        BuildDefence(seat, d, e)
        for d in range(min(room, b.hand) + 1)
        for e in range(min(room - d, b.hand - d) + 1)
        if d + e > 0 and (e == 0 or b.defenders + d > 0)]
    equips = b.defence_cards - b.defenders
    actions += [SwitchDefence(seat, bd, be, d, e)
                for bd in range(b.ready_defenders + 1) for be in range(equips + 1) if bd + be
                for d in range(bd + be + 1) for e in range(bd + be - d + 1)
                if d + e == bd + be and _line_ok(b.defenders - bd + d, equips - be + e)
                and b.hand >= d + e]
    if t.can_draw_forest():
        actions += [ForestAttack(seat, n) for n in sorted(set(t.forest_deck or t.graveyard))]
    else:
        actions.append(EndPhase(seat))
    return actions


def _line_ok(defenders: int, equips: int) -> bool:
    """A defence line of at most 3 cards whose Kontra each have a Defender to equip."""
    return defenders + equips <= DEFENCE_LINE_CARDS and (equips == 0 or defenders > 0)


def _dawn(t: Table, seat: int) -> list[Any]:
    b = t.baryos[seat]
    actions: list[Any] = [DrawBaryo(seat) if t.can_draw_baryo() else EndPhase(seat)]
    targets = [s for s in t.standing() if s != seat]
    by_archetype: dict[str, list[str]] = {}
    for name in b.captured:
        by_archetype.setdefault(t.archetype(name), []).append(name)
    for archetype, cards in sorted(by_archetype.items()):
        lagim = [n for n in cards if t.info(n).kind == "lagim"]
        hiwaga = [n for n in cards if t.info(n).kind == "hiwaga"]
        raids = [lg + hw for k in range(1, min(RAID_MAX_CARDS, len(lagim)) + 1)
                 for lg in _distinct(lagim, k) for h in range(len(hiwaga) + 1)
                 for hw in _distinct(hiwaga, h)]
        anchors = [hw for h in range(1, min(RAID_MAX_CARDS, len(hiwaga)) + 1) for hw in _distinct(hiwaga, h)]
        for target in targets:
            actions += [Hasik(seat, target, raid) for raid in raids]
            actions += [Hasik(seat, target, raid, summon) for raid in raids
                        for summon in _summons(t, raid, archetype)]
            if t.dwellers_of(target, archetype):
                actions += [Angkla(seat, target, hw) for hw in anchors]
    if b.dark_coins:
        actions += [SacrificeDarkCoin(seat, dwellers=pair)
                    for pair in _distinct(b.dwellers, min(2, len(b.dwellers))) if pair]
        pool = t.forest_deck or (t.graveyard if t.may_reshuffle() else ())
        actions += [SacrificeDarkCoin(seat, from_deck=pair)
                    for pair in _distinct(pool, min(2, len(pool))) if pair]
    return actions


def _summons(t: Table, raid: tuple[str, ...], archetype: str) -> list[str]:
    """The Lagim a Full Moon pair in `raid` may search from the Forest Deck."""
    lagim = [c for c in map(t.info, raid) if c.kind == "lagim"]
    if sum(c.full_moon for c in lagim) < 2 or len(lagim) >= RAID_MAX_CARDS:
        return []
    return sorted({n for n in t.forest_deck
                   if t.info(n).kind == "lagim" and t.archetype(n) == archetype})


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             setup: Mapping[str, Any] | None = None) -> LagimState:
    """Set-up as the rulebook gives it for 2 to 6 players; `setup["deck"]` is the deck file
    with the levels and moon alignments printed on the table's cards. Seat 0 goes first."""
    chosen = parse_options(Options, options)
    names = [expect(p, str, f"players[{i}]").strip() for i, p in enumerate(players)]
    check_player_count(len(names), "Lagim", MIN_PLAYERS, MAX_PLAYERS)
    if len(set(names)) != len(names) or not all(names):
        raise BadInput("players", "names must be distinct and not empty")
    if chosen.dark_coins_in_box < len(names):
        raise BadInput("options.dark_coins_in_box",
                       f"set-up gives each of the {len(names)} Baryos a Dark Soul Coin")
    extra = sorted(set(obj(setup or {}, "setup")) - {"deck"})
    if extra:
        raise BadInput(f"setup.{extra[0]}", "unknown set-up field; known: deck")
    deck = load_deck((setup or {}).get("deck"))
    coins, hand = soul_coins_each(len(names)), starting_baryo_cards(len(names))
    forest = tuple(sorted(c.name for c in deck.base_set("forest") for _ in range(c.count)))
    baryo_total = sum(c.count for c in deck.base_set("baryo"))
    table = Table(
        deck=deck, options=chosen, coins_dealt=coins * len(names),
        baryos=tuple(Baryo(n, soul_coins=coins, hand=hand) for n in names),
        forest_deck=forest, baryo_deck=baryo_total - hand * len(names),
        vessel_dark=chosen.dark_coins_in_box - len(names),
        announcements=(f"Lagim begins: each Baryo holds {coins} Soul Coins and 1 Dark Soul Coin and "
                       f"{hand} Baryo cards.",
                       f"{names[0]}'s turn: {PHASE_NAMES['twilight']}. Draw a Baryo card."))
    return LagimState(table)
