"""The HTML pages: the phone scoreboard, the host's page, game setup, past games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for

from companion import export, qr
from companion.adapters import playable_games
from companion.projection import Projection, project
from companion.records import player_records
from companion.speech import VOICES
from companion.timeline import score_timeline
from companion.web.chart import legend, line_chart
from companion.web.auth import csrf_token, is_host
from companion.web.game_setup import option_fields
from companion.web.game_words import goals, page_words
from companion.web.lookup import finished_game, services
from rules.registry import game_spec

bp = Blueprint("pages", __name__)


@bp.route("/")
def scoreboard() -> str:
    return render_template("scoreboard.html", state=services().table.viewer_snapshot(), words=page_words())


@bp.route("/host")
def host() -> Any:
    if "token" in request.args:
        return redirect(url_for("auth.login", token=request.args["token"]))
    if not is_host():
        return redirect(url_for("auth.login"))
    app_services = services()
    return render_template("host.html", state=app_services.table.snapshot(), csrf=csrf_token(),
                           games=playable_games(), viewer_url=app_services.base_url + "/",
                           qr_svg=qr.svg_qr(app_services.base_url + "/"), speaker=app_services.speaker,
                           voices=VOICES, words=page_words())


@bp.route("/host/start")
def start() -> Any:
    """Game setup on the host's phone: players, seat order, who starts, house rules, speech."""
    if not is_host():
        return redirect(url_for("auth.login"))
    app_services = services()
    state = app_services.table.snapshot()
    games = playable_games()
    return render_template("start.html", state=state, csrf=csrf_token(), games=games,
                           chosen=state["game"] or games[0], goals=goals(),
                           options={g: option_fields(g) for g in games}, speaker=app_services.speaker,
                           voices=VOICES)


@bp.route("/qr.svg")
def qr_code() -> Response:
    """The scoreboard's QR code, for any screen at the table (latecomers scan it)."""
    return Response(qr.svg_document(services().base_url + "/"), mimetype="image/svg+xml")


#: Past games whose chart the history page draws (each is a replay of the game's log).
CHARTED_GAMES = 5


def _charted(projection: Projection) -> dict[str, Any]:
    """A past game's chart and its legend, from its replayed log."""
    record, timeline = projection.record, score_timeline(projection)
    return {"chart": line_chart(timeline, game_spec(record.game).unit, key=f"chart-{record.id}"),
            "legend": legend(timeline)}


@bp.route("/history")
def history() -> str:
    records = services().store.finished_games()
    games = [{"record": r, "bgstats": export.bgstats_link(r),
              "ranked": sorted(r.result["players"], key=lambda p: p["total"],
                               reverse=not game_spec(r.game).lowest_wins),
              **(_charted(project(services().store, r)) if i < CHARTED_GAMES else {})}
             for i, r in enumerate(r for r in records if r.result)]
    return render_template("history.html", games=games, records=player_records(records))


@bp.route("/history/<int:game_id>")
def game(game_id: int) -> str:
    record = finished_game(game_id)
    projection = project(services().store, record)
    return render_template("game.html", record=record, result=export.score_json(record),
                           bgstats=export.bgstats_link(record), lines=[line.to_dict() for line in projection.lines],
                           words=page_words(), **_charted(projection))
