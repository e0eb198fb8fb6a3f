"""The durable record of every game: SQLite in WAL mode, an append-only event log.

A game at the table is its events (a card seen and accepted, a host's correction, an
undo), so the store keeps games, their seats and the log, and nothing derived: the
scoreboard is rebuilt from the log (`companion.projection`). A crash or a power cut
loses at most the event being written; on start the game in progress is replayed.

A damaged or missing database never stops the table: the bad file is moved aside with
one clear log line and a fresh one is started, so a service restarted by systemd
cannot fall into a crash loop over the same broken file. Only a file SQLite calls
damaged is set aside: one that is read-only, locked by another program or written by a
newer version is healthy, and the store refuses to start with one clear line instead.
A lock file beside the database makes one data folder serve one server, or two boards
would diverge. A host's write carries an optional request key stored in the same
transaction as its events, so a resend after a crash is recognised and recorded once.

The file carries its schema version (SQLite's `user_version`). Version 2 keeps every game
event in the current event format (`rules.event.EVENT_FORMAT`); a file of an older
version is migrated once, when it is opened, in one transaction: all of it or none.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from rules.event import upgrade

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 1: events as each game first wrote them; 2: every event in event format 2
NO_UPDATE = """CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;"""
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    setup TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    result TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL
);
{no_update}
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
""".format(no_update=NO_UPDATE)


BUSY_SECONDS = 10.0  # how long a write waits for another program's lock before giving up
DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


class StoreError(Exception):
    """The database cannot be used as it is (read-only, locked, in use by another server,
    a disk that refuses writes): said in one line, and nothing is set aside."""


class DamagedLog(StoreError):
    """A stored line that is not JSON (a hand edit, a disk that lied about a write): said
    with the file, the game and the line, and nothing is changed, so every line recorded
    before and after it is still there when the file is mended."""


class DamagedDatabase(sqlite3.DatabaseError):
    """SQLite's own integrity check failed: the file is damaged, not merely unusable now."""


@dataclass(frozen=True)
class GameRecord:
    """One game: what was played, by whom, with which house switches, and how it ended."""

    id: int
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    setup: Mapping[str, Any]
    started_at: float
    ended_at: float | None
    status: str
    result: Mapping[str, Any] | None


@dataclass(frozen=True)
class StoredEvent:
    """One line of a game's log; `seq` counts from 1 within the game."""

    seq: int
    at: float
    type: str
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "type": self.type, "data": dict(self.data)}


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=BUSY_SECONDS)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # a power cut at the table must not lose the last move
    conn.execute("PRAGMA foreign_keys=ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError(f"{path}: written by a newer version of table-companion (schema {version}); "
                         "upgrade this one")
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        conn.close()
        raise DamagedDatabase(f"integrity check failed: {check}")
    conn.executescript(SCHEMA)
    _migrate(conn, version)
    return conn


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a file of schema `version` up to SCHEMA_VERSION in one transaction, so a
    power cut mid-way leaves the old file as it was and the next start migrates again.
    Run on every open, current or not: its write lock finds another program's lock at
    the start, not at the first move."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if version < 2:
            _events_to_format_2(conn)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _events_to_format_2(conn: sqlite3.Connection) -> None:
    """Every stored game event in format 2 (`rules.event.upgrade`: Gargon's and dugtungan's
    actor `seat` is `player`), wherever the log holds one: an action, a correction, a
    question's choices. The log is append-only, so its guard is lifted for this one
    rewrite of the format, which changes no event's meaning, and put back."""
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    rows = conn.execute("SELECT game_id, seq, data FROM events WHERE type IN ('action', 'correct', 'question')")
    changed = 0
    for game_id, seq, text in rows.fetchall():
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            continue  # a hand-edited line: the projection reports it, the migration keeps it
        upgraded = _in_format_2(data)
        if upgraded != data:
            conn.execute("UPDATE events SET data=? WHERE game_id=? AND seq=?",
                         (json.dumps(upgraded, ensure_ascii=False), game_id, seq))
            changed += 1
    conn.execute(NO_UPDATE)
    if changed:
        log.warning("game database: %d stored events rewritten in event format 2", changed)


