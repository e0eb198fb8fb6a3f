"""The store: an append-only log in SQLite that survives crashes and damaged files."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from companion.store import DamagedLog, Store, StoreError


def test_events_are_numbered_from_one_per_game(tmp_path):
    store = Store(tmp_path / "games.db")
    first = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    assert [store.append(first.id, "action", {"n": i}).seq for i in range(3)] == [1, 2, 3]
    second = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    assert store.append(second.id, "action", {}).seq == 1


def test_the_log_is_append_only(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    store.append(game.id, "action", {"kind": "play"})
    raw = sqlite3.connect(tmp_path / "games.db")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE events SET data='{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM events")


def test_the_database_is_in_wal_mode(tmp_path):
    Store(tmp_path / "games.db")
    assert sqlite3.connect(tmp_path / "games.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_starting_a_game_abandons_the_one_in_progress(tmp_path):
    store = Store(tmp_path / "games.db")
    old = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    new = store.new_game("gargon", ["Dan", "Eve", "Fay"])
    assert store.game(old.id).status == "abandoned"
    assert store.game_in_progress() == new


def test_a_reopened_store_has_every_event(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"], options={"open_won_cards": True})
    store.append(game.id, "rename", {"seat": 0, "name": "Anna"})
    store.close()
    again = Store(tmp_path / "games.db")
    assert again.game_in_progress().options == {"open_won_cards": True}
    assert [e.data for e in again.events(game.id)] == [{"seat": 0, "name": "Anna"}]


def test_a_finished_game_keeps_its_final_score(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    result = {"game": "gargon", "players": [], "winners": ["Ana"]}
    store.finish(game.id, result)
    assert store.game(game.id).result == result
    assert store.game_in_progress() is None
    assert [g.id for g in store.finished_games()] == [game.id]


def test_a_missing_database_is_created_with_one_log_line(tmp_path, caplog):
    path = tmp_path / "deeper" / "games.db"
    with caplog.at_level(logging.WARNING, logger="companion.store"):
        Store(path)
    assert path.exists()
    assert [r.getMessage() for r in caplog.records] == [f"no game database at {path}; starting a fresh one"]


def test_a_corrupt_database_is_moved_aside_and_replaced(tmp_path, caplog):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database at all, it is a shopping list" * 100)
    with caplog.at_level(logging.WARNING, logger="companion.store"):
        store = Store(path)
    assert store.game_in_progress() is None
    moved = list(tmp_path.glob("games.db.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes().startswith(b"this is not a database")
    (line,) = [r.getMessage() for r in caplog.records]
    assert "unreadable" in line and str(moved[0]) in line
    store.new_game("gargon", ["Ana", "Ben", "Carla"])  # the fresh file works


def test_a_damaged_page_in_a_real_database_is_caught(tmp_path):
    path = tmp_path / "games.db"
    store = Store(path)
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    for i in range(30):
        store.append(game.id, "action", {"filler": "x" * 2000, "i": i})
    store.close()
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = bytearray(path.read_bytes())
    data[4096 * 3:4096 * 6] = b"\xff" * (4096 * 3)  # smash three pages in the middle
    path.write_bytes(bytes(data))
    Store(path)
    assert list(tmp_path.glob("games.db.corrupt-*"))


def test_a_database_locked_by_another_program_is_refused_not_set_aside(tmp_path, monkeypatch):
    path = tmp_path / "games.db"
    Store(path).new_game("gargon", ["Ana", "Ben", "Carla"])
    monkeypatch.setattr("companion.store.BUSY_SECONDS", 0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked by another program"):
            Store(path)
    finally:
        holder.close()
    assert not list(tmp_path.glob("games.db.corrupt-*"))
    assert Store(path).game_in_progress().players == ("Ana", "Ben", "Carla")


def test_a_database_from_a_newer_version_is_refused_not_set_aside(tmp_path):
    path = tmp_path / "games.db"
    Store(path).close()
    sqlite3.connect(path).execute("PRAGMA user_version=99").connection.close()
    with pytest.raises(StoreError, match="newer version"):
        Store(path)
    assert not list(tmp_path.glob("games.db.corrupt-*"))


def test_one_database_serves_one_server(tmp_path):
    first = Store(tmp_path / "games.db", exclusive=True)
    with pytest.raises(StoreError, match=r"another table-companion server \(pid \d+\) uses this data folder"):
        Store(tmp_path / "games.db", exclusive=True)
    first.close()
    Store(tmp_path / "games.db", exclusive=True).close()  # released on close


def test_events_written_together_are_all_kept_or_none(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    store._conn.execute("CREATE TRIGGER refuse_actions BEFORE INSERT ON events WHEN NEW.type = 'action' "
                        "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    with pytest.raises(sqlite3.DatabaseError, match="disk trouble"):
        store.record(game.id, [("answer", {"question": 1, "choice": 0}), ("action", {})], key="tap-1")
    assert store.events(game.id) == [] and not store.seen("tap-1")


def test_a_request_key_is_kept_with_its_events(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"], key="start-1")
    store.append(game.id, "rename", {"seat": 0, "name": "Anna"}, key="tap-1")
    store.close()
    again = Store(tmp_path / "games.db")
    assert again.seen("start-1") and again.seen("tap-1") and not again.seen("tap-2")


def test_a_game_id_beyond_sqlite_integers_is_simply_not_there(tmp_path):
    with pytest.raises(KeyError):
        Store(tmp_path / "games.db").game(10 ** 23)


def test_a_log_line_that_is_not_json_names_the_file_game_and_line(tmp_path):
    store = Store(tmp_path / "games.db")
    game = store.new_game("gargon", ["Ana", "Ben", "Carla"])
    store.append(game.id, "rename", {"seat": 0, "name": "Anna"})
    with sqlite3.connect(tmp_path / "games.db") as raw:
        raw.execute("INSERT INTO events (game_id, seq, at, type, data) VALUES (?, 2, 0, 'rename', '{\"seat\": 0')",
                    (game.id,))
    with pytest.raises(DamagedLog, match=rf"games\.db: game {game.id} event 2: not JSON \(Expecting"):
        store.events(game.id)
    assert store.append(game.id, "rename", {"seat": 1, "name": "Benny"}).seq == 3  # still appends
