"""Calibrate the seats from the phone: print the markers, photograph the table, done.

The same calibration as `companion markers --calibrate`, with the picture coming from
the host's phone: the seat markers are found, the zones saved as
`<data_dir>/zones.json` (what the camera uses at its next start when the settings name
no zones file), and the photo comes back with each seat's zone drawn on it, so the host
sees at once whether the camera will give a card to the right player.
"""

from __future__ import annotations

import base64
import math
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from companion.camera_files import ZONES_FILE
from companion.web.auth import csrf_token, host_required, is_host
from companion.web.lookup import services
from rules.core import BadInput

bp = Blueprint("seats", __name__)

PHOTO_LIMIT = 12 * 1024 * 1024  # a phone's full-size photo
SHOWN_WIDTH = 960               # the drawn zones come back at this width


@bp.errorhandler(BadInput)
def _bad_input(exc: BadInput) -> tuple[Response, int]:
    return jsonify(error=str(exc)), 400


def _seats(raw: Any) -> int:
    from vision.zones import check_seats

    try:
        seats = int(raw)
    except (TypeError, ValueError):
        raise BadInput("seats", "must be a whole number") from None
    check_seats(seats)
    return seats


@bp.route("/host/seats")
def page() -> Any:
    if not is_host():
        return redirect(url_for("auth.login"))
    players = len(services().table.snapshot()["players"]) or 4
    return render_template("seats.html", csrf=csrf_token(), seats=max(2, players))


@bp.route("/host/markers.png")
def sheet() -> Any:
    """The printable A4 sheet of seat markers (at 150 dpi: a phone prints it as well)."""
    import cv2

    from vision.markers import marker_sheet

    if not is_host():
        return redirect(url_for("auth.login"))
    ok, data = cv2.imencode(".png", marker_sheet(_seats(request.args.get("seats", 4)), dpi=150))
    return Response(data.tobytes(), mimetype="image/png",
                    headers={"Content-Disposition": "inline; filename=seat-markers.png"})


def _drawn(image: Any, zones: Any, seats: int) -> str:
    """The photo with the centre region and the lines between seats' zones, as a PNG data URL."""
    import cv2

    scale = SHOWN_WIDTH / image.shape[1]
    shown = cv2.resize(image, (SHOWN_WIDTH, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    cx, cy = (c * scale for c in zones.centre)
    reach = 2 * max(shown.shape[:2])
    order = sorted(range(seats), key=lambda k: zones.seat_angles[k])
    for n, k in enumerate(order):  # a zone ends halfway to the next seat round the table
        a, b = zones.seat_angles[k], zones.seat_angles[order[(n + 1) % seats]]
        mid = a + (math.remainder(b - a, math.tau) % math.tau) / 2
        cv2.line(shown, (round(cx), round(cy)), (round(cx + reach * math.cos(mid)), round(cy + reach * math.sin(mid))),
                 (255, 255, 255), 3, cv2.LINE_AA)
    for k in range(seats):
        at = (round(cx + 0.6 * min(shown.shape[:2]) / 2 * math.cos(zones.seat_angles[k])) - 40,
              round(cy + 0.6 * min(shown.shape[:2]) / 2 * math.sin(zones.seat_angles[k])))
        cv2.putText(shown, f"Seat {k + 1}", at, cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(shown, f"Seat {k + 1}", at, cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA)
    cv2.circle(shown, (round(cx), round(cy)), round(zones.centre_radius * scale), (80, 200, 255), 3, cv2.LINE_AA)
    ok, data = cv2.imencode(".png", shown)
    return "data:image/png;base64," + base64.b64encode(data.tobytes()).decode("ascii")


@bp.route("/api/host/seats/calibrate", methods=["POST"])
@host_required
def calibrate() -> Response:
    import cv2
    import numpy as np

    from vision.zones import marker_zones

    request.max_content_length = PHOTO_LIMIT
    seats = _seats(request.form.get("seats"))
    photo = request.files.get("photo")
    if photo is None:
        raise BadInput("photo", "no photo sent")
    image = cv2.imdecode(np.frombuffer(photo.read(), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInput("photo", "not a picture (JPEG or PNG)")
    zones = marker_zones(image, seats)
    path = services().store.path.parent / ZONES_FILE
    zones.save(path)
    return jsonify({"seats": seats, "zones": str(path), "image": _drawn(image, zones, seats)})
