"""The live table: observations and host events in, a durable, checked game out.

Every event is checked against the rules engine, written to the store, and only then
folded into the scoreboard, so what phones see is always what a restart would replay.
The camera is never trusted blindly: a reading below the confidence bar, one the
rules call illegal, or a card it found but could not name becomes a question for the
host (with the card's picture and the identifier's runner-up names) and nothing is
scored until it is answered. Observations that arrive while a question is open wait
behind it and are read, in order, once the host has answered, against the game as the
answer left it. A card the camera could not name and names on a later look ("named")
closes its question itself, and is read as that card put down; where the host has
spoken first, the host's word stands.

Two views leave the table: the host's (`snapshot`) and the viewers' (`viewer_snapshot`),
which keeps to what the rules let everyone at the table see. A game the scoreboard
cannot draw (a bug, an event from a newer version) is shown to the host as broken,
with undo and end as the ways out, never as an error page that a restart repeats.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import unicodedata
from collections import OrderedDict
from typing import Any, Mapping, Sequence

from companion.adapters import Choice, Reading, adapter_for
from companion.camera_view import CameraView, SeenCard
from companion.events import EventBus
from companion.projection import Projection, Question, project
from companion.questions import (MOST_CHOICES, as_known, ask_choices, knowable_lists, legal_instead, pick_list,
                                 ranked_codes, spelling, swaps)
from companion.store import GameRecord, Store
from rules.core import BadInput, IllegalMove
from rules.event_schema import event_schema
from rules.registry import game_spec
from vision.observations import CENTRE, Observation, zone_seat

log = logging.getLogger(__name__)

LOG_LINES_SHOWN = 40
NAME_LIMIT = 40
HOST_ONLY = ("accepted", "host_templates", "undo", "redo")  # what viewers never receive
PUBLIC_QUESTION = ("id", "text", "image", "choices")  # a question as viewers receive it (CONTRACT.md)
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
        self._spent_by: dict[int, int] = {}  # track -> seq of the event that scored it
        self._not_cards: set[int] = set()  # tracks the host said are no card
        self._aside: dict[int, Observation] = {}  # cards the game laid aside (won cards...), kept once gone
        self._pictures: dict[int, bytes] = {}  # question id -> the cut-out it shows
        self._redo: list[Mapping[str, Any]] = []  # undone events, the latest last
        self.camera: dict[str, str] = dict(NO_CAMERA)
        self.view = CameraView(NO_CAMERA["reason"])
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
        game_spec(game).new_game(names, options, setup)  # refuse a bad setup before storing it
        with self._lock:
            if self._resent(key):
                return None
            if self._game is not None and not self._game.finished and self._game.applied:
                self.end()  # ended and scored, kept in history: never abandoned (one where
                # nothing happened yet is no game to keep, and the store drops it)
            record = self.store.new_game(game, names, options, setup, key=key)
            self._game = project(self.store, record)
            for kept in (self._seen, self._held, self._spent, self._asked, self._spent_by, self._not_cards,
                         self._aside, self._pictures, self._redo):
                kept.clear()
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
            if observation.track in self._not_cards:
                if observation.kind == "gone":
                    self._not_cards.discard(observation.track)
                return
            if observation.kind == "named":
                self._named_later(observation)
            elif observation.kind == "gone":
                known = self._seen.pop(observation.track, None)
                if observation.code is None and known is not None and known.code is not None:
                    # it leaves as what the table knew it as (a Gargon back, by its colour)
                    observation = dataclasses.replace(observation, code=known.code, confidence=known.confidence)
                self._spent.discard(observation.track)
            else:
                self._seen[observation.track] = observation
            if observation.kind != "named" and self._game is not None and not self._game.finished:
                if self._settle_naming(observation):
                    self._release_held()
                if self._game.questions:
                    self._held.append(observation)
                else:
                    self._interpret(observation)
            self._changed()

    def _named_later(self, observation: Observation) -> None:
        """The camera names a card it reported unknown: read as that card appearing, its
        question closed by the camera. The host's word stands: a card the host named,
        dismissed or scored meanwhile is not read again; one still waiting behind
        another question waits on, named."""
        before = self._seen.get(observation.track)
        if before is not None and before.code is not None:
            return
        appeared = dataclasses.replace(observation, kind="appeared")
        self._seen[observation.track] = appeared
        waiting = [i for i, held in enumerate(self._held) if held.track == observation.track and held.code is None]
        for i in waiting:
            self._held[i] = dataclasses.replace(self._held[i], code=observation.code, confidence=observation.confidence,
                                                candidates=observation.candidates)
        game = self._game
        if waiting or before is None or game is None or game.finished or observation.track in self._spent:
            return
        if self._settle_naming(appeared):
            if game.questions:
                self._held.insert(0, appeared)
            else:
                self._interpret(appeared)
                self._release_held()

    def _unspent(self) -> dict[int, Observation]:
        return {track: o for track, o in self._seen.items() if track not in self._spent}

    def _interpret(self, observation: Observation) -> None:
        game = self._require_game()
        if observation.kind == "gone" and observation.track in self._aside:
            return  # a card the game laid aside, moved or taken away: the game accounted for it
        if self._laid_aside(observation):
            return
        if observation.code is None and observation.kind != "gone":
            observation = self._known_as(observation)
        if observation.code is None:
            if observation.kind != "gone":
                self._ask_name(observation)
            return
        for reading in game.adapter.interpret(observation, game.state, self._unspent()):
            if game.questions:  # later readings assumed the questioned one; the answer decides
                break
            self._consider(reading)

    def _laid_aside(self, observation: Observation) -> bool:
        """Whether the game lays this card aside (a Gargon card won, put face down before
        its winner; `Adapter.laid_aside`): spent at once, known as the game knows it,
        never asked about."""
        game = self._require_game()
        lying = {track: self._seen[track] for track in self._spent if track in self._seen}  # the aside in view too
        under = {track: o for track, o in self._aside.items() if track not in self._seen and observation.covers(o)}
        aside = game.adapter.laid_aside(observation, game.state, list((lying | under).values()))
        if aside is None:
            return False
        self._aside[observation.track] = aside
        self._spent.add(observation.track)
        if observation.track in self._seen:
            self._seen[observation.track] = aside
        return True

    def _known_as(self, observation: Observation) -> Observation:
        """A card the camera could not name, named as far as the game needs it now (a
        Gargon card laid face down, by its colour) where the chance of that reaches the
        table's bar; else as it came, to be asked about."""
        game = self._require_game()
        known = game.adapter.known_as(observation, game.state)
        if known is None or known[1] < self.confidence:
            return observation
        seen = self._seen.get(observation.track)
        if seen is not None and seen.code is None:
            self._seen[observation.track] = dataclasses.replace(seen, code=known[0], confidence=known[1])
        return dataclasses.replace(observation, code=known[0], confidence=known[1])

    def _consider(self, reading: Reading) -> None:
        game = self._require_game()
        try:
            game.trial(reading.action)
        except (IllegalMove, BadInput) as exc:
            reason = exc.reason if isinstance(exc, IllegalMove) else str(exc)
            self._ask(f"{reading.question} The rules say: {reason}", reading, refused=True)
            return
        if reading.confidence < self.confidence:
            self._ask(reading.question, reading)
            return
        self._record("action", {"action": game.canonical(reading.action), "source": "camera",
                                "confidence": round(reading.confidence, 4)})
        self._scored(reading.tracks)
        self._announce()

    def _scored(self, tracks: frozenset[int]) -> None:
        """The cards the event just recorded accounts for: spent, and where to correct them."""
        self._spent |= tracks
        self._spent_by.update(dict.fromkeys(tracks, self._require_game().last_seq))

    def _legal(self, action: Mapping[str, Any]) -> bool:
        try:
            self._require_game().trial(action)
        except (IllegalMove, BadInput):
            return False
        return True

    def _ask(self, text: str, reading: Reading, refused: bool = False) -> None:
        """A question about `reading`: its choices (only the legal ones when the rules
        refused it, with the legal events of its kind instead) and its cards' picture."""
        game = self._require_game()
        cards = [self._seen[t] for t in sorted(reading.tracks) if t in self._seen]
        one = cards[0] if len(cards) == 1 else None
        schema = event_schema(game.record.game, game.state)
        spell = spelling(schema)
        offered = list(reading.choices) + (swaps(reading.action, cards, spell) if len(cards) > 1 else [])
        offered = [c for c in offered if not refused or c.action is None or self._legal(c.action)][:MOST_CHOICES]
        if refused:
            offered += legal_instead(reading.action, game.state.legal_actions(), game.describe, offered)
        ranked = self._knowable(ranked_codes(one, spell), schema) if one else []
        choices = ask_choices(offered, ranked[1:] if refused else ranked)  # (not again what was refused)
        self._question(text, choices, cards, "reading", schema, refused)
        self._asked[game.last_seq] = reading.tracks

    def _ask_name(self, observation: Observation) -> None:
        """A card found but not named: which card is it (or is it no card at all)?"""
        game = self._require_game()
        seat = zone_seat(observation.zone)
        zone = (f" in front of {game.names[seat]}" if seat is not None and seat < len(game.names)
                else " in the centre" if observation.zone == CENTRE else "")
        schema = event_schema(game.record.game, game.state)
        choices = ask_choices([], self._knowable(ranked_codes(observation, spelling(schema)), schema))
        self._question(f"The camera found a card{zone} but cannot name it. Which card is it?", choices,
                       [observation], "name", schema)
        self._asked[game.last_seq] = frozenset({observation.track})

    def _knowable(self, ranked: list[tuple[str, float | None]], schema: Mapping[str, Any]
                  ) -> list[tuple[str, float | None]]:
        """The guesses as what the events the rules allow now can say of the card."""
        kinds = {action.to_dict()["kind"] for action in self._require_game().state.legal_actions()}
        return as_known(ranked, schema, knowable_lists(schema, kinds))

    def _question(self, text: str, choices: Sequence[Choice], cards: Sequence[Observation], about: str,
                  schema: Mapping[str, Any], refused: bool = False) -> None:
        """Record the question with the pick-list its card comes from (and whether the
        rules refused the reading); keep its cut-out."""
        game = self._require_game()
        codes = [c.code for c in choices if c.code] + [o.code for o in cards if o.code]
        self._record("question", {
            "text": text, "about": about, "refused": refused, "track": cards[0].track if len(cards) == 1 else None,
            "list": pick_list(schema, codes),
            "choices": [{"label": c.label, "action": None if c.action is None else dict(c.action),
                         "code": c.code, "confidence": c.confidence} for c in choices]})
        picture = self.view.cut_out([o.corners for o in cards])
        if picture is not None:
            self._pictures[game.last_seq] = picture
        self.bus.fire("prompt", text)

    def _settle_naming(self, observation: Observation) -> bool:
        """A card the host was asked to name that the camera now names (or that left the
        table) needs no answer any more; True if a question closed so."""
        game = self._require_game()
        settled = False
        for question in list(game.questions.values()):
            if question.about == "name" and question.track == observation.track and (
                    observation.kind == "gone" or observation.code is not None):
                answer = {"question": question.id, "choice": None, "by": "camera"}
                self._record("answer", answer if observation.code is None else {**answer, "named": observation.code})
                self._asked.pop(question.id, None)
                self._pictures.pop(question.id, None)
                settled = True
        return settled

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
            try:
                game.trial(action)
            except IllegalMove as exc:
                if game.questions:  # the camera's reading, held as a question, may be the move missing
                    raise IllegalMove(f"{exc.reason} A question from the camera is waiting: "
                                      "answer it first, then enter this again.") from None
                raise
            self._record("action", {"action": game.canonical(action), "source": source}, key)
            self._redo.clear()
            self._announce()
            self._changed()

    def answer(self, question: int, choice: int | None, code: str | None = None, not_card: bool = False,
               track: int | None = None, key: str | None = None) -> None:
        """The host settles a question: `choice` indexes its choices; or `code` names the
        card it is about (from the picker; `track` says which, when it is about several);
        or `not_card` says it is no card; with none of these the question is dismissed.
        The answer and the event it chose are one write: a crash keeps both or neither."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            asked = game.questions.get(question)
            if asked is None:
                raise BadInput("question", f"no open question {question}")
            tracks = self._asked.get(question, frozenset())
            picked = None if choice is None else self._choice(asked, choice)
            if picked is not None and picked.action is not None:
                game.trial(picked.action)
                self._record_all([("answer", {"question": question, "choice": choice}),
                                  ("action", {"action": game.canonical(picked.action), "source": "host"})], key)
                self._scored(tracks)
                self._redo.clear()
                self._announce()
            elif picked is not None or code is not None:
                self._name_card(asked, code if picked is None else picked.code, track, tracks, key,
                                tapped=choice)
            elif not_card:
                self._not_a_card(asked, track, tracks, key)
            else:
                self._record("answer", {"question": question, "choice": None}, key)
                self._spent |= tracks
            self._asked.pop(question, None)
            self._pictures.pop(question, None)
            self._release_held()
            self._changed()

    @staticmethod
    def _choice(asked: Question, choice: int) -> Choice:
        if not 0 <= choice < len(asked.choices):
            raise BadInput("choice", f"must be 0 to {len(asked.choices) - 1} or null")
        return asked.choices[choice]

    def _not_a_card(self, asked: Question, track: int | None, tracks: frozenset[int], key: str | None) -> None:
        """The host says what the camera took for a card (or one of the cards) is none:
        it is ignored while it lies there, and the other cards are read again without it."""
        if track is not None and track not in tracks:
            raise BadInput("track", f"must be one of the cards the question is about: {sorted(tracks)}")
        none = tracks if track is None else frozenset({track})
        self._record("answer", {"question": asked.id, "choice": None, "not_card": True, "track": track}, key)
        for gone in none:
            self._seen.pop(gone, None)
            self._not_cards.add(gone)
        rest = [t for t in sorted(tracks - none) if t in self._seen]
        if rest:
            self._held.insert(0, self._seen[rest[-1]])

    def _name_card(self, asked: Question, code: str | None, track: int | None, tracks: frozenset[int],
                   key: str | None, tapped: int | None = None) -> None:
        """The host names a card a question is about (`tapped`: by the choice with that
        index, else from the picker): it is read again under that name, as sure as the
        host is, so what it means is scored (or asked about) afresh."""
        if not isinstance(code, str) or not code.strip():
            raise BadInput("code", "must name a card")
        track = asked.track if track is None else track
        if track is None or (track not in tracks and track != asked.track):
            raise BadInput("track", f"must be one of the cards the question is about: {sorted(tracks)}")
        named = {"question": asked.id, "choice": None, "named": code, "track": track}
        self._record("answer", named if tapped is None else {**named, "tapped": tapped}, key)
        self._asked.pop(asked.id, None)
        seen = self._seen.get(track)
        if seen is not None:
            sure = dataclasses.replace(seen, code=code, confidence=1.0, candidates=())
            self._seen[track] = sure
            if not self._require_game().questions:
                self._interpret(sure)
            else:
                self._held.insert(0, sure)

    def undo(self, key: str | None = None) -> None:
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            if not game.applied:
                raise IllegalMove("There is nothing to undo.")
            self._redo.append(game.applied[-1].action)
            self._record("undo", {"target": game.applied[-1].seq}, key)
            self._changed()

    def redo(self, key: str | None = None) -> None:
        """The event undone last, back again (entered anew, checked by the rules anew)."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            if not self._redo:
                raise IllegalMove("There is nothing to redo.")
            action = self._redo[-1]
            game.trial(action)
            self._redo.pop()
            self._record("action", {"action": game.canonical(action), "source": "host"}, key)
            self._announce()
            self._changed()

    def correct(self, seq: int, action: Mapping[str, Any], key: str | None = None) -> None:
        """Replace an accepted event by what really happened; later events are re-checked."""
        with self._lock:
            game = self._require_game()
            if self._resent(key):
                return
            game.trial_correction(seq, action)
            self._record("correct", {"target": seq, "action": game.canonical(action)}, key)
            self._redo.clear()
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
            if state != "ok":
                self.view.fail(reason)
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
            # the contract's question: a card on the table, its picture and the camera's guesses
            view["questions"] = [{k: q[k] for k in PUBLIC_QUESTION} for q in view["questions"]]
            return view

    def snapshot(self) -> dict[str, Any]:
        """The host's scoreboard JSON: the contract's `/api/state` plus the host's tools."""
        with self._lock:
            try:
                return self._host_view()
            except Exception as exc:  # never an error page that every restart repeats
                return self._broken_view(exc)

    def _table_cards(self) -> list[dict[str, Any]]:
        return [{"code": o.code, "confidence": round(o.confidence, 3), "zone": o.zone, "track": o.track}
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
            return {"game": None, "game_id": None, "status": "waiting", "players": [], "seats": [], "winners": [],
                    "prompt": "Waiting for the host to start a game.", "table": table, "log": [],
                    "questions": [], "held": 0, "current_player": None, "state": None,
                    "undo": None, "redo": None, "host_templates": [], "camera": dict(self.camera),
                    "version": self.version}
        score = game.score()
        current = None if game.finished else game.state.current_player()
        last = game.applied[-1] if game.applied else None
        return {
            "game": game.record.game,
            "game_id": game.record.id,
            "status": "finished" if game.finished else "playing",
            "players": score["players"],
            "seats": list(game.names),
            "winners": score["winners"],
            "prompt": game.prompt,
            "table": table,
            "current_player": game.names[current] if current is not None else None,
            "log": [line.to_dict() for line in game.lines[-LOG_LINES_SHOWN:]][::-1],
            "questions": [self._question_view(q) for q in game.questions.values()],
            "held": len(self._held),
            "undo": game.describe(last.action) if last else None,
            "redo": game.describe(self._redo[-1]) if self._redo and not game.finished else None,
            "accepted": [{"seq": a.seq, "text": game.describe(a.action), "action": dict(a.action)}
                         for a in game.applied[-LOG_LINES_SHOWN:]][::-1],
            "host_templates": [{"label": c.label, "action": dict(c.action)}
                               for c in ([] if game.finished else game.adapter.host_templates(game.state))
                               if c.action is not None],
            "state": game.state.to_dict(),
            "problems": list(game.problems),
            "camera": dict(self.camera),
            "version": self.version,
        }

    def _question_view(self, question: Question) -> dict[str, Any]:
        """A question as `/api/state` gives it: the picture, and each choice's card and
        how sure the camera was of it."""
        return {"id": question.id, "text": question.text, "about": question.about, "track": question.track,
                "image": f"/api/questions/{question.id}.jpg" if question.id in self._pictures else None,
                "list": question.picker,
                "cards": [{"track": t, "code": self._seen[t].code} for t in sorted(self._asked.get(question.id, ()))
                          if t in self._seen],
                "choices": [{"label": c.label, "code": c.code, "confidence": c.confidence}
                            for c in question.choices]}

    # -- the camera view ---------------------------------------------------------

    def picture(self, question: int) -> bytes | None:
        """The cut-out a question shows, while the question is open."""
        with self._lock:
            return self._pictures.get(question)

    def schema(self) -> dict[str, Any] | None:
        """The forms of the events of the game in play (None before the first game)."""
        with self._lock:
            game = self._game
            return None if game is None else event_schema(game.record.game, game.state)

    def seen_cards(self) -> list[dict[str, Any]]:
        """Every card the camera reports on the table, with how sure it is and what a tap
        on it opens: its open question, or the scored event to correct."""
        with self._lock:
            game = self._game
            questions = {} if game is None else {t: q.id for q in game.questions.values()
                                                 for t in self._asked.get(q.id, ())}
            applied = set() if game is None else {a.seq for a in game.applied}
            cards = []
            for o in self._seen.values():
                asked = questions.get(o.track)
                status = ("unknown" if o.code is None else
                          "unsure" if asked is not None or (o.confidence < self.confidence and
                                                            o.track not in self._spent) else "named")
                seq = self._spent_by.get(o.track)
                cards.append({"card": SeenCard(o.track, o.corners, o.code, o.confidence, status),
                              "question": asked, "seq": seq if seq in applied else None})
            return cards
