"""`companion markers`: print the seat markers that tell the camera where people sit,
and, with a photo of them laid on the table, calibrate the seat zones once."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2

from companion.errors import UsageError
from rules.core import BadInput
from vision.imageio import PictureTooLarge, read_picture
from vision.markers import marker_sheet
from vision.zones import marker_zones


def _write_sheet(seats: int, out: Path, dpi: int) -> str:
    if out.suffix.lower() != ".png":
        raise UsageError(str(out), "out", "the sheet is written as PNG: name the file *.png")
    if not out.parent.is_dir() or not cv2.imwrite(str(out), marker_sheet(seats, dpi=dpi)):
        raise UsageError(str(out), "out", "cannot write the file there")
    return f"wrote {out}: seat markers 1-{seats}, print at 100% scale on A4"


def _calibrate(seats: int, photo: Path, out: Path) -> str:
    if out.suffix.lower() != ".json":
        raise UsageError(str(out), "out", "the calibration is written as JSON: name the file *.json")
    try:
        image = read_picture(photo) if photo.is_file() else None
    except PictureTooLarge as exc:
        raise UsageError(str(photo), "calibrate", str(exc)) from None
    if image is None:
        raise UsageError(str(photo), "calibrate", "cannot read this picture")
    try:
        zones = marker_zones(image, seats)
    except BadInput as exc:
        raise UsageError(str(photo), exc.field, exc.problem) from None
    if not out.parent.is_dir():
        raise UsageError(str(out), "out", "no such folder")
    zones.save(out)
    return f"wrote {out}: {seats} seats around ({zones.centre[0]:.0f}, {zones.centre[1]:.0f})"


def _markers(args: argparse.Namespace) -> int:
    try:
        if args.calibrate:
            print(_calibrate(args.seats, Path(args.calibrate), Path(args.out)))
        else:
            print(_write_sheet(args.seats, Path(args.out), args.dpi))
    except BadInput as exc:
        raise UsageError("", exc.field, exc.problem) from None
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("markers", help="print seat markers (PNG), or calibrate seat zones from a photo of them")
    parser.add_argument("--seats", type=int, required=True, help="number of seats at the table (2-8)")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="the sheet to write (.png), or with --calibrate the zones file (.json)")
    parser.add_argument("--calibrate", metavar="PHOTO",
                        help="a camera picture of the table with every seat marker in view")
    parser.add_argument("--dpi", type=int, default=300, choices=(150, 200, 300), help="sheet print resolution")
    parser.set_defaults(func=_markers)
