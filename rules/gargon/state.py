"""The live Gargon table: an immutable state that follows a real game event by event.

What the tracker can know is what the table shows. Gargon cards have their colour on
both sides, so plays are judged by colour while the cards still lie face down; values
appear only at the reveal, and cards in hands or draw piles stay unknown (the tracker
counts them). Chance is an input: a `Reveal` carries the cards the camera saw.

A round runs: each seat in turn `Play`s or `Pass`es (drawing 1-3 cards from the piles
numbered 1 and 2), everyone's cards are turned up (`Reveal`), then choosers pick colours
(`ChooseBattle`), each resolved by `rules.gargon.battle`, and losers `Draw` a replacement
in turn order. The book says whoever forgets to draw gets no card: any other event while
draws are owed forfeits them. When a draw pile runs out the round is played to the end,
then the game ends and hands are discarded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations, permutations, product
from typing import Any, Mapping, Sequence

from rules.core import BadInput, IllegalMove, ScoreResult, check_player_count
from rules.gargon.battle import chooser, describe, describe_draws, resolve_colour
from rules.gargon.cards import (COLOURS, GAME, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Card, amulet_table,
                                cards_from_codes, colour_from_name, full_deck, spoken_list, too_many_copies)
from rules.gargon.events import PILES, Action, ChooseBattle, Draw, Pass, Play, Reveal, read_pile
from rules.gargon.options import Options
from rules.gargon.play import MAX_CARDS, judge_round
from rules.gargon.scoring import score_won
from rules.options import parse_options
from rules.payload import expect, opt, seat_of

PLAYING, REVEALING, BATTLING, OVER = "playing", "revealing", "battling", "over"


@dataclass(frozen=True)
class GargonState:
    """One moment of a Gargon game. Per-seat tuples are indexed by seat (clockwise);
    `plays` holds this round's plays in turn order from the start player."""

    names: tuple[str, ...]
    options: Options
    amulets: tuple[int, ...]            # amulets per value, indexed by value
    hands: tuple[int, ...]              # cards in hand (unknown faces)
    piles: tuple[int, int]              # cards left in draw piles 1 and 2
    start: int
    round: int = 1
    phase: str = PLAYING
    plays: tuple[tuple[str, ...] | None, ...] = ()
    table: tuple[tuple[Card, ...], ...] = ()      # revealed cards still out, per seat
    won: tuple[tuple[Card, ...], ...] = ()
    discarded: tuple[Card, ...] = ()              # discarded cards the table saw
    unseen_discards: int = 0                      # hands discarded at the game's end
    owed: tuple[int, ...] = ()                    # seats still to draw a replacement
    last_round: bool = False
    announcements: tuple[str, ...] = field(default=(), compare=False)

    # -- the GameState interface --

    def turn_order(self) -> tuple[int, ...]:
        n = len(self.names)
        return tuple((self.start + p) % n for p in range(n))

    def current_player(self) -> int | None:
        if self.owed:
            return self.owed[0]
        if self.phase == PLAYING:
            return self.turn_order()[len(self.plays)]
        if self.phase == BATTLING:
            return self._chooser()
        return None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> ScoreResult:
        return score_won(self.names, self.won, dict(enumerate(self.amulets)), self.options)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every event the rules allow now, except a reveal: its faces are the camera's to say."""
        if self.owed:
            draws = tuple(Draw(self.owed[0], pile) for pile in PILES if self.piles[pile - 1])
            return draws + self._forfeit_draws().legal_actions()
        if self.phase == PLAYING:
            seat = self.current_player()
            assert seat is not None
            return self._legal_plays(seat) + self._legal_passes(seat)
        if self.phase == BATTLING:
            seat = self._chooser()
            assert seat is not None
            return tuple(ChooseBattle(seat, c) for c in dict.fromkeys(c.colour for c in self.table[seat]))
        return ()

    def apply(self, action: Action) -> "GargonState":
        if self.phase == OVER:
            raise IllegalMove("The game is over.")
        state = replace(self, announcements=())
        if isinstance(action, Draw):
            return state._draw(action)
        if not isinstance(action, (Play, Pass, Reveal, ChooseBattle)):
            raise BadInput("action", f"not a Gargon event: {action!r}")
        if state.owed:
            state = state._forfeit_draws()
        match action:
            case Play():
                return state._play(action)
            case Pass():
                return state._pass(action)
            case Reveal():
                return state._reveal(action)
        return state._choose_battle(action)

    def to_dict(self) -> dict[str, Any]:
        """The table as the scoreboard shows it: counts for what lies face down, faces
        for what is face up; won cards' faces only when they are kept face up."""
        turn = {seat: p for p, seat in enumerate(self.turn_order())}
        totals = {p.name: p.total for p in self.scores().players}
        players = []
        for seat, name in enumerate(self.names):
            position = turn[seat]
            played = self.plays[position] if position < len(self.plays) else None
            entry: dict[str, Any] = {
                "name": name, "hand": self.hands[seat],
                "played": list(played) if played else None,
                "passed": position < len(self.plays) and played is None,
                "table": [c.code for c in self.table[seat]],
                "won_colours": {c: n for c in COLOURS
                                if (n := sum(1 for w in self.won[seat] if w.colour == c))},
            }
            if self.options.open_won_cards or self.phase == OVER:
                entry["won"] = [c.code for c in self.won[seat]]
                entry["total"] = totals[name]
            players.append(entry)
        current = self.current_player()
        return {
            "game": GAME, "round": self.round, "phase": self.phase,
            "start": self.names[self.start],
            "current_player": None if current is None else self.names[current],
            "players": players, "piles": list(self.piles), "last_round": self.last_round,
            "discarded": len(self.discarded) + self.unseen_discards,
            "owed_draws": [self.names[s] for s in self.owed],
            "winners": list(self.scores().winners) if self.phase == OVER else [],
            "announcements": list(self.announcements),
        }

    # -- the card play phase --

    def _play(self, action: Play) -> "GargonState":
        seat = self._acting_seat(action.player, PLAYING, "play")
        colours = tuple(colour_from_name(c, f"colours[{i}]") for i, c in enumerate(action.colours))
        name = self.names[seat]
        if len(colours) > self.hands[seat]:
            raise IllegalMove(f"{name} holds only {_cards(self.hands[seat])}.")
        verdict = judge_round(self.plays + (colours,), len(self.names))[-1]
        if not verdict.valid:
            raise IllegalMove(f"{name} {verdict.reason}.")
        return replace(self, hands=_add(self.hands, seat, -len(colours)),
                       plays=self.plays + (colours,))._say(f"{name} {verdict.reason}.")._after_play()

    def _pass(self, action: Pass) -> "GargonState":
        seat = self._acting_seat(action.player, PLAYING, "pass")
        name = self.names[seat]
        verdict = judge_round(self.plays + (None,), len(self.names))[-1]
        if not verdict.valid:
            raise IllegalMove(f"{name} {verdict.reason}.")
        left = sum(self.piles)
        if not (1 <= len(action.draws) <= MAX_CARDS or left == 0 == len(action.draws)):
            raise IllegalMove(f"{name} passes and must draw one to three cards.")
        state = replace(self, plays=self.plays + (None,))._say(
            f"{name} passes and draws {_cards(len(action.draws))}." if action.draws
            else f"{name} passes; the draw piles are empty.")
        for pile in action.draws:
            state = state._take_from(seat, read_pile(pile, "draws"))
        return state._after_play()

    def _after_play(self) -> "GargonState":
        if len(self.plays) < len(self.names):
            return self
        return replace(self, phase=REVEALING)._say(
            "Everyone has played or passed: turn the cards face up.")

    def _legal_plays(self, seat: int) -> tuple[Play, ...]:
        shapes: list[tuple[str, ...]] = [(c,) for c in COLOURS] + [(c, c) for c in COLOURS]
        shapes += list(combinations(COLOURS, 2)) + list(combinations(COLOURS, 3))
        shapes += [(a, a, b) for a, b in permutations(COLOURS, 2)]
        return tuple(Play(seat, colours) for colours in shapes
                     if len(colours) <= self.hands[seat]
                     and judge_round(self.plays + (colours,), len(self.names))[-1].valid)

    def _legal_passes(self, seat: int) -> tuple[Pass, ...]:
        if not self.plays:
            return ()
        if not sum(self.piles):
            return (Pass(seat, ()),)
        return tuple(Pass(seat, draws) for k in range(1, MAX_CARDS + 1)
                     for draws in product(PILES, repeat=k)
                     if all(draws.count(p) <= self.piles[p - 1] for p in PILES))

    # -- the battle phase --

    def _reveal(self, action: Reveal) -> "GargonState":
        if self.phase != REVEALING:
            raise IllegalMove("Cards are turned face up only after everyone has played or passed.")
        if len(action.cards) != len(self.names):
            raise BadInput("cards", f"needs one list of cards per seat ({len(self.names)})")
        order = self.turn_order()
        shown = [cards_from_codes(action.cards[seat], f"cards[{seat}]") for seat in range(len(self.names))]
        for seat in range(len(self.names)):
            laid = self.plays[order.index(seat)] or ()
            if sorted(laid) != sorted(c.colour for c in shown[seat]):
                raise IllegalMove(
                    f"{self.names[seat]} laid {spoken_list(list(laid)) or 'no cards'} face down, "
                    f"but the cards shown are {spoken_list([c.code for c in shown[seat]]) or 'none'}.")
        seen = [c for cards in shown for c in cards] + [c for w in self.won for c in w]
        twice = too_many_copies(seen + list(self.discarded))
        if twice is not None:
            raise IllegalMove(f"{twice.code} cannot be out twice; look at that card again.")
        first = self.names[order[0]]
        return replace(self, phase=BATTLING, table=tuple(shown))._say(
            f"Battle phase: {first} chooses the first colour.")

    def _choose_battle(self, action: ChooseBattle) -> "GargonState":
        seat = self._acting_seat(action.player, BATTLING, "choose a colour")
        colour = colour_from_name(action.colour, "colour")
        mine = list(dict.fromkeys(c.colour for c in self.table[seat]))
        if colour not in mine:
            raise IllegalMove(f"{self.names[seat]} has no {colour} card out; "
                              f"choose {spoken_list(mine, 'or')}.")
        order = self.turn_order()
        battles = resolve_colour(colour, [self.table[s] for s in order])
        won, discarded, owed = list(self.won), list(self.discarded), []
        for battle in battles:
            if battle.winner is not None:
                won[order[battle.winner]] += battle.won
            discarded += [card for _, card in battle.discarded]
            owed += [order[p] for p in battle.drawers]
        owed = owed[:sum(self.piles)]
        said = tuple(describe(b, [self.names[s] for s in order]) for b in battles)
        said += (describe_draws([self.names[s] for s in owed]),) if owed else ()
        table = tuple(tuple(c for c in cards if c.colour != colour) for cards in self.table)
        return replace(self, table=table, won=tuple(won), discarded=tuple(discarded),
                       owed=tuple(owed))._say(*said)._settle()

    def _draw(self, action: Draw) -> "GargonState":
        if not self.owed:
            raise IllegalMove(f"{self._name(action.player)} has no card to draw now.")
        seat, pile = action.player, read_pile(action.pile, "pile")
        if seat != self.owed[0]:
            waiting = spoken_list([self.names[s] for s in dict.fromkeys(self.owed)], "then")
            raise IllegalMove(f"{waiting} draw in this order; it is {self.names[self.owed[0]]}'s turn."
                              if seat in self.owed else f"{self._name(seat)} has no card to draw now.")
        if not self.piles[pile - 1]:
            raise IllegalMove(f"Draw pile {pile} is empty.")
        state = replace(self, owed=self.owed[1:])._take_from(seat, pile)
        if not sum(state.piles):
            state = replace(state, owed=())
        return state._settle()

    def _forfeit_draws(self) -> "GargonState":
        """The book: whoever forgets to draw after a battle gets no card."""
        who = spoken_list([self.names[s] for s in dict.fromkeys(self.owed)])
        return replace(self, owed=())._say(
            f"{who} did not draw and {'gets' if len(set(self.owed)) == 1 else 'get'} no card."
        )._settle()

    def _settle(self) -> "GargonState":
        """End the round once no card is out and no draw is owed (in the last round the
        hands are discarded anyway, so draws still owed there are moot)."""
        if self.phase != BATTLING or any(self.table) or (self.owed and not self.last_round):
            return self
        if self.last_round:
            return self._game_over("A draw pile ran out this round, so the game ends; "
                                   "cards in hand are discarded.")
        n = len(self.names)
        starters = [(self.start + k) % n for k in range(1, n + 1)]
        start = next((s for s in starters if self.hands[s]), None)
        if start is None:
            return self._game_over("No one holds a card to start a round, so the game ends.")
        skipped = (f"{self.names[starters[0]]} holds no card, so " if start != starters[0] else "")
        return replace(self, start=start, round=self.round + 1, phase=PLAYING, plays=(),
                       table=tuple(() for _ in self.names))._say(
            f"Round {self.round + 1}: {skipped}{self.names[start]} starts.")

    def _game_over(self, why: str) -> "GargonState":
        over = replace(self, phase=OVER, owed=(), hands=tuple(0 for _ in self.hands),
                       unseen_discards=self.unseen_discards + sum(self.hands))
        result = over.scores()
        best = max(p.total for p in result.players)
        verdict = (f"{spoken_list(list(result.winners))} "
                   f"{'wins' if len(result.winners) == 1 else 'share the win'} with {best} points.")
        return over._say(why, verdict)

    # -- helpers --

    def _chooser(self) -> int | None:
        order = self.turn_order()
        position = chooser([self.table[s] for s in order])
        return None if position is None else order[position]

    def _acting_seat(self, seat: int, phase: str, doing: str) -> int:
        name = self._name(seat)
        if self.phase != phase:
            raise IllegalMove(f"{name} cannot {doing} now: {_PHASE_NOW[self.phase]}.")
        current = self.current_player()
        if seat != current:
            raise IllegalMove(f"It is {self._name(current)}'s turn, not {name}'s.")
        return seat

    def _name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            raise BadInput("seat", f"no seat {seat}; seats are 0 to {len(self.names) - 1}")
        return self.names[seat]

    def _say(self, *lines: str) -> "GargonState":
        return replace(self, announcements=self.announcements + lines)

    def _take_from(self, seat: int, pile: int) -> "GargonState":
        if not self.piles[pile - 1]:
            raise IllegalMove(f"Draw pile {pile} is empty.")
        piles = _add(self.piles, pile - 1, -1)
        said = (f"Draw pile {pile} is empty: this is the last round.",) if not piles[pile - 1] else ()
        return replace(self, hands=_add(self.hands, seat, 1), piles=piles,  # type: ignore[arg-type]
                       last_round=self.last_round or not piles[pile - 1])._say(*said)


