"""The demo table: a generated game, filmed by a generated camera, read by the real vision.

A newcomer with no camera and no cards still sees everything work. Each game's
recording (its adapter's scripted table) is laid out card by card on a generated table
(`vision.synth.recording`) and photographed at `FPS` frames a second; the frames go
through the pipeline `companion run` uses (the card detector, the printed-token reader
for Gargon and dugtungan or a deck enrolled from the generated faces for the others,
the tracker, the seat zones) and only what vision reports reaches `LiveTable.observe`.
The recording's host taps (events the camera cannot see) go through the calls the
host page makes, and the phones follow by push.

Every game is filmed with what a real table brings and a camera must ask about
(`staged`): a stray thing that is no card of the game, and a card partly under a thumb.
The stray is a card found but not named on every run, in every game (the real vision
cannot name it); the covered card is read unsure in most games (Gargon, dugtungan, Lagim;
Bagani's deck still names it over the bar). The Gargon recording also lays a play the
rules refuse, so the table asks why and offers the legal plays instead.

The script knows what it laid down, so it keeps the score of vision (`Tally`: each
recorded card change read right, wrong, as a question, or missed; the table's questions
by kind and their answers by way) and stands in for a host who is not there:

- a question the camera asks waits `ANSWER_WAIT` seconds for the real host; then the
  script answers as a host looking at the table would: "not a card" for the stray, the
  card it laid (from the game's list, as the picker does) for a card the camera could
  not name, the choice that matches the cards it laid for a reading (or dismisses it
  when none does), and the log says so. With `answer_myself` it never answers: the
  recording holds until the host does;
- unless `script_names_unsure` is off (or `answer_myself` on), a card the camera is
  unsure of is named by the script after the same wait, as a host glancing at it
  would, rather than asked about, and the log says so; what vision reports meanwhile
  waits for that name, as it would wait for the answer to the table's question.

Each change is held until the camera has reported it (or `SEEN_FRAMES` frames passed:
a card taken away is called gone only after the tracker has missed it for a while),
so the host taps that follow it never overtake what the camera sees. `speed` shortens
the pauses between changes, never the frames vision needs.

Without the vision modules (no OpenCV or onnxruntime) the recording's observations are
replayed straight into the table instead, and one log line says so.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import random
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

import numpy as np

from companion.adapters import HostEvent, Recording, Step, adapter_for
from companion.questions import strings_in
from companion.store import StoredEvent
from companion.table import LiveTable
from rules.core import BadInput, IllegalMove
from rules.registry import game_spec
from vision.observations import CENTRE, Observation

if TYPE_CHECKING:
    from vision.pipeline import Pipeline
    from vision.synth.recording import RecordedTable

log = logging.getLogger(__name__)

PAUSE_BETWEEN_GAMES = 20.0
FPS = 8.0
ANSWER_WAIT = 5.0       # seconds a question (or an unnamed card) waits for the real host
SEEN_FRAMES = 30        # longest a change is held for the camera to report it
AFTER_LAST = 20         # frames filmed after the last step at least, and until its change is reported
FRAME_SIZE = (1280, 960)
RECENT_CHANGES = 4      # a question may be about a card taken this many changes ago
PLAY_GAP = 1.0          # seconds: cards put down in one seat closer together than this are one play
DECK_FOLDER = "demo-decks"
STAGED_TRACK = 10_000   # the staged stray's track, clear of the recordings' own


@dataclass
class Tally:
    """What vision made of the recording's card changes, and how fast the demo filmed."""

    right: int = 0
    wrong: int = 0
    asked: int = 0      # unsure: no name, or a confidence under the table's bar (once a card); a card with
    # no name that the table knows as far as the game needs (a Gargon back, by its colour) is right or wrong by that
    named_later: int = 0  # asked for having no name, then named right by the camera before the script named it
    missed: int = 0     # never reported within SEEN_FRAMES
    extra: int = 0      # reported, but not a change the recording made
    refused: int = 0    # script steps the rules refused (the game had gone another way)
    ended_by_script: int = 0  # games the recording ran out on before they ended
    frames: int = 0
    seconds: float = 0.0  # time spent filming, reading and feeding the table
    questions: Counter[str] = dataclasses.field(default_factory=Counter)  # the table's, by kind
    answers: Counter[str] = dataclasses.field(default_factory=Counter)    # how each was settled

    def count_questions(self, events: Iterable[StoredEvent]) -> None:
        """Add up one game's questions by kind (a card found but not named, an unsure
        reading, a reading the rules refused) and their answers by way."""
        for event in events:
            data = event.data
            if event.type == "question":
                self.questions["name" if data.get("about") == "name" else
                               "refused" if data.get("refused") else "unsure"] += 1
            elif event.type == "answer":
                self.answers["by camera" if data.get("by") == "camera" else
                             "not a card" if data.get("not_card") else
                             "picker" if data.get("named") and data.get("tapped") is None else
                             "choice" if data.get("choice") is not None or data.get("named") else
                             "dismissed"] += 1

    def to_dict(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self)
        fields["questions"], fields["answers"] = dict(self.questions), dict(self.answers)
        fields["fps"] = round(self.frames / self.seconds, 2) if self.seconds else None
        fields["seconds"] = round(self.seconds, 2)
        return fields


