"""The HTML pages: the phone scoreboard, the host's page, past games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

from companion import export, qr
from companion.adapters import playable_games
from companion.projection import project
from companion.web.auth import csrf_token, is_host

bp = Blueprint("pages", __name__)


def _services() -> Any:
    return current_app.extensions["companion"]


@bp.route("/")
def scoreboard() -> str:
    return render_template("scoreboard.html", state=_services().table.snapshot())


@bp.route("/host")
def host() -> Any:
    if "token" in request.args:
        return redirect(url_for("auth.login", token=request.args["token"]))
    if not is_host():
        return redirect(url_for("auth.login"))
    services = _services()
    return render_template("host.html", state=services.table.snapshot(), csrf=csrf_token(),
                           games=playable_games(), viewer_url=services.base_url + "/",
                           qr_svg=qr.svg_qr(services.base_url + "/"), speaker=services.speaker)


@bp.route("/qr.svg")
def qr_code() -> Response:
    """The scoreboard's QR code, for any screen at the table (latecomers scan it)."""
    svg = qr.svg_qr(_services().base_url + "/")
    return Response(f'<?xml version="1.0" encoding="utf-8"?>\n{svg}', mimetype="image/svg+xml")


@bp.route("/history")
def history() -> str:
    return render_template("history.html", games=_services().store.finished_games())


@bp.route("/history/<int:game_id>")
def game(game_id: int) -> str:
    try:
        record = _services().store.game(game_id)
    except KeyError:
        abort(404)
    if record.result is None:
        abort(404)
    lines = [line.to_dict() for line in project(_services().store, record).lines]
    return render_template("game.html", record=record, result=export.score_json(record),
                           bgstats=export.bgstats_link(record), lines=lines)
