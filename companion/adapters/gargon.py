"""Gargon at the table: what the camera sees in each seat's zone, as Gargon events.

Gargon cards show their colour on both sides, so a card lying face down in a seat's
zone reads as its colour alone (`red`) and a face-up card as `red-14`. The camera may
still guess a value for a back (`red-3`, unsure), so whether a card lies face down is
known from when it was laid, never from its code: every card laid while players play
is a back, and the play that laid it spends it, so the cards in the seats once the
reveal is due are the faces turned up. While players lay cards, the current seat's
play is complete as soon as cards appear in another seat's zone or one of its own
cards is turned over (leaves the table); once every seat shows as many faces as it
laid cards the reveal is read; during the battles, the first card of a colour to
leave the table says which colour the chooser picked. Passes and draws happen in hands and on the piles, out
of the camera's sight: the host enters them (pre-filled on the host page).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from companion.adapters import Choice, HostEvent, Reading, Recording, Step, describe, game_state
from rules.core import GameState
from rules.gargon.cards import COLOURS
from rules.gargon.events import ChooseBattle, Draw, Pass, Play, Reveal
from rules.gargon.state import GargonState
from vision.observations import Observation, seat_zone, zone_seat

GAME = "gargon"


def _colour(code: str | None) -> str:
    return code.split("-")[0] if code else ""


def _seat_cards(seen: Mapping[int, Observation], seat: int) -> list[Observation]:
    return [o for o in seen.values() if zone_seat(o.zone) == seat and o.code]


def _bare_colour(observation: Observation) -> tuple[str, float] | None:
    """The colour alone among a card's guesses (the printed reader saw a back), at its chance."""
    colours = [(code, score) for code, score in observation.candidates if code in COLOURS]
    return max(colours, key=lambda c: c[1]) if colours else None


def _won(observation: Observation, state: GameState, seat: int) -> bool:
    """Whether the card is one `seat` has won (a won face tidied onto its pile later)."""
    return observation.code in {card.code for card in game_state(state, GargonState).won[seat]}


