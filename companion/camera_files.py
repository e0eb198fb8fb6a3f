"""Where the camera set-up made on the host page lives: the source, decks and seat zones.

`companion run` and `companion start` use them where the settings name none (for the
camera: where the setting is the default, `auto`), so what a host sets up from the
phone is what the camera uses at its next start.
"""

from __future__ import annotations

from pathlib import Path

DECK_FOLDER = "decks"
ZONES_FILE = "zones.json"
CAMERA_FILE = "camera.txt"


def table_camera(setting: str, data_dir: Path) -> str:
    """The camera setting, or the source chosen on the host page in place of `auto`."""
    path = data_dir / CAMERA_FILE
    if setting == "auto" and path.is_file():
        return path.read_text(encoding="utf-8").strip() or setting
    return setting


def table_deck(setting: str, data_dir: Path, game: str) -> str:
    """The deck setting, or the deck enrolled on the host page for `game`, or ""."""
    path = data_dir / DECK_FOLDER / f"{game}.npz"
    return setting or (str(path) if path.is_file() else "")


def table_zones(setting: str, data_dir: Path) -> str:
    """The zones-file setting, or the seat zones calibrated on the host page, or ""."""
    path = data_dir / ZONES_FILE
    return setting or (str(path) if path.is_file() else "")
