"""What each Lagim event does to the table, and why an event is refused.

`play(table, action)` is the rulebook's turn as code: Takipsilim (draw a Baryo card,
build the Defence), Hating-gabi (a Forest card attacks; battle or stand by), and
Bukang-liwayway (one final action: recuperate, repel, raid or cast a spell). Every
refusal is an IllegalMove whose reason can be read out at the table. A raid waits for
its target's answer (battle, stand by or PAGTAULI) before the turn moves on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable

from rules.core import IllegalMove
from rules.lagim.events import (
    Angkla, BaryoOffering, Battle, BuildDefence, DrawBaryo, EndPhase, ForestAttack, Hasik, Pagtauli,
    Disable, LagimAction, Printed, Reap, RevealedDefender, SacrificeDarkCoin, Salag, SpecialKontra, Standby, SwitchDefence)
from rules.lagim.battle import AGIMAT, Defender, Equip, ForestFighter, judge
from rules.lagim.cards import CardInfo, Deck, roman
from rules.lagim.scoring import DEFENCE_LINE_CARDS, SPIRIT_PATH_COINS
from rules.lagim.position import LAGIM_LIMIT, PHASE_NAMES, RAID_MAX_CARDS, Baryo, Block, Incoming, Table

ANSWERS = (Battle, Standby, Pagtauli, Salag)
ABILITIES = (Reap, Disable)  # printed abilities: recorded when they happen, whoever's move it is


def _listed(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _without(pool: tuple[str, ...], names: Iterable[str], missing: Callable[[str], str]) -> tuple[str, ...]:
    """`pool` less one copy of each of `names`; IllegalMove(missing(name)) when one is absent."""
    left = list(pool)
    for name in names:
        if name not in left:
            raise IllegalMove(missing(name))
        left.remove(name)
    return tuple(left)


def _absent(name: str) -> str:
    """For removals the rules already guarantee: the message is never heard."""
    return f"{name} is missing."


class _Turn:
    """Applies one event: holds the table as it changes (each change a new frozen Table)
    and the sentences to announce. Thrown away if the event is refused."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.said: list[str] = []

    # -- looking things up -------------------------------------------------------------
    def baryo(self, seat: int) -> Baryo:
        return self.t.baryos[seat]

    def name(self, seat: int) -> str:
        return self.t.baryos[seat].name

    def card(self, name: str) -> CardInfo:
        info = self.t.card(name)
        if info is None:
            raise IllegalMove(f"There is no Lagim card called {name}.")
        return info

    def forest_card(self, name: str) -> CardInfo:
        info = self.card(name)
        if info.deck != "forest":
            raise IllegalMove(f"{info.name} is not a Forest card.")
        return info

    def level(self, info: CardInfo) -> int:
        if info.level is None:
            raise IllegalMove(f"The entity level of {info.name} is not known: tell it as the card prints "
                              "it (a printed event), or add it to the deck file.")
        return info.level

    def fighter(self, name: str) -> ForestFighter:
        info = self.card(name)
        return ForestFighter(info.name, info.kind, info.archetype, self.level(info))

    # -- changing things ---------------------------------------------------------------
    def say(self, text: str) -> None:
        self.said.append(text)

    def update(self, seat: int, **changes: object) -> None:
        baryos = list(self.t.baryos)
        baryos[seat] = replace(baryos[seat], **changes)  # type: ignore[arg-type]
        self.t = replace(self.t, baryos=tuple(baryos))

    def set(self, **changes: object) -> None:
        self.t = replace(self.t, **changes)  # type: ignore[arg-type]

    def take_captured(self, seat: int, names: Iterable[str]) -> None:
        b = self.baryo(seat)
        self.update(seat, captured=_without(b.captured, names, lambda n: (
            f"{b.name} has no captured {n}: only captured Forest cards can be used.")))

    def draw_baryo(self, seat: int) -> None:
        if self.t.baryo_deck == 0:
            if not self.t.can_draw_baryo():
                raise IllegalMove("The Baryo Deck is empty and the Resting Pile cannot refill it.")
            self.set(baryo_deck=self.t.resting, resting=0)
            self.say("The Resting Pile is shuffled into a new Baryo Deck.")
        self.set(baryo_deck=self.t.baryo_deck - 1)
        self.update(seat, hand=self.baryo(seat).hand + 1)

    def refill_forest_deck(self) -> None:
        """An empty Forest Deck takes the Graveyard back, where the book allows it."""
        if not self.t.forest_deck and self.t.can_draw_forest():
            self.set(forest_deck=tuple(sorted(self.t.graveyard)), graveyard=())
            self.say("The Graveyard is shuffled into a new Forest Deck.")

    def take_from_forest_deck(self, name: str) -> None:
        self.refill_forest_deck()
        deck = _without(self.t.forest_deck, [name], lambda n: f"No {n} is left in the Forest Deck.")
        self.set(forest_deck=deck)

    # -- the rules of losing -----------------------------------------------------------
    def wipe(self, seat: int, arriving: tuple[str, ...]) -> None:
        """All Dwellers (and the cards that just arrived) to the Graveyard, all Defence
        cards to the Resting Pile; cards in hand stay."""
        b = self.baryo(seat)
        self.set(graveyard=self.t.graveyard + b.dwellers + b.held + arriving,
                 resting=self.t.resting + b.defence_cards + sum(k.baryo_cards for k in b.blocks))
        self.update(seat, dwellers=(), defenders=0, defence_cards=0, blocks=(), disabled=())

    def lose_coin(self, seat: int, raider: int | None) -> None:
        """A Soul Coin to the Coin Vessel (Forest attack) or to the raider's Spirit Path."""
        b = self.baryo(seat)
        self.update(seat, soul_coins=b.soul_coins - 1)
        if raider is None:
            self.set(vessel_soul=self.t.vessel_soul + 1)
            self.say(f"{b.name} loses a Soul Coin to the Coin Vessel.")
        else:
            path = self.baryo(raider).spirit_path + 1
            self.update(raider, spirit_path=path)
            self.say(f"{self.name(raider)} steals a Soul Coin from {b.name}: {path} on the Spirit Path.")
            if path >= SPIRIT_PATH_COINS:
                self.say(f"{self.name(raider)} completes the Spirit Path and wins!")
        if self.baryo(seat).eliminated:
            self.eliminate(seat)

    def eliminate(self, seat: int) -> None:
        b = self.baryo(seat)
        self.say(f"{b.name} has no Soul Coins left: the Baryo is eliminated.")
        self.set(graveyard=self.t.graveyard + b.dwellers + b.captured + b.held,
                 resting=self.t.resting + b.hand + b.defence_cards + sum(k.baryo_cards for k in b.blocks),
                 vessel_dark=self.t.vessel_dark + b.dark_coins)
        self.update(seat, hand=0, captured=(), defenders=0, defence_cards=0, dwellers=(), dark_coins=0,
                    blocks=(), disabled=())
        standing = self.t.standing()
        if len(standing) == 1 and not any(x.spirit_path >= SPIRIT_PATH_COINS for x in self.t.baryos):
            self.say(f"{self.name(standing[0])} is the last Baryo standing and wins!")

    def land(self, seat: int, cards: tuple[str, ...], raider: int | None) -> None:
        """Forest cards settle as Dwellers, unless Lagim among them push the Baryo over
        the Lagim Limit (Hiwaga never count)."""
        b = self.baryo(seat)
        arriving = self.t.lagim_count(cards)
        if arriving and self.t.lagim_count(b.dwellers) + arriving > LAGIM_LIMIT:
            self.say(f"{b.name}'s Baryo exceeds the Lagim Limit: every Dweller and Defence card "
                     "is discarded.")
            self.wipe(seat, cards)
            self.lose_coin(seat, raider)
            return
        self.update(seat, dwellers=b.dwellers + cards)
        self.say(f"{_listed(cards)} {'becomes a Dweller' if len(cards) == 1 else 'become Dwellers'} "
                 f"in {b.name}'s Baryo.")

    # -- turn order --------------------------------------------------------------------
    def end_turn(self) -> None:
        if self.t.winners():
            return
        self.lapse_blocks(self.t.turn)
        if self.t.winners():
            return
        stranded = self.t.incoming
        if stranded is not None:  # a raid whose raider was eliminated mid-turn (a REAP): no Baryo sends it
            self.set(graveyard=self.t.graveyard + stranded.cards, incoming=None)
            self.say(f"{_listed(stranded.cards)} {'goes' if len(stranded.cards) == 1 else 'go'} to the Graveyard.")
        count = len(self.t.baryos)
        seat = next(s % count for s in range(self.t.turn + 1, self.t.turn + 1 + count)
                    if not self.t.baryos[s % count].eliminated)
        if seat <= self.t.turn and self.t.decks_spent():
            self.set(ended=True, incoming=None)
            winners = self.t.winners()
            self.say(f"Both decks are empty and the round is over: {_listed(winners)} "
                     f"{'wins' if len(winners) == 1 else 'share the win'} with the most coins on "
                     "the Spirit Path.")
            return
        self.set(turn=seat, phase="twilight", drew=False, incoming=None)
        self.update(seat, blocks=tuple(replace(k, ready=True) for k in self.baryo(seat).blocks))
        self.say(f"{self.name(seat)}'s turn: {PHASE_NAMES['twilight']}. Draw a Baryo card.")

    def lapse_blocks(self, seat: int) -> None:
        """A SALAG lasts until the end of its owner's next turn: unrepelled, the held cards
        settle as they would have, and the blocking cards go to the Resting Pile."""
        # One at a time, looked up again after each landing: a landing that eliminates the
        # Baryo leaves the other SALAGs' cards held, not lost, and one past the Lagim Limit
        # has already wiped them with the rest.
        while not self.baryo(seat).eliminated:
            block = next((k for k in self.baryo(seat).blocks if k.ready), None)
            if block is None:
                return
            left = list(self.baryo(seat).blocks)
            left.remove(block)
            self.update(seat, blocks=tuple(left))
            self.set(resting=self.t.resting + block.baryo_cards)
            self.say(f"The SALAG of {block.nullifier} lapses.")
            self.land(seat, block.cards, None)

    def to_dawn(self) -> None:
        self.set(phase="dawn")
        self.say(f"{PHASE_NAMES['dawn']}: choose one final action.")

    def require_dawn(self) -> None:
        if self.t.phase != "dawn":
            raise IllegalMove(f"That is a {PHASE_NAMES['dawn']} action; it is {PHASE_NAMES[self.t.phase]}.")

    def require_twilight_draw(self) -> None:
        if self.t.phase != "twilight":
            raise IllegalMove(f"It is {PHASE_NAMES[self.t.phase]}, not {PHASE_NAMES['twilight']}.")
        if not self.t.drew and self.t.can_draw_baryo():
            raise IllegalMove(f"{self.name(self.t.turn)} draws a Baryo card first: "
                              "Takipsilim begins with a draw.")

    def target(self, seat: int, raider: int) -> int:
        if not 0 <= seat < len(self.t.baryos) or seat == raider:
            raise IllegalMove("Raid another player's Baryo.")
        if self.baryo(seat).eliminated:
            raise IllegalMove(f"{self.name(seat)}'s Baryo is eliminated and cannot be raided.")
        return seat

    def one_archetype(self, infos: list[CardInfo], action: str) -> str:
        kinds = sorted({c.archetype for c in infos})
        if len(kinds) != 1:
            raise IllegalMove(f"{action} uses cards of one archetype, not {_listed(kinds)}.")
        return kinds[0]

    # -- battles -----------------------------------------------------------------------
    def reveal(self, seat: int, revealed: tuple[RevealedDefender, ...]) -> tuple[list[Defender], str | None]:
        """The Defenders turned face-up, discarded to the Resting Pile as the book says
        ("regardless of the outcome"); also the name of a nullifying card among them."""
        b = self.baryo(seat)
        if not revealed:
            raise IllegalMove("A battle needs at least one Defender turned face-up.")
        if len(revealed) > b.ready_defenders:
            disabled = b.defenders - b.ready_defenders
            raise IllegalMove(f"{b.name} has {b.ready_defenders} Defenders ready on the defence line"
                              + (f" ({disabled} disabled)" if disabled else "") + f", not {len(revealed)}.")
        equipped, laid = sum(len(r.equip) for r in revealed), b.defence_cards - b.defenders
        if equipped > laid:
            raise IllegalMove(f"{b.name} has {laid} Kontra equipped on the defence line, not {equipped}.")
        cards = len(revealed) + equipped
        defenders, nullifier = [], None
        for r in revealed:
            info = self.card(r.name)
            if info.kind != "lakas" and "special" not in info.archetypes:
                raise IllegalMove(f"{info.name} cannot defend: a Defender is a Lakas card or a "
                                  "Special Kontra.")
            equips = []
            for name in r.equip:
                kontra = self.card(name)
                if kontra.kind != "kontra":
                    raise IllegalMove(f"{kontra.name} is not a Kontra card and cannot be equipped.")
                equips.append(Equip(kontra.name, kontra.archetypes, self.level(kontra)))
                if kontra.nullifies and kontra.fits(info.archetype):
                    nullifier = kontra.name
            if info.nullifies:
                nullifier = info.name
            defenders.append(Defender(info.name, info.archetype, self.level(info), tuple(equips)))
        self.update(seat, defenders=b.defenders - len(revealed), defence_cards=b.defence_cards - cards)
        self.set(resting=self.t.resting + cards)
        return defenders, nullifier


