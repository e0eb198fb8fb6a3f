"""Who may change the game: the host, holding the token printed at start.

Viewers read, never write; the check lives on the server, on every `/api/host/` route.
A browser proves it is the host with a session cookie (set by opening the host link or
typing the token) plus a CSRF token sent in a header that another site cannot set; a
script may instead send `Authorization: Bearer <token>`.

Guessing is slowed per client: after a few wrong tokens a client is refused outright
for a time that doubles with each further miss, and every miss is logged, so a phone on
the table's network cannot try a 4-digit PIN through in seconds.
"""

from __future__ import annotations

import functools
import hmac
import logging
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, session, url_for

from companion.host_token import new_host_token, save_host_token

log = logging.getLogger(__name__)
bp = Blueprint("auth", __name__)

CSRF_HEADER = "X-CSRF-Token"
FREE_MISSES = 5  # wrong tokens a client may type before it has to wait
LONGEST_WAIT = 900.0  # seconds: the wait doubles per further miss up to this
CLIENTS_KEPT = 4096  # clients remembered; the oldest is forgotten first


def _token() -> str:
    return current_app.extensions["companion"].host_token


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def token_matches(given: str | None) -> bool:
    """Compared as UTF-8 bytes, so a token like `mañana` works and any input is safe."""
    return bool(given) and hmac.compare_digest(_utf8(str(given).strip()), _utf8(_token()))


@dataclass
class _Misses:
    count: int = 0
    until: float = 0.0  # monotonic time before which this client is refused


class LoginGuard:
    """Wrong tokens per client address: free for a few, then a doubling wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._clients: OrderedDict[str, _Misses] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Seconds `client` must wait before its next try is even checked (0: try now)."""
        with self._lock:
            misses = self._clients.get(client)
            return max(0.0, misses.until - self._clock()) if misses else 0.0

    def missed(self, client: str) -> None:
        with self._lock:
            misses = self._clients.pop(client, None) or _Misses()
            self._clients[client] = misses
            while len(self._clients) > CLIENTS_KEPT:
                self._clients.popitem(last=False)
            misses.count += 1
            extra = misses.count - FREE_MISSES
            if extra > 0:
                wait = min(LONGEST_WAIT, 2.0 ** (extra - 1))
                misses.until = self._clock() + wait
                log.warning("wrong host token from %s (%d misses); refused for %.0f s",
                            client, misses.count, wait)
            else:
                log.warning("wrong host token from %s (%d misses)", client, misses.count)

    def passed(self, client: str) -> None:
        with self._lock:
            self._clients.pop(client, None)


def _guard() -> LoginGuard:
    return current_app.extensions["companion-logins"]


def _client() -> str:
    return request.remote_addr or "unknown"


def _too_many(wait: float) -> Response:
    response = jsonify(error=f"too many wrong host tokens; try again in {wait:.0f} s")
    response.status_code = 429
    response.headers["Retry-After"] = str(int(wait) + 1)
    return response


def _checked(given: str) -> bool | float:
    """True or False for a checked token; the wait in seconds when this client must wait."""
    client = _client()
    wait = _guard().wait(client)
    if wait:
        return wait
    if token_matches(given):
        _guard().passed(client)
        return True
    _guard().missed(client)
    return False


def is_host() -> bool:
    return session.get("host") == _token()


def become_host() -> None:
    """This browser's session is the host's (again, after the token was rotated)."""
    session.clear()
    session["host"] = _token()
    csrf_token()


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
    return session["csrf"]


def _bearer() -> str | None:
    """The bearer token; a header's UTF-8 bytes arrive as Latin-1 text and are read back."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    given = header[7:]
    try:
        return given.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return given


def host_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """403 unless the request comes from the host: session + CSRF header, or the bearer token."""
    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        given = _bearer()
        if given is not None:
            verdict = _checked(given)
            if verdict is True:
                return view(*args, **kwargs)
            if verdict:
                return _too_many(verdict)
        if not is_host():
            return jsonify(error="only the host can change the game; open the host link printed at start"), 403
        sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf")
        if not sent or not hmac.compare_digest(_utf8(sent), _utf8(session.get("csrf", ""))):
            return jsonify(error="missing or wrong CSRF token; reload the host page"), 403
        return view(*args, **kwargs)
    return checked


@bp.route("/host/login", methods=["GET", "POST"])
def login() -> Any:
    """The host types the token, or arrives with it in the link (`/host?token=...`)."""
    given = request.form.get("token") if request.method == "POST" else request.args.get("token")
    if given is not None:
        verdict = _checked(given)
        if verdict is True:
            become_host()
            return redirect(url_for("pages.host"))
        if verdict:
            error = f"Too many wrong tokens from this device; try again in {verdict:.0f} s."
            return render_template("login.html", error=error), 429, {"Retry-After": str(int(verdict) + 1)}
        return render_template("login.html", error="That is not the host token."), 403
    return render_template("login.html", error=None)


@bp.route("/api/host/token", methods=["POST"])
@host_required
def rotate() -> Any:
    """A new host token, saved for later starts; every other host session and link dies."""
    services = current_app.extensions["companion"]
    if services.token_file is None:
        return jsonify(error="the host token is set in the settings (host_token); change it there"), 409
    token = new_host_token()
    try:
        save_host_token(services.token_file, token)
    except OSError as exc:
        return jsonify(error=f"cannot save a new host token: {exc.strerror}"), 503
    services.host_token = token
    become_host()
    log.warning("host token rotated by %s; older host links no longer work", _client())
    return jsonify(token=token, link=f"{services.base_url}/host?token={token}", csrf=csrf_token())
