"""dugtungan at the table: the row of syllables around the PAMATO is the word.

The PAMATO lies in the centre. A player lays cards to its left and right in one row to
make a word, then lays the new PAMATO below that row: that card completes the move, so
the word is read left to right (by the cards' positions) and the engine's verdict is
spoken. The next word grows around the new PAMATO the same way. A player whose whole
hand is in the row has no PAMATO left to lay: the row is then the word, and the empty
hand wins. The first PAMATO (and
one after a dead card) is the card turned up in the centre when one is due. The draw
(BUNOT) happens in a hand, out of sight: a word read before the draw implies it, and a
pass, a SAPAW or PITIK are entered by the host.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.adapters import Choice, HostEvent, Reading, Recording, Step, describe
from rules.core import GameState
from rules.dugtungan.events import Draw, Dugtong, Pass, Reveal
from vision.observations import CENTRE, Observation

GAME = "dugtungan"
ROW_TOLERANCE = 0.5  # a card more than half a card height off the row lies outside it


def _centre(o: Observation) -> tuple[float, float]:
    xs = [x for x, _ in o.corners]
    ys = [y for _, y in o.corners]
    return sum(xs) / 4, sum(ys) / 4


def _height(o: Observation) -> float:
    ys = [y for _, y in o.corners]
    return max(max(ys) - min(ys), 1.0)


class DugtunganAdapter:
    game = GAME

    def interpret(self, observation: Observation, state: GameState,
                  seen: Mapping[int, Observation]) -> Sequence[Reading]:
        view = state.to_dict()
        if observation.zone != CENTRE or observation.kind != "appeared" or not observation.code:
            return ()
        if view["phase"] == "reveal":
            choices = [Choice(f"Yes, {observation.code}", Reveal(observation.code).to_dict())] + [
                Choice(f"No, {code}", Reveal(code).to_dict())
                for code, _ in observation.candidates if code != observation.code][:2]
            # not spent: the PAMATO anchors the row of the next word
            return (Reading(f"Is the new PAMATO {observation.code}?", tuple(choices), observation.confidence),)
        seat = state.current_player()
        if view["phase"] not in ("draw", "play") or seat is None:
            return ()
        anchor = next((o for o in seen.values() if o.zone == CENTRE and o.code == view["pamato"]
                       and o.track != observation.track), None)
        if anchor is None:
            return ()
        row_y, height = _centre(anchor)[1], _height(anchor)
        row = sorted((o for o in seen.values() if o.zone == CENTRE and o.code
                      and abs(_centre(o)[1] - row_y) <= ROW_TOLERANCE * height),
                     key=lambda o: _centre(o)[0])
        if abs(_centre(observation)[1] - row_y) <= ROW_TOLERANCE * height:
            # still building the word in the PAMATO's row, unless the row holds every card
            # the player has (the draw due included): the hand is empty, no PAMATO follows
            held = view["hand_sizes"][seat] + view["draws_due"]
            return self._dugtong(view, seat, row, None) if len(row) - 1 >= held else ()
        if len(row) < 2:
            return ()
        return self._dugtong(view, seat, row, observation)

    def _dugtong(self, view: Mapping[str, Any], seat: int, row: Sequence[Observation],
                 pamato: Observation | None) -> Sequence[Reading]:
        """The word in `row` and the new PAMATO below it (None: the word emptied the hand)."""
        name = view["players"][seat]
        word = [o.code or "" for o in row]
        action = Dugtong(seat, tuple(word), pamato.code if pamato else None).to_dict()
        cards = list(row) + ([pamato] if pamato else [])
        unsure = min(cards, key=lambda o: o.confidence)
        choices = [Choice(f"Yes, {''.join(word)}", action)]
        for code, _ in unsure.candidates:
            if code != unsure.code and unsure is not pamato:
                other = [code if o is unsure else o.code or "" for o in row]
                choices.append(Choice(f"No, {''.join(other)}", {**action, "word": other}))
        draws = [Reading("The player drew first.", (Choice("Yes", Draw(seat, None).to_dict()),), 1.0)
                 for _ in range(view["draws_due"])]
        spent = frozenset(o.track for o in row)
        laid = f"lay {pamato.code} as the new PAMATO" if pamato else "lay the last cards in hand"
        return (*draws, Reading(f"Did {name} make {''.join(word)} and {laid}?",
                                tuple(choices[:3]), unsure.confidence, spent))

    def settle(self, state: GameState, seen: Mapping[int, Observation]) -> Sequence[Reading]:
        return ()

    def known_as(self, observation: Observation, state: GameState) -> tuple[str, float] | None:
        return None  # every event names its cards in full

    def laid_aside(self, observation: Observation, state: GameState,
                   accounted: Sequence[Observation]) -> Observation | None:
        return None  # every card put down is in play

    def host_templates(self, state: GameState) -> Sequence[Choice]:
        players = list(state.to_dict()["players"])
        actions = [a.to_dict() for a in state.legal_actions()]
        return [Choice(describe(GAME, a, players), a) for a in actions[:40]]

    def recording(self) -> Recording:
        return _DEMO

    def recordings(self) -> Sequence[Recording]:
        return DEMOS


def _card(track: int, code: str, x: float, y: float, confidence: float = 0.97,
          candidates: tuple[tuple[str, float], ...] = ()) -> Observation:
    box = ((x, y), (x + 60.0, y), (x + 60.0, y + 90.0), (x, y + 90.0))
    return Observation("appeared", track, code, confidence, box, CENTRE, 0.0, 0.0,
                       candidates=candidates)


NAMES = ("Ana", "Ben", "Carla", "Dan", "Eva")
#: What the players after the first two hold: they only draw and pass in the demo.
OTHER_HANDS = (["E", "NG", "O"], ["U", "NG", "I"], ["NG", "E", "U"])


def _demo(players: int = 2) -> Recording:
    """Ana and Ben with their dealt hands shown, and up to three more players who draw
    and pass: BAHALA around the first PAMATO, a SAKA the camera is unsure of (BAKA?),
    the others pass, and Ben lays his last four cards (the two he drew among them) into
    NAKATAPOS: his hand is empty, so he wins, the rulebook's end."""
    host = lambda action, delay=2.0: Step(delay, host=HostEvent(action=action))  # noqa: E731
    passes = lambda seats: [s for seat in seats for s in (  # noqa: E731
        host(Draw(seat), 3.0), host(Pass(seat)))]
    steps = [
        Step(2.0, _card(1, "LA", 300, 100)),
        Step(2.5, _card(2, "BA", 160, 100)), Step(1.0, _card(3, "HA", 230, 100)),
        Step(2.0, _card(4, "KA", 300, 260)),
        Step(3.0, _card(5, "SA", 230, 262, confidence=0.6, candidates=(("SA", 0.6), ("BA", 0.37)))),
        Step(2.0, _card(6, "TA", 300, 420)),
        Step(6.0, host=HostEvent(answer=0)),
        *passes([*range(2, players), 0]),
        Step(2.5, _card(7, "NA", 160, 419)), Step(1.0, _card(8, "KA", 230, 421)),
        Step(1.0, _card(9, "PO", 370, 421)), Step(1.0, _card(10, "S", 440, 419)),
    ]
    hands = [["BA", "HA", "KA", "NG"], ["SA", "TA", "PO", "S"], *OTHER_HANDS[:players - 2]]
    return Recording(players=NAMES[:players], steps=tuple(steps), setup={"hands": hands})


_DEMO = _demo()
DEMOS = (_DEMO, _demo(4))
ADAPTER = DugtunganAdapter()