def _draw_baryo(g: _Turn, a: DrawBaryo) -> None:
    if g.t.phase == "twilight":
        if g.t.drew:
            raise IllegalMove(f"{g.name(a.player)} already drew this Takipsilim: one Baryo card.")
        g.draw_baryo(a.player)
        g.set(drew=True)
        g.say(f"{g.name(a.player)} draws a Baryo card and may build the Baryo Defense.")
        return
    g.require_dawn()
    g.draw_baryo(a.player)
    g.say(f"{g.name(a.player)} recuperates: one Baryo card drawn.")
    g.end_turn()


def _build_defence(g: _Turn, a: BuildDefence) -> None:
    g.require_twilight_draw()
    if a.defenders < 0 or a.equips < 0 or a.defenders + a.equips == 0:
        raise IllegalMove("Lay at least one card on the defence line.")
    _relay_line(g, a.player, 0, 0, a.defenders, a.equips)


def _relay_line(g: _Turn, seat: int, back_defenders: int, back_equips: int, defenders: int,
                equips: int) -> None:
    """Cards taken back from the defence line into the hand, then cards laid from it."""
    b = g.baryo(seat)
    if back_defenders > b.ready_defenders or back_equips > b.defence_cards - b.defenders:
        raise IllegalMove(f"{b.name}'s defence line holds {b.defenders} Defenders and "
                          f"{b.defence_cards - b.defenders} equipped Kontra.")
    hand = b.hand + back_defenders + back_equips
    line_defenders = b.defenders - back_defenders + defenders
    line_cards = b.defence_cards - back_defenders - back_equips + defenders + equips
    if line_cards > DEFENCE_LINE_CARDS:
        raise IllegalMove(f"A defence line holds at most {DEFENCE_LINE_CARDS} cards, Defenders and "
                          f"equipped Kontra together; {b.name}'s would hold {line_cards}.")
    if defenders + equips > hand:
        raise IllegalMove(f"{b.name} holds only {hand} Baryo cards.")
    if line_cards > line_defenders and line_defenders == 0:
        raise IllegalMove("A Kontra card is equipped to a Defender; lay a Defender first.")
    g.update(seat, hand=hand - defenders - equips, defenders=line_defenders, defence_cards=line_cards)


