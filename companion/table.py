"""The live table: observations and host events in, a durable, checked game out.

Every event is checked against the rules engine, written to the store, and only then
folded into the scoreboard, so what phones see is always what a restart would replay.
The camera is never trusted blindly: a reading below the confidence bar, or one the
rules call illegal, becomes a question for the host and nothing is scored until it is
answered. Observations that arrive while a question is open wait behind it and are
read, in order, once the host has answered, against the game as the answer left it.

Two views leave the table: the host's (`snapshot`) and the viewers' (`viewer_snapshot`),
which keeps to what the rules let everyone at the table see. A game the scoreboard
cannot draw (a bug, an event from a newer version) is shown to the host as broken,
with undo and end as the ways out, never as an error page that a restart repeats.
"""

from __future__ import annotations

import logging
import threading
import unicodedata
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
NAME_LIMIT = 40
HOST_ONLY = ("accepted", "host_templates", "undo")  # what viewers never receive
NO_CAMERA = {"state": "none", "reason": "no camera; the host enters events by hand"}


def clean_name(value: str, field: str) -> str:
    """A player's name as the table shows it; BadInput for one that is empty, too long,
    or holds control characters (a newline would forge log lines) or lone surrogates."""
    name = value.strip()
    if not name:
        raise BadInput(field, "must not be empty")
    if len(name) > NAME_LIMIT:
        raise BadInput(field, f"must be at most {NAME_LIMIT} characters")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in name):
        raise BadInput(field, "must not hold control characters, line breaks or unpaired surrogates")
    return name


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
        self.camera: dict[str, str] = dict(NO_CAMERA)
        self.version = 0
        self._broken_said = -1  # the version whose drawing failure was last logged

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
            if self._game.state.is_terminal() and record.status == "playing":
                self._finish()  # a crash came between its last event and its result
            self._changed()
        return record

    def start_game(self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                   setup: Mapping[str, Any] | None = None, key: str | None = None) -> GameRecord | None:
        """Seat the players and start a new game; BadInput if the engine refuses the setup.
        None when request `key` was recorded before (a resend)."""
        names = [clean_name(p, f"players[{i}]") for i, p in enumerate(players) if p.strip()]
        if not names:
            raise BadInput("players", "needs at least one player")
        if len(set(names)) != len(names):
            raise BadInput("players", "player names must be distinct")
        adapter_for(game)
        game_rules(game).new_game(names, options, setup)  # refuse a bad setup before storing it
        with self._lock:
            if self._resent(key):
                return None
            record = self.store.new_game(game, names, options, setup, key=key)
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

    def _resent(self, key: str | None) -> bool:
        """Whether the host's write with request `key` was recorded already (a resend)."""
        if key and self.store.seen(key):
            log.info("request %s was recorded before; not recorded again", key)
            return True
        return False

    # -- events ------------------------------------------------------------------

    def _record(self, type_: str, data: Mapping[str, Any], key: str | None = None) -> None:
        """Store first, then project: the log is the truth."""
        self._record_all([(type_, data)], key)

    def _record_all(self, events: Sequence[tuple[str, Mapping[str, Any]]], key: str | None = None,
                    result: Mapping[str, Any] | None = None, status: str | None = None) -> None:
        """Several events in one transaction (all or none survive a crash), then projected."""
        game = self._require_game()
        for event in self.store.record(game.record.id, events, key=key, result=result, status=status):
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
        self.store.finish(game.record.id, game.score(final=True))

    def _release_held(self) -> None:
        """Read the observations that waited, in order, against the settled game."""
        game = self._require_game()
        while self._held and not game.questions and not game.finished:
            self._interpret(self._held.pop(0))

    def submit(self, action: Mapping[str, Any], source: str = "host", key: str | None = None) -> None:
        """An event entered by hand; IllegalMove or BadInput goes straight back to the host."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            for reading in game.adapter.settle(game.state, self._unspent()):
                self._consider(reading)  # what the camera saw happened before this event
            game.trial(action)
            self._record("action", {"action": game.canonical(action), "source": source}, key)
            self._announce()
            self._changed()

    def answer(self, question: int, choice: int | None, key: str | None = None) -> None:
        """The host settles a question: `choice` indexes its choices, None dismisses it.
        The answer and the event it chose are one write: a crash keeps both or neither."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            asked = game.questions.get(question)
            if asked is None:
                raise BadInput("question", f"no open question {question}")
            if choice is not None:
                if not 0 <= choice < len(asked.choices):
                    raise BadInput("choice", f"must be 0 to {len(asked.choices) - 1} or null")
                action = asked.choices[choice].action
                game.trial(action)
                self._record_all([("answer", {"question": question, "choice": choice}),
                                  ("action", {"action": game.canonical(action), "source": "host"})], key)
                self._announce()
            else:
                self._record("answer", {"question": question, "choice": None}, key)
            self._spent |= self._asked.pop(question, frozenset())
            self._release_held()
            self._changed()

    def undo(self, key: str | None = None) -> None:
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            if not game.applied:
                raise IllegalMove("There is nothing to undo.")
            self._record("undo", {"target": game.applied[-1].seq}, key)
            self._changed()

    def correct(self, seq: int, action: Mapping[str, Any], key: str | None = None) -> None:
        """Replace an accepted event by what really happened; later events are re-checked."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            game.trial_correction(seq, action)
            self._record("correct", {"target": seq, "action": game.canonical(action)}, key)
            self._changed()

    def rename(self, seat: int, name: str, key: str | None = None) -> None:
        with self._lock:
            game = self._require_game()
            name = clean_name(name, "name")
            if not 0 <= seat < len(game.names):
                raise BadInput("seat", f"must be 0 to {len(game.names) - 1}")
            if name in game.names[:seat] + game.names[seat + 1:]:
                raise BadInput("name", f"{name!r} already sits at the table")
            if self._resent(key):
                return
            self._record("rename", {"seat": seat, "name": name}, key)
            self._changed()

    def end(self, key: str | None = None) -> None:
        """The host ends the game: the live totals become the final score, stored in the
        same write as the end event. A game whose score cannot be worked out is abandoned
        instead (kept in the log, left out of history), so the table can start afresh."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                self._changed()
                return
            try:
                result = None if game.finished else game.score(final=True)
            except Exception:
                log.exception("game %s cannot be scored; the host ended it, so it is abandoned", game.record.id)
                self._record_all([("end", {"abandoned": True})], key, status="abandoned")
                self._game = None
                self._changed(prompt="The game was ended without a score.")
                return
            if result is not None:
                self._record_all([("end", {})], key, result=result, status="finished")
            self._changed(prompt=self._winner_words(game.score()["winners"]))

    @staticmethod
    def _winner_words(winners: Sequence[str]) -> str:
        if not winners:
            return "The game is over."
        return f"The game is over. {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the win'}!"

    def open_questions(self) -> list[int]:
        """Ids of the questions waiting for the host, oldest first."""
        with self._lock:
            return list(self._game.questions) if self._game is not None else []

    def set_camera(self, state: str, reason: str) -> None:
        """The camera's state for the pages: ok, retrying, ended, failed or none."""
        with self._lock:
            if self.camera == {"state": state, "reason": reason}:
                return
            self.camera = {"state": state, "reason": reason}
            self._changed()

    # -- the scoreboard ----------------------------------------------------------

    def _changed(self, prompt: str | None = None) -> None:
        """Fire the new state, then its prompt: the speaker learns a new game's names first."""
        if prompt and self._game is not None:
            self._game.prompt = prompt
        self.version += 1
        self.bus.fire("state", self.viewer_snapshot())  # the push goes to every phone
        if prompt:
            self.bus.fire("prompt", prompt)

    def viewer_snapshot(self) -> dict[str, Any]:
        """What every phone may see (`/api/state`, the push): the host's view without the
        host's tools, and totals only where the cards they count lie face up."""
        with self._lock:
            view = self.snapshot()
            if self._game is not None and view["status"] != "broken":
                try:
                    view["players"] = self._game.public_score()["players"]
                except Exception as exc:  # as in `snapshot`: shown broken, never raised
                    view = self._broken_view(exc)
            for key in HOST_ONLY:
                view.pop(key, None)
            view["questions"] = [{"id": q["id"], "text": q["text"]} for q in view["questions"]]
            return view

    def snapshot(self) -> dict[str, Any]:
        """The host's scoreboard JSON: the contract's `/api/state` plus the host's tools."""
        with self._lock:
            try:
                return self._host_view()
            except Exception as exc:  # never an error page that every restart repeats
                return self._broken_view(exc)

    def _table_cards(self) -> list[dict[str, Any]]:
        return [{"code": o.code, "confidence": round(o.confidence, 3), "zone": o.zone}
                for o in self._seen.values()]

    def _broken_view(self, exc: Exception) -> dict[str, Any]:
        """The game as far as it can be shown, with the host's two ways out."""
        game = self._require_game()
        if self._broken_said != self.version:
            self._broken_said = self.version
            log.error("game %s cannot be shown (%r); the host can undo the last event or end the game",
                      game.record.id, exc)
        last = game.applied[-1] if game.applied else None
        return {"game": game.record.game, "game_id": game.record.id, "status": "broken",
                "problem": f"The scoreboard cannot show this game ({exc!r}). Undo the last event, "
                           "or end the game.",
                "players": [{"name": n, "total": None, "breakdown": {}} for n in game.names],
                "winners": [], "prompt": game.prompt, "table": self._table_cards(),
                "log": [line.to_dict() for line in game.lines[-LOG_LINES_SHOWN:]][::-1],
                "questions": [], "held": len(self._held), "current_player": None, "state": None,
                "undo": f"event {last.seq}" if last else None, "accepted": [], "host_templates": [],
                "camera": dict(self.camera), "version": self.version}

    def _host_view(self) -> dict[str, Any]:
        table = self._table_cards()
        game = self._game
        if game is None:
            return {"game": None, "game_id": None, "status": "waiting", "players": [], "winners": [],
                    "prompt": "Waiting for the host to start a game.", "table": table, "log": [],
                    "questions": [], "held": 0, "current_player": None, "state": None,
                    "undo": None, "host_templates": [], "camera": dict(self.camera), "version": self.version}
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
            "problems": list(game.problems),
            "camera": dict(self.camera),
            "version": self.version,
        }
