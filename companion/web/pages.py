"""The HTML pages: the phone scoreboard, the host's page, past games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for

from companion import export, qr
from companion.adapters import playable_games
from companion.projection import project
from companion.web.auth import csrf_token, is_host
from companion.web.lookup import finished_game, services

bp = Blueprint("pages", __name__)


@bp.route("/")
def scoreboard() -> str:
    return render_template("scoreboard.html", state=services().table.viewer_snapshot())


@bp.route("/host")
def host() -> Any:
    if "token" in request.args:
        return redirect(url_for("auth.login", token=request.args["token"]))
    if not is_host():
        return redirect(url_for("auth.login"))
    app_services = services()
    return render_template("host.html", state=app_services.table.snapshot(), csrf=csrf_token(),
                           games=playable_games(), viewer_url=app_services.base_url + "/",
                           qr_svg=qr.svg_qr(app_services.base_url + "/"), speaker=app_services.speaker)


@bp.route("/qr.svg")
def qr_code() -> Response:
    """The scoreboard's QR code, for any screen at the table (latecomers scan it)."""
    svg = qr.svg_qr(services().base_url + "/")
    return Response(f'<?xml version="1.0" encoding="utf-8"?>\n{svg}', mimetype="image/svg+xml")


@bp.route("/history")
def history() -> str:
    return render_template("history.html", games=services().store.finished_games())


@bp.route("/history/<int:game_id>")
def game(game_id: int) -> str:
    record = finished_game(game_id)
    lines = [line.to_dict() for line in project(services().store, record).lines]
    return render_template("game.html", record=record, result=export.score_json(record),
                           bgstats=export.bgstats_link(record), lines=lines)