def _switch_defence(g: _Turn, a: SwitchDefence) -> None:
    g.require_twilight_draw()
    counts = (a.back_defenders, a.back_equips, a.defenders, a.equips)
    if min(counts) < 0 or a.back_defenders + a.back_equips == 0:
        raise IllegalMove("A switch takes at least one card back from the defence line.")
    _relay_line(g, a.player, *counts)
    g.say(f"{g.name(a.player)} switches {a.back_defenders + a.back_equips} defence cards with "
          f"{a.defenders + a.equips} from the hand.")


def _forest_attack(g: _Turn, a: ForestAttack) -> None:
    g.require_twilight_draw()
    info = g.forest_card(a.card)
    g.take_from_forest_deck(info.name)
    g.set(phase="midnight", incoming=Incoming(a.player, (info.name,)))
    stacked = g.t.dwellers_of(a.player, info.archetype)
    joins = f" It stacks with {_listed(stacked)}: the whole stack must be fought." if stacked else ""
    g.say(f"{PHASE_NAMES['midnight']}: {info.name} attacks {g.name(a.player)}'s Baryo from the "
          f"Forest!{joins} Battle or stand by.")


def _battle(g: _Turn, a: Battle) -> None:
    seat, incoming = a.player, g.t.incoming
    block = None
    if incoming is None:
        g.require_dawn()
        archetype = (a.archetype or "").strip().lower()
        block = next((k for k in g.baryo(seat).blocks if g.t.archetype(k.cards[0]) == archetype), None)
        if block is not None and not block.ready:
            raise IllegalMove("A stack held by SALAG is repelled on the next turn.")
        if block is None and not g.t.dwellers_of(seat, archetype):
            raise IllegalMove(f"To repel, name the archetype of a Dweller stack in {g.name(seat)}'s Baryo.")
        arriving: tuple[str, ...] = () if block is None else block.cards
    else:
        arriving, archetype = incoming.cards, g.t.archetype(incoming.cards[0])
        if a.archetype and a.archetype.strip().lower() != archetype:
            raise IllegalMove(f"The cards arriving are {archetype.capitalize()}; fight them first.")
    defenders, nullifier = g.reveal(seat, a.defenders)
    if block is not None:
        defenders = _with_nullifier(g, seat, block, defenders)
    if incoming is not None and incoming.summoned and nullifier:
        arriving = _without(arriving, [incoming.summoned], _absent)
        g.set(forest_deck=tuple(sorted(g.t.forest_deck + (incoming.summoned,))))
        g.say(f"{nullifier} nullifies the summon: {incoming.summoned} returns to the Forest Deck.")
    stacked = g.t.dwellers_of(seat, archetype) if block is None else ()
    try:
        verdict = judge([g.fighter(n) for n in arriving + stacked], defenders, a.split)
    except ValueError as exc:
        raise IllegalMove(f"The Agimat cannot split that: {exc}.") from None
    g.say(verdict.reason)
    g.set(incoming=None)
    raider = None if incoming is None else incoming.raider
    if verdict.outcome == "fail":
        if incoming is not None and raider is None:
            g.say(f"{g.name(seat)} loses the battle against the Forest attack.")
            g.wipe(seat, arriving)
            g.lose_coin(seat, None)
        elif arriving:
            g.land(seat, arriving, raider)
    else:
        fought = [f.name for f in verdict.fought]
        left, from_dwellers = list(arriving), []
        for name in fought:  # the arriving copies are taken first, the rest were Dwellers
            if name in left:
                left.remove(name)
            else:
                from_dwellers.append(name)
        g.update(seat, dwellers=_without(g.baryo(seat).dwellers, from_dwellers, _absent))
        if verdict.outcome == "bihag":
            g.update(seat, captured=g.baryo(seat).captured + tuple(fought))
        else:
            g.set(graveyard=g.t.graveyard + tuple(fought))
        if left:
            g.land(seat, tuple(left), raider)
    _after_answer(g, incoming)


