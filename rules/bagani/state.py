"""The turn-by-turn Bagani tracker: an immutable state fed by table events.

It follows a real table: it sees the face-up rows, the combos put down, the Halimaw
taken and any hand shown, but not the cards drawn from the deck top, so each hand is
the cards it saw plus a count of unseen ones. An illegal event raises IllegalMove with
a sentence for the table; nothing is mutated, so the companion can keep the old state.

Phases: setup -> (draw -> discard? -> attack -> reveal?) per turn -> over -> ended.
A gap in the face-up Bagani row must be refilled before anything else happens, as the
book says ("replace it immediately"); refills and reveals are chance events with no
player to act.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping, Sequence

from rules.bagani.events import (DECK, ROW, Action, Defeat, Discard, Done, Draw, End, PutDown,
                                  Refill, Reveal, Setup, Show)
from rules.bagani.cards import (ATTACKS, BIYAYA, BIYAYA_NAME, CARD_CODES, SARIMAW, Deck,
                                Halimaw)
from rules.bagani.attack import HALIMAW_ROW
from rules.bagani.combos import TITLES, classify, combos_ap
from rules.bagani.options import Options
from rules.bagani.scoring import Defeated, PlayerTable, score_tables
from rules.core import IllegalMove, ScoreResult

GAME = "bagani"
HAND_LIMIT = 8
STARTING_HAND = 3
BAGANI_ROW = 5
REMOVED_HALIMAW = 4
SARIMAW_AMONG_LAST = 4
DRAWS_PER_TURN = 2

SETUP, DRAWING, DISCARDING, ATTACKING, REVEALING, OVER, ENDED = (
    "setup", "draw", "discard", "attack", "reveal", "over", "ended")


@dataclass(frozen=True)
class Hand:
    """A hand as the table sees it: the cards seen entering it, and how many were not."""

    known: tuple[str, ...] = ()
    unknown: int = 0

    @property
    def count(self) -> int:
        return len(self.known) + self.unknown

    def add(self, card: str | None) -> "Hand":
        if card is None:
            return replace(self, unknown=self.unknown + 1)
        return replace(self, known=tuple(sorted(self.known + (card,))))

    def remove(self, card: str | None, owner: str) -> "Hand":
        """The hand without `card`; None is a card nobody saw leave, so the seen cards
        may be the one that left and become unknown."""
        if self.count == 0:
            raise IllegalMove(f"{owner} has no cards.")
        if card is None:
            return Hand((), self.count - 1)
        if card in self.known:
            known = list(self.known)
            known.remove(card)
            return replace(self, known=tuple(known))
        if self.unknown == 0:
            raise IllegalMove(f"{owner} has no {card} in hand.")
        return replace(self, unknown=self.unknown - 1)

    def forget(self) -> "Hand":
        return Hand((), self.count)

    def could_be(self, cards: Sequence[str]) -> bool:
        """Whether `cards` may be this hand: the right count, holding every known card."""
        return len(cards) == self.count and not (Counter(self.known) - Counter(cards))


def _list_names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class BaganiState:
    """A Bagani table between two events.

    `turn` is the seat whose turn it is; `draws` and `ap` belong to that turn (AP put
    down and not yet spent). `halimaw_left` counts by name the Halimaw not yet seen and
    `unnamed_left` those whose name the deck does not give; `resume` says where a reveal
    returns to (the attack step when Halimaw are replaced at once). `deck` learns the
    stats of each Halimaw revealed.
    """

    players: tuple[str, ...]
    options: Options
    deck: Deck
    phase: str = SETUP
    turn: int = 0
    draws: int = 0
    hands: tuple[Hand, ...] = ()
    bagani_row: tuple[str | None, ...] = ()
    bagani_deck: int = 0
    discard_pile: int = 0
    halimaw_row: tuple[Halimaw | None, ...] = ()
    halimaw_deck: int = 0
    halimaw_left: tuple[tuple[str, int], ...] = ()
    unnamed_left: int = 0
    ap: int = 0
    resume: str = ""
    defeated: tuple[tuple[Halimaw, ...], ...] = ()
    sarimaw_down: bool = False
    shown_hands: tuple[tuple[str, ...], ...] | None = None
    announcements: tuple[str, ...] = ()

    # --- the engine interface ---------------------------------------------------------

    def current_player(self) -> int | None:
        """The seat to act; None for setup, chance events (refills, reveals) and the end."""
        if self.phase in (DRAWING, DISCARDING, ATTACKING) and not self._needs_refill():
            return self.turn
        return None

    def is_terminal(self) -> bool:
        return self.phase == ENDED

    def apply(self, action: Action) -> "BaganiState":
        """The state after `action`, with its announcements; IllegalMove if not allowed."""
        if self.phase == ENDED:
            raise IllegalMove("The game is over and scored.")
        if isinstance(action, Setup):
            return self._setup(action)
        if self.phase == SETUP:
            raise IllegalMove("Lay out the face-up Bagani cards and Halimaw first.")
        if isinstance(action, End):
            return self._end(action)
        if isinstance(action, Show):
            return self._show(action)
        if isinstance(action, Refill):
            return self._refill(action)
        if self._needs_refill():
            raise IllegalMove("First fill the empty face-up Bagani slot from the deck.")
        step = {Draw: self._draw, Discard: self._discard, PutDown: self._put_down,
                Defeat: self._defeat, Done: self._done, Reveal: self._reveal}.get(type(action))
        if step is None:
            raise IllegalMove(f"Bagani has no {getattr(action, 'kind', action)!r} event.")
        return step(action)  # type: ignore[operator]

    def scores(self) -> ScoreResult:
        """Live totals from the defeated Halimaw and awards; final hands once shown."""
        tables = [PlayerTable(name, tuple(Defeated(h.name, h.color, h.dp)  # type: ignore[arg-type]
                                          for h in won),
                              None if self.shown_hands is None else self.shown_hands[i])
                  for i, (name, won) in enumerate(zip(self.players, self.defeated))]
        result = score_tables(GAME, tables, self.options)
        return result if self.is_terminal() else replace(result, winners=())

    def legal_actions(self) -> list[Action]:
        """The events that can be listed: every public choice, and the chance events whose
        outcome the tracker can name (refills of any card code, reveals of Halimaw whose
        stats it knows). Deck draws appear with the card unknown."""
        if self.phase in (SETUP, ENDED):
            return []
        if self._needs_refill():
            return [Refill(code) for code in sorted(CARD_CODES)]
        actions: list[Action] = []
        if self.phase == DRAWING:
            face_up = sorted({c for c in self.bagani_row if c})
            actions += [Draw(self.turn, ROW, code) for code in face_up
                        if not (code == BIYAYA and self.draws)]
            if self.bagani_deck + self.discard_pile:
                actions.append(Draw(self.turn, DECK))
        elif self.phase == DISCARDING:
            hand = self.hands[self.turn]
            actions += [Discard(self.turn, c) for c in sorted(set(hand.known))]
            if hand.unknown:
                actions.append(Discard(self.turn))
        elif self.phase == ATTACKING:
            actions += [PutDown(self.turn, (combo,)) for combo in self._known_combos()]
            actions += [Defeat(self.turn, name) for name in
                        sorted({h.name for h in self.halimaw_row if h and h.lakas is not None and h.lakas <= self.ap})]
            actions.append(Done(self.turn))
        elif self.phase == REVEALING:
            actions += [Reveal(self.deck.kind(name)) for name, left in self.halimaw_left
                        if (left or self.unnamed_left) and not self.deck.kind(name).unknown()
                        and self._may_reveal(name)]
        if self.phase == OVER:
            actions.append(End())
        return actions

    def to_dict(self) -> dict[str, Any]:
        """The public table for the scoreboard: hand sizes, never the cards in them."""
        actor = self.current_player()
        return {
            "game": GAME, "phase": self.phase,
            "turn": self.players[self.turn] if self.players else None,
            "current_player": None if actor is None else self.players[actor],
            "players": [{"name": name, "hand_count": hand.count,
                         "defeated": [h.to_dict() for h in won]}
                        for name, hand, won in zip(self.players, self.hands, self.defeated)],
            "bagani_row": list(self.bagani_row), "bagani_deck": self.bagani_deck,
            "discard_pile": self.discard_pile,
            "halimaw_row": [None if h is None else h.to_dict() for h in self.halimaw_row],
            "halimaw_deck": self.halimaw_deck, "ap": self.ap, "draws": self.draws,
            "sarimaw_defeated": self.sarimaw_down,
            "announcements": list(self.announcements),
            "scores": self.scores().to_dict(),
        }

    # --- setup, drawing -----------------------------------------------------------------

    def _setup(self, action: Setup) -> "BaganiState":
        if self.phase != SETUP:
            raise IllegalMove("The game is already set up.")
        n = len(self.players)
        if len(action.bagani) != BAGANI_ROW:
            raise IllegalMove(f"Lay out {BAGANI_ROW} face-up Bagani cards, "
                              f"not {len(action.bagani)}.")
        if len(action.halimaw) != HALIMAW_ROW:
            raise IllegalMove(f"Lay out {HALIMAW_ROW} face-up Halimaw, not {len(action.halimaw)}.")
        if action.hands is not None and (len(action.hands) != n or any(
                len(h) != STARTING_HAND for h in action.hands)):
            raise IllegalMove(f"Each of the {n} players starts with {STARTING_HAND} cards.")
        bagani_deck = self.deck.bagani_total - n * STARTING_HAND - BAGANI_ROW
        if bagani_deck < 0:
            raise IllegalMove(f"The deck has too few Bagani cards for {n} players.")
        removed = REMOVED_HALIMAW if self.options.remove_four_halimaw else 0
        hands = ((Hand(unknown=STARTING_HAND),) * n if action.hands is None
                 else tuple(Hand(tuple(sorted(h))) for h in action.hands))
        state = replace(
            self, phase=DRAWING, hands=hands,
            bagani_row=action.bagani, bagani_deck=bagani_deck,
            halimaw_left=tuple(sorted(self.deck.halimaw_cards.items())),
            unnamed_left=self.deck.unnamed_halimaw,
            halimaw_deck=self.deck.halimaw_total - removed,
            defeated=((),) * n, halimaw_row=())
        for halimaw in action.halimaw:
            if halimaw.name == SARIMAW:
                raise IllegalMove(f"{SARIMAW} is never in the first four Halimaw.")
            state = state._take_halimaw(halimaw)
            state = replace(state, halimaw_row=state.halimaw_row + (state.deck.kind(halimaw.name),))
        return replace(state, announcements=(
            f"The game begins. {self.players[0]} goes first: draw 2 Bagani cards.",))._start_turn(0)

    def _start_turn(self, seat: int) -> "BaganiState":
        state = replace(self, turn=seat, draws=0, ap=0, phase=DRAWING, resume="")
        return state if state._can_draw() else replace(state, phase=ATTACKING)

    def _can_draw(self) -> bool:
        return bool(self.bagani_deck + self.discard_pile) or any(
            c and not (c == BIYAYA and self.draws) for c in self.bagani_row)

    def _needs_refill(self) -> bool:
        return None in self.bagani_row and bool(self.bagani_deck + self.discard_pile)

    def _check_turn(self, player: int, phase: str) -> None:
        if not 0 <= player < len(self.players):
            raise IllegalMove(f"There is no player in seat {player}.")
        if player != self.turn:
            raise IllegalMove(f"It is {self.players[self.turn]}'s turn, "
                              f"not {self.players[player]}'s.")
        if self.phase != phase:
            raise IllegalMove(_PHASE_HINTS[self.phase].format(name=self.players[self.turn]))

    def _from_deck(self) -> "BaganiState":
        """One card off the Bagani deck top; an empty deck is the shuffled discard pile."""
        deck, pile = self.bagani_deck, self.discard_pile
        if deck == 0:
            deck, pile = pile, 0
        if deck == 0:
            raise IllegalMove("The Bagani deck and discard pile are both empty.")
        return replace(self, bagani_deck=deck - 1, discard_pile=pile)

    def _draw(self, action: Draw) -> "BaganiState":
        self._check_turn(action.player, DRAWING)
        name = self.players[self.turn]
        said: tuple[str, ...] = ()
        if action.source == ROW:
            if action.card not in self.bagani_row:
                raise IllegalMove(f"There is no face-up {action.card} to take.")
            if action.card == BIYAYA and self.draws:
                raise IllegalMove(f"A face-up {BIYAYA_NAME} can only be taken as the first draw.")
            row = list(self.bagani_row)
            row[row.index(action.card)] = None
            state = replace(self, bagani_row=tuple(row))
            if action.card == BIYAYA:
                said = (f"{name} took the face-up {BIYAYA_NAME}: no second draw this turn.",)
        else:
            state = self._from_deck()
        hands = list(state.hands)
        hands[self.turn] = hands[self.turn].add(action.card)
        state = replace(state, hands=tuple(hands), draws=self.draws + 1, announcements=said)
        ends = state.draws == DRAWS_PER_TURN or (action.source == ROW and action.card == BIYAYA)
        return state._after_drawing() if ends or not state._can_draw() else state

    def _after_drawing(self) -> "BaganiState":
        count = self.hands[self.turn].count
        if self.options.hand_limit and count > HAND_LIMIT:
            return replace(self, phase=DISCARDING, announcements=self.announcements + (
                f"{self.players[self.turn]} has {count} cards: discard down to {HAND_LIMIT}.",))
        return replace(self, phase=ATTACKING)

    def _refill(self, action: Refill) -> "BaganiState":
        if not self._needs_refill():
            raise IllegalMove("No face-up Bagani slot is waiting for a card.")
        state = self._from_deck()
        row = list(state.bagani_row)
        row[row.index(None)] = action.card
        state = replace(state, bagani_row=tuple(row), announcements=())
        # the last deck card refilled the row after a first draw: if it left only face-up
        # Biyaya, which cannot be a second draw, the drawing is over
        return state._after_drawing() if state.phase == DRAWING and not state._can_draw() else state

    def _discard(self, action: Discard) -> "BaganiState":
        self._check_turn(action.player, DISCARDING)
        hands = list(self.hands)
        hands[self.turn] = hands[self.turn].remove(action.card, self.players[self.turn])
        state = replace(self, hands=tuple(hands), discard_pile=self.discard_pile + 1,
                        announcements=())
        return state if hands[self.turn].count > HAND_LIMIT else replace(state, phase=ATTACKING)

    # --- the attack step ----------------------------------------------------------------

    def _put_down(self, action: PutDown) -> "BaganiState":
        self._check_turn(action.player, ATTACKING)
        if not action.combos:
            raise IllegalMove("Put down at least one combo, or pass.")
        ap = combos_ap(action.combos, self.options)
        name = self.players[self.turn]
        hand = self.hands[self.turn]
        for card in (c for combo in action.combos for c in combo):
            hand = hand.remove(card, name)
        hands = list(self.hands)
        hands[self.turn] = hand
        titles = [f"a {TITLES[classify(c, self.options).combo]}" for c in action.combos]
        return replace(self, hands=tuple(hands), ap=self.ap + ap,
                       discard_pile=self.discard_pile + sum(map(len, action.combos)),
                       announcements=(f"{name} puts down {_list_names(titles)}: {ap} AP "
                                      f"({self.ap + ap} to spend).",))

    def _defeat(self, action: Defeat) -> "BaganiState":
        self._check_turn(action.player, ATTACKING)
        slot = next((i for i, h in enumerate(self.halimaw_row) if h and h.name == action.halimaw),
                    None)
        if slot is None:
            raise IllegalMove(f"{action.halimaw} is not one of the face-up Halimaw.")
        halimaw = self.halimaw_row[slot]
        assert halimaw is not None and halimaw.lakas is not None and halimaw.dp is not None
        if halimaw.lakas > self.ap:
            raise IllegalMove(f"{halimaw.name} needs {halimaw.lakas} AP; "
                              f"{self.players[self.turn]} has {self.ap} AP to spend.")
        row = list(self.halimaw_row)
        row[slot] = None
        defeated = list(self.defeated)
        defeated[self.turn] += (halimaw,)
        said = [f"{self.players[self.turn]} defeats {halimaw.name}: {halimaw.dp} DP."]
        state = replace(self, ap=self.ap - halimaw.lakas, halimaw_row=tuple(row),
                        defeated=tuple(defeated),
                        sarimaw_down=self.sarimaw_down or halimaw.name == SARIMAW)
        if halimaw.name == SARIMAW:
            said.append(f"{SARIMAW} is defeated! " + (
                "The round plays on so everyone has equal turns."
                if not state._turn_ends_game() else "This is the last turn."))
        state = replace(state, announcements=tuple(said))
        if not self.options.reveal_after_attack and state._reveal_due():
            return replace(state, phase=REVEALING, resume=ATTACKING)
        return state

    def _turn_ends_game(self) -> bool:
        last_seat = self.turn == len(self.players) - 1
        return self.sarimaw_down and (not self.options.final_round or last_seat)

    def _reveal_due(self) -> bool:
        return (None in self.halimaw_row or len(self.halimaw_row) < HALIMAW_ROW) and \
            self.halimaw_deck > 0 and not self._turn_ends_game()

    def _done(self, action: Done) -> "BaganiState":
        self._check_turn(action.player, ATTACKING)
        state = replace(self, ap=0, announcements=())
        if self._turn_ends_game():
            return replace(state, phase=OVER, announcements=(
                "The game is over! Show your final hands for the Dangal Points count.",))
        if state._reveal_due():
            return replace(state, phase=REVEALING, resume="")
        return state._next_turn()

    def _next_turn(self) -> "BaganiState":
        seat = (self.turn + 1) % len(self.players)
        state = self._start_turn(seat)
        return replace(state, announcements=state.announcements + (
            f"{self.players[seat]}'s turn.",))

    # --- revealing Halimaw --------------------------------------------------------------

    def _may_reveal(self, name: str) -> bool:
        sarimaw_waits = any(n == SARIMAW and c for n, c in self.halimaw_left)
        window = SARIMAW_AMONG_LAST if self.options.random_sarimaw else 1
        if name == SARIMAW:
            return self.halimaw_deck <= window
        return not (sarimaw_waits and self.halimaw_deck == 1)

    def _take_halimaw(self, given: Halimaw) -> "BaganiState":
        """The state with `given` taken out of the Halimaw deck and its stats learned."""
        known = self.deck.kind(given.name)
        clash = given.conflicts(known)
        if clash:
            field = clash[0]
            raise IllegalMove(f"The deck gives {given.name} {field} {getattr(known, field)}, "
                              f"not {getattr(given, field)}.")
        full = given.filled_from(known)
        if full.unknown():
            raise IllegalMove(f"Nobody has told me {given.name}'s {_list_names(full.unknown())}: "
                              f"give them with the card or in the deck file.")
        left = dict(self.halimaw_left)
        if left.get(given.name, 0) > 0:
            left[given.name] -= 1
            unnamed = self.unnamed_left
        elif self.unnamed_left > 0:
            unnamed = self.unnamed_left - 1
        else:
            raise IllegalMove(f"No {given.name} is left in the Halimaw deck.")
        return replace(self, deck=self.deck.learn(full), halimaw_left=tuple(sorted(left.items())),
                       unnamed_left=unnamed, halimaw_deck=self.halimaw_deck - 1)

    def _reveal(self, action: Reveal) -> "BaganiState":
        if self.phase != REVEALING:
            raise IllegalMove("No Halimaw is waiting to be revealed.")
        name = action.halimaw.name
        if not self._may_reveal(name):
            if name != SARIMAW:
                raise IllegalMove(f"Only {SARIMAW} is left in the Halimaw deck.")
            raise IllegalMove(f"{SARIMAW} is among the last {SARIMAW_AMONG_LAST} Halimaw."
                              if self.options.random_sarimaw else f"{SARIMAW} is the last Halimaw.")
        state = self._take_halimaw(action.halimaw)
        halimaw = state.deck.kind(name)
        row = list(state.halimaw_row)
        if None in row:
            row[row.index(None)] = halimaw
        else:
            row.append(halimaw)
        state = replace(state, halimaw_row=tuple(row), announcements=(f"{name} appears!",))
        for attack in halimaw.attacks or ():
            state = state._attack(attack, name)
        if state._reveal_due():
            return state
        if state.resume == ATTACKING:
            return replace(state, phase=ATTACKING)
        return state._next_turn()

    def _attack(self, attack: str, name: str) -> "BaganiState":
        """Every player does the attack at once; players with no cards are skipped."""
        said = self.announcements + (ATTACKS[attack]["prompt"].format(name=name),)
        holders = [i for i, hand in enumerate(self.hands) if hand.count]
        hands = list(self.hands)
        if attack == "discard-faceup-biyaya":
            gone = sum(1 for c in self.bagani_row if c == BIYAYA)
            row = tuple(None if c == BIYAYA else c for c in self.bagani_row)
            return replace(self, bagani_row=row, discard_pile=self.discard_pile + gone,
                           announcements=said)
        if attack == "discard-random":
            for i in holders:
                hands[i] = hands[i].remove(None, self.players[i])
            return replace(self, hands=tuple(hands), discard_pile=self.discard_pile + len(holders),
                           announcements=said)
        if attack != "reveal-hands" and len(holders) > 1:
            # cards change hands unseen: sizes stay, what the camera knew is lost
            for i in holders:
                hands[i] = hands[i].forget()
        return replace(self, hands=tuple(hands), announcements=said)

    def _show(self, action: Show) -> "BaganiState":
        if not 0 <= action.player < len(self.players):
            raise IllegalMove(f"There is no player in seat {action.player}.")
        name, hand = self.players[action.player], self.hands[action.player]
        if not hand.could_be(action.cards):
            raise IllegalMove(f"{name}'s hand holds {hand.count} cards"
                              + (f" including {', '.join(hand.known)}" if hand.known else "")
                              + "; the shown hand does not match.")
        hands = list(self.hands)
        hands[action.player] = Hand(tuple(sorted(action.cards)))
        return replace(self, hands=tuple(hands), announcements=())

    # --- the end ------------------------------------------------------------------------

    def _end(self, action: End) -> "BaganiState":
        if self.phase != OVER:
            raise IllegalMove(f"The game ends only after {SARIMAW} is defeated"
                              + (" and the final round is played" if self.options.final_round else "")
                              + "; the host can stop the game early instead.")
        if action.hands is not None:
            if len(action.hands) != len(self.players):
                raise IllegalMove(f"Show {len(self.players)} final hands, one per player.")
            for seat, shown in enumerate(action.hands):
                self._show(Show(seat, shown))
        state = replace(self, phase=ENDED, shown_hands=action.hands, announcements=())
        result = state.scores()
        top = max(p.total for p in result.players)
        verb = "wins" if len(result.winners) == 1 else "share the win"
        return replace(state, announcements=(
            f"{_list_names(list(result.winners))} {verb} with {top} Dangal Points!",))

    def _known_combos(self) -> list[tuple[str, ...]]:
        """Every distinct combo the seen cards of the current hand can form."""
        counts = sorted(Counter(self.hands[self.turn].known).items())
        found = []
        for size in range(2, 7):
            for cards in _sub_multisets(counts, size):
                try:
                    classify(cards, self.options)
                except IllegalMove:
                    continue
                found.append(cards)
        return sorted(found)


def _sub_multisets(counts: Sequence[tuple[str, int]], size: int) -> Iterator[tuple[str, ...]]:
    """Each distinct choice of `size` cards from (code, count) pairs, once."""
    if size == 0:
        yield ()
        return
    if not counts:
        return
    (code, count), rest = counts[0], counts[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _sub_multisets(rest, size - take):
            yield (code,) * take + tail


_PHASE_HINTS = {
    DRAWING: "{name} must draw first.",
    DISCARDING: "{name} must discard down to 8 cards first.",
    ATTACKING: "{name} has finished drawing.",
    REVEALING: "Reveal the next Halimaw first.",
    OVER: "The game is over: show the final hands.",
}


def new_state(players: Sequence[str], options: Options, deck: Deck,
              setup: Mapping[str, Any] | None) -> BaganiState:
    """A tracker at the setup step, or past it when `setup` holds the rows."""
    state = BaganiState(players=tuple(players), options=options, deck=deck)
    if setup is not None and "bagani" in setup:
        state = state.apply(Setup.from_dict(setup))
    return state
