"""The scoreboard as a projection of the event log.

Replaying a game's stored events from the start rebuilds exactly what the table
showed: the engine state after each accepted event, the open questions, the seat
names and the log lines. The live table feeds each new event through the same
`apply`, so a restart after a crash and a running game cannot disagree.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.adapters import Adapter, Choice, adapter_for, describe
from companion.store import GameRecord, Store, StoredEvent
from rules.core import BadInput, GameState, IllegalMove, best_by
from rules.spec import GameSpec
from rules.registry import game_spec

log = logging.getLogger(__name__)

# Games whose running totals count cards kept hidden, and the option (the rulebook's
# variant) that shows them, if there is one: Gargon's won cards lie face down, and a
# dugtungan total counts the letters in a hand.
FACE_DOWN_TOTALS: dict[str, str | None] = {"gargon": "open_won_cards", "dugtungan": None}


@dataclass(frozen=True)
class Applied:
    """An accepted game event and the state it led to."""

    seq: int
    action: Mapping[str, Any]
    source: str
    state: GameState


@dataclass(frozen=True)
class Question:
    """A reading the host must settle before anything is scored."""

    id: int
    text: str
    choices: tuple[Choice, ...]
    about: str = "reading"  # "reading": what a card means; "name": which card it is
    track: int | None = None  # the one card it is about, if one
    picker: str | None = None  # the event schema's pick-list the card comes from


@dataclass
class LogLine:
    """One line of the scoreboard's "What happened"; an undone event is struck through."""

    seq: int
    text: str
    source: str
    undone: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "text": self.text, "source": self.source, "undone": self.undone}


def replay(initial: GameState, engine: GameSpec, actions: Sequence[tuple[int, Mapping[str, Any], str]]
           ) -> list[Applied]:
    """Apply `(seq, action, source)` in order from `initial`; IllegalMove names the first bad one."""
    state, applied = initial, []
    for seq, action, source in actions:
        state = state.apply(engine.action_from_dict(action))
        applied.append(Applied(seq, action, source, state))
    return applied