def _with_nullifier(g: _Turn, seat: int, block: Block, defenders: list[Defender]) -> list[Defender]:
    """Repelling a SALAG: the block ends, its blocking cards go to the Resting Pile, and the
    nullifying card is equipped to the first Defender ("add a Lakas card to the nullifying
    card and completely repel the opposing Forest card")."""
    g.update(seat, blocks=tuple(k for k in g.baryo(seat).blocks if k is not block))
    g.set(resting=g.t.resting + block.baryo_cards)
    info = g.card(block.nullifier)
    first = defenders[0]
    equipped = replace(first, equip=first.equip + (Equip(info.name, info.archetypes, g.level(info)),))
    return [equipped, *defenders[1:]]


def _salag(g: _Turn, a: Salag) -> None:
    """SALAG: "Place the nullifying card face-up ... on top of the opposing Forest card (or
    Forest card stack). Next, turn a defender (the wielder) face-up." Each SALAG is one
    card on one stack, and a stack takes one."""
    seat, b, incoming = a.player, g.baryo(a.player), g.t.incoming
    card = g.card(a.nullifier)
    if not card.nullifies or card.deck != "baryo":
        raise IllegalMove(f"{card.name} has no nullifying ability and cannot cast SALAG.")
    if b.hand < 1:
        raise IllegalMove(f"{b.name} holds no Baryo card to cast SALAG with.")
    wielder = None
    if card.name.casefold() == AGIMAT:
        if a.wielder is not None:
            raise IllegalMove("An Agimat casts SALAG without a wielder.")
    else:
        if a.wielder is None:
            raise IllegalMove(f"{card.name} needs a wielder: turn a Defender face-up to wield it.")
        wielder = g.card(a.wielder)
        if wielder.kind != "lakas" or not card.fits(wielder.archetype):
            raise IllegalMove(f"{wielder.name} cannot wield {card.name}: the wielder is a "
                              f"{'/'.join(card.archetypes).capitalize()} Lakas Defender.")
        if b.ready_defenders < 1:
            raise IllegalMove(f"{b.name} has no ready Defender on the defence line to wield {card.name}.")
        g.update(seat, defenders=b.defenders - 1, defence_cards=b.defence_cards - 1)
    if incoming is not None:
        archetype = g.t.archetype(incoming.cards[0])
    else:
        g.require_dawn()
        archetype = (a.archetype or "").strip().lower()
        if not g.t.dwellers_of(seat, archetype):
            raise IllegalMove(f"Cast SALAG on the arriving Forest cards or on a Dweller stack of "
                              f"{b.name}'s Baryo.")
    if any(g.t.archetype(k.cards[0]) == archetype for k in b.blocks):
        raise IllegalMove(f"The {archetype.capitalize()} stack is already held by a SALAG.")
    stacked = g.t.dwellers_of(seat, archetype)
    held = (incoming.cards if incoming is not None else ()) + stacked
    g.update(seat, hand=b.hand - 1, dwellers=tuple(n for n in b.dwellers if n not in stacked),
             blocks=g.baryo(seat).blocks + (Block(card.name, None if wielder is None else wielder.name, held),))
    g.set(incoming=None)
    g.say(f"{b.name} casts SALAG with {card.name}"
          + ("" if wielder is None else f", wielded by {wielder.name}")
          + f": {_listed(held)} {'is' if len(held) == 1 else 'are'} held, abilities blocked, until "
            "repelled on the next turn.")
    if incoming is None:
        g.end_turn()
    else:
        _after_answer(g, incoming)


