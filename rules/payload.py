"""Reading JSON requests with errors that name the exact field.

Every engine reads `score`/`check` input through these helpers so that a mistake is
always reported as `players[1].hand[2]: unknown card code 'blu-circle'`, never as a
KeyError deep inside a rule.

With `rules.catalogue` this module is the kernel that vision shares: it imports no
game engine (nothing else of `rules`), so vision reads its JSON (observations, zone
files) the same way without knowing any rule. `tests/test_import_direction.py` keeps
it so.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, TypeVar

T = TypeVar("T")


class BadInput(ValueError):
    """Input that cannot be judged at all: names the field and the problem.

    Distinct from IllegalMove: an illegal move is a normal answer (`valid: false`),
    bad input is a mistake in the request (exit status 2 on the command line).
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list",
               dict: "an object"}


def _describe(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)


def expect(value: Any, kind: type | tuple[type, ...], path: str) -> Any:
    """`value` if it has the JSON type `kind`; bools are never accepted as integers."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        got = "null" if value is None else type(value).__name__
        raise BadInput(path, f"must be {_describe(kind)}, got {got}")
    return value


def obj(value: Any, path: str) -> Mapping[str, Any]:
    return expect(value, dict, path)


def req(mapping: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: str = "") -> Any:
    """A required field of `mapping`, type-checked."""
    where = f"{path}.{key}" if path else key
    if key not in mapping:
        raise BadInput(where, "missing")
    return expect(mapping[key], kind, where)


def opt(mapping: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: T,
        path: str = "") -> Any | T:
    """An optional field: `default` when absent or null."""
    if mapping.get(key) is None:
        return default
    return req(mapping, key, kind, path)


def items(values: Sequence[Any], path: str, read: Callable[[Any, str], T]) -> list[T]:
    """Read each element of a list with `read(element, 'path[i]')`."""
    return [read(v, f"{path}[{i}]") for i, v in enumerate(values)]


def player_names(players: Sequence[Mapping[str, Any]], path: str = "players") -> list[str]:
    """Names of the players, required, non-empty and distinct."""
    if not players:
        raise BadInput(path, "needs at least one player")
    names: list[str] = []
    for i, p in enumerate(players):
        name = req(obj(p, f"{path}[{i}]"), "name", str, f"{path}[{i}]").strip()
        if not name:
            raise BadInput(f"{path}[{i}].name", "must not be empty")
        if name in names:
            raise BadInput(f"{path}[{i}].name", f"duplicate player name {name!r}")
        names.append(name)
    return names


def seat_of(value: int | str, names: Sequence[str], path: str) -> int:
    """The seat a set-up names by index or by player name."""
    if isinstance(value, str):
        if value not in names:
            raise BadInput(path, f"{value!r} is not a player")
        return names.index(value)
    if not 0 <= value < len(names):
        raise BadInput(path, f"no seat {value}; seats are 0 to {len(names) - 1}")
    return value


def one_of(value: Any, choices: Sequence[str] | Mapping[str, Any], path: str, what: str) -> str:
    """`value` when it names one of `choices`; BadInput listing them otherwise."""
    expect(value, str, path)
    if value not in choices:
        raise BadInput(path, f"unknown {what} {value!r}; one of {', '.join(choices)}")
    return value
