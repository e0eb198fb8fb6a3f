"""Where the camera set-up made on the host page lives: enrolled decks and seat zones.

`companion run` and `companion start` use them when the settings name none, so what a
host sets up from the phone is what the camera uses at the next start.
"""

from __future__ import annotations

from pathlib import Path

DECK_FOLDER = "decks"
ZONES_FILE = "zones.json"


def table_deck(data_dir: Path, game: str) -> str:
    """The deck enrolled on the host page for `game` (`<data_dir>/decks/<game>.npz`), or ""."""
    path = data_dir / DECK_FOLDER / f"{game}.npz"
    return str(path) if path.is_file() else ""


def table_zones(data_dir: Path) -> str:
    """The seat zones calibrated on the host page (`<data_dir>/zones.json`), or ""."""
    path = data_dir / ZONES_FILE
    return str(path) if path.is_file() else ""