class GargonAdapter:
    game = GAME

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        view = state.to_dict()
        names = [p["name"] for p in view["players"]]
        seat = zone_seat(observation.zone)
        if view["phase"] == "playing":
            current = state.current_player()
            if current is None or view["owed_draws"]:
                return ()
            laid = _seat_cards(seen, current)
            if observation.kind == "gone" and seat == current and not _won(observation, state, seat):
                laid.append(observation)  # the first of its cards turned over: the play was all of them
                return (self._play(current, laid, names),)
            if laid and observation.kind == "appeared" and seat is not None and seat != current:
                return (self._play(current, laid, names),)
            return ()
        if view["phase"] == "revealing" and observation.kind != "gone":
            return self._reveal(view, seen, names)
        if view["phase"] == "battling" and observation.kind == "gone" and seat is not None:
            colour = _colour(observation.code)
            out = {_colour(code) for code in view["players"][seat]["table"]}  # its own seat's faces
            chooser = state.current_player()
            if colour in out and observation.code not in COLOURS and chooser is not None:
                action = ChooseBattle(chooser, colour).to_dict()
                return (Reading(f"Did {names[chooser]} choose to fight {colour}?",
                                (Choice(f"Yes, {colour}", action),), observation.confidence),)
        return ()

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        view = state.to_dict()
        names = [p["name"] for p in view["players"]]
        current = state.current_player()
        if view["phase"] != "playing" or view["owed_draws"] or current is None:
            return ()
        laid = _seat_cards(seen, current)
        return (self._play(current, laid, names),) if laid else ()

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        """While players lay cards, a card is laid face down and is its colour alone: one
        the camera could not name whose guesses include a bare colour (the printed reader
        saw its colour and no value: a back) is that colour, at the reader's chance of it."""
        return _bare_colour(observation) if state.to_dict()["phase"] == "playing" else None

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        """Outside the seats lie the draw piles, spread face down, and the discard pile:
        the rules count both, so no card there is a move or needs a name. The rulebook has
        the winner of a battle lay the card face down in front of them, so a card put down
        in a seat during the battles is a card won. The battle that won it may end the
        round before it is laid: until the next round's first play is scored, a card of a
        colour the seat has won more of than lie in that seat already is one too. Those
        that lie there are in `accounted`: laid aside, or the won face itself, left face
        up or turned over where it lay (the camera follows a card turned over in place as
        the face it was, since it reads a back as no card). Where won cards are kept out
        of the camera's view, a round's first card of such a colour would be taken for one."""
        if observation.kind != "appeared":
            return None
        known = _bare_colour(observation) if observation.code is None else None
        as_known = replace(observation, code=known[0], confidence=known[1]) if known else observation
        seat = zone_seat(observation.zone)
        if seat is None:
            return as_known
        view = state.to_dict()
        colour = _colour(as_known.code)
        if view["phase"] == "playing":
            laid = sum(1 for o in accounted if zone_seat(o.zone) == seat and _colour(o.code) == colour)
            if (any(p["played"] or p["passed"] for p in view["players"]) or not colour
                    or laid >= view["players"][seat]["won_colours"].get(colour, 0)):
                return None
        elif view["phase"] != "battling":
            return None
        return as_known

    def _play(self, seat: int, laid: list[Observation], names: Sequence[str]) -> Reading:
        colours = [_colour(o.code) for o in sorted(laid, key=lambda o: o.track)]
        action = Play(seat, tuple(colours)).to_dict()
        confidence = min(o.confidence for o in laid)
        choices = [Choice(f"Yes: {', '.join(colours)}", action)]
        unsure = min(laid, key=lambda o: o.confidence)
        for code, _ in unsure.candidates:
            swapped = [(_colour(code) if o.track == unsure.track else _colour(o.code))
                       for o in sorted(laid, key=lambda o: o.track)]
            if all((c.action or {}).get("colours") != swapped for c in choices) and len(choices) < 3:
                choices.append(Choice(f"No: {', '.join(swapped)}", {**action, "colours": swapped}))
        return Reading(f"Did {names[seat]} play {', '.join(colours)}?", tuple(choices), confidence,
                       frozenset(o.track for o in laid))

    def _reveal(self, view: Mapping[str, Any], seen: Mapping[int, Observation],
                names: Sequence[str]) -> Sequence[Reading]:
        per_seat = [sorted(_seat_cards(seen, s), key=lambda o: o.track) for s in range(len(names))]
        laid = [len(p["played"] or []) for p in view["players"]]
        if any(len(cards) != n for cards, n in zip(per_seat, laid)):
            return ()  # not every card is face up yet (the backs were spent by the plays)
        cards = tuple(tuple(o.code or "" for o in seat_cards) for seat_cards in per_seat)
        action = Reveal(cards).to_dict()
        everything = [o for seat_cards in per_seat for o in seat_cards]
        unsure = min(everything, key=lambda o: o.confidence)
        owner = next(s for s, seat_cards in enumerate(per_seat) if unsure in seat_cards)
        choices = [Choice(f"Yes, {unsure.code}", action)]
        for code, _ in unsure.candidates[1:3]:
            swapped = tuple(tuple((code if o.track == unsure.track else o.code) or "" for o in seat_cards)
                            for seat_cards in per_seat)
            choices.append(Choice(f"No, it is {code}", Reveal(swapped).to_dict()))
        question = f"Is {names[owner]}'s card the {(unsure.code or '').replace('-', ' ')}?"
        return (Reading(question, tuple(choices), unsure.confidence, frozenset(o.track for o in everything)),)

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        names = [p["name"] for p in state.to_dict()["players"]]
        actions = [a.to_dict() for a in state.legal_actions()]
        passes = [a for a in actions if a["kind"] == "pass"]
        others = [a for a in actions if a["kind"] != "pass"]
        shown = [a for a in passes if len(a["draws"]) == 1] + [a for a in passes if len(a["draws"]) > 1][:6]
        return [Choice(describe(GAME, a, names), a) for a in shown + others[:30]]

    def recording(self) -> Recording:
        return _DEMO

    def recordings(self) -> Sequence[Recording]:
        return DEMOS