def _reap(g: _Turn, a: Reap) -> None:
    """REAP: "stealing a Soul coin from another player's coin stash as an effect of a Lagim
    card's ability. A stolen Soul Coin goes to the Spirit Path of the player who stole it."
    A card held by SALAG has its abilities blocked."""
    reaper, target = a.player, g.target(a.target, a.player)
    card = g.forest_card(a.card)
    if card.kind != "lagim":
        raise IllegalMove(f"{card.name} is a Hiwaga card; only a Lagim card reaps.")
    if g.baryo(reaper).eliminated:
        raise IllegalMove(f"{g.name(reaper)}'s Baryo is eliminated and cannot reap.")
    incoming = g.t.incoming
    arriving = incoming.cards if incoming is not None and incoming.target == target else ()
    if card.name not in g.baryo(target).dwellers + arriving:
        blocked = card.name in g.baryo(target).held
        raise IllegalMove(f"{card.name} is held by SALAG: its abilities are blocked." if blocked else
                          f"No {card.name} is attacking or dwelling in {g.name(target)}'s Baryo.")
    g.say(f"{card.name} reaps a Soul Coin from {g.name(target)}!")
    g.lose_coin(target, reaper)
    if not g.baryo(target).eliminated or g.t.winners():
        return
    if arriving:  # the cards that were arriving have no Baryo left to land on
        g.set(graveyard=g.t.graveyard + arriving, incoming=None)
    if target == g.t.turn or arriving:
        g.end_turn()


