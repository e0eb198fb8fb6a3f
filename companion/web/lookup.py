"""What every blueprint looks up per request: the app's services and finished games."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app

from companion.store import GameRecord


def services() -> Any:
    """The `Services` attached by `create_app` (typed Any to avoid an import cycle)."""
    return current_app.extensions["companion"]


def restart_camera() -> str | None:
    """Restart the table's live camera with the set-up as now saved, so what the host
    just changed is used at once; the source it now runs, or None (no camera: a table
    run with `--camera none`, or the demo)."""
    camera = services().camera
    setup = camera.reload() if camera is not None else None
    return getattr(setup, "camera", None)


def finished_game(game_id: int) -> GameRecord:
    """A finished game's record, or 404: a game still in play has no result to show."""
    try:
        record = services().store.game(game_id)
    except KeyError:
        abort(404)
    if record.result is None:
        abort(404)
    return record
