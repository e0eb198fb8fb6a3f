"""House-default switches: a frozen dataclass per game, overridden from a JSON object.

RULES-NOTES marks readings of silent rulebooks as house defaults; each is a field here
with its default, so a table can switch it and the README can list it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, TypeVar, get_type_hints

from rules.core import BadInput

OptionsT = TypeVar("OptionsT")


def parse_options(cls: type[OptionsT], raw: Mapping[str, Any] | None, path: str = "options") -> OptionsT:
    """An instance of the options dataclass `cls` with `raw` applied over its defaults.

    Unknown names and wrong types are BadInput naming the option.
    """
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        raise BadInput(path, "must be an object")
    hints = get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise BadInput(f"{path}.{key}", f"unknown option; known: {', '.join(sorted(known))}")
        kind = hints[key]
        if kind is bool and not isinstance(value, bool):
            raise BadInput(f"{path}.{key}", "must be true or false")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadInput(f"{path}.{key}", "must be an integer")
        if kind is str and not isinstance(value, str):
            raise BadInput(f"{path}.{key}", "must be a string")
        if kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise BadInput(f"{path}.{key}", "must be a number")
            value = float(value)
            if not math.isfinite(value):
                raise BadInput(f"{path}.{key}", "must be a finite number")
        values[key] = value
    try:
        return cls(**values)
    except ValueError as exc:  # __post_init__ bounds checks
        raise BadInput(path, str(exc)) from None


def option_docs(cls: type) -> list[tuple[str, Any, str]]:
    """(name, default, description) for each option, from the field metadata."""
    return [(f.name, f.default, f.metadata.get("doc", ""))
            for f in dataclasses.fields(cls)]
