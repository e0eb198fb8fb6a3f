"""Lagim at the table: a Forest card turned up on a Baryo is the Midnight attack.

The camera can follow what lies face up: the Forest card a player draws onto their own
Baryo (the attack) and the Defenders turned face up to fight it. Baryo cards are drawn
into hands and the defence line is built face down, so draws, defence building, stand-by,
raids and spells are entered by the host (the host page lists those the rules allow).
Cards are named as printed ("Kapre"); a deck file in the game's setup gives the levels.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.adapters import Choice, HostEvent, Reading, Recording, Step, describe, game_state
from rules.core import GameState
from rules.lagim.events import Battle, BuildDefence, DrawBaryo, ForestAttack, Hasik, RevealedDefender, Standby
from rules.lagim.state import LagimState
from vision.observations import Observation, ObservationKind, seat_zone, zone_seat

GAME = "lagim"


def _card(state: GameState, code: str) -> Any:
    return game_state(state, LagimState).table.card(code)


class LagimAdapter:
    game = GAME

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        view = state.to_dict()
        seat = state.current_player()
        if (observation.kind == "gone" or observation.code is None or seat is None
                or zone_seat(observation.zone) != seat):
            return ()
        card = _card(state, observation.code)
        if card is None:
            return ()
        name = view["players"][seat]["name"]
        if view["phase"] == "twilight" and card.deck == "forest" and view["incoming"] is None:
            action = ForestAttack(seat, card.name).to_dict()
            return (Reading(f"Does {card.name} attack {name}'s Baryo?", (Choice(f"Yes, {card.name}", action),),
                            observation.confidence, frozenset({observation.track})),)
        if view["incoming"] is not None and card.deck == "baryo" and card.kind == "lakas":
            action = Battle(seat, (RevealedDefender(card.name),)).to_dict()
            return (Reading(f"Does {name} defend with {card.name}?", (Choice(f"Yes, {card.name}", action),),
                            observation.confidence, frozenset({observation.track})),)
        return ()

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        return ()

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        return None  # every event names its cards in full

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        """The camera's reading counts only in the seat of the player who must act (a
        Forest card turned up there, a Defender turned up to fight). A card it cannot name
        anywhere else (the decks in the middle, another player's face-down defence line
        or Dwellers) would be named to the host for nothing: it is not asked about."""
        seat = state.current_player()
        if observation.kind != "appeared" or observation.code is not None or seat is None:
            return None
        return observation if zone_seat(observation.zone) != seat else None

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        names = [p["name"] for p in state.to_dict()["players"]]
        actions = [a.to_dict() for a in state.legal_actions()]
        seat = state.current_player()
        if state.to_dict()["incoming"] is not None and seat is not None:
            actions.append(Battle(seat, (RevealedDefender("Amihan"),)).to_dict())
        return [Choice(describe(GAME, a, names), a) for a in actions[:40]]

    def recording(self) -> Recording:
        return _DEMO

    def recordings(self) -> Sequence[Recording]:
        return DEMOS


DEMO_DECK = {"cards": [{"name": "Duwende", "level": "I"}, {"name": "Kapre", "level": "IV"},
                       {"name": "Tikbalang", "level": "III"}, {"name": "Amihan", "level": "II"},
                       {"name": "Dante", "level": "III"}, {"name": "Espiritista", "level": "II"},
                       {"name": "Aswang", "level": "III"}, {"name": "Bungisngis", "level": "IV"}]}


def _seen(track: int, code: str, seat: int, confidence: float = 0.96, kind: ObservationKind = "appeared") -> Observation:
    box = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    return Observation(kind, track, code, confidence, box, seat_zone(seat), 0.0, 0.0)


def _demo() -> Recording:
    """Two Baryos played to the book's end: Forest attacks beaten (BIHAG), Forest cards
    left to dwell, a raid that pushes Ben's Baryo over the Lagim Limit (Ana steals a Soul
    Coin onto her Spirit Path), and Forest attacks Ben's Defenders lose until his Baryo
    has no Soul Coin left: Ana is the last Baryo standing. The camera sees the Forest
    cards turned up on a Baryo and the Defenders turned up to fight them; captured,
    discarded and raided cards leave the table; the rest the host enters."""
    host = lambda action, delay=2.0: Step(delay, host=HostEvent(action=action))  # noqa: E731
    gone = lambda track, code, seat: Step(1.0, _seen(track, code, seat, kind="gone"))  # noqa: E731
    draw = lambda seat, delay=2.0: host(DrawBaryo(seat), delay)  # noqa: E731
    standby = lambda seat: host(Standby(seat))  # noqa: E731
    raid = host(Hasik(0, target=1, cards=("Duwende",)))

    def fought(seat: int, track: int, forest: str, defender: str, leave: bool = True) -> list[Step]:
        """A turn's draw and one Defender laid face down; `forest` attacks and `defender` is
        turned up to fight it; both leave the table after (captured, or discarded)."""
        cards = [(track, forest), (track + 1, defender)]
        return [draw(seat), host(BuildDefence(seat, defenders=1)),
                Step(2.5, _seen(track, forest, seat)), Step(3.0, _seen(track + 1, defender, seat)),
                *([gone(t, code, seat) for t, code in cards] if leave else [])]

    def dwells(seat: int, track: int, forest: str) -> list[Step]:
        """A turn's draw; `forest` attacks and the player stands by: it dwells."""
        return [draw(seat), Step(2.5, _seen(track, forest, seat)), standby(seat)]

    steps = [
        # Ana: Duwende attacks, Amihan captures it; she recuperates.
        *fought(0, 1, "Duwende", "Amihan"), draw(0, 3.0),
        # Ben: Kapre (the camera is unsure of it) is left to dwell.
        draw(1),
        Step(2.5, _seen(3, "Kapre", 1, confidence=0.66)),
        Step(5.0, host=HostEvent(answer=0)),
        standby(1), draw(1),
        # Ana: another Duwende captured; she raids Ben with one, and it dwells there.
        *fought(0, 4, "Duwende", "Amihan"), raid, standby(1),
        # Ben: Tikbalang joins Kapre's stack: three Lagim Dwellers, the Lagim Limit.
        *dwells(1, 6, "Tikbalang"), draw(1),
        # Ana: Tikbalang dwells; she raids Ben with the other Duwende: a fourth Lagim.
        # Ben's Dwellers are discarded and Ana steals a Soul Coin.
        *dwells(0, 7, "Tikbalang"), raid, standby(1),
        gone(3, "Kapre", 1), gone(6, "Tikbalang", 1),
        # Ben: Espiritista loses to Aswang: a Soul Coin to the Coin Vessel.
        *fought(1, 8, "Aswang", "Espiritista"), draw(1),
        # Ana: a third Duwende dwells.
        *dwells(0, 10, "Duwende"), draw(0),
        # Ben: Amihan loses to Bungisngis: his last Soul Coin; Ana's Baryo is the last standing.
        *fought(1, 11, "Bungisngis", "Amihan", leave=False),
    ]
    return Recording(players=("Ana", "Ben"), steps=tuple(steps), setup={"deck": DEMO_DECK})


_DEMO = _demo()
DEMOS = (_DEMO,)
ADAPTER = LagimAdapter()
