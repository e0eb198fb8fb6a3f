"""Who may change the game: the host, holding the token printed at start.

Viewers read, never write; the check lives on the server, on every `/api/host/` route.
A browser proves it is the host with a session cookie (set by opening the host link or
typing the token) plus a CSRF token sent in a header that another site cannot set; a
script may instead send `Authorization: Bearer <token>`.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from typing import Any, Callable

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for

bp = Blueprint("auth", __name__)

CSRF_HEADER = "X-CSRF-Token"


def new_host_token() -> str:
    """A short token that is easy to type from the terminal and hard to guess."""
    return secrets.token_urlsafe(6)


def _token() -> str:
    return current_app.extensions["companion"].host_token


def token_matches(given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(str(given).strip(), _token())


def is_host() -> bool:
    return session.get("host") == _token()


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def _bearer_ok() -> bool:
    header = request.headers.get("Authorization", "")
    return header.startswith("Bearer ") and token_matches(header[7:])


def host_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """403 unless the request comes from the host: session + CSRF header, or the bearer token."""
    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if _bearer_ok():
            return view(*args, **kwargs)
        if not is_host():
            return jsonify(error="only the host can change the game; open the host link printed at start"), 403
        sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf")
        if not sent or not hmac.compare_digest(sent, session.get("csrf", "")):
            return jsonify(error="missing or wrong CSRF token; reload the host page"), 403
        return view(*args, **kwargs)
    return checked


@bp.route("/host/login", methods=["GET", "POST"])
def login() -> Any:
    """The host types the token, or arrives with it in the link (`/host?token=...`)."""
    given = request.form.get("token") if request.method == "POST" else request.args.get("token")
    if given is not None:
        if token_matches(given):
            session.clear()
            session["host"] = _token()
            csrf_token()
            return redirect(url_for("pages.host"))
        return render_template("login.html", error="That is not the host token."), 403
    return render_template("login.html", error=None)
