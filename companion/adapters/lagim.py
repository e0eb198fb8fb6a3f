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
from rules.lagim.events import Battle, ForestAttack, RevealedDefender
from rules.lagim.state import LagimState
from vision.observations import Observation, seat_zone, zone_seat

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
                       {"name": "Dante", "level": "III"}, {"name": "Espiritista", "level": "II"}]}


def _seen(track: int, code: str, seat: int, confidence: float = 0.96) -> Observation:
    box = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
    return Observation("appeared", track, code, confidence, box, seat_zone(seat), 0.0, 0.0)


def _demo() -> Recording:
    """Two Baryos, three turns: a Forest attack beaten (BIHAG), one left to dwell, a raid."""
    host = lambda action, delay=2.0: Step(delay, host=HostEvent(action=action))  # noqa: E731
    steps = [
        host({"kind": "draw_baryo", "player": 0}),
        host({"kind": "build_defence", "player": 0, "defenders": 1}),
        Step(2.5, _seen(1, "Duwende", 0)),
        Step(3.0, _seen(2, "Amihan", 0)),
        host({"kind": "draw_baryo", "player": 0}, 3.0),
        host({"kind": "draw_baryo", "player": 1}),
        Step(2.5, _seen(3, "Kapre", 1, confidence=0.66)),
        Step(5.0, host=HostEvent(answer=0)),
        host({"kind": "standby", "player": 1}),
        host({"kind": "draw_baryo", "player": 1}),
        host({"kind": "draw_baryo", "player": 0}),
        Step(2.5, _seen(4, "Tikbalang", 0)),
        host({"kind": "standby", "player": 0}),
        host({"kind": "hasik", "player": 0, "target": 1, "cards": ["Duwende"]}),
        host({"kind": "standby", "player": 1}),
        Step(4.0, host=HostEvent(end=True)),
    ]
    return Recording(players=("Ana", "Ben"), steps=tuple(steps), setup={"deck": DEMO_DECK})


_DEMO = _demo()
DEMOS = (_DEMO,)
ADAPTER = LagimAdapter()
