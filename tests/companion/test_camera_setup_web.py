"""Camera set-up from the phone: the source tried and kept, the marker sheet, the seat zones."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np

from companion.camera_files import table_camera, table_zones
from tests.companion.conftest import HOST_TOKEN
from scripts.lib.scripted import seat_table
from vision.zones import TableZones, marker_zones

BEARER = {"Authorization": f"Bearer {HOST_TOKEN}"}


def calibrate(client, seats: int, image: np.ndarray):
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return client.post("/api/host/seats/calibrate", headers=BEARER, content_type="multipart/form-data",
                       data={"seats": str(seats), "photo": (io.BytesIO(data.tobytes()), "table.jpg")})


def test_a_photo_of_the_markers_saves_the_seat_zones_the_camera_will_use(client, services):
    table = seat_table(seed=2, seats=4)
    answer = calibrate(client, 4, table.image)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["image"].startswith("data:image/png;base64,")
    saved = TableZones.load(Path(table_zones("", services.store.path.parent)))
    expected = marker_zones(table.image, 4)
    assert np.allclose(saved.centre, expected.centre, atol=3) and len(saved.seat_angles) == 4
    right = sum(saved.zone_of_point(p) == z for p, z in zip(table.points, table.zones))
    assert right >= 0.9 * len(table.points)


def test_the_seats_are_calibrated_from_the_table_cameras_own_picture(client, services):
    """The very view the zones are for; with no picture yet, the camera's problem is said."""
    answer = client.post("/api/host/seats/calibrate?from=camera", headers=BEARER, data={"seats": "4"})
    assert answer.status_code == 400 and "no picture from the table's camera" in answer.get_json()["error"]
    table = seat_table(seed=2, seats=4)
    services.table.view.publish(table.image)
    answer = client.post("/api/host/seats/calibrate?from=camera", headers=BEARER, data={"seats": "4"})
    assert answer.status_code == 200, answer.get_json()
    saved = TableZones.load(Path(table_zones("", services.store.path.parent)))
    assert saved.to_dict() == marker_zones(table.image, 4).to_dict()


def test_a_photo_missing_a_marker_names_the_seat_and_saves_nothing(client, services):
    table = seat_table(seed=2, seats=4)
    answer = calibrate(client, 5, table.image)
    assert answer.status_code == 400 and "seat marker(s) 5 not found" in answer.get_json()["error"]
    assert table_zones("", services.store.path.parent) == ""
    assert calibrate(client, 9, table.image).status_code == 400


def test_the_marker_sheet_is_the_hosts(client):
    assert client.get("/host/markers.png?seats=4").status_code == 302
    client.get(f"/host?token={HOST_TOKEN}", follow_redirects=True)
    sheet = client.get("/host/markers.png?seats=4")
    assert sheet.status_code == 200 and sheet.mimetype == "image/png"
    assert cv2.imdecode(np.frombuffer(sheet.data, np.uint8), cv2.IMREAD_GRAYSCALE).shape[0] > 1000


def test_a_camera_source_is_tried_for_a_frame_before_it_is_kept(client, services, tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.jpg"), seat_table(seed=1, seats=3).image)
    answer = client.post("/api/host/camera/source", json={"source": str(folder)}, headers=BEARER)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["image"].startswith("data:image/png;base64,")
    height, width = seat_table(seed=1, seats=3).image.shape[:2]
    assert (answer.get_json()["size"], answer.get_json()["asked"]) == ([width, height], [1280, 720])
    assert table_camera("auto", services.store.path.parent) == str(folder)
    gone = client.post("/api/host/camera/source", json={"source": "/dev/video97"}, headers=BEARER)
    assert gone.status_code == 400 and "does not exist" in gone.get_json()["error"]
    assert table_camera("auto", services.store.path.parent) == str(folder), "a failed try keeps the camera that worked"
