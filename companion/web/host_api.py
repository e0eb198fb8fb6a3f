"""The host's writes: every route is a POST under /api/host/ and refused without the token.

Errors come back as JSON `{"error": ...}`: 400 for a malformed request (naming the
field), 409 for an event the rules refuse (with the reason a player can hear). A write
may carry an `Idempotency-Key` header: a resend with the same key (after a timeout or
a crash) answers the current state and records nothing again.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any, Callable

from flask import Blueprint, Response, jsonify, request

from companion.speech import VOICES
from companion.web.auth import host_required
from companion.web.lookup import restart_camera, services
from rules.core import BadInput, IllegalMove
from rules.payload import expect, opt, req

log = logging.getLogger(__name__)
bp = Blueprint("host_api", __name__, url_prefix="/api/host")


KEY_HEADER = "Idempotency-Key"
KEY_LIMIT = 200


def _body() -> dict[str, Any]:
    """The JSON object sent (a form's fields from a plain form post); BadInput saying what
    is wrong with anything else, however deep or strange."""
    if not request.is_json:
        return request.form.to_dict()
    raw = request.get_data()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInput("", "the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadInput("", f"the body is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise BadInput("", "the body is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadInput("", "the request must be a JSON object")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput("", "the body holds an unpaired surrogate (\\ud800 to \\udfff), which is not text") from None
    except RecursionError:
        raise BadInput("", "the body is nested too deeply") from None
    return data


def _key() -> str | None:
    key = request.headers.get(KEY_HEADER)
    if key is not None and not 0 < len(key) <= KEY_LIMIT:
        raise BadInput(KEY_HEADER, f"must be 1 to {KEY_LIMIT} characters")
    return key


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


@bp.errorhandler(sqlite3.Error)
def _not_stored(exc: sqlite3.Error) -> tuple[Response, int]:
    """The database refused the write (a full disk, say): nothing of it was recorded."""
    log.error("a host write was not recorded: %s", exc)
    return jsonify(error=f"nothing was recorded: the game database refused the write ({exc}); "
                         "try again once that is fixed"), 503


@bp.errorhandler(IllegalMove)
def _illegal(exc: IllegalMove) -> tuple[Response, int]:
    return jsonify(error=exc.reason), 409


def _done() -> Response:
    """The new state, so the host's page redraws without waiting for the push."""
    app_services = services()
    speaker = app_services.speaker
    return jsonify({**app_services.table.snapshot(),
                    "speech": {"muted": speaker.muted, "rate": speaker.rate, "voice": speaker.voice,
                               "status": speaker.status}})


Handler = Callable[[dict[str, Any], "str | None"], None]


def _route(rule: str) -> Callable[[Handler], Callable[[], Response]]:
    """Register a host write: the function gets the JSON body and the request key; the
    answer is the new state."""
    def register(handler: Handler) -> Callable[[], Response]:
        def view() -> Response:
            handler(_body(), _key())
            return _done()
        view.__name__ = handler.__name__
        return bp.route(rule, methods=["POST"])(host_required(view))
    return register


@bp.route("/state")
@host_required
def state() -> Response:
    """The host's view (the push carries the viewers' view; the host page fetches this)."""
    return _done()


@_route("/start")
def start(body: dict[str, Any], key: str | None) -> None:
    players = req(body, "players", (list, str))
    if isinstance(players, str):
        players = [p for p in players.replace("\n", ",").split(",")]
    names = [expect(p, str, f"players[{i}]") for i, p in enumerate(players)]
    if services().table.start_game(req(body, "game", str), names, opt(body, "options", dict, None),
                                   opt(body, "setup", dict, None), key=key) is not None:
        restart_camera()  # the new game's deck and seats


@_route("/action")
def action(body: dict[str, Any], key: str | None) -> None:
    services().table.submit(req(body, "action", dict), key=key)


@_route("/answer")
def answer(body: dict[str, Any], key: str | None) -> None:
    services().table.answer(req(body, "question", int), opt(body, "choice", int, None),
                            opt(body, "code", str, None), opt(body, "not_card", bool, False),
                            opt(body, "track", int, None), key=key)


@_route("/undo")
def undo(body: dict[str, Any], key: str | None) -> None:
    services().table.undo(key=key)


@_route("/redo")
def redo(body: dict[str, Any], key: str | None) -> None:
    services().table.redo(key=key)


@_route("/correct")
def correct(body: dict[str, Any], key: str | None) -> None:
    services().table.correct(req(body, "seq", int), req(body, "action", dict), key=key)


@_route("/rename")
def rename(body: dict[str, Any], key: str | None) -> None:
    services().table.rename(req(body, "seat", int), req(body, "name", str), key=key)


@_route("/end")
def end(body: dict[str, Any], key: str | None) -> None:
    services().table.end(key=key)


@_route("/speech")
def speech(body: dict[str, Any], key: str | None) -> None:
    speaker = services().speaker
    speaker.muted = opt(body, "muted", bool, speaker.muted)
    rate = opt(body, "rate", int, speaker.rate)
    if not 80 <= rate <= 400:
        raise BadInput("rate", "must be 80 to 400 words per minute")
    voice = opt(body, "voice", str, speaker.voice)
    if voice not in VOICES:
        raise BadInput("voice", f"must be one of {', '.join(VOICES)}")
    speaker.rate = rate
    speaker.voice = voice


@_route("/say-again")
def say_again(body: dict[str, Any], key: str | None) -> None:
    if not services().speaker.repeat():
        raise BadInput("", "no prompt has been said yet")
