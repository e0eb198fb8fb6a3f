"""Read-only JSON for everyone: the live state and finished games (its push stream,
`/api/stream`, is served beside the app by `companion.web.front`)."""

from __future__ import annotations


from flask import Blueprint, Response, jsonify

from companion import export
from companion.web.lookup import finished_game, services

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.route("/state")
def state() -> Response:
    return jsonify(services().table.viewer_snapshot())


@bp.route("/games")
def games() -> Response:
    return jsonify([{"id": g.id, "game": g.game, "players": list(g.players), "started_at": g.started_at,
                     "ended_at": g.ended_at, "winners": (g.result or {}).get("winners", [])}
                    for g in services().store.finished_games()])


@bp.route("/games/<int:game_id>/score.json")
def score_json(game_id: int) -> Response:
    return jsonify(export.score_json(finished_game(game_id)))


@bp.route("/games/<int:game_id>/score.csv")
def score_csv(game_id: int) -> Response:
    return Response(export.score_csv(finished_game(game_id)), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"})


@bp.route("/games/<int:game_id>/bgstats.json")
def bgstats(game_id: int) -> Response:
    record = finished_game(game_id)
    return jsonify(play=export.bgstats_play(record), link=export.bgstats_link(record))