class Projection:
    """Everything the scoreboard shows about one game, rebuilt event by event."""

    def __init__(self, record: GameRecord, engine: GameSpec, adapter: Adapter) -> None:
        self.record = record
        self.engine = engine
        self.adapter = adapter
        self.names = list(record.players)
        self.initial = engine.new_game(record.players, record.options, record.setup)
        self.applied: list[Applied] = []
        self.questions: dict[int, Question] = {}
        self.lines: list[LogLine] = []
        self.prompt = ""
        self.ended = record.status == "finished"
        self.last_seq = 0
        self.problems: list[str] = []  # stored events this projection had to skip

    @property
    def state(self) -> GameState:
        return self.applied[-1].state if self.applied else self.initial

    @property
    def finished(self) -> bool:
        return self.ended or self.state.is_terminal()

    def canonical(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """The event as the engine writes it (defaults filled in), the form the log keeps."""
        return self.engine.action_from_dict(action).to_dict()

    def trial(self, action: Mapping[str, Any]) -> GameState:
        """The state `action` would lead to; IllegalMove or BadInput if it cannot happen."""
        if self.finished:
            raise IllegalMove("The game is over.")
        return self.state.apply(self.engine.action_from_dict(action))

    def trial_correction(self, target: int, action: Mapping[str, Any]) -> list[Applied]:
        """The accepted events after replacing event `target` by `action`, re-checking the rest."""
        index = next((i for i, a in enumerate(self.applied) if a.seq == target), None)
        if index is None:
            raise BadInput("seq", f"event {target} is not an accepted game event (undone, or never scored)")
        before = self.applied[index - 1].state if index else self.initial
        tail = [(target, action, "host")] + [(a.seq, a.action, a.source) for a in self.applied[index + 1:]]
        try:
            return self.applied[:index] + replay(before, self.engine, tail)
        except IllegalMove as exc:
            raise IllegalMove(f"That correction makes a later event illegal: {exc.reason}") from None

    def apply(self, event: StoredEvent) -> None:
        """Fold one stored event into the projection. An event this version cannot read
        (a newer version's, a hand-edited one) is skipped and reported, never a crash:
        the table must stay up for the host to undo or end the game."""
        self.last_seq = event.seq
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            log.warning("game %s event %s: unknown type %r, ignored", self.record.id, event.seq, event.type)
            return
        try:
            handler(event)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, BadInput) as exc:
            problem = f"event {event.seq} ({event.type}) cannot be read: {exc!r}"
            log.error("game %s: %s; skipped", self.record.id, problem)
            self.problems.append(problem)

    def describe(self, action: Mapping[str, Any]) -> str:
        """The event in full, for the host's tools."""
        return describe(self.record.game, action, self.names)

    def tell(self, action: Mapping[str, Any]) -> str:
        """The event as the log and the prompts say it to everyone: no secret cards."""
        return describe(self.record.game, action, self.names, told=True)

    def _on_action(self, event: StoredEvent) -> None:
        action, source = event.data["action"], event.data.get("source", "host")
        try:
            state = self.state.apply(self.engine.action_from_dict(action))
        except (IllegalMove, BadInput) as exc:  # only if the rules changed since it was stored
            log.warning("game %s event %s no longer applies (%s); skipped", self.record.id, event.seq, exc)
            return
        self.applied.append(Applied(event.seq, action, source, state))
        self.lines.append(LogLine(event.seq, self.tell(action), source))
        self.prompt = " ".join(getattr(state, "announcements", ())) or self.prompt

    def _on_undo(self, event: StoredEvent) -> None:
        if not self.applied:
            return
        undone = self.applied.pop()
        for line in self.lines:
            if line.seq == undone.seq:
                line.undone = True
        self.lines.append(LogLine(event.seq, f"Undo: {self.tell(undone.action)}", "host"))
        self.prompt = f"Undone: {self.tell(undone.action)}"

    def _on_correct(self, event: StoredEvent) -> None:
        target, action = event.data["target"], event.data["action"]
        try:
            self.applied = self.trial_correction(target, action)
        except (IllegalMove, BadInput) as exc:
            log.warning("game %s correction %s no longer applies (%s); skipped", self.record.id, event.seq, exc)
            return
        text = self.tell(action)
        for line in self.lines:
            if line.seq == target and not line.undone:
                line.text, line.source = f"{text} (corrected)", "host"
        self.lines.append(LogLine(event.seq, f"Correction: {text}", "host"))
        self.prompt = f"Corrected: {text}"

    def _on_question(self, event: StoredEvent) -> None:
        data = event.data
        choices = tuple(Choice(c["label"], c.get("action"), c.get("code"), c.get("confidence"))
                        for c in data["choices"])
        self.questions[event.seq] = Question(event.seq, data["text"], choices, data.get("about", "reading"),
                                             data.get("track"), data.get("list"))
        self.lines.append(LogLine(event.seq, f"Asked the host: {event.data['text']}", "camera"))

    def _on_answer(self, event: StoredEvent) -> None:
        question = self.questions.pop(event.data["question"], None)
        if question is None or event.data.get("choice") is not None:
            return
        if event.data.get("by") == "camera":
            if event.data.get("named"):
                self.lines.append(LogLine(event.seq, f"The camera named the card {event.data['named']}", "camera"))
        elif event.data.get("named"):
            self.lines.append(LogLine(event.seq, f"The host named the card {event.data['named']}", "host"))
        elif event.data.get("not_card"):
            self.lines.append(LogLine(event.seq, "The host said it is not a card", "host"))
        else:
            self.lines.append(LogLine(event.seq, f"Host dismissed: {question.text}", "host"))

    def _on_rename(self, event: StoredEvent) -> None:
        self.names[event.data["seat"]] = event.data["name"]
        self.lines.append(LogLine(event.seq, f"Seat {event.data['seat'] + 1} is now {event.data['name']}", "host"))

    def _on_end(self, event: StoredEvent) -> None:
        self.ended = True
        self.lines.append(LogLine(event.seq, "The host ended the game", "host"))

    def _best_totals(self, players: Sequence[Mapping[str, Any]]) -> list[str]:
        """Winners of a game the host ended before the rules did: the best live total
        (the fewest letters in dugtungan), every player sharing it; a player the rules
        eliminated (a Lagim Baryo with no Soul Coins) is never among them; none without
        totals."""
        if not players:  # ended before any score existed (a Bagani game still at its set-up)
            return []
        sign = -1 if game_spec(self.record.game).lowest_wins else 1
        contenders = [(name, p) for name, p in zip(self.record.players, players)
                      if not p.get("breakdown", {}).get("eliminated")]
        return list(best_by([name for name, _ in contenders],
                            [(sign * p["total"],) for _, p in contenders]))

    def score(self, final: bool = False) -> dict[str, Any]:
        """The contract's `score` JSON with live totals; winners only once the game is over
        (or, `final`, as if the host ended it now)."""
        result = self.state.scores().to_dict()
        for player, name in zip(result["players"], self.names):
            player["name"] = name
        if self.finished or final:
            by_engine = dict(zip(self.record.players, self.names))
            winners = result["winners"] or self._best_totals(result["players"])
            result["winners"] = [by_engine.get(w, w) for w in winners]
        else:
            result["winners"] = []
        return result


    def totals_public(self) -> bool:
        """Whether viewers may see live totals: not while the cards they count lie face
        down (Gargon's won cards, unless the table plays the open variant)."""
        if self.finished or self.record.game not in FACE_DOWN_TOTALS:
            return True
        flag = FACE_DOWN_TOTALS[self.record.game]
        return flag is not None and bool(getattr(getattr(self.state, "options", None), flag, False))

    def public_score(self) -> dict[str, Any]:
        """`score()` as viewers see it: totals and breakdowns of face-down cards left out."""
        result = self.score()
        if not self.totals_public():
            result["players"] = [{"name": p["name"], "total": None, "breakdown": {}} for p in result["players"]]
        return result


def project(store: Store, record: GameRecord) -> Projection:
    """Game `record` rebuilt from its stored log; BadInput if its game is not installed."""
    projection = Projection(record, game_spec(record.game), adapter_for(record.game))
    for event in store.events(record.id):
        projection.apply(event)
    return projection
