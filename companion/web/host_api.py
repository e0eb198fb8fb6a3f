"""The host's writes: every route is a POST under /api/host/ and refused without the token.

Errors come back as JSON `{"error": ...}`: 400 for a malformed request (naming the
field), 409 for an event the rules refuse (with the reason a player can hear).
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, Response, jsonify, request

from companion.web.auth import host_required
from companion.web.lookup import services
from rules.core import BadInput, IllegalMove
from rules.payload import expect, opt, req

bp = Blueprint("host_api", __name__, url_prefix="/api/host")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        data = request.form.to_dict()
    if not isinstance(data, dict):
        raise BadInput("", "the request must be a JSON object")
    return data


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


@bp.errorhandler(IllegalMove)
def _illegal(exc: IllegalMove) -> tuple[Response, int]:
    return jsonify(error=exc.reason), 409


def _done() -> Response:
    """The new state, so the host's page redraws without waiting for the push."""
    app_services = services()
    speaker = app_services.speaker
    return jsonify({**app_services.table.snapshot(),
                    "speech": {"muted": speaker.muted, "rate": speaker.rate, "status": speaker.status}})


def _route(rule: str) -> Callable[[Callable[[dict[str, Any]], None]], Callable[[], Response]]:
    """Register a host write: the function gets the JSON body; the answer is the new state."""
    def register(handler: Callable[[dict[str, Any]], None]) -> Callable[[], Response]:
        def view() -> Response:
            handler(_body())
            return _done()
        view.__name__ = handler.__name__
        return bp.route(rule, methods=["POST"])(host_required(view))
    return register


@_route("/start")
def start(body: dict[str, Any]) -> None:
    players = req(body, "players", (list, str))
    if isinstance(players, str):
        players = [p for p in players.replace("\n", ",").split(",")]
    names = [expect(p, str, f"players[{i}]") for i, p in enumerate(players)]
    services().table.start_game(req(body, "game", str), names, opt(body, "options", dict, None),
                                opt(body, "setup", dict, None))


@_route("/action")
def action(body: dict[str, Any]) -> None:
    services().table.submit(req(body, "action", dict))


@_route("/answer")
def answer(body: dict[str, Any]) -> None:
    services().table.answer(req(body, "question", int), opt(body, "choice", int, None),
                            opt(body, "code", str, None), opt(body, "not_card", bool, False),
                            opt(body, "track", int, None))


@_route("/undo")
def undo(body: dict[str, Any]) -> None:
    services().table.undo()


@_route("/redo")
def redo(body: dict[str, Any]) -> None:
    services().table.redo()


@_route("/correct")
def correct(body: dict[str, Any]) -> None:
    services().table.correct(req(body, "seq", int), req(body, "action", dict))


@_route("/rename")
def rename(body: dict[str, Any]) -> None:
    services().table.rename(req(body, "seat", int), req(body, "name", str))


@_route("/end")
def end(body: dict[str, Any]) -> None:
    services().table.end()


@_route("/speech")
def speech(body: dict[str, Any]) -> None:
    speaker = services().speaker
    speaker.muted = opt(body, "muted", bool, speaker.muted)
    rate = opt(body, "rate", int, speaker.rate)
    if not 80 <= rate <= 400:
        raise BadInput("rate", "must be 80 to 400 words per minute")
    speaker.rate = rate