def staged(recording: Recording) -> Recording:
    """The recording as the demo films it, with what a real table brings and the camera
    must ask the host about, so every demo shows those questions: before play, a stray
    thing that is no card of the game lies where the first card will (the camera finds
    a card it cannot name; it is taken away once the host has said so), and that first
    card lies partly under a thumb (the camera is often unsure of it)."""
    from vision.synth.recording import COVERED, STRAY

    first = next(i for i, s in enumerate(recording.steps) if s.observation is not None
                 and s.observation.kind == "appeared" and s.observation.code)
    laid = recording.steps[first].observation
    assert laid is not None
    stray = dataclasses.replace(laid, track=STAGED_TRACK, code=STRAY, confidence=1.0, candidates=())
    steps = [Step(1.0, stray), Step(1.0, dataclasses.replace(stray, kind="gone"))]
    for i, step in enumerate(recording.steps):
        steps.append(dataclasses.replace(step, observation=dataclasses.replace(laid, code=COVERED + (laid.code or "")))
                     if i == first else step)
    return dataclasses.replace(recording, steps=tuple(steps))


def same_card(a: str | None, b: str | None) -> bool:
    """Whether two codes name one card however the recording and the deck spell it."""
    from vision.synth.faces import slug

    return a is not None and b is not None and slug(a) == slug(b)


def demo_deck(game: str, codes: list[str], folder: Path, seed: int = 0) -> Path:
    """The deck profile of the generated faces of `codes`, enrolled once and cached in
    `folder`; enrolled again when the embedder changed, a code is missing, or it was cached
    before decks kept their blur-level cuts."""
    from vision.deck import DeckProfile
    from vision.embed import DEFAULT_MODEL, OnnxEmbedder, file_sha256
    from vision.synth.tables import enrolled_deck

    path = folder / f"{game}.npz"
    if path.exists():
        try:
            cached = DeckProfile.load(path)
            if (cached.model_sha256 == file_sha256(DEFAULT_MODEL) and set(codes) <= set(cached.gallery.codes)
                    and cached.gallery.blurred_cuts):
                return path
        except ValueError as exc:
            log.warning("demo deck %s is unreadable (%s); enrolling again", path, exc)
    log.info("demo: enrolling the generated %s faces (%d cards) once; kept in %s", game, len(codes), path)
    folder.mkdir(parents=True, exist_ok=True)
    enrolled_deck(game, codes, OnnxEmbedder(), random.Random(seed)).save(path)
    return path


