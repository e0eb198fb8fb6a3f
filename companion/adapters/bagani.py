"""Bagani at the table: the centre rows, the seats, and what moving a card means.

The centre holds the five face-up Bagani cards and the face-up Halimaw. A Bagani card
leaving the centre is a draw from the row; one arriving where a slot is empty is the
refill. Bagani cards laid in the current player's zone are the combos put down; a
Halimaw moving from the centre into that zone is a defeat, so the combos put down are
read (as the best disjoint combos the laid cards form) and the defeat is checked
against their AP. A new Halimaw arriving in the centre is a reveal, its attack spoken;
it also tells that the player's attack step is over. When Sarimaw has fallen and the
game is over, the final hands laid out in every zone are scored. Draws from the deck
top and a plain pass are not visible: the host enters them.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from companion.adapters import Choice, HostEvent, Reading, Recording, Step, describe, game_state
from rules.bagani.cards import CARD_CODES, Halimaw
from rules.bagani.combos import best_hand
from rules.bagani.events import DECK, Defeat, Done, Draw, End, PutDown, Refill, Reveal, Setup
from rules.bagani.state import BaganiState
from rules.core import GameState
from vision.observations import CENTRE, Observation, seat_zone, zone_seat

GAME = "bagani"
ROW_CARDS, ROW_HALIMAW = 5, 4


def _is_bagani(code: str | None) -> bool:
    return code in CARD_CODES


def _halimaw_name(code: str, state: GameState) -> str:
    """The deck's spelling of a Halimaw the identifier named (`higante` -> `Higante`)."""
    known = {name.lower(): name for name in game_state(state, BaganiState).deck.kinds}
    return known.get(code.lower().replace("-", " "), code)


def _ordered(cards: Sequence[Observation]) -> list[Observation]:
    return sorted(cards, key=lambda o: o.track)


