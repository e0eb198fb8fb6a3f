"""A printable sheet of ArUco seat markers, one per seat.

Seat zones guessed from the frame alone assume the players sit evenly round the
picture; a marker laid in front of each seat tells the camera where people really
sit. The sheet is drawn at print resolution on A4 so the markers come out at a known
size (45 mm, big enough for a webcam a metre above the table) with cut lines and a
label under each.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.zones import CENTRE_MARKER, MARKER_DICTIONARY, check_seats

A4_MM = (210, 297)
MARKER_MM = 45
CELL_MM = (70, 70)   # three columns, four rows: every seat and the centre on one page
TOP_MM = 14


def marker_image(marker: int, pixels: int) -> np.ndarray:
    """Marker `marker` (a 0-based seat, or CENTRE_MARKER) as a square grey image `pixels` wide."""
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker, pixels)


def marker_sheet(seats: int, dpi: int = 300) -> np.ndarray:
    """An A4 page (grey image, `dpi` dots per inch) with markers for seats 0..seats-1,
    labelled for people as Seat 1..seats, and the centre marker."""
    check_seats(seats)

    def px(mm: float) -> int:
        return round(mm * dpi / 25.4)

    page = np.full((px(A4_MM[1]), px(A4_MM[0])), 255, np.uint8)
    cv2.putText(page, "Lay Seat N in front of seat N (turn order) and Centre in the middle, face up",
                (px(10), px(9)), cv2.FONT_HERSHEY_SIMPLEX, dpi / 300 * 1.0, 0, max(1, dpi // 150), cv2.LINE_AA)
    labels = [(seat, f"Seat {seat + 1}") for seat in range(seats)] + [(CENTRE_MARKER, "Centre")]
    for cell, (marker, label) in enumerate(labels):
        column, row = cell % 3, cell // 3
        left, top = px(column * CELL_MM[0]), px(TOP_MM + row * CELL_MM[1])
        cv2.rectangle(page, (left + px(3), top), (left + px(CELL_MM[0] - 3), top + px(CELL_MM[1] - 3)),
                      180, max(1, dpi // 300))
        size = px(MARKER_MM)
        x, y = left + (px(CELL_MM[0]) - size) // 2, top + px(6)
        page[y:y + size, x:x + size] = marker_image(marker, size)
        scale = dpi / 300 * 1.6
        (w, _), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, dpi // 100))
        cv2.putText(page, label, (left + (px(CELL_MM[0]) - w) // 2, y + size + px(10)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, 0, max(1, dpi // 100), cv2.LINE_AA)
    return page