class Camera:
    """One game's generated table and the vision reading it, with the truth beside it."""

    def __init__(self, game: str, recording: Recording, table: LiveTable, pipeline_parts: tuple[Any, Any],
                 seed: int, size: tuple[int, int] = FRAME_SIZE, host_names_unsure: bool = True) -> None:
        from vision.pipeline import Pipeline
        from vision.synth.faces import slug
        from vision.synth.recording import RecordedTable, card_code

        changes = [s.observation for s in recording.steps if s.observation is not None]
        self.film: RecordedTable = RecordedTable(game, changes, len(recording.players), seed, size)
        detector, identifier = pipeline_parts
        self.pipeline: Pipeline = Pipeline(detector, identifier, self.film.zones.zone_of)
        self.table = table
        # the script, as the host, names a card the camera is unsure of (it looked at
        # the card); off when a real host is to answer every question
        self.host_names_unsure = host_names_unsure
        self.waiting: list[Observation] = []  # the recorded changes not yet reported
        self.waited = 0
        self.owner: dict[int, int] = {}  # vision's track -> the recording's card
        # vision's tracks whose name was judged: a track's moves and removal carry the
        # reading it appeared with, so a card under a thumb is one question, not two
        self.judged: set[int] = set()
        self.named: dict[int, str] = {}  # vision's track -> the name the script gave it
        self.unnamed: dict[int, tuple[Observation, float]] = {}  # track -> (unsure report, since)
        self.held: list[Observation] = []  # reports after an unnamed card's, until the script names it
        self.asked: set[int] = set()  # tracks judged "asked" for vision naming no card (the table may know them)
        self.recent: deque[str] = deque(maxlen=RECENT_CHANGES)
        codes = [slug(card_code(c.code or "")) for c in changes]
        self.words = {w for code in codes for w in (code, code.split("-")[0])}

    def apply(self, change: Observation) -> None:
        from vision.synth.recording import card_code

        self.film.apply(change)
        self.recent.append(card_code(change.code or ""))
        self.waiting.append(change)
        self.waited = 0

    def tick(self, tally: Tally, timestamp: float) -> None:
        """Film one frame, read it, tell the table what changed."""
        frame = self.film.frame()
        self.table.view.publish(frame)
        self.waited += 1
        for observation in self.pipeline.process(frame, timestamp):
            if observation.kind == "named":
                self._named_later(observation, tally)
                continue
            self._judge(observation, tally)
            self.held.append(observation)
        self._pass_held(tally)
        if self.waiting and self.waited >= SEEN_FRAMES:
            for change in self.waiting:
                tally.missed += 1
                log.info("demo: the camera did not report %s %s in %s", change.code, change.kind, change.zone)
            self.waiting = []

    def _pass_held(self, tally: Tally) -> None:
        """Tell the table what vision reported, in order. While the script looks at a card
        to name it, what vision reports next waits, as the table holds it while it asks
        about a card: read before the name, a card put down beside it would join a word
        or a play the table still sees the unnamed card's old reading in. A card vision
        could not name that the table knows as far as the game needs (a Gargon back, by
        its colour) needs no naming, and is judged by what the table knows it as."""
        while self.held and not self.unnamed:
            observation = self.held.pop(0)
            if observation.track in self.named:
                observation = dataclasses.replace(observation, code=self.named[observation.track], confidence=1.0)
            elif self.host_names_unsure and observation.kind != "gone" and (
                    observation.code is None or observation.confidence < self.table.confidence
                    or self._misread(observation)):
                self.unnamed[observation.track] = (observation, time.monotonic())
                if observation.code is not None:
                    continue  # the script, as the host, names it in a moment (and the log says so)
            if observation.kind == "gone":
                self.named.pop(observation.track, None)
                self.unnamed.pop(observation.track, None)
            self.table.observe(observation)
            fresh = observation.code is None and observation.kind == "appeared"  # (not a name a host gave it since)
            known = self._known_to_the_table(observation.track) if fresh else None
            if known is not None:
                self.unnamed.pop(observation.track, None)
                if observation.track in self.asked:
                    self.asked.discard(observation.track)
                    tally.asked -= 1
                    if same_card(known, self.truth(observation.track)):
                        tally.right += 1
                    else:
                        tally.wrong += 1

    def _known_to_the_table(self, track: int) -> str | None:
        return next((c["card"].code for c in self.table.seen_cards() if c["card"].track == track), None)

    def _named_later(self, observation: Observation, tally: Tally) -> None:
        """The camera names a card it reported unknown: the table hears it at once, and the
        script need not name that card, unless it names a card other than the one laid
        (the script, as the host, names that one)."""
        if self._misread(observation) or observation.track in self.named:
            return
        waiting = [i for i, o in enumerate(self.held) if o.track == observation.track]
        for i in waiting:
            self.held[i] = dataclasses.replace(self.held[i], code=observation.code, confidence=observation.confidence)
        if waiting:
            return
        tally.named_later += self.unnamed.pop(observation.track, None) is not None
        self.table.observe(observation)

    def _misread(self, observation: Observation) -> bool:
        """The camera named a card other than the one laid there: a host at the table
        would correct it, so the script does, rather than play on a wrong card."""
        card = self.owner.get(observation.track)
        truth = self.film.code_of(card) if card is not None else None
        return truth is not None and observation.code is not None and not same_card(observation.code, truth)

    def _judge(self, observation: Observation, tally: Tally) -> None:
        if observation.kind == "gone":
            card = self.owner.get(observation.track)
        else:
            card = self.film.card_at(np.mean(observation.corners, axis=0))
            if card is not None:
                self.owner[observation.track] = card
        expected = next((w for w in self.waiting if w.track == card), None)
        kinds = ("moved", "appeared") if expected is not None and expected.kind == "moved" else (
            (expected.kind,) if expected is not None else ())
        if expected is None or observation.kind not in kinds:
            tally.extra += 1
            return
        self.waiting.remove(expected)
        if expected.track == STAGED_TRACK:
            return  # no card of the game: not counted as read right or wrong
        if observation.kind != "appeared" and observation.track in self.judged:
            tally.right += 1  # reported in time; its name is the one judged (or asked) when it appeared
            return
        self.judged.add(observation.track)
        if observation.code is None or observation.confidence < self.table.confidence:
            tally.asked += 1
            if observation.code is None:
                self.asked.add(observation.track)
        elif same_card(observation.code, self.film.code_of(expected.track) or expected.code):
            tally.right += 1
        else:
            tally.wrong += 1
            log.info("demo: the camera read %s as %s", expected.code, observation.code)

    def name_unnamed(self, wait: float, tally: Tally) -> None:
        """Name, as the host would, each card the camera has shown unnamed for `wait` seconds."""
        from vision.synth.recording import STRAY

        for track, (observation, since) in list(self.unnamed.items()):
            if time.monotonic() - since < wait:
                continue
            del self.unnamed[track]
            card = self.owner.get(track)
            code = self.truth(track)
            if code is None or code == STRAY or any(self.owner.get(t) == card for t in self.named):
                continue  # one laid card seen as two (a track lost under a hand): name it once; no card
                # of the game is never named (the script says so to its question, as a host would)
            self.named[track] = code
            log.info("demo: the camera could not name a card in %s (it said %s); the script names it %s, "
                     "the card it laid", observation.zone, observation.code, code)
            self.table.observe(dataclasses.replace(observation, code=code, confidence=1.0, candidates=()))
        self._pass_held(tally)

    def truth(self, track: int | None) -> str | None:
        """What lies where vision's `track` is: the card the script laid, or `STRAY`."""
        card = self.owner.get(track) if track is not None else None
        return self.film.code_of(card) if card is not None else None

    def truthful(self, choices: list[Mapping[str, Any]]) -> int | None:
        """The first choice that names only cards the script laid (on the table now or
        just taken), each no more often than it lies there; None when no choice does."""
        from vision.synth.faces import slug

        def counted(codes: Iterator[str]) -> Counter[str]:
            names = [slug(c) for c in codes]
            return Counter(names + [n.split("-")[0] for n in names if "-" in n])  # Gargon plays name colours

        laid = counted(self.film.code_of(t) or "" for t in self.film.tracks()) | counted(iter(self.recent))
        for index, choice in enumerate(choices):
            named = +Counter({k: n for k, n in counted(strings_in(choice.get("action") or {})).items()
                              if k in self.words})
            if all(laid[k] >= n for k, n in named.items()):
                return index
        return None

    @property
    def busy(self) -> bool:
        """A change is still waiting for the camera, or a card for its name."""
        return bool(self.waiting) or bool(self.unnamed) or bool(self.held)


