"""What the camera sees and what a host fills in, read-only: pictures and the event forms.

`/api/camera.jpg` is the latest frame with every card outlined (green named, amber
unsure, red unknown); `/api/camera.json` says whether the camera works (and why not)
and where each card lies, so a tap on the picture finds its card; a question's cut-out
is `/api/questions/<id>.jpg`; `/api/schema` is the game's event forms.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.web.lookup import services

bp = Blueprint("camera_api", __name__, url_prefix="/api")

NO_STORE = {"Cache-Control": "no-store"}


def _jpeg(data: bytes) -> Response:
    return Response(data, mimetype="image/jpeg", headers=NO_STORE)


@bp.route("/schema")
def schema() -> Response:
    return jsonify(services().table.schema() or {"game": None, "lists": {}, "events": []})


@bp.route("/camera.json")
def camera_json() -> Response:
    table = services().table
    cards: list[dict[str, Any]] = []
    for seen in table.seen_cards():
        card = seen["card"]
        cards.append({"track": card.track, "code": card.code, "confidence": round(card.confidence, 3),
                      "status": card.status, "corners": [[round(x, 1), round(y, 1)] for x, y in card.corners],
                      "question": seen["question"], "seq": seen["seq"]})
    response = jsonify({**table.view.status(), "cards": cards})
    response.headers.update(NO_STORE)
    return response


@bp.route("/camera.jpg")
def camera_jpg() -> Any:
    table = services().table
    picture = table.view.picture([seen["card"] for seen in table.seen_cards()])
    if picture is None:
        return jsonify(error=f"the camera is not working: {table.view.status()['problem']}"), 503
    return _jpeg(picture)


@bp.route("/questions/<int:question>.jpg")
def question_jpg(question: int) -> Any:
    picture = services().table.picture(question)
    if picture is None:
        return jsonify(error=f"question {question} has no picture (asked without a camera, or answered)"), 404
    return _jpeg(picture)
