"""The battle phase: who wins the cards of one colour, what is discarded, who draws.

Both the `battle` check and the live tracker resolve colours here. Players are named by
their position in the round's turn order (0 = start player), because the book's draw
order ("beginning with the start player, in clockwise order") is that order.

How one colour is fought (RULES-NOTES, Gargon):
- 0s of the colour from two different players are all discarded first; no one wins them.
- Case A: a single player holds the colour: all of it wins without a fight.
- Case B: each player's highest card fights; the highest value wins, the rest are
  discarded. Repeat while more than one player still holds the colour (battle 2).
- Case C: one card left after a fight wins alone (the only way, with A, a 0 can win).
- Every discarded card is replaced by one draw for its owner, in turn order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rules.gargon.cards import Card, spoken_list

#: Which rule settled a battle: the book's cases A, B, C, or the two players' 0s.
ALONE, FIGHT, LEFT_ALONE, ZEROS = "A", "B", "C", "0s"


@dataclass(frozen=True)
class Battle:
    """One battle of a colour. `discarded` pairs each lost card with its owner's position."""

    colour: str
    case: str
    winner: int | None
    won: tuple[Card, ...]
    discarded: tuple[tuple[int, Card], ...] = ()

    @property
    def drawers(self) -> tuple[int, ...]:
        """Positions that draw a replacement, one per discarded card, in turn order."""
        return tuple(owner for owner, _ in self.discarded)


def resolve_colour(colour: str, played: Sequence[Sequence[Card]]) -> tuple[Battle, ...]:
    """Every battle of `colour`, given the cards each position played this round."""
    left = [sorted((c for c in cards if c.colour == colour), key=lambda c: -c.value)
            for cards in played]
    battles: list[Battle] = []
    zero_owners = [p for p, cards in enumerate(left) if any(c.value == 0 for c in cards)]
    if len(zero_owners) > 1:
        zeros = tuple((p, c) for p in zero_owners for c in left[p] if c.value == 0)
        battles.append(Battle(colour, ZEROS, None, (), zeros))
        left = [[c for c in cards if c.value != 0] for cards in left]
    fought = False
    while any(left):
        holders = [p for p, cards in enumerate(left) if cards]
        if len(holders) == 1:
            owner = holders[0]
            battles.append(Battle(colour, LEFT_ALONE if fought else ALONE, owner, tuple(left[owner])))
            break
        fighters = [(p, left[p][0]) for p in holders]
        winner, best = max(fighters, key=lambda fighter: fighter[1].value)
        losers = tuple(f for f in fighters if f[0] != winner)
        battles.append(Battle(colour, FIGHT, winner, (best,), losers))
        left = [cards[1:] for cards in left]
        fought = True
    return tuple(battles)


def battle_order(played: Sequence[Sequence[Card]]) -> list[str]:
    """The colours in the order they are fought when each chooser takes their own colours
    in the order they laid them: the start player first, then the next player on the left
    who still has cards out. The order changes nothing but who draws when."""
    return list(dict.fromkeys(card.colour for cards in played for card in cards))


def chooser(table: Sequence[Sequence[Card]]) -> int | None:
    """The position that chooses the next colour: the first, from the start player on,
    with cards still face up in front of them."""
    return next((p for p, cards in enumerate(table) if cards), None)


def describe(battle: Battle, names: Sequence[str]) -> str:
    """The battle's result as a sentence to speak, e.g. "Dagmar's red 14 beats Adam's 9."."""
    colour = battle.colour
    if battle.case == ZEROS:
        owners = spoken_list(list(dict.fromkeys(f"{names[p]}'s" for p in battle.drawers)))
        return f"{owners} {colour} 0s are both discarded: no one wins them."
    winner = names[battle.winner] if battle.winner is not None else ""
    values = spoken_list([str(c.value) for c in battle.won])
    if battle.case == ALONE:
        return f"{winner} wins {colour} {values} without a fight."
    if battle.case == LEFT_ALONE:
        return f"{winner}'s {colour} {values} is left alone and wins."
    beaten = spoken_list([f"{names[p]}'s {c.value}" for p, c in battle.discarded])
    return f"{winner}'s {colour} {values} beats {beaten}."


def describe_draws(drawers: Sequence[str]) -> str:
    """Who draws a replacement card, in the order the book wants: "Adam draws a card, then Collette."."""
    if not drawers:
        return ""
    return f"{drawers[0]} draws a card" + "".join(f", then {n}" for n in drawers[1:]) + "."