def _grouped(steps: Sequence[Step]) -> Iterator[tuple[Step, list[Observation]]]:
    """Each step with the camera changes it stands for: cards appearing one after the
    other in the same seat, within `PLAY_GAP` of each other, are one play and lie down
    together (the table asks about a play once it sees cards in the seat, so a play
    filmed card by card would be asked about half laid); cards laid there later are
    another event (a Lagim Defender, then the Forest card that attacks it). Cards in the
    centre keep their order: it means something there (dugtungan's PAMATO, Bagani's rows)."""
    pending: list[tuple[Step, Observation]] = []
    for step in steps:
        o = step.observation
        if pending and (o is None or o.kind != "appeared" or o.zone != pending[0][1].zone
                        or step.delay > PLAY_GAP):
            yield pending[0][0], [seen for _, seen in pending]
            pending = []
        if o is not None and o.kind == "appeared" and o.zone != CENTRE:
            pending.append((step, o))
        else:
            yield step, [o] if o is not None else []
    if pending:
        yield pending[0][0], [seen for _, seen in pending]


class DemoPlayer:
    """Plays recordings on a daemon thread; `speed` 2 halves the pauses between changes.

    Given several games it plays them in turn, looping, so a newcomer's demo shows every
    game, and each game's recordings in turn, so it shows tables of two to five players;
    `game` and `recording` are the ones playing now.
    """

    def __init__(self, table: LiveTable, games: str | Sequence[str], speed: float = 1.0, loop: bool = True,
                 answer_myself: bool = False, fps: float = FPS, size: tuple[int, int] = FRAME_SIZE,
                 threads: int = 1, seed: int = 0, script_names_unsure: bool = True) -> None:
        self.table = table
        self.answer_myself = answer_myself
        # the script names a card the camera is unsure of at once, as a host glancing at it
        # would; off, every such card is a question on the host page (as with answer_myself)
        self.script_names_unsure = script_names_unsure and not answer_myself
        self.games = (games,) if isinstance(games, str) else tuple(games)
        self.game = self.games[0]
        self.recording: Recording = adapter_for(self.game).recording()
        self.speed = speed
        self.loop = loop
        self.fps = fps
        self.size = size
        self.threads = threads
        self.seed = seed  # which generated table the first game is filmed on
        self.tally = Tally()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
        self._parts: tuple[Any, Any] | None = None
        self._vision_of: dict[str, tuple[Any, Any] | None] = {}
        self._asked_at: dict[int, float] = {}
        self._frame = 0
        self._next = 0.0

    def start(self) -> "DemoPlayer":
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a recording played once to end; True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5.0)

    # -- vision ------------------------------------------------------------------

    def _vision(self) -> tuple[Any, Any] | None:
        """The detector and identifier `companion run` would use for this game, or None
        (with one log line) when vision cannot be imported."""
        try:
            from companion.camera import CameraSetup, build_recognizer
            from vision.synth.faces import game_codes
            from vision.synth.recording import face_code

            deck = ""
            if not game_spec(self.game).printed_cards:
                laid = {face_code(self.game, s.observation.code or "") for s in self.recording.steps
                        if s.observation is not None}
                folder = self.table.store.path.parent / DECK_FOLDER
                deck = str(demo_deck(self.game, sorted(set(game_codes(self.game)) | laid), folder))
            recognizer = build_recognizer(CameraSetup("demo", deck, self.game, threads=self.threads))
        except ImportError as exc:
            log.warning("demo: vision cannot be imported (%s); replaying the recording's observations "
                        "without a camera", exc)
            return None
        return recognizer.detector, recognizer.identifier

    # -- the recording -----------------------------------------------------------

    def _run(self) -> None:
        try:
            seed = self.seed
            for turn in itertools.count():
                self.game = self.games[turn % len(self.games)]
                variants = adapter_for(self.game).recordings()  # other numbers of players, in turn
                self.recording = rec = variants[turn // len(self.games) % len(variants)]
                if self.game not in self._vision_of:
                    self._vision_of[self.game] = self._vision()
                self._parts = self._vision_of[self.game]
                self.table.start_game(self.game, rec.players, rec.options, rec.setup)
                played = self._film(rec, seed) if self._parts is not None else self._replay(rec)
                last = turn + 1 >= len(self.games) and not self.loop
                if not played or last or self._stop.wait(PAUSE_BETWEEN_GAMES / self.speed):
                    return
                seed += 1
        except Exception:  # the demo failing must leave a table the host can still run
            log.exception("the demo stopped")

    def _film(self, rec: Recording, seed: int) -> bool:
        """One game through the camera; False if stopped."""
        assert self._parts is not None
        rec = staged(rec)
        camera = Camera(self.game, rec, self.table, self._parts, seed, self.size,
                        host_names_unsure=self.script_names_unsure)
        self._next = time.monotonic()
        due = 0
        for step, together in _grouped(rec.steps):
            due = max(due, self._frame) + round(step.delay * self.fps / self.speed)
            while self._frame < due or camera.busy or self.table.open_questions():
                if not self._tick(camera):
                    return False
            if step.observation is not None:
                for change in together:  # a player puts down a play's cards at once
                    camera.apply(change)
            elif step.host is not None:
                refused = self._tap(step.host)
                if refused is not None and self.table.open_questions():
                    while self.table.open_questions():  # answered (by the host or the script), then tapped again
                        if not self._tick(camera):
                            return False
                    refused = self._tap(step.host)
                if refused is not None:
                    self._refused(refused)
        for after in itertools.count():  # the last change counted too: reported, or missed
            if after >= AFTER_LAST and not camera.busy:
                break
            if not self._tick(camera):
                return False
        self._finish_unfinished()
        self.tally.count_questions(self.table.store.events(self.table.snapshot()["game_id"]))
        self._report()
        return True

    def _finish_unfinished(self) -> None:
        """A game the recording ran out on (a refused step sent it another way) is ended
        as a host would end it, so every demo game reaches its final scores."""
        if self.table.snapshot()["status"] == "playing":
            self.tally.ended_by_script += 1
            log.info("demo: the recording ended before the game did; the script ends it, as a host would")
            self.table.end()

    def _tick(self, camera: Camera) -> bool:
        """One frame at the real-time pace; False if stopped."""
        started = time.monotonic()
        camera.tick(self.tally, self._frame / self.fps)
        self._frame += 1
        wait = ANSWER_WAIT / self.speed
        camera.name_unnamed(wait, self.tally)
        if not self.answer_myself:
            self._answer_late_questions(camera, wait)
        self.tally.frames += 1
        self.tally.seconds += time.monotonic() - started
        self._next = max(self._next + 1 / (self.fps * self.speed), time.monotonic() - 1 / self.fps)
        return not self._stop.wait(max(0.0, self._next - time.monotonic()))

    def _answer_late_questions(self, camera: Camera, wait: float) -> None:
        """Answer, with what the script laid down, each question the host left for `wait` s."""
        now = time.monotonic()
        open_now = self.table.open_questions()
        self._asked_at = {q: self._asked_at.get(q, now) for q in open_now}
        late = [q for q in open_now if now - self._asked_at[q] >= wait]
        if not late:
            return
        snapshot = self.table.snapshot()
        events = {e.seq: e for e in self.table.store.events(snapshot["game_id"])}
        for question in late:
            asked = events[question].data
            said = self._answer_as_host(camera, question, asked)
            if said is not None:
                log.info("demo: nobody answered %r in %.0f s; the script %s", asked["text"], wait, said)

    def _answer_as_host(self, camera: Camera, question: int, asked: Mapping[str, Any]) -> str | None:
        """Answer one question as a host looking at the table would: a thing that is no
        card is "not a card", a card the camera could not name is named from the list
        (the picker), a reading gets the choice that is what the script laid (or is
        dismissed). What the script did, or None when it left the question alone."""
        from vision.synth.recording import STRAY

        truth = camera.truth(asked.get("track"))
        try:
            if asked.get("about") == "name":
                if truth == STRAY:
                    self.table.answer(question, None, not_card=True)
                    return "says it is not a card: it laid no card there"
                if truth is None:
                    self.table.answer(question, None)
                    return "dismisses it: it laid no card there"
                if camera.host_names_unsure:
                    return None  # the script names such a card itself (`Camera.name_unnamed`)
                self.table.answer(question, None, code=truth)
                return f"names it {truth} from the game's cards, the card it laid"
            choice = camera.truthful(list(asked["choices"]))
            try:
                self.table.answer(question, choice)
            except IllegalMove as exc:  # what the script laid breaks the rules as the game stands
                self.table.answer(question, None)
                return f"dismisses it: {exc.reason}"
        except BadInput:  # the host answered meanwhile
            return None
        return "dismisses it: no choice is what it laid" if choice is None else \
            f"answers {asked['choices'][choice]['label']!r}, what it laid"

    def _tap(self, host: HostEvent) -> IllegalMove | BadInput | None:
        """A host tap of the recording, or why the table refused it. The cards the camera saw
        before an event entered by hand are read first (`LiveTable.submit`): when that reading
        becomes a question (an unsure or refused play), the tap is refused until it is
        answered, as a host at the table would see. An answer tap only marks where the
        script expected a question, which the camera may or may not have asked
        (`_answer_late_questions`)."""
        try:
            if host.action is not None:
                self.table.submit(host.action.to_dict(), source="host")
        except (IllegalMove, BadInput) as exc:
            return exc
        return None

    def _refused(self, exc: IllegalMove | BadInput) -> None:
        """A misread, or a real host, may have changed the game under the script; carry on."""
        self.tally.refused += 1
        log.info("demo step skipped: %s", getattr(exc, "reason", exc))

    def _report(self) -> None:
        t = self.tally
        log.info("demo: vision read the recorded cards: %d right, %d wrong, %d asked, %d missed "
                 "(%d extra reports), %.1f frames a second; questions %s, answered %s", t.right, t.wrong, t.asked,
                 t.missed, t.extra, t.frames / t.seconds if t.seconds else 0.0, dict(t.questions), dict(t.answers))

    # -- without vision ----------------------------------------------------------

    def _replay(self, rec: Recording) -> bool:
        """The recording's observations straight into the table (no vision installed)."""
        again: HostEvent | None = None  # a tap refused until the question it raised is answered
        for step in rec.steps:
            if self._stop.wait(step.delay / self.speed):
                return False
            while self.answer_myself and self.table.open_questions():
                if self._stop.wait(0.1):
                    return False
            if again is not None and self.answer_myself:
                self._tap_again(again)
                again = None
            if step.observation is not None:
                self.table.observe(step.observation)
            elif step.host is not None and step.host.answer is not None and not self.answer_myself:
                waiting = self.table.open_questions()
                if waiting:
                    try:
                        self.table.answer(waiting[0], step.host.answer)
                    except (IllegalMove, BadInput) as exc:
                        log.info("demo step skipped: %s", getattr(exc, "reason", exc))
                if again is not None:
                    self._tap_again(again)
                    again = None
            elif step.host is not None:
                refused = self._tap(step.host)
                if refused is not None and self.table.open_questions():
                    again = step.host
                elif refused is not None:
                    self._refused(refused)
        if again is not None:
            self._tap_again(again)
        return True

    def _tap_again(self, host: HostEvent) -> None:
        """A tap the table refused while it asked about the cards before it, once answered."""
        refused = self._tap(host)
        if refused is not None:
            self._refused(refused)
