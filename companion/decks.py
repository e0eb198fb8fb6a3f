"""Where the decks enrolled from the phone live, and which one the table's camera uses."""

from __future__ import annotations

from pathlib import Path

DECK_FOLDER = "decks"


def table_deck(data_dir: Path, game: str) -> str:
    """The deck enrolled on the host page for `game` (`<data_dir>/decks/<game>.npz`), or ""."""
    path = data_dir / DECK_FOLDER / f"{game}.npz"
    return str(path) if path.is_file() else ""