def _disable(g: _Turn, a: Disable) -> None:
    seat, b = a.player, g.baryo(a.player)
    card = g.forest_card(a.card)
    if card.name not in b.dwellers:
        raise IllegalMove(f"No {card.name} dwells in {b.name}'s Baryo: a disabler acts as a Dweller.")
    if not 1 <= a.defenders <= b.ready_defenders:
        raise IllegalMove(f"{b.name} has {b.ready_defenders} Defenders ready to disable, not {a.defenders}.")
    g.update(seat, disabled=b.disabled + ((card.name, a.defenders),))
    g.say(f"{card.name} disables {a.defenders} of {b.name}'s Defenders until it is captured or eliminated.")


def _standby(g: _Turn, a: Standby) -> None:
    incoming = g.t.incoming
    if incoming is None:
        raise IllegalMove("STANDBY answers an attack or a raid, and none is waiting.")
    g.set(incoming=None)
    g.say(f"{g.name(a.player)} stands by.")
    g.land(a.player, incoming.cards, incoming.raider)
    _after_answer(g, incoming)


def _after_answer(g: _Turn, incoming: Incoming | None) -> None:
    """A raid or a repel ends the turn; a Forest attack leads to Dawn (or to the next
    player when it eliminated this one)."""
    if incoming is None or incoming.raider is not None or g.baryo(g.t.turn).eliminated:
        g.end_turn()
    elif not g.t.winners():
        g.to_dawn()


def _hasik(g: _Turn, a: Hasik) -> None:
    g.require_dawn()
    target = g.target(a.target, a.player)
    infos = [g.forest_card(n) for n in a.cards]
    if not infos:
        raise IllegalMove("HASIK needs at least one captured Lagim card.")
    archetype = g.one_archetype(infos, "HASIK")
    lagim = [c for c in infos if c.kind == "lagim"]
    if not lagim:
        raise IllegalMove("HASIK needs a Lagim card; Hiwaga alone are anchored with ANGKLA.")
    names = tuple(c.name for c in infos)
    g.take_captured(a.player, names)
    summoned = None
    if a.summoned is not None:
        summoned = g.forest_card(a.summoned)
        if summoned.kind != "lagim" or summoned.archetype != archetype:
            raise IllegalMove(f"A Full Moon summon brings a {archetype.capitalize()} Lagim card.")
        unknown = [c.name for c in lagim if c.moon is None]
        if sum(c.full_moon for c in lagim) < 2:
            raise IllegalMove(f"The moon alignment of {unknown[0]} is not known: tell it as the card "
                              "prints it (a printed event), or add it to the deck file."
                              if unknown else "A summon needs two Full Moon Lagim of one archetype.")
        g.take_from_forest_deck(summoned.name)
        names += (summoned.name,)
        lagim.append(summoned)
    if len(lagim) > RAID_MAX_CARDS:
        raise IllegalMove(f"HASIK uses at most {RAID_MAX_CARDS} Lagim cards of one archetype, "
                          f"not {len(lagim)}.")
    g.set(incoming=Incoming(target, names, a.player, None if summoned is None else summoned.name))
    summon = f" The Full Moon summons {summoned.name}!" if summoned else ""
    g.say(f"{g.name(a.player)} casts HASIK on {g.name(target)}'s Baryo with {_listed(names)}!{summon} "
          f"{g.name(target)}: battle, stand by, or PAGTAULI.")


