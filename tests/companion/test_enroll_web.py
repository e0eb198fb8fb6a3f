"""Enrolling a deck from the phone: photo, cut-out, confirm, next, finish."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np

from companion.camera_files import table_deck
from tests.companion.conftest import HOST_TOKEN
from tests.companion.photos import card_photo
from vision.deck import DeckProfile

BEARER = {"Authorization": f"Bearer {HOST_TOKEN}"}


def shot(client, code: str, photo: bytes):
    return client.post("/api/host/enroll/shot", headers=BEARER, content_type="multipart/form-data",
                       data={"code": code, "photo": (io.BytesIO(photo), f"{code}.jpg")})


def test_three_cards_photographed_confirmed_and_finished_become_the_tables_deck(client, services, tmp_path):
    assert client.post("/api/host/enroll/start", json={"game": "bagani"}, headers=BEARER).status_code == 200
    for code in ("blue-circle", "red-square", "higante"):
        photo = card_photo("bagani", code)
        assert len(photo) > 64 * 1024, "a phone photo is larger than the app's limit for other writes"
        answer = shot(client, code, photo)
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["image"].startswith("data:image/png;base64,")
        assert answer.get_json()["pending"] == code
        assert client.post("/api/host/enroll/confirm", headers=BEARER).get_json()["pending"] is None
    done = client.post("/api/host/enroll/finish", headers=BEARER).get_json()
    assert done["cards"] == ["blue-circle", "higante", "red-square"]
    deck = table_deck("", services.store.path.parent, "bagani")
    assert deck and DeckProfile.load(Path(deck)).gallery.codes


def test_a_retake_replaces_the_shot_and_only_confirmed_cards_count(client):
    client.post("/api/host/enroll/start", json={"game": "bagani"}, headers=BEARER)
    shot(client, "blue-circle", card_photo("bagani", "blue-circle"))
    assert client.post("/api/host/enroll/retake", headers=BEARER).get_json()["enrolled"] == []
    shot(client, "blue-circle", card_photo("bagani", "blue-circle", turn=-5))
    progress = shot(client, "red-square", card_photo("bagani", "red-square")).get_json()
    assert progress["enrolled"] == [] and progress["pending"] == "red-square", "the unconfirmed shot was replaced"
    answer = client.post("/api/host/enroll/finish", headers=BEARER)
    assert answer.status_code == 400 and "at least two cards" in answer.get_json()["error"]


def test_the_walk_through_refuses_what_is_not_a_card_of_the_game_and_viewers(client):
    assert client.post("/api/host/enroll/start", json={"game": "chess"}, headers=BEARER).status_code == 400
    client.post("/api/host/enroll/start", json={"game": "bagani"}, headers=BEARER)
    wrong = shot(client, "blu-circle", card_photo("bagani", "blue-circle"))
    assert wrong.status_code == 400 and "not a bagani card" in wrong.get_json()["error"]
    for junk in (b"not a picture at all", b""):
        refused = shot(client, "blue-circle", junk)
        assert refused.status_code == 400 and "not a picture" in refused.get_json()["error"]
    tiny = shot(client, "blue-circle", cv2.imencode(".png", np.full((1, 1, 3), 200, np.uint8))[1].tobytes())
    assert tiny.status_code == 400 and "too small to show a card" in tiny.get_json()["error"]
    flat = cv2.imencode(".png", np.zeros((11000, 11000), np.uint8))[1].tobytes()  # a small file, a huge picture
    assert len(flat) < 1024 * 1024
    huge = shot(client, "blue-circle", flat)
    assert huge.status_code == 400 and "11000x11000 px is larger than any camera's photo" in huge.get_json()["error"]
    assert client.post("/api/host/enroll/start", json={"game": "bagani"}).status_code == 403
    assert client.get("/host/enroll").status_code == 302
