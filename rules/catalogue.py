"""Card catalogues: JSON data files inside the package, loaded once.

Catalogues are data, not code, so a deck file can override what the rulebooks do not
print (Halimaw stats, Lagim levels) with the same shape.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=None)
def load_catalogue(name: str) -> Any:
    """The parsed `rules/data/<name>.json`; cached, so treat the result as read-only."""
    text = resources.files("rules").joinpath("data", f"{name}.json").read_text("utf-8")
    return json.loads(text)