def _card(track: int, code: str, seat: int | None, kind: str = "appeared", confidence: float = 0.97,
          candidates: tuple[tuple[str, float], ...] = ()) -> Observation:
    zone = "centre" if seat is None else seat_zone(seat)
    box = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    return Observation(kind, track, code, confidence, box, zone, 0.0, 0.0, candidates=candidates)  # type: ignore[arg-type]


def _gone(track: int, code: str, seat: int) -> Observation:
    return _card(track, code, seat, kind="gone")


NAMES = ("Ana", "Ben", "Carla", "Dan", "Eva")


def _demo(players: int = 3) -> Recording:
    """Three to five players, two short rounds on tiny piles: plays, passes, a reveal the
    camera is unsure of (the host is asked), a play the rules refuse (the host picks the
    legal one), battles with draws and won cards laid face down, and the last round's end.
    Players after the third pass each round, drawing from the second pile."""
    others = range(3, players)
    passes = lambda: [Step(2.0, host=HostEvent(action=Pass(seat, (2,))))  # noqa: E731
                      for seat in others]
    closing = [*passes(), Step(2.0, host=HostEvent(action=Pass(0, (1,))))]
    steps: list[Step] = [
        # Round 1: Ana leads red + blue (pattern 1:1), Ben follows, Carla (and the rest) pass.
        Step(2.0, _card(1, "red", 0)), Step(0.6, _card(2, "blue", 0)),
        Step(2.0, _card(3, "red", 1)), Step(0.6, _card(4, "blue", 1)),
        Step(2.5, host=HostEvent(action=Pass(2, (1,)))),
        *passes(),
        # Reveal: backs turn into faces; Ben's blue is hard to read.
        Step(2.0, _gone(1, "red", 0)), Step(0.2, _card(11, "red-9", 0)),
        Step(0.4, _gone(2, "blue", 0)), Step(0.2, _card(12, "blue-4", 0)),
        Step(0.4, _gone(3, "red", 1)), Step(0.2, _card(13, "red-12", 1)),
        Step(0.4, _gone(4, "blue", 1)),
        Step(0.2, _card(14, "blue-7", 1, confidence=0.55, candidates=(("blue-7", 0.55), ("blue-11", 0.41)))),
        Step(6.0, host=HostEvent(answer=0)),
        # Battles: Ana chooses red (Ben's 12 beats her 9), then blue (Ben's 7 beats her 4).
        # Ben lays each card he wins face down before him: the red at once, the blue once
        # Ana has drawn, when round 2 has begun.
        Step(2.5, _gone(11, "red-9", 0)), Step(0.3, _gone(13, "red-12", 1)), Step(0.6, _card(41, "red", 1)),
        Step(2.0, host=HostEvent(action=Draw(0, 2))),
        Step(2.0, _gone(12, "blue-4", 0)), Step(0.3, _gone(14, "blue-7", 1)),
        Step(2.0, host=HostEvent(action=Draw(0, 2))), Step(0.6, _card(42, "blue", 1)),
        # Round 2: Ben leads green; Carla lays two greens, which the rules refuse (she
        # must follow Ben's 1:0): once the next player passes, the table asks, the host
        # picks the legal play nearest what she laid (one green) and she takes the other
        # back. The rest pass, Ana passes and empties pile 1: the last round.
        Step(2.5, _card(21, "green", 1)),
        Step(2.0, _card(22, "green", 2)), Step(0.4, _card(23, "green", 2)),
        *closing[:1], Step(6.0, host=HostEvent(answer=0)), Step(2.0, _gone(23, "green", 2)), *closing[1:],
        Step(2.0, _gone(21, "green", 1)), Step(0.2, _card(31, "green-13", 1)),
        Step(0.4, _gone(22, "green", 2)), Step(0.2, _card(32, "green-2", 2)),
        Step(2.5, _gone(31, "green-13", 1)), Step(0.3, _gone(32, "green-2", 2)),
    ]
    return Recording(players=NAMES[:players], steps=tuple(steps),
                     setup={"hand_size": 10, "piles": [2, 3 + 2 * len(others)]})


_DEMO = _demo()
DEMOS = (_DEMO, _demo(5))
ADAPTER = GargonAdapter()
