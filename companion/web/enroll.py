"""Enroll a deck from the phone: each card in turn, photographed, cut out, confirmed.

The host walks through the game's cards on `/host/enroll`: lays a card down and takes
its photo with the phone (or uploads one), sees the card as it was cut out, confirms
or retakes it, skips cards the deck does not have, and finishes. Finishing calibrates
the deck exactly as `companion enroll` does (`vision.enroll.Enrollment`, one object for
both) and saves it as `<data_dir>/decks/<game>.npz`, the deck the table's camera uses
for that game when no other deck is set (`companion.camera_files`). One walk-through
at a time: the table has one host.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for

from companion.camera_files import DECK_FOLDER
from companion.web.auth import csrf_token, host_required, is_host
from companion.web.lookup import restart_camera, services
from companion.web.photos import png_data_url, uploaded_photo
from rules.core import BadInput
from rules.registry import game_spec

bp = Blueprint("enroll", __name__)

def enrollable() -> tuple[str, ...]:
    """The games whose card faces vision knows, those that need a deck enrolled first
    (cards not named in print)."""
    from vision.synth.faces import GAMES as DRAWN_GAMES

    return tuple(sorted(DRAWN_GAMES, key=lambda game: game_spec(game).printed_cards))


@dataclass
class Walkthrough:
    """The enrollment in progress and the shot waiting for the host's confirmation."""

    game: str
    enrollment: Any  # vision.enroll.Enrollment (vision is imported only when enrolling)
    pending: str | None = None  # the code of the last shot, shown but not yet confirmed
    lock: threading.Lock = field(default_factory=threading.Lock)

    def progress(self) -> dict[str, Any]:
        from vision.synth.faces import game_codes

        confirmed = self.enrollment.codes[:-1] if self.pending else self.enrollment.codes
        return {"game": self.game, "codes": list(game_codes(self.game)), "enrolled": sorted(set(confirmed)),
                "pending": self.pending}


def _walkthrough() -> Walkthrough:
    walk = current_app.extensions.get("enroll")
    if walk is None:
        raise BadInput("game", "no enrollment started: choose the game first")
    return walk


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


@bp.route("/host/enroll")
def page() -> Any:
    if not is_host():
        return redirect(url_for("auth.login"))
    game = services().table.snapshot()["game"] or "bagani"
    games = enrollable()
    return render_template("enroll.html", csrf=csrf_token(), games=games, game=game if game in games else games[0])


@bp.route("/api/host/enroll/start", methods=["POST"])
@host_required
def start() -> Response:
    from vision.detect import ContourCardDetector
    from vision.enroll import Enrollment

    game = (request.get_json(silent=True) or {}).get("game")
    if game not in enrollable():
        raise BadInput("game", f"unknown game {game!r}; one of {', '.join(enrollable())}")
    walk = Walkthrough(game, Enrollment(game, ContourCardDetector()))
    current_app.extensions["enroll"] = walk
    return jsonify(walk.progress())


@bp.route("/api/host/enroll/shot", methods=["POST"])
@host_required
def shot() -> Response:
    """A photo of one card: the card is found, cut out and shown for confirmation."""
    from vision.synth.faces import game_codes

    walk = _walkthrough()
    image = uploaded_photo()  # first: it allows the body a photo's size before the form is read
    code = request.form.get("code", "")
    if code not in game_codes(walk.game):
        raise BadInput("code", f"{code!r} is not a {walk.game} card")
    with walk.lock:
        if walk.pending is not None:
            walk.enrollment.undo()  # a retake replaces the shot not yet confirmed
        card = walk.enrollment.add(image, code)
        walk.pending = code
    return jsonify({**walk.progress(), "image": png_data_url(card)})


@bp.route("/api/host/enroll/confirm", methods=["POST"])
@host_required
def confirm() -> Response:
    walk = _walkthrough()
    with walk.lock:
        if walk.pending is None:
            raise BadInput("", "no shot to confirm: take a photo of the card first")
        walk.pending = None
    return jsonify(walk.progress())


@bp.route("/api/host/enroll/retake", methods=["POST"])
@host_required
def retake() -> Response:
    walk = _walkthrough()
    with walk.lock:
        if walk.pending is not None:
            walk.enrollment.undo()
            walk.pending = None
    return jsonify(walk.progress())


@bp.route("/api/host/enroll/finish", methods=["POST"])
@host_required
def finish() -> Response:
    """Calibrate and save the deck; it becomes the table's deck for its game."""
    from vision.embed import ModelMissing, OnnxEmbedder

    walk = _walkthrough()
    with walk.lock:
        if walk.pending is not None:
            walk.enrollment.undo()
            walk.pending = None
        if len(set(walk.enrollment.codes)) < 2:
            raise BadInput("", "enroll at least two cards before finishing")
        try:
            profile = walk.enrollment.profile(OnnxEmbedder())
        except ModelMissing as exc:
            raise BadInput("model", str(exc)) from None
        folder = services().store.path.parent / DECK_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        written = profile.save(folder / f"{walk.game}.npz")
        current_app.extensions.pop("enroll", None)
    live = walk.game == services().table.snapshot()["game"] and restart_camera() is not None
    return jsonify({"game": walk.game, "deck": str(written), "cards": sorted(set(walk.enrollment.codes)),
                    "shots": len(walk.enrollment.codes), "live": live})
