"""What every blueprint looks up per request: the app's services and finished games."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app

from companion.store import GameRecord


def services() -> Any:
    """The `Services` attached by `create_app` (typed Any to avoid an import cycle)."""
    return current_app.extensions["companion"]


def finished_game(game_id: int) -> GameRecord:
    """A finished game's record, or 404: a game still in play has no result to show."""
    try:
        record = services().store.game(game_id)
    except KeyError:
        abort(404)
    if record.result is None:
        abort(404)
    return record