_PHASE_NOW = {
    PLAYING: "players are still playing or passing",
    REVEALING: "the played cards must be turned face up first",
    BATTLING: "the battles are being fought",
    OVER: "the game is over",
}


def _add(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return values[:index] + (values[index] + delta,) + values[index + 1:]


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             setup: Mapping[str, Any] | None = None) -> GargonState:
    """A game at the deal: each player holds `hand_size` cards (10), the rest split into
    two draw piles. `setup` may give `start` (seat or name of the youngest player, who
    starts), `hand_size`, `piles` ([n1, n2]) and a deck's `amulets`."""
    names = seat_names(players)
    check_player_count(len(names), "Gargon", MIN_PLAYERS, MAX_PLAYERS)
    setup = expect(setup or {}, dict, "setup")
    hand = opt(setup, "hand_size", int, HAND_SIZE, "setup")
    dealt = hand * len(names)
    if hand < 1 or dealt >= len(full_deck()) - 1:
        raise BadInput("setup.hand_size", f"cannot deal {hand} cards to {len(names)} players")
    rest = len(full_deck()) - dealt
    piles = opt(setup, "piles", list, [rest - rest // 2, rest // 2], "setup")
    if len(piles) != 2 or any(expect(p, int, "setup.piles") < 1 for p in piles):
        raise BadInput("setup.piles", "needs two positive card counts")
    start = seat_of(opt(setup, "start", (int, str), 0, "setup"), names, "setup.start")
    amulets = amulet_table(setup.get("amulets"), "setup.amulets")
    return GargonState(names=names, options=parse_options(Options, options),
                 amulets=tuple(amulets[v] for v in sorted(amulets)),
                 hands=tuple(hand for _ in names), piles=(piles[0], piles[1]), start=start,
                 table=tuple(() for _ in names), won=tuple(() for _ in names),
                 announcements=(f"Round 1: {names[start]} starts.",))


def seat_names(players: Any, path: str = "players") -> tuple[str, ...]:
    """Player names in seat order (plain strings), non-empty and distinct."""
    expect(players, (list, tuple), path)
    if not players:
        raise BadInput(path, "needs at least one player")
    names = tuple(expect(p, str, f"{path}[{i}]").strip() for i, p in enumerate(players))
    for i, name in enumerate(names):
        if not name or name in names[:i]:
            raise BadInput(f"{path}[{i}]", f"needs a name of its own, got {players[i]!r}")
    return names
