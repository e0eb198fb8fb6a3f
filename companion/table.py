"""The live table: observations and host events in, a durable, checked game out.

Every event is checked against the rules engine, written to the store, and only then
folded into the scoreboard, so what phones see is always what a restart would replay.
The camera is never trusted blindly: a reading below the confidence bar, or one the
rules call illegal, becomes a question for the host and nothing is scored until it is
answered. Observations that arrive while a question is open wait behind it and are
read, in order, once the host has answered, against the game as the answer left it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Mapping, Sequence

from companion.adapters import Reading, adapter_for
from companion.events import EventBus
from companion.projection import Projection, project
from companion.store import GameRecord, Store
from rules.core import BadInput, IllegalMove
from rules.registry import game_rules
from vision.observations import Observation

log = logging.getLogger(__name__)

LOG_LINES_SHOWN = 40


class LiveTable:
    """One table, one game at a time; every method is safe to call from any thread."""

    def __init__(self, store: Store, bus: EventBus, confidence: float = 0.8) -> None:
        self.store = store
        self.bus = bus
        self.confidence = confidence
        self._lock = threading.RLock()
        self._game: Projection | None = None
        self._seen: OrderedDict[int, Observation] = OrderedDict()
        self._held: list[Observation] = []  # observations waiting behind an open question
        self._spent: set[int] = set()  # tracks of cards a scored event accounted for
        self._asked: dict[int, frozenset[int]] = {}  # question id -> tracks it is about
        self.version = 0

    # -- games -------------------------------------------------------------------

    def restore(self, game_id: int | None = None) -> GameRecord | None:
        """Replay the game in progress (or game `game_id`) from the log, if there is one."""
        record = self.store.game_in_progress() if game_id is None else self.store.game(game_id)
        if record is None:
            return None
        with self._lock:
            try:
                self._game = project(self.store, record)
            except BadInput as exc:
                log.error("cannot restore game %s (%s): %s", record.id, record.game, exc)
                return None
            log.info("restored game %s (%s) from %d logged events", record.id, record.game,
                     self._game.last_seq)
            self._changed()
        return record

    def start_game(self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                   setup: Mapping[str, Any] | None = None) -> GameRecord:
        """Seat the players and start a new game; BadInput if the engine refuses the setup."""
        names = [p.strip() for p in players if p.strip()]
        if not names:
            raise BadInput("players", "needs at least one player")
        if len(set(names)) != len(names):
            raise BadInput("players", "player names must be distinct")
        adapter_for(game)
        game_rules(game).new_game(names, options, setup)  # refuse a bad setup before storing it
        with self._lock:
            record = self.store.new_game(game, names, options, setup)
            self._game = project(self.store, record)
            self._seen.clear()
            self._held.clear()
            self._spent.clear()
            self._asked.clear()
            self._changed(prompt=f"New game of {game}: {', '.join(names)}.")
        return record

    def _require_game(self) -> Projection:
        if self._game is None:
            raise BadInput("game", "no game in progress; the host starts one first")
        return self._game

    # -- events ------------------------------------------------------------------

    def _record(self, type_: str, data: Mapping[str, Any]) -> None:
        """Store first, then project: the log is the truth."""
        game = self._require_game()
        event = self.store.append(game.record.id, type_, data)
        game.apply(event)

    def observe(self, observation: Observation) -> None:
        """A camera observation: update the cards seen, and act on what it means."""
        with self._lock:
            if observation.kind == "gone":
                self._seen.pop(observation.track, None)
                self._spent.discard(observation.track)
            else:
                self._seen[observation.track] = observation
            if self._game is not None and not self._game.finished:
                if self._game.questions:
                    self._held.append(observation)
                else:
                    self._interpret(observation)
            self._changed()

    def _unspent(self) -> dict[int, Observation]:
        return {track: o for track, o in self._seen.items() if track not in self._spent}

    def _interpret(self, observation: Observation) -> None:
        game = self._require_game()
        for reading in game.adapter.interpret(observation, game.state, self._unspent()):
            if game.questions:  # later readings assumed the questioned one; the answer decides
                break
            self._consider(reading)

    def _consider(self, reading: Reading) -> None:
        game = self._require_game()
        try:
            game.trial(reading.action)
        except (IllegalMove, BadInput) as exc:
            reason = exc.reason if isinstance(exc, IllegalMove) else str(exc)
            self._ask(f"{reading.question} The rules say: {reason}", reading)
            return
        if reading.confidence < self.confidence:
            self._ask(reading.question, reading)
            return
        self._record("action", {"action": game.canonical(reading.action), "source": "camera",
                                "confidence": round(reading.confidence, 4)})
        self._spent |= reading.tracks
        self._announce()

    def _ask(self, text: str, reading: Reading) -> None:
        self._record("question", {"text": text, "choices": [
            {"label": c.label, "action": dict(c.action)} for c in reading.choices]})
        self._asked[self._require_game().last_seq] = reading.tracks
        self.bus.fire("prompt", text)

    def _announce(self) -> None:
        game = self._require_game()
        announcements = tuple(getattr(game.state, "announcements", ()))
        if announcements:
            self.bus.fire("prompt", " ".join(announcements))
        if game.state.is_terminal() and not game.ended:
            self._finish()

    def _finish(self) -> None:
        game = self._require_game()
        self.store.finish(game.record.id, game.score())

    def _release_held(self) -> None:
        """Read the observations that waited, in order, against the settled game."""
        game = self._require_game()
        while self._held and not game.questions and not game.finished:
            self._interpret(self._held.pop(0))

    def submit(self, action: Mapping[str, Any], source: str = "host") -> None:
        """An event entered by hand; IllegalMove or BadInput goes straight back to the host."""
        with self._lock:
            game = self._require_game()
            for reading in game.adapter.settle(game.state, self._unspent()):
                self._consider(reading)  # what the camera saw happened before this event
            game.trial(action)
            self._record("action", {"action": game.canonical(action), "source": source})
            self._announce()
            self._changed()

    def answer(self, question: int, choice: int | None) -> None:
        """The host settles a question: `choice` indexes its choices, None dismisses it."""
        with self._lock:
            game = self._require_game()
            asked = game.questions.get(question)
            if asked is None:
                raise BadInput("question", f"no open question {question}")
            if choice is not None:
                if not 0 <= choice < len(asked.choices):
                    raise BadInput("choice", f"must be 0 to {len(asked.choices) - 1} or null")
                action = asked.choices[choice].action
                game.trial(action)
                self._record("answer", {"question": question, "choice": choice})
                self._record("action", {"action": game.canonical(action), "source": "host"})
                self._announce()
            else:
                self._record("answer", {"question": question, "choice": None})
            self._spent |= self._asked.pop(question, frozenset())
            self._release_held()
            self._changed()

    def undo(self) -> None:
        with self._lock:
            game = self._require_game()
            if not game.applied:
                raise IllegalMove("There is nothing to undo.")
            self._record("undo", {"target": game.applied[-1].seq})
            self._changed()

    def correct(self, seq: int, action: Mapping[str, Any]) -> None:
        """Replace an accepted event by what really happened; later events are re-checked."""
        with self._lock:
            game = self._require_game()
            game.trial_correction(seq, action)
            self._record("correct", {"target": seq, "action": game.canonical(action)})
            self._changed()

    def rename(self, seat: int, name: str) -> None:
        with self._lock:
            game = self._require_game()
            name = name.strip()
            if not 0 <= seat < len(game.names):
                raise BadInput("seat", f"must be 0 to {len(game.names) - 1}")
            if not name:
                raise BadInput("name", "must not be empty")
            if name in game.names[:seat] + game.names[seat + 1:]:
                raise BadInput("name", f"{name!r} already sits at the table")
            self._record("rename", {"seat": seat, "name": name})
            self._changed()

    def end(self) -> None:
        """The host ends the game: the live totals become the final score."""
        with self._lock:
            game = self._require_game()
            if not game.finished:
                self._record("end", {})
                self._finish()
            self._changed(prompt=self._winner_words(game))

    @staticmethod
    def _winner_words(game: Projection) -> str:
        winners = game.score()["winners"]
        if not winners:
            return "The game is over."
        return f"The game is over. {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'}!"

    def open_questions(self) -> list[int]:
        """Ids of the questions waiting for the host, oldest first."""
        with self._lock:
            return list(self._game.questions) if self._game is not None else []

    # -- the scoreboard ----------------------------------------------------------

    def _changed(self, prompt: str | None = None) -> None:
        """Fire the new state, then its prompt: the speaker learns a new game's names first."""
        if prompt and self._game is not None:
            self._game.prompt = prompt
        self.version += 1
        self.bus.fire("state", self.snapshot())
        if prompt:
            self.bus.fire("prompt", prompt)

    def snapshot(self) -> dict[str, Any]:
        """The scoreboard JSON of the contract (`/api/state`), plus what the pages show."""
        with self._lock:
            table = [{"code": o.code, "confidence": round(o.confidence, 3), "zone": o.zone}
                     for o in self._seen.values()]
            game = self._game
            if game is None:
                return {"game": None, "game_id": None, "status": "waiting", "players": [], "winners": [],
                        "prompt": "Waiting for the host to start a game.", "table": table, "log": [],
                        "questions": [], "held": 0, "current_player": None, "state": None,
                        "undo": None, "host_templates": [], "version": self.version}
            score = game.score()
            current = None if game.finished else game.state.current_player()
            last = game.applied[-1] if game.applied else None
            return {
                "game": game.record.game,
                "game_id": game.record.id,
                "status": "finished" if game.finished else "playing",
                "players": score["players"],
                "winners": score["winners"],
                "prompt": game.prompt,
                "table": table,
                "current_player": game.names[current] if current is not None else None,
                "log": [line.to_dict() for line in game.lines[-LOG_LINES_SHOWN:]][::-1],
                "questions": [{"id": q.id, "text": q.text, "choices": [c.label for c in q.choices]}
                              for q in game.questions.values()],
                "held": len(self._held),
                "undo": game.describe(last.action) if last else None,
                "accepted": [{"seq": a.seq, "text": game.describe(a.action), "action": dict(a.action)}
                             for a in game.applied[-LOG_LINES_SHOWN:]][::-1],
                "host_templates": [{"label": c.label, "action": dict(c.action)}
                                   for c in ([] if game.finished else game.adapter.host_templates(game.state))],
                "state": game.state.to_dict(),
                "version": self.version,
            }