def _pagtauli(g: _Turn, a: Pagtauli) -> None:
    incoming = g.t.incoming
    if incoming is None or incoming.raider is None:
        raise IllegalMove("PAGTAULI counters a HASIK raid only.")
    hiwaga = g.forest_card(a.hiwaga)
    archetype = g.t.archetype(incoming.cards[0])
    if hiwaga.kind != "hiwaga" or hiwaga.archetype != archetype:
        raise IllegalMove(f"PAGTAULI needs a captured {archetype.capitalize()} Hiwaga card; "
                          f"{hiwaga.name} is a {hiwaga.archetype.capitalize()} {hiwaga.kind.capitalize()}.")
    g.take_captured(a.player, [hiwaga.name])
    raider = incoming.raider
    g.set(incoming=Incoming(raider, incoming.cards + (hiwaga.name,), a.player))
    g.say(f"{g.name(a.player)} performs PAGTAULI with {hiwaga.name}: the raid turns back on "
          f"{g.name(raider)}'s Baryo! {g.name(raider)}: battle, stand by, or PAGTAULI.")


def _angkla(g: _Turn, a: Angkla) -> None:
    g.require_dawn()
    target = g.target(a.target, a.player)
    infos = [g.forest_card(n) for n in a.cards]
    if not infos or any(c.kind != "hiwaga" for c in infos):
        raise IllegalMove("ANGKLA anchors captured Hiwaga cards only.")
    if len(infos) > RAID_MAX_CARDS:
        raise IllegalMove(f"ANGKLA uses at most {RAID_MAX_CARDS} Hiwaga cards, not {len(infos)}.")
    archetype = g.one_archetype(infos, "ANGKLA")
    if not g.t.dwellers_of(target, archetype):
        raise IllegalMove(f"{g.name(target)} has no {archetype.capitalize()} Dweller to anchor on.")
    names = tuple(c.name for c in infos)
    g.take_captured(a.player, names)
    g.say(f"{g.name(a.player)} casts ANGKLA on {g.name(target)}'s {archetype.capitalize()} Dweller; "
          "it cannot be countered.")
    g.land(target, names, a.player)
    g.end_turn()


def _sacrifice_dark_coin(g: _Turn, a: SacrificeDarkCoin) -> None:
    g.require_dawn()
    b = g.baryo(a.player)
    if b.dark_coins < 1:
        raise IllegalMove(f"{b.name} has no Dark Soul Coin to sacrifice.")
    if bool(a.dwellers) == bool(a.from_deck):
        raise IllegalMove("A Dark Soul Coin captures 2 of your own Dwellers or 2 cards from the "
                          "Forest Deck: one or the other.")
    names = tuple(g.forest_card(n).name for n in a.dwellers or a.from_deck)
    if a.dwellers:
        want = min(2, len(b.dwellers))
        g.update(a.player, dwellers=_without(b.dwellers, names, lambda n: (
            f"{n} is not a Dweller in {b.name}'s Baryo.")))
    else:
        g.refill_forest_deck()
        want = min(2, len(g.t.forest_deck))
        for name in names:
            g.take_from_forest_deck(name)
    if len(names) != want:
        raise IllegalMove(f"A Dark Soul Coin captures {want} cards, not {len(names)}.")
    g.update(a.player, captured=g.baryo(a.player).captured + names, dark_coins=b.dark_coins - 1)
    g.set(vessel_dark=g.t.vessel_dark + 1)
    g.say(f"{b.name} sacrifices a Dark Soul Coin and captures {_listed(names)}.")
    g.end_turn()


def _baryo_offering(g: _Turn, a: BaryoOffering) -> None:
    g.require_dawn()
    b = g.baryo(a.player)
    lakas, kontra = g.card(a.lakas), [g.card(n) for n in a.kontra]
    if lakas.kind != "lakas" or any(k.kind != "kontra" for k in kontra) \
            or len({k.name for k in kontra}) != 4 or len(kontra) != 4:
        raise IllegalMove("A Baryo offering is 1 Lakas card and 4 different Kontra cards.")
    if b.hand < 5:
        raise IllegalMove(f"{b.name} holds only {b.hand} Baryo cards; an offering takes 5.")
    if g.t.vessel_dark < 1:
        raise IllegalMove("The Coin Vessel has no Dark Soul Coin left to give.")
    g.update(a.player, hand=b.hand - 5, dark_coins=b.dark_coins + 1)
    g.set(resting=g.t.resting + 5, vessel_dark=g.t.vessel_dark - 1)
    g.say(f"{b.name} offers {lakas.name} and {_listed(k.name for k in kontra)} and gains a Dark Soul Coin.")
    g.end_turn()