class BaganiAdapter:
    game = GAME

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        view = state.to_dict()
        phase, code = view["phase"], observation.code
        if code is None:
            return ()
        names = [p["name"] for p in view["players"]]
        turn = names.index(view["turn"]) if view["turn"] in names else 0
        in_centre = observation.zone == CENTRE
        arrived = observation.kind in ("appeared", "moved")
        if phase == "setup" and in_centre and arrived:
            return self._setup(seen, state)
        if _is_bagani(code):
            if in_centre and arrived and None in view["bagani_row"]:
                return (self._one(f"Is the new face-up card {code}?", code, observation,
                                  lambda card: Refill(card).to_dict()),)
            if in_centre and observation.kind == "gone" and code in view["bagani_row"]:
                drawer = turn if phase == "draw" else (turn + 1) % len(names)
                draw = self._one(f"Did {names[drawer]} take the face-up {code}?", code, observation,
                                 lambda card: Draw(drawer, "row", card).to_dict())
                return (self._done(turn), draw) if phase == "attack" else (draw,)
            if phase == "over" and zone_seat(observation.zone) is not None:
                return self._final_hands(view, seen, names)
            return ()
        name = _halimaw_name(code, state)
        if in_centre and arrived and phase in ("reveal", "attack"):
            # by name alone: the table fills in the Halimaw's printed stats from its deck
            reveal = self._one(f"Is the new Halimaw {name}?", name, observation,
                               lambda halimaw: Reveal(Halimaw(halimaw)).to_dict(), state)
            return (self._done(turn), reveal) if phase == "attack" else (reveal,)
        if arrived and zone_seat(observation.zone) == turn and phase == "attack" \
                and observation.previous_zone in (CENTRE, None):
            readings = []
            laid = [o for o in seen.values() if zone_seat(o.zone) == turn and _is_bagani(o.code)]
            if laid:
                readings.append(self._put_down(turn, laid, names, state))
            readings.append(self._one(f"Did {names[turn]} defeat the {name}?", name, observation,
                                      lambda halimaw: Defeat(turn, halimaw).to_dict(), state))
            return readings
        return ()

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        return ()

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        return None  # every event names its cards in full

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        return None  # every card put down is in play

    @staticmethod
    def _one(question: str, seen: str, observation: Observation, event: Callable[[str], Mapping[str, Any]],
             state: GameState | None = None) -> Reading:
        """A reading about one card (`seen`, a code or a Halimaw's name), with the
        identifier's runner-up codes as other answers; `event` is the event for a card."""
        choices = [Choice(f"Yes, {seen}", event(seen))]
        for other, _ in observation.candidates:
            value = other if state is None else _halimaw_name(other, state)
            if value != seen:
                choices.append(Choice(f"No, {value}", event(value)))
        return Reading(question, tuple(choices[:3]), observation.confidence, frozenset({observation.track}))

    @staticmethod
    def _done(turn: int) -> Reading:
        action = Done(turn).to_dict()
        return Reading("Is the attack step over?", (Choice("Yes", action),), 1.0)

    @staticmethod
    def _setup(seen: Mapping[int, Observation], state: GameState) -> Sequence[Reading]:
        centre = _ordered([o for o in seen.values() if o.zone == CENTRE and o.code])
        cards = [o for o in centre if _is_bagani(o.code)]
        halimaw = [o for o in centre if not _is_bagani(o.code)]
        if len(cards) != ROW_CARDS or len(halimaw) != ROW_HALIMAW:
            return ()
        bagani = [o.code or "" for o in cards]
        names = [_halimaw_name(o.code or "", state) for o in halimaw]
        action = Setup(tuple(bagani), tuple(Halimaw(name) for name in names)).to_dict()
        shown = ", ".join(bagani + names)
        return (Reading(f"Are the face-up rows {shown}?", (Choice("Yes", action),),
                        min(o.confidence for o in centre), frozenset(o.track for o in centre)),)

    @staticmethod
    def _put_down(turn: int, laid: Sequence[Observation], names: Sequence[str], state: GameState) -> Reading:
        cards = [o.code or "" for o in _ordered(laid)]
        combos = [list(c.cards) for c in best_hand(cards, game_state(state, BaganiState).options)]
        used = sorted(c for combo in combos for c in combo)
        spent, left = set(), list(used)
        for o in _ordered(laid):
            if o.code in left:
                left.remove(o.code)
                spent.add(o.track)
        put_down = combos or [cards]
        action = PutDown(turn, tuple(map(tuple, put_down))).to_dict()
        words = "; ".join(", ".join(c) for c in put_down)
        tracks = frozenset(spent) if combos else frozenset(o.track for o in laid)
        return Reading(f"Did {names[turn]} put down {words}?", (Choice("Yes", action),),
                       min(o.confidence for o in laid), tracks)

    @staticmethod
    def _final_hands(view: Mapping[str, Any], seen: Mapping[int, Observation],
                     names: Sequence[str]) -> Sequence[Reading]:
        hands = [tuple(o.code or "" for o in _ordered([o for o in seen.values()
                                                      if zone_seat(o.zone) == seat and _is_bagani(o.code)]))
                 for seat in range(len(names))]
        if any(len(hand) != p["hand_count"] for hand, p in zip(hands, view["players"])):
            return ()
        laid = [o for o in seen.values() if zone_seat(o.zone) is not None and _is_bagani(o.code)]
        action = End(tuple(hands)).to_dict()
        return (Reading("Are these the final hands?", (Choice("Yes, score them", action),),
                        min((o.confidence for o in laid), default=1.0), frozenset(o.track for o in laid)),)

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        names = [p["name"] for p in state.to_dict()["players"]]
        actions = [a.to_dict() for a in state.legal_actions()]
        return [Choice(describe(GAME, a, names), a) for a in actions[:40]]

    def recording(self) -> Recording:
        return _DEMO

    def recordings(self) -> Sequence[Recording]:
        return DEMOS


# --- the demo table ----------------------------------------------------------------------

DEMO_DECK = {"halimaw": [
    {"name": "Higante", "color": "blue", "lakas": 3, "dp": 4, "attacks": ["pass-right"]},
    {"name": "Tikbalang", "color": "green", "lakas": 2, "dp": 3, "attacks": ["draw-left"]},
    {"name": "Kapre", "color": "green", "lakas": 4, "dp": 5, "attacks": ["reveal-hands"]},
    {"name": "Aswang", "color": "red", "lakas": 1, "dp": 2, "attacks": ["discard-random"]},
    {"name": "Manananggal", "color": "violet", "lakas": 3, "dp": 4, "attacks": ["pass-left"]},
    {"name": "Sarimaw", "color": "yellow", "lakas": 5, "dp": 8},
]}


def _card(track: int, code: str, zone: str, kind: str = "appeared", confidence: float = 0.97,
          previous: str | None = None, candidates: tuple[tuple[str, float], ...] = ()) -> Observation:
    box = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    return Observation(kind, track, code, confidence, box, zone, 0.0, 0.0,  # type: ignore[arg-type]
                       previous_zone=previous, candidates=candidates)


NAMES = ("Ana", "Ben", "Carla", "Dan", "Eva")


