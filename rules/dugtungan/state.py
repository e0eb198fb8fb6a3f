"""The live dugtungan table: an immutable state that follows a real game event by event.

What the tracker knows is what the table shows: the PAMATO, every word laid, the cards
drawn where the camera saw them. A hand may hold cards nobody has seen (`None`); a card
laid from it is then taken as one of the unseen ones. The turn runs BUNOT (the mandatory
draw, plus the +DOS/+KWATRO penalty), then DUGTONG with a new PAMATO, a TODAS word, or
PASS. An action fires once, when its card becomes the PAMATO; a full round of passes
makes the PAMATO a dead card; a SAPAW may come from any player at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping, Sequence

from rules.core import BadInput, IllegalMove, ScoreResult, check_player_count
from rules.dugtungan.events import (Action, Challenge, Draw, Dugtong, Pass, Pitik, Reshuffle, Reveal,
                                     Sapaw, ScoreLetters, Todas)
from rules.dugtungan.cards import Card, deck_counts, parse_cards
from rules.dugtungan.finder import find_words
from rules.dugtungan.lexicon import HouseWords
from rules.dugtungan.options import Options
from rules.dugtungan.scoring import GAME, MAX_PLAYERS, MIN_PLAYERS, known_card, score_hands
from rules.dugtungan.words import TODAS, Dictionary, judge_dugtong, judge_sapaw, judge_todas
from rules.options import parse_options
from rules.payload import expect, opt, seat_of

REVEAL, DRAW, PLAY, PITIK, DECK_OUT, OVER = "reveal", "draw", "play", "pitik", "deck-out", "over"
PENALTY = {"+DOS": 2, "+KWATRO": 4}


@dataclass(frozen=True)
class DugtunganState:
    """One moment of a dugtungan game; per-seat tuples are indexed by seat."""

    names: tuple[str, ...]
    options: Options
    house: HouseWords
    total_cards: int
    hands: tuple[tuple[str | None, ...], ...]   # None: a card the camera did not see
    deck: int                                   # cards left in the draw deck
    banks: tuple[tuple[str, ...], ...]          # words each player has won
    turn: int = 0
    pamato: str | None = None
    word: tuple[str, ...] = ()                  # the last word laid, open to SAPAW
    word_owner: int | None = None
    discards: tuple[str, ...] = ()              # dead cards
    direction: int = 1
    phase: str = REVEAL
    draws_due: int = 1
    passes: int = 0
    resume: str = ""                            # the phase a deck-out choice returns to
    winners: tuple[str, ...] = ()
    announcements: tuple[str, ...] = field(default=(), compare=False)

    @cached_property
    def dictionary(self) -> Dictionary:
        return Dictionary(self.options, self.house)

    @property
    def pamato_card(self) -> Card:
        """The PAMATO in play; only asked for where the phase guarantees one."""
        assert self.pamato is not None, "no PAMATO in play"
        return known_card(self.pamato)

    # -- the GameState interface --

    def current_player(self) -> int | None:
        return self.turn if self.phase in (DRAW, PLAY, PITIK) else None

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> ScoreResult:
        """Letters left in hand, lowest best; nobody has won until the game says so."""
        return replace(score_hands(self.names, self.hands), winners=self.winners)

    def _name_of(self, seat: int | None) -> str | None:
        return None if seat is None else self.names[seat]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": GAME, "phase": self.phase, "players": list(self.names),
            "current_player": self._name_of(self.current_player()), "direction": self.direction,
            "pamato": self.pamato, "word": list(self.word),
            "word_owner": None if self.word_owner is None else self.names[self.word_owner],
            "hand_sizes": [len(h) for h in self.hands], "deck": self.deck,
            "banks": [len(b) for b in self.banks], "discards": list(self.discards),
            "draws_due": self.draws_due if self.phase == DRAW else 0, "passes": self.passes,
            "house": self.house.to_dict(), "winners": list(self.winners),
            "scores": self.scores().to_dict()["players"],
        }

    def legal_actions(self) -> tuple[Action, ...]:
        """The current player's events, from the cards the tracker has seen. A reveal's
        face is the camera's to say, and a SAPAW (anyone, any time) is not listed."""
        seat = self.turn
        if self.phase == DRAW:
            return (Draw(seat),)
        if self.phase == PITIK:
            codes: Sequence[str | None] = sorted({c for c in self.hands[seat] if c is not None})
            return tuple(Pitik(seat, t, c) for t in range(len(self.names)) if t != seat
                         for c in (codes or [None]))
        if self.phase == DECK_OUT:
            moves: list[Action] = [Reshuffle()] if any(self.banks) else []
            if all(None not in h for h in self.hands):
                moves.append(ScoreLetters(tuple(tuple(h) for h in self.hands)))  # type: ignore[arg-type]
            return tuple(moves)
        if self.phase == PLAY:
            return self._dugtongs() + self._todas_words() + (Pass(seat),)
        return ()

    def _dugtongs(self) -> tuple[Action, ...]:
        seat, pamato = self.turn, self.pamato_card
        moves: list[Action] = []
        for move in find_words(pamato, self._seen(seat), self.dictionary):
            rest = list(self.hands[seat])
            for card in move.from_hand:
                rest.remove(card.code)
            word = tuple(c.code for c in move.cards)
            spent = sum(1 for c in move.from_hand if c.action)
            if not rest:
                moves.append(Dugtong(seat, word, None))
            for code in sorted({c for c in rest if c is not None}):
                if not self.options.one_action_card_per_turn or spent + bool(known_card(code).action) <= 1:
                    moves.append(Dugtong(seat, word, code))
        return tuple(moves)

    def _todas_words(self) -> tuple[Action, ...]:
        hand = self._seen(self.turn)
        todas = next((c for c in hand if c.action == TODAS), None)
        if todas is None:
            return ()
        rest = list(hand)
        rest.remove(todas)
        return tuple(Todas(self.turn, tuple(c.code for c in m.cards))
                     for m in find_words(todas, rest, self.dictionary, actions_left=0))

    def _seen(self, seat: int) -> list[Card]:
        return [known_card(c) for c in self.hands[seat] if c is not None]

    # -- applying events --

    def apply(self, action: Action) -> "DugtunganState":
        if self.phase == OVER and not isinstance(action, Challenge):
            raise IllegalMove("The game is over.")
        handlers = {Reveal: self._reveal, Draw: self._draw, Dugtong: self._dugtong, Todas: self._todas,
                    Pass: self._pass, Sapaw: self._sapaw, Pitik: self._pitik,
                    Reshuffle: self._reshuffle, ScoreLetters: self._score_letters,
                    Challenge: self._challenge}
        handler = handlers.get(type(action))
        if handler is None:
            raise IllegalMove(f"{action!r} is not a dugtungan event.")
        return handler(action)  # type: ignore[operator]

    def _expect(self, phase: str, seat: int | None = None) -> None:
        if self.phase != phase:
            raise IllegalMove(f"That is not possible now: the table is at {self._phase_words()}.")
        if seat is not None:
            self._valid_seat(seat)
            if seat != self.turn:
                raise IllegalMove(f"It is {self.names[self.turn]}'s turn, not {self.names[seat]}'s.")

    def _valid_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.names):
            raise IllegalMove(f"There is no seat {seat}.")

    def _phase_words(self) -> str:
        return {REVEAL: "revealing a new PAMATO", DRAW: f"{self.names[self.turn]}'s draw",
                PLAY: f"{self.names[self.turn]}'s play", PITIK: f"{self.names[self.turn]}'s PITIK",
                DECK_OUT: "the choice for an empty deck", OVER: "the end"}[self.phase]

    def _next(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        return (seat + (direction or self.direction) * steps) % len(self.names)

    def _take(self, hands: list[tuple[str | None, ...]], seat: int, codes: Sequence[str | None]) -> None:
        """Remove `codes` from the seat's hand, an unseen card standing in for one not seen."""
        hand = list(hands[seat])
        for code in codes:
            if code in hand:
                hand.remove(code)
            elif None in hand:
                hand.remove(None)
            else:
                raise IllegalMove(f"{self.names[seat]} does not hold {known_card(code).syllable if code else 'an unseen card'}.")
        hands[seat] = tuple(hand)

    def _reveal(self, action: Reveal) -> "DugtunganState":
        self._expect(REVEAL)
        if self.deck == 0:
            raise IllegalMove("The draw deck is empty.")
        said = f"The new PAMATO is {known_card(action.card).syllable}."
        state = replace(self, pamato=action.card, deck=self.deck - 1, passes=0)
        if self.options.revealed_actions_fire and known_card(action.card).action in (*PENALTY, "LAKTAW", "TOKI"):
            return state._fire(self._next(self.turn, direction=-self.direction), (said,))
        return state._begin_turn(self.turn, 1, (said,))

    def _draw(self, action: Draw) -> "DugtunganState":
        self._expect(DRAW, action.player)
        hands = list(self.hands)
        hands[action.player] += (action.card,)
        left = self.draws_due - 1
        state = replace(self, hands=tuple(hands), deck=self.deck - 1, draws_due=left,
                        phase=DRAW if left else PLAY, announcements=())
        return state._settle()

    def _dugtong(self, action: Dugtong) -> "DugtunganState":
        self._expect(PLAY, action.player)
        pamato = self.pamato_card
        cards = [known_card(c) for c in action.word]
        verdict = judge_dugtong(pamato, cards, self.dictionary)
        if not verdict.valid:
            raise IllegalMove(verdict.reason)
        added = list(action.word)
        added.remove(pamato.code)
        laid = added + ([action.pamato] if action.pamato else [])
        if self.options.one_action_card_per_turn and sum(1 for c in laid if known_card(c).action) > 1:
            raise IllegalMove("Only one action card may be laid in a turn.")
        hands = list(self.hands)
        self._take(hands, action.player, laid)
        if action.pamato is None and hands[action.player]:
            raise IllegalMove("After a dugtong, lay a new PAMATO from your hand.")
        state = self._lay_word(action.player, action.word, hands, pamato=action.pamato)
        said: tuple[str, ...] = (f"{self.names[action.player]}: {verdict.reason}.",)
        if not hands[action.player]:
            return state._win(action.player, said)
        said += (f"{self.names[action.player]} lays {state.pamato_card.syllable} as the new PAMATO.",)
        return state._fire(action.player, said)

    def _todas(self, action: Todas) -> "DugtunganState":
        self._expect(PLAY, action.player)
        verdict = judge_todas([known_card(c) for c in action.word], self.dictionary)
        if not verdict.valid:
            raise IllegalMove(verdict.reason)
        hands = list(self.hands)
        self._take(hands, action.player, action.word)
        state = self._lay_word(action.player, action.word, hands, pamato=self.pamato)
        said = (f"{self.names[action.player]}: {verdict.reason}.",)
        if not hands[action.player]:
            return state._win(action.player, said)
        return state._begin_turn(self._next(action.player), 1, said)

    def _lay_word(self, seat: int, word: tuple[str, ...], hands: list[tuple[str | None, ...]],
                  pamato: str | None) -> "DugtunganState":
        """The new word goes on the table; the word it replaces goes to its owner's bank."""
        banks = list(self.banks)
        if self.word_owner is not None:
            banks[self.word_owner] += self.word
        return replace(self, hands=tuple(hands), banks=tuple(banks), word=word, word_owner=seat,
                       pamato=pamato, passes=0)

    def _pass(self, action: Pass) -> "DugtunganState":
        self._expect(PLAY, action.player)
        said = (f"{self.names[action.player]} passes.",)
        nxt = self._next(action.player)
        if self.passes + 1 < len(self.names):
            return replace(self, passes=self.passes + 1)._begin_turn(nxt, 1, said)
        dead = self.pamato_card
        state = replace(self, passes=0, pamato=None, discards=self.discards + (dead.code,),
                        turn=nxt, phase=REVEAL,
                        announcements=said + (f"Everyone passed: {dead.syllable} is a dead card. "
                                              "Reveal the top card of the deck as the new PAMATO.",))
        return state._settle()

    def _sapaw(self, action: Sapaw) -> "DugtunganState":
        self._valid_seat(action.player)
        if not self.word:
            raise IllegalMove("There is no word on the table to sapaw.")
        if action.player == self.word_owner and not self.options.sapaw_own_word:
            raise IllegalMove(f"{self.names[action.player]} laid this word: another player must sapaw "
                              "it first.")
        old = [known_card(c) for c in self.word]
        verdict = judge_sapaw(old, [known_card(c) for c in action.word], self.dictionary)
        if not verdict.valid:
            raise IllegalMove(verdict.reason)
        added = list(action.word)
        for code in self.word:
            added.remove(code)
        hands = list(self.hands)
        self._take(hands, action.player, added)
        state = replace(self, hands=tuple(hands), word=action.word, word_owner=action.player)
        said = (f"SAPAW by {self.names[action.player]}: {verdict.reason}.",)
        if not hands[action.player]:
            return state._win(action.player, said)
        return replace(state, announcements=said)

    def _pitik(self, action: Pitik) -> "DugtunganState":
        self._expect(PITIK, action.player)
        self._valid_seat(action.target)
        if action.target == action.player:
            raise IllegalMove("PITIK sends a card to another player.")
        if action.card is None and None not in self.hands[action.player]:
            raise IllegalMove(f"Say which card {self.names[action.target]} takes.")
        hands = list(self.hands)
        self._take(hands, action.player, [action.card])
        hands[action.target] += (action.card,)
        said = (f"PITIK: {self.names[action.target]} takes a card from {self.names[action.player]}.",)
        state = replace(self, hands=tuple(hands))
        if not hands[action.player]:
            return state._win(action.player, said)
        return state._begin_turn(self._next(action.player), 1, said)

    def _reshuffle(self, action: Reshuffle) -> "DugtunganState":
        self._expect(DECK_OUT)
        banked = sum(len(b) for b in self.banks)
        if not banked:
            raise IllegalMove("The banks are empty: there is nothing to reshuffle; score the letters.")
        return replace(self, deck=banked, banks=tuple(() for _ in self.banks), phase=self.resume,
                       resume="", announcements=(f"The banks are shuffled into a new deck of {banked} cards.",))

    def _score_letters(self, action: ScoreLetters) -> "DugtunganState":
        self._expect(DECK_OUT)
        if len(action.hands) != len(self.names):
            raise IllegalMove(f"Show one hand per player: {len(self.names)} hands.")
        for seat, (shown, held) in enumerate(zip(action.hands, self.hands)):
            if len(shown) != len(held):
                raise IllegalMove(f"{self.names[seat]} holds {len(held)} cards, not {len(shown)}.")
            rest = list(shown)
            for code in held:
                if code is not None and code not in rest:
                    raise IllegalMove(f"{self.names[seat]}'s hand was seen to hold {known_card(code).syllable}.")
                if code is not None:
                    rest.remove(code)
        result = score_hands(self.names, action.hands)
        totals = ", ".join(f"{p.name} {p.total}" for p in result.players)
        return replace(self, hands=tuple(action.hands), phase=OVER, winners=result.winners,
                       announcements=(f"Letters left in hand: {totals}. Lowest wins: {' and '.join(result.winners)}.",))

    def _challenge(self, action: Challenge) -> "DugtunganState":
        verdict = "accepts" if action.accepted else "rejects"
        return replace(self, house=self.house.with_verdict(action.word, action.accepted),
                       announcements=(f"The table {verdict} {action.word.upper()}.",))

    # -- turn flow --

    def _begin_turn(self, seat: int, draws: int, said: tuple[str, ...]) -> "DugtunganState":
        state = replace(self, turn=seat, phase=DRAW, draws_due=draws,
                        announcements=said + (f"{self.names[seat]}'s turn: draw.",))
        return state._settle()

    def _fire(self, layer: int, said: tuple[str, ...]) -> "DugtunganState":
        """The PAMATO just laid takes effect, once."""
        action = self.pamato_card.action
        nxt = self._next(layer)
        if action in PENALTY:
            return self._begin_turn(nxt, 1 + PENALTY[action], said + (
                f"{action}: {self.names[nxt]} draws {PENALTY[action]}, then the usual draw.",))
        if action == "LAKTAW":
            return self._begin_turn(self._next(layer, 2), 1, said + (f"LAKTAW: {self.names[nxt]} is skipped.",))
        if action == "TOKI":
            state = replace(self, direction=-self.direction)
            if len(self.names) == 2:
                return state._begin_turn(layer, 1, said + ("TOKI: with two players it acts as a skip.",))
            return state._begin_turn(state._next(layer), 1, said + ("TOKI: the direction of play reverses.",))
        if action == "PITIK":
            return replace(self, turn=layer, phase=PITIK, announcements=said + (
                f"PITIK: {self.names[layer]} chooses who takes a card from their hand.",))
        return self._begin_turn(nxt, 1, said)

    def _win(self, seat: int, said: tuple[str, ...]) -> "DugtunganState":
        return replace(self, phase=OVER, winners=(self.names[seat],),
                       announcements=said + (f"{self.names[seat]} has no cards left and wins!",))

    def _settle(self) -> "DugtunganState":
        """An empty deck when a draw or reveal is due: the table's choice, or the option's."""
        if self.phase not in (DRAW, REVEAL) or self.deck > 0:
            return self
        state = replace(self, phase=DECK_OUT, resume=self.phase,
                        announcements=self.announcements + ("The draw deck is empty.",))
        choice = self.options.deck_runs_out
        if choice == "reshuffle" and any(self.banks):
            return state._reshuffle(Reshuffle())
        if choice == "score" and all(None not in h for h in self.hands):
            return state._score_letters(ScoreLetters(tuple(tuple(h) for h in self.hands)))  # type: ignore[arg-type]
        return state


def new_game(players: Sequence[str], options: Mapping[str, Any] | None = None,
             setup: Mapping[str, Any] | None = None) -> DugtunganState:
    """A game at the deal, before the first PAMATO is revealed.

    `setup` may give `deck` ({code: count}, a deck file; default the catalogue's deck),
    `hands` (the dealt cards per seat, when the table shows them; otherwise each player
    holds `hand_size` unseen cards), `house` ({"accept": [...], "reject": [...]}) and
    `start` (seat or name of Player 1).
    """
    names = tuple(expect(p, str, f"players[{i}]").strip() for i, p in enumerate(expect(players, (list, tuple), "players")))
    check_player_count(len(names), "dugtungan", MIN_PLAYERS, MAX_PLAYERS)
    if len(set(names)) != len(names) or not all(names):
        raise BadInput("players", "names must be distinct and not empty")
    parsed = parse_options(Options, options)
    setup = expect(setup or {}, dict, "setup")
    total = sum(deck_counts(setup.get("deck"), "setup.deck").values())
    raw_hands = opt(setup, "hands", list, None, "setup")
    if raw_hands is None:
        hands: tuple[tuple[str | None, ...], ...] = tuple((None,) * parsed.hand_size for _ in names)
    else:
        if len(raw_hands) != len(names):
            raise BadInput("setup.hands", f"needs one hand per player ({len(names)})")
        hands = tuple(tuple(c.code for c in parse_cards(h, f"setup.hands[{i}]")) for i, h in enumerate(raw_hands))
    deck = total - sum(len(h) for h in hands)
    if deck < 1:
        raise BadInput("setup", f"a deck of {total} cards cannot deal these hands and a PAMATO")
    start = seat_of(opt(setup, "start", (int, str), 0, "setup"), names, "setup.start")
    house = HouseWords.from_dict(setup["house"], "setup.house") if "house" in setup else HouseWords()
    return DugtunganState(names=names, options=parsed, house=house, total_cards=total, hands=hands, deck=deck,
                 banks=tuple(() for _ in names), turn=start,
                 announcements=(f"{names[start]} plays first. Reveal the first PAMATO.",))