def _special_kontra(g: _Turn, a: SpecialKontra) -> None:
    g.require_dawn()
    b, card = g.baryo(a.player), g.card(a.card)
    if card.kind != "kontra" or "special" not in card.archetypes:
        raise IllegalMove(f"{card.name} is not a Special Kontra card.")
    if b.hand < 1:
        raise IllegalMove(f"{b.name} holds no Baryo card.")
    g.update(a.player, hand=b.hand - 1)
    g.set(resting=g.t.resting + 1)
    g.say(f"{b.name} casts {card.name}: {card.ability or 'its ability takes effect'}. "
          "It goes to the Resting Pile.")
    g.end_turn()


def _end_phase(g: _Turn, a: EndPhase) -> None:
    if g.t.phase == "twilight":
        g.require_twilight_draw()
        if g.t.can_draw_forest():
            raise IllegalMove("The Forest Deck still has cards: draw the Midnight attack.")
        g.say("The Forest Deck is empty: nothing attacks tonight.")
        g.to_dawn()
        return
    if g.t.can_draw_baryo():
        raise IllegalMove("Choose one final action: RECUPERATE is open while the Baryo Deck has cards.")
    g.end_turn()


_HANDLERS: dict[type, Callable[[_Turn, Any], None]] = {
    DrawBaryo: _draw_baryo, BuildDefence: _build_defence, ForestAttack: _forest_attack,
    Battle: _battle, Standby: _standby, Hasik: _hasik, Pagtauli: _pagtauli, Angkla: _angkla,
    SacrificeDarkCoin: _sacrifice_dark_coin, BaryoOffering: _baryo_offering,
    SpecialKontra: _special_kontra, EndPhase: _end_phase, SwitchDefence: _switch_defence,
    Salag: _salag, Reap: _reap, Disable: _disable,
}


def acting_seat(table: Table) -> int | None:
    """Who must act: the target of waiting Forest cards, else the player whose turn it is."""
    if table.winners():
        return None
    return table.turn if table.incoming is None else table.incoming.target


def _learn_printed(table: Table, action: Printed) -> Table:
    """The deck with a card's printed facts filled in; a fact already known stays as it is."""
    info = _Turn(table).card(action.card)
    for fact, known, told in (("level", info.level, action.level), ("moon alignment", info.moon, action.moon)):
        if known is not None and told is not None and str(known).casefold() != str(told).strip().casefold():
            shown = roman(known) if isinstance(known, int) else known
            raise IllegalMove(f"{info.name} already has {fact} {shown}: every copy prints the same.")
    learnt = replace(info, level=info.level if action.level is None else action.level,
                     moon=info.moon if action.moon is None else action.moon.strip().lower())
    return replace(table, deck=Deck({**table.deck.cards, info.name.casefold(): learnt}), announcements=())


def play(table: Table, action: LagimAction) -> Table:
    """The table after `action`, with its announcements; IllegalMove if the rules forbid it."""
    if isinstance(action, Printed):
        return _learn_printed(table, action)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalMove(f"Lagim has no {getattr(action, 'kind', type(action).__name__)} event.")
    winners = table.winners()
    if winners:
        raise IllegalMove(f"The game is over: {_listed(winners)} won.")
    player = action.player
    actor = acting_seat(table)
    if not 0 <= player < len(table.baryos):
        raise IllegalMove(f"There is no seat {player} at this table.")
    if isinstance(action, ABILITIES):
        actor = player
    elif table.incoming is not None and player == actor and not isinstance(action, ANSWERS):
        raise IllegalMove(f"{table.baryos[player].name} must first answer the Forest cards on the "
                          "Baryo: battle or stand by.")
    if player != actor:
        raise IllegalMove(f"It is {table.baryos[actor].name}'s move, not {table.baryos[player].name}'s."
                          if actor is not None else "Nobody is to move.")
    turn = _Turn(table)
    handler(turn, action)
    baryos = tuple(replace(b, disabled=tuple(d for d in b.disabled if d[0] in b.dwellers))
                   for b in turn.t.baryos)  # a disabler captured or eliminated frees its Defenders
    return replace(turn.t, baryos=baryos, announcements=tuple(turn.said))