def _demo(players: int = 2) -> Recording:
    """Two players (and up to three more, who draw twice and pass), four turns on a
    six-Halimaw deck: the rows laid out, draws and refills, combos and defeats, reveals
    with their attacks, a reading the host confirms, Sarimaw's fall and the final hands."""
    ana, ben = seat_zone(0), seat_zone(1)
    take = lambda track, code: Step(1.5, _card(track, code, CENTRE, kind="gone"))  # noqa: E731
    lay = lambda track, code, zone: Step(0.6, _card(track, code, zone))  # noqa: E731
    discard = lambda track, code, zone: Step(0.3, _card(track, code, zone, kind="gone"))  # noqa: E731
    host = lambda action, delay=2.0: Step(delay, host=HostEvent(action=action))  # noqa: E731
    others = lambda: [step for seat in range(2, players) for step in (  # noqa: E731
        host(Draw(seat, DECK), 3.0), host(Draw(seat, DECK), 1.5), host(Done(seat)))]
    steps = [
        # The table is laid out: five Bagani cards and four Halimaw face up in the centre.
        *[Step(0.5, _card(i, code, CENTRE)) for i, code in enumerate(
            ["blue-circle", "blue-circle", "red-square", "biyaya", "green-circle",
             "Higante", "Tikbalang", "Kapre", "Aswang"], start=1)],
        # Ana takes both blue circles from the row; each gap is refilled from the deck.
        take(1, "blue-circle"), Step(1.0, _card(10, "yellow-circle", CENTRE)),
        take(2, "blue-circle"), Step(1.0, _card(11, "violet-circle", CENTRE)),
        # She lays a trio of blue circles and takes the Tikbalang: 2 AP for Lakas 2.
        Step(2.0, _card(20, "blue-circle", ana)), lay(21, "blue-circle", ana), lay(22, "blue-circle", ana),
        Step(2.0, _card(7, "Tikbalang", ana, kind="moved", previous=CENTRE)),
        discard(20, "blue-circle", ana), discard(21, "blue-circle", ana), discard(22, "blue-circle", ana),
        # Manananggal is revealed in its place and attacks.
        Step(2.5, _card(12, "Manananggal", CENTRE)),
        # Ben draws twice from the deck and passes.
        host(Draw(1, DECK), 3.0), host(Draw(1, DECK), 1.5), host(Done(1)),
        *others(),
        # Ana draws twice from the deck, lays a pair of red squares and takes the Aswang;
        # the camera is unsure of that Halimaw, so the host is asked.
        host(Draw(0, DECK), 3.0), host(Draw(0, DECK), 1.5),
        Step(2.0, _card(30, "red-square", ana)), lay(31, "red-square", ana),
        Step(2.0, _card(9, "Aswang", ana, kind="moved", previous=CENTRE, confidence=0.62,
                        candidates=(("Aswang", 0.62), ("Kapre", 0.31)))),
        Step(6.0, host=HostEvent(answer=0)),
        discard(30, "red-square", ana), discard(31, "red-square", ana),
        # Sarimaw, the last Halimaw, appears: everyone discards, the face-up Biyaya goes.
        Step(2.5, _card(13, "Sarimaw", CENTRE)),
        Step(1.0, _card(4, "biyaya", CENTRE, kind="gone")),
        Step(1.5, _card(14, "blue-square", CENTRE)),
        # Ben takes two cards from the row, lays a Bagani ni Apo (5 AP) and defeats Sarimaw.
        take(10, "yellow-circle"), Step(1.0, _card(15, "green-square", CENTRE)),
        take(11, "violet-circle"), Step(1.0, _card(16, "red-circle", CENTRE)),
        *[Step(0.5, _card(40 + i, code, ben)) for i, code in enumerate(
            ["blue-circle", "red-circle", "green-circle", "yellow-circle", "violet-circle", "biyaya"])],
        Step(2.0, _card(13, "Sarimaw", ben, kind="moved", previous=CENTRE)),
        *[discard(40 + i, code, ben) for i, code in enumerate(
            ["blue-circle", "red-circle", "green-circle", "yellow-circle", "violet-circle", "biyaya"])],
        host(Done(1)),
        # The final hands are laid out and scored: Ana kept one card, Ben none, the others
        # the four that their dealt three and two draws less Sarimaw's discard left them.
        Step(3.0, _card(50, "yellow-square", ana)),
        *[Step(0.6, _card(60 + 4 * seat + k, code, seat_zone(seat))) for seat in range(2, players)
          for k, code in enumerate(("green-square", "red-circle", "red-square", "yellow-circle"))],
    ]
    return Recording(players=NAMES[:players], steps=tuple(steps), setup={"deck": DEMO_DECK})


_DEMO = _demo()
DEMOS = (_DEMO, _demo(3))
ADAPTER = BaganiAdapter()