def _in_format_2(data: Any) -> Any:
    """A stored line with its game events upgraded: `action` of an action or correction,
    each choice's `action` of a question."""
    if not isinstance(data, dict):
        return data
    if isinstance(data.get("action"), dict):
        data = {**data, "action": dict(upgrade(data["action"]))}
    if isinstance(data.get("choices"), list):
        data = {**data, "choices": [{**c, "action": dict(upgrade(c["action"]))}
                                    if isinstance(c, dict) and isinstance(c.get("action"), dict) else c
                                    for c in data["choices"]]}
    return data


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.replace(Path(f"{target}{suffix}"))
    return target


def _unusable(exc: sqlite3.Error) -> str | None:
    """Why a healthy `path` cannot be used now, or None when SQLite says it is damaged."""
    name = getattr(exc, "sqlite_errorname", "")
    if isinstance(exc, DamagedDatabase) or name in DAMAGED:
        return None
    if name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
        return (f"the game database is locked by another program (waited {BUSY_SECONDS:.0f} s); "
                "close it and start again")
    if name.startswith("SQLITE_READONLY"):
        return "the game database is read-only; make it and its folder writable"
    if name == "SQLITE_FULL":
        return "the disk is full; free some space and start again"
    return f"cannot use the game database: {exc}"


def _ready_folder(path: Path) -> None:
    """The data folder made if missing; StoreError if it or the file refuses writes (a
    read-only mount, permissions)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path.parent}: cannot create the data folder: {exc.strerror}") from None
    if not os.access(path.parent, os.W_OK):
        raise StoreError(f"{path.parent}: the data folder is read-only; make it writable "
                         "or choose another with --data-dir")
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreError(f"{path}: the game database is read-only; make it writable (chmod u+w)")


def open_database(path: Path) -> sqlite3.Connection:
    """A usable connection to `path`; a missing or damaged file becomes a fresh one, a
    healthy file that cannot be used now is a StoreError."""
    _ready_folder(path)
    if not path.exists():
        log.warning("no game database at %s; starting a fresh one", path)
    else:
        try:
            return _connect(path)
        except sqlite3.Error as exc:
            problem = _unusable(exc)
            if problem:
                raise StoreError(f"{path}: {problem}") from None
            aside = _move_aside(path)
            log.error("game database %s is unreadable (%s); moved it to %s and started a fresh one",
                      path, exc, aside)
    try:
        return _connect(path)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot create the game database: {_unusable(exc) or exc}") from None


class FolderLock:
    """An exclusive lock on `<database>.lock`, held while a server uses the database; the
    kernel drops it when the process dies, so a kill -9 never leaves a stale lock."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        try:
            self._file = open(self.path, "a+", encoding="utf-8")
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create the lock file: {exc.strerror}") from None
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.seek(0)
            holder = self._file.read().strip() or "unknown"
            self._file.close()
            raise StoreError(f"{database.parent}: another table-companion server (pid {holder}) "
                             "uses this data folder; stop it or choose another --data-dir") from None
        self._file.truncate(0)
        self._file.write(str(os.getpid()))
        self._file.flush()

    def release(self) -> None:
        self._file.close()


