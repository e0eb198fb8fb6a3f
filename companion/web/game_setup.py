"""The start form's house rules: every game's option switches with their one-line docs.

The options live in each game's `Options` dataclass (`rules/<game>_options.py`) with a
description in the field's metadata, so the form is generated from them: a new switch
appears on the phone with its explanation without touching the page.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any, get_type_hints

from rules.registry import game_spec


@dataclass(frozen=True)
class OptionField:
    """One house rule as a form control: a checkbox, a number, or a pick-list."""

    name: str
    label: str
    doc: str
    kind: str  # "bool", "int", "float" or "choice"
    default: Any
    choices: tuple[str, ...] = ()


def option_label(name: str) -> str:
    """`biyaya_fills_colour_slots` -> `Biyaya fills colour slots`."""
    return name.replace("_", " ").capitalize()


def option_fields(game: str) -> list[OptionField]:
    """The house rules of `game`, in the order its `Options` declares them. A string option
    offers the values its module lists as `<NAME>_CHOICES` (its own check uses them)."""
    options = game_spec(game).options
    module = importlib.import_module(options.__module__)
    hints = get_type_hints(options)
    fields = []
    for f in dataclasses.fields(options):
        kind = hints[f.name].__name__
        choices = tuple(getattr(module, f"{f.name.upper()}_CHOICES", ()))
        fields.append(OptionField(f.name, option_label(f.name), f.metadata.get("doc", ""),
                                  "choice" if choices else kind, f.default, choices))
    return fields
