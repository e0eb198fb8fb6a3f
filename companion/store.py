"""The durable record of every game: SQLite in WAL mode, an append-only event log.

A game at the table is its events (a card seen and accepted, a host's correction, an
undo), so the store keeps games, their seats and the log, and nothing derived: the
scoreboard is rebuilt from the log (`companion.projection`). A crash or a power cut
loses at most the event being written; on start the game in progress is replayed.

A damaged or missing database never stops the table: the bad file is moved aside with
one clear log line and a fresh one is started, so a service restarted by systemd
cannot fall into a crash loop over the same broken file.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
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
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


class StoreError(Exception):
    """The database cannot be used at all, not even as a fresh file (e.g. no permission)."""


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
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # a power cut at the table must not lose the last move
    conn.execute("PRAGMA foreign_keys=ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"written by a newer version (schema {version})")
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise sqlite3.DatabaseError(f"integrity check failed: {check}")
    conn.executescript(SCHEMA)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return conn


def _move_aside(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.replace(Path(f"{target}{suffix}"))
    return target


def open_database(path: Path) -> sqlite3.Connection:
    """A usable connection to `path`; a missing or damaged file becomes a fresh one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"{path.parent}: cannot create the data folder: {exc.strerror}") from None
    if not path.exists():
        log.warning("no game database at %s; starting a fresh one", path)
    else:
        try:
            return _connect(path)
        except sqlite3.DatabaseError as exc:
            aside = _move_aside(path)
            log.error("game database %s is unreadable (%s); moved it to %s and started a fresh one",
                      path, exc, aside)
    try:
        return _connect(path)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot create the game database: {exc}") from None


class Store:
    """Games, seats and their append-only logs in one SQLite file; safe across threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn = open_database(self.path)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def new_game(self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None) -> GameRecord:
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
        return self.game(game_id)

    def append(self, game_id: int, type_: str, data: Mapping[str, Any]) -> StoredEvent:
        """Write one event durably and return it with its sequence number."""
        now = time.time()
        text = json.dumps(dict(data), ensure_ascii=False)
        with self._lock, self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            seq = self._conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id=?",
                                     (game_id,)).fetchone()[0]
            self._conn.execute("INSERT INTO events (game_id, seq, at, type, data) VALUES (?, ?, ?, ?, ?)",
                               (game_id, seq, now, type_, text))
        return StoredEvent(seq=seq, at=now, type=type_, data=json.loads(text))

    def events(self, game_id: int) -> list[StoredEvent]:
        with self._lock:
            rows = self._conn.execute("SELECT seq, at, type, data FROM events WHERE game_id=? ORDER BY seq",
                                      (game_id,)).fetchall()
        return [StoredEvent(seq=r[0], at=r[1], type=r[2], data=json.loads(r[3])) for r in rows]

    def finish(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Mark a game finished with its final score (the contract's `score` JSON)."""
        with self._lock, self._conn:
            self._conn.execute("UPDATE games SET status='finished', ended_at=?, result=? WHERE id=?",
                               (time.time(), json.dumps(dict(result), ensure_ascii=False), game_id))

    def game(self, game_id: int) -> GameRecord:
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
        return [GameRecord(id=r[0], game=r[1], players=seats[r[0]], options=json.loads(r[2]),
                           setup=json.loads(r[3]), started_at=r[4], ended_at=r[5], status=r[6],
                           result=json.loads(r[7]) if r[7] else None) for r in rows]
