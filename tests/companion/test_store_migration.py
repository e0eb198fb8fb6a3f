"""A game database written before event format 2 (Gargon and dugtungan named the actor
`seat`) is migrated once when opened: every stored game event rewritten in the current
format in one transaction, nothing lost, and the game replays to the same scores."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from companion.projection import project
from companion.store import SCHEMA_VERSION, Store
from rules.event import upgrade

GOLDEN = Path(__file__).resolve().parents[1] / "rules" / "data" / "golden" / "gargon-4p-defaults.json"

# The database as schema version 1 wrote it.
VERSION_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, setup TEXT NOT NULL,
    started_at REAL NOT NULL, ended_at REAL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')), result TEXT);
CREATE TABLE seats (game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, at REAL NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, seq));
CREATE TABLE requests (key TEXT PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), at REAL NOT NULL);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
PRAGMA user_version=1;
"""


def version_1_file(path: Path) -> dict:
    """A real SQLite file in the old shape holding the golden Gargon game in format 1,
    with a question and a rename among its events, and an abandoned game holding a
    hand-edited line; the golden log."""
    log = json.loads(GOLDEN.read_text("utf-8"))
    assert any("seat" in e and "player" not in e for e in log["events"]), "the golden log is format 1"
    rows = [("action", {"action": e, "source": "host"}) for e in log["events"]]
    rows.insert(1, ("question", {"text": "Did P1 play red?", "choices": [
        {"label": "Yes", "action": {"kind": "play", "seat": 1, "colours": ["red"]}},
        {"label": "Not a card", "action": None}]}))
    rows.insert(2, ("answer", {"question": 2, "choice": None}))
    rows.insert(3, ("rename", {"seat": 0, "name": log["players"][0]}))
    conn = sqlite3.connect(path)
    conn.executescript(VERSION_1)
    conn.execute("INSERT INTO games VALUES (1, 'gargon', ?, ?, 1.0, NULL, 'playing', NULL)",
                 (json.dumps(log["options"]), json.dumps(log["setup"])))
    conn.executemany("INSERT INTO seats VALUES (1, ?, ?)", list(enumerate(log["players"])))
    conn.executemany("INSERT INTO events VALUES (1, ?, ?, ?, ?)",
                     [(i + 1, 2.0 + i, t, json.dumps(d)) for i, (t, d) in enumerate(rows)])
    conn.execute("INSERT INTO games VALUES (2, 'gargon', '{}', '{}', 0.5, 0.6, 'abandoned', NULL)")
    conn.execute("INSERT INTO events VALUES (2, 1, 0.55, 'action', '{not json')")
    conn.commit()
    conn.close()
    return log


def raw_events(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT game_id, seq, at, type, data FROM events ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_a_version_1_file_is_migrated_once_and_nothing_is_lost(tmp_path, caplog):
    path = tmp_path / "games.db"
    log = version_1_file(path)
    before = raw_events(path)
    caplog.set_level(logging.WARNING, logger="companion.store")
    store = Store(path)
    after = raw_events(path)
    assert user_version(path) == SCHEMA_VERSION == 2
    # nothing lost: the same lines, in order, at the same times; only the actor's key moved
    assert [r[:4] for r in after] == [r[:4] for r in before]
    for old, new in zip(before, after):
        if old[4].startswith("{not"):
            assert new[4] == old[4]
            continue
        old_data, new_data = json.loads(old[4]), json.loads(new[4])
        if old[3] == "action":
            assert new_data == {**old_data, "action": dict(upgrade(old_data["action"]))}
            assert "seat" not in new_data["action"]
            assert ("player" in new_data["action"]) == ("seat" in old_data["action"])
        elif old[3] == "question":
            assert new_data["choices"][0]["action"] == {"kind": "play", "player": 1, "colours": ["red"]}
            assert new_data["choices"][1] == old_data["choices"][1]
        else:
            assert new_data == old_data  # a rename's seat is no game event's actor
    # the game replays to its golden scores from the migrated log
    projection = project(store, store.game(1))
    assert projection.state.scores().to_dict() == log["scores"]
    assert sum("rewritten in event format 2" in r.getMessage() for r in caplog.records) == 1
    store.close()
    # once: a second start finds the file current and rewrites nothing
    Store(path).close()
    assert raw_events(path) == after
    assert sum("rewritten in event format 2" in r.getMessage() for r in caplog.records) == 1
    # and the log is append-only again
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        sqlite3.connect(path).execute("UPDATE events SET data='{}'")


def test_a_migration_that_fails_half_way_leaves_the_old_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "games.db"
    version_1_file(path)
    before = raw_events(path)
    calls = []

    def fail_on_the_fifth(data):
        calls.append(data)
        if len(calls) == 5:
            raise OSError("power cut")
        return upgrade_line(data)

    import companion.store as store_module
    upgrade_line = store_module._in_format_2
    monkeypatch.setattr(store_module, "_in_format_2", fail_on_the_fifth)
    with pytest.raises(OSError, match="power cut"):
        Store(path)
    assert raw_events(path) == before and user_version(path) == 1
    monkeypatch.undo()
    Store(path).close()
    assert user_version(path) == 2
    assert all("seat" not in json.loads(d)["action"] for *_, t, d in raw_events(path)
               if t == "action" and not d.startswith("{not"))
