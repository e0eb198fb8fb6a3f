"""The phone scoreboard and the host's page: a Flask app over the live table.

`create_app(services)` builds the app around services made once at start (the table,
the push stream, the speaker, the host token), so tests build the same app with a
temporary store. Served by waitress (`companion.server`), never the dev server.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Mapping

from flask import Flask

from companion.speech import Speaker
from companion.store import Store
from companion.table import LiveTable
from companion.web import api, auth, camera_api, host_api, pages
from companion.web.stream import StateStream


@dataclass
class Services:
    """What the web app talks to; attached to the app as `app.extensions['companion']`."""

    table: LiveTable
    store: Store
    stream: StateStream
    speaker: Speaker
    host_token: str
    base_url: str


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
    app.add_template_filter(lambda t: time.strftime("%Y-%m-%d %H:%M", time.localtime(t)), "when")
    for blueprint in (pages.bp, api.bp, auth.bp, host_api.bp, camera_api.bp):
        app.register_blueprint(blueprint)
    return app
