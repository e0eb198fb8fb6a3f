"""The phone scoreboard and the host's page: a Flask app over the live table.

`create_app(services)` builds the app around services made once at start (the table,
the push stream, the speaker, the host token), so tests build the same app with a
temporary store. Served by uvicorn (`companion.server`), never the dev server; the
phones' live stream is answered beside it on the event loop (`companion.web.front`).

Every answer carries headers that keep the pages out of other sites' frames and stop
browsers guessing types or running scripts from anywhere but here; under `/api/` every
error is JSON with its status, never an HTML page.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.config import CAMERA_SIZE
from companion.speech import Speaker
from companion.store import Store
from companion.table import LiveTable
from companion.web import api, auth, camera_api, camera_setup, enroll, host_api, pages
from companion.web.auth import LoginGuard
from companion.web.stream import StateStream


class CameraControl(Protocol):
    """The live camera as the web app may restart it (`companion.camera.TableCamera`)."""

    def reload(self) -> object: ...


@dataclass
class Services:
    """What the web app talks to; attached to the app as `app.extensions['companion']`."""

    table: LiveTable
    store: Store
    stream: StateStream
    speaker: Speaker
    host_token: str
    base_url: str
    token_file: Path | None = None  # where a rotated token is kept; None when the settings set it
    camera: CameraControl | None = None  # the live camera, restarted when the host page changes its set-up
    camera_size: tuple[int, int] = CAMERA_SIZE  # frame size asked of a camera (settings camera_width, camera_height)


def create_app(services: Services, config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        # Sessions survive a restart with the same token, and only with it.
        SECRET_KEY=hashlib.sha256(f"table-companion:{services.host_token}".encode()).hexdigest(),
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.update(config or {})
    app.extensions["companion"] = services
    app.extensions["companion-logins"] = LoginGuard()
    app.register_error_handler(HTTPException, _api_error)
    app.register_error_handler(Exception, _api_crash)
    app.after_request(_protect)
    app.add_template_filter(lambda t: time.strftime("%Y-%m-%d %H:%M", time.localtime(t)), "when")
    for blueprint in (pages.bp, api.bp, auth.bp, host_api.bp, enroll.bp, camera_setup.bp, camera_api.bp):
        app.register_blueprint(blueprint)
    return app


SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the host link carries the token in its query
}


def _protect(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _api_error(exc: HTTPException) -> Any:
    """Under /api/, a 404, 405, 413... as JSON; the pages keep Flask's own HTML."""
    if not request.path.startswith("/api/"):
        return exc
    response = jsonify(error=exc.description or exc.name)
    response.status_code = exc.code or 500
    allowed = getattr(exc, "valid_methods", None)
    if allowed:
        response.headers["Allow"] = ", ".join(allowed)
    return response


def _api_crash(exc: Exception) -> Any:
    """A bug under /api/ still answers JSON (the traceback goes to the log)."""
    if not request.path.startswith("/api/"):
        raise exc
    current_app.logger.exception("error answering %s %s", request.method, request.path)
    return jsonify(error="the server hit a problem; it is in the server's log"), 500