class Store:
    """Games, seats and their append-only logs in one SQLite file; safe across threads."""

    def __init__(self, path: str | Path, exclusive: bool = False) -> None:
        """`exclusive`: hold the folder lock, as a server must (StoreError if another has it)."""
        self.path = Path(path)
        if exclusive:
            _ready_folder(self.path)
        self._folder_lock = FolderLock(self.path) if exclusive else None
        try:
            self._conn = open_database(self.path)
        except StoreError:
            if self._folder_lock:
                self._folder_lock.release()
            raise
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._folder_lock:
                self._folder_lock.release()

    def new_game(self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None, key: str | None = None) -> GameRecord:
        """Start a game; any game still marked in progress is abandoned (one table, one game)."""
        now = time.time()
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute("UPDATE games SET status='abandoned', ended_at=? WHERE status='playing'", (now,))
            cur = self._conn.execute(
                "INSERT INTO games (game, options, setup, started_at, status) VALUES (?, ?, ?, ?, 'playing')",
                (game, json.dumps(dict(options or {})), json.dumps(dict(setup or {})), now))
            game_id = int(cur.lastrowid or 0)
            self._conn.executemany("INSERT INTO seats (game_id, seat, name) VALUES (?, ?, ?)",
                                   [(game_id, i, name) for i, name in enumerate(players)])
            self._remember(key, game_id, now)
        return self.game(game_id)

    def append(self, game_id: int, type_: str, data: Mapping[str, Any], key: str | None = None) -> StoredEvent:
        """Write one event durably and return it with its sequence number."""
        return self.record(game_id, [(type_, data)], key=key)[0]

    def record(self, game_id: int, events: Sequence[tuple[str, Mapping[str, Any]]], key: str | None = None,
               result: Mapping[str, Any] | None = None, status: str | None = None) -> list[StoredEvent]:
        """Write `events` in one transaction, with the request `key` and, when the game ends
        with them, its `status` ('finished' with `result`, or 'abandoned'): all or nothing."""
        now = time.time()
        texts = [(type_, json.dumps(dict(data), ensure_ascii=False)) for type_, data in events]
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            first = self._conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id=?",
                                       (game_id,)).fetchone()[0]
            self._conn.executemany("INSERT INTO events (game_id, seq, at, type, data) VALUES (?, ?, ?, ?, ?)",
                                   [(game_id, first + i, now, t, text) for i, (t, text) in enumerate(texts)])
            self._remember(key, game_id, now)
            if status:
                final = None if result is None else json.dumps(dict(result), ensure_ascii=False)
                self._conn.execute("UPDATE games SET status=?, ended_at=?, result=? WHERE id=?",
                                   (status, now, final, game_id))
        return [StoredEvent(seq=first + i, at=now, type=t, data=json.loads(text))
                for i, (t, text) in enumerate(texts)]

    def _remember(self, key: str | None, game_id: int, now: float) -> None:
        if key:
            self._conn.execute("INSERT INTO requests (key, game_id, at) VALUES (?, ?, ?)", (key, game_id, now))

    def seen(self, key: str) -> bool:
        """Whether a host's write with request `key` was already recorded."""
        with self._lock:
            return self._conn.execute("SELECT 1 FROM requests WHERE key=?", (key,)).fetchone() is not None

    def events(self, game_id: int) -> list[StoredEvent]:
        """Game `game_id`'s log in order; DamagedLog if a line of it is not JSON."""
        with self._lock:
            rows = self._conn.execute("SELECT seq, at, type, data FROM events WHERE game_id=? ORDER BY seq",
                                      (game_id,)).fetchall()
        return [StoredEvent(seq=r[0], at=r[1], type=r[2], data=self._json(r[3], f"game {game_id} event {r[0]}"))
                for r in rows]

    def _json(self, text: str, where: str) -> Any:
        try:
            return json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            problem = f"not JSON ({exc})" if isinstance(exc, json.JSONDecodeError) else "not JSON text"
            raise DamagedLog(f"{self.path}: {where}: {problem}; nothing was changed: mend that line "
                             "(sqlite3), or start with another --data-dir") from None

    def finish(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Mark a game finished with its final score (the contract's `score` JSON)."""
        self.record(game_id, [], result=result, status="finished")

    def game(self, game_id: int) -> GameRecord:
        """Game `game_id`; KeyError if there is none (also for ids beyond SQLite's integers)."""
        if not -2**63 <= game_id < 2**63:
            raise KeyError(game_id)
        records = self._games("WHERE id=?", (game_id,))
        if not records:
            raise KeyError(game_id)
        return records[0]

    def game_in_progress(self) -> GameRecord | None:
        records = self._games("WHERE status='playing' ORDER BY id DESC LIMIT 1", ())
        return records[0] if records else None

    def finished_games(self, limit: int = 100) -> list[GameRecord]:
        """Past games, newest first, for the history page."""
        return self._games("WHERE status='finished' ORDER BY id DESC LIMIT ?", (limit,))

    def _games(self, where: str, params: tuple[Any, ...]) -> list[GameRecord]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT id, game, options, setup, started_at, ended_at, status, result FROM games {where}",
                params).fetchall()
            seats = {r[0]: tuple(name for (name,) in self._conn.execute(
                "SELECT name FROM seats WHERE game_id=? ORDER BY seat", (r[0],))) for r in rows}
        return [GameRecord(id=r[0], game=r[1], players=seats[r[0]], options=self._json(r[2], f"game {r[0]} options"),
                           setup=self._json(r[3], f"game {r[0]} setup"), started_at=r[4], ended_at=r[5],
                           status=r[6], result=self._json(r[7], f"game {r[0]} result") if r[7] else None)
                for r in rows]
