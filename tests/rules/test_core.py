"""The shared engine interface: field-precise input errors, options, purity."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from rules.core import BadInput, best_by
from rules.options import option_docs, parse_options
from rules.payload import items, opt, player_names, req


def test_missing_field_is_named_with_its_path() -> None:
    with pytest.raises(BadInput) as caught:
        req({}, "hand", list, "players[2]")
    assert (caught.value.field, caught.value.problem) == ("players[2].hand", "missing")


def test_mistyped_field_says_what_was_expected() -> None:
    with pytest.raises(BadInput, match=r"players\[0\].hand: must be a list, got str"):
        req({"hand": "BA"}, "hand", list, "players[0]")


def test_a_boolean_is_not_an_integer() -> None:
    with pytest.raises(BadInput, match="must be an integer, got bool"):
        req({"dp": True}, "dp", int)


def test_optional_field_falls_back_to_default() -> None:
    assert opt({"row": None}, "row", list, []) == []


def test_items_reports_the_index_of_the_bad_element() -> None:
    def read(value: object, path: str) -> str:
        if value != "ok":
            raise BadInput(path, "not ok")
        return "ok"
    with pytest.raises(BadInput) as caught:
        items(["ok", "ok", "bad"], "cards", read)
    assert caught.value.field == "cards[2]"


def test_player_names_must_be_distinct() -> None:
    with pytest.raises(BadInput, match=r"players\[1\].name: duplicate player name 'Ana'"):
        player_names([{"name": "Ana"}, {"name": "Ana"}])


@dataclass(frozen=True)
class _Switches:
    hand_limit: bool = field(default=False, metadata={"doc": "8-card hand limit"})
    players: int = field(default=4, metadata={"doc": "seats"})
    floor: float = field(default=3.0, metadata={"doc": "frequency floor"})


def test_options_apply_over_defaults_and_reject_unknown_names() -> None:
    assert parse_options(_Switches, {"hand_limit": True}) == _Switches(hand_limit=True)
    with pytest.raises(BadInput, match="options.hand_limt: unknown option; known: floor, hand_limit, players"):
        parse_options(_Switches, {"hand_limt": True})
    with pytest.raises(BadInput, match="options.players: must be an integer"):
        parse_options(_Switches, {"players": "4"})
    assert parse_options(_Switches, {"floor": 4}).floor == 4.0
    with pytest.raises(BadInput, match="options.floor: must be a number"):
        parse_options(_Switches, {"floor": "high"})
    assert option_docs(_Switches)[0] == ("hand_limit", False, "8-card hand limit")


def test_best_by_keeps_every_name_sharing_the_top_key() -> None:
    assert best_by(["a", "b", "c"], [(3, 1), (3, 1), (2, 9)]) == ("a", "b")


def test_rules_import_without_io_or_vision_modules() -> None:
    """rules/ is pure: it must import with cv2, flask, sqlite3 and time unavailable."""
    code = (
        "import sys, pkgutil, importlib, importlib.readers\n"  # stdlib's own zipfile needs time
        "for name in ('cv2', 'flask', 'sqlite3', 'time', 'onnxruntime', 'companion', 'vision'):\n"
        "    sys.modules[name] = None\n"
        "import rules\n"
        "for info in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    importlib.import_module(info.name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
