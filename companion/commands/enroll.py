"""`companion enroll`: teach the project one physical deck from a folder of card photos."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path

from companion.errors import UsageError
from rules.payload import BadInput
from vision.deck import code_of
from vision.detect import ContourCardDetector
from vision.embed import DEFAULT_MODEL, ModelMissing, OnnxEmbedder
from vision.enroll import Enrollment
from vision.imageio import PictureTooLarge, read_picture
from vision.synth.faces import GAMES as DRAWN_GAMES, game_codes

GAMES = (*DRAWN_GAMES, "generic")  # the decks whose card codes vision knows
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


def enrollment_images(folder: Path) -> list[Path]:
    """The card photos in `folder`, sorted so extra shots follow their first one."""
    if not folder.is_dir():
        raise UsageError(str(folder), "images", "no such folder")
    images = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise UsageError(str(folder), "images", f"no card photos ({', '.join(IMAGE_SUFFIXES)}) in this folder")
    return images


def card_code(path: Path, game: str) -> str:
    """The card code a photo's name gives; a misspelt code is refused, not enrolled as a
    card the game does not have (a generic deck takes any name)."""
    code = code_of(path)
    if not code:
        raise UsageError(str(path), "images", "the file name must be the card code, e.g. red-14.jpg")
    if game != "generic" and code not in game_codes(game):
        near = difflib.get_close_matches(code, game_codes(game), n=1)
        hint = f"did you mean {near[0]}{path.suffix}?" if near else f"codes look like {game_codes(game)[0]}"
        raise UsageError(str(path), "images", f"{code!r} is not a {game} card code; {hint}")
    return code


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if not (out.is_dir() or out.parent.is_dir()):
        raise UsageError(str(out), "out", "the folder to write the deck into does not exist")
    enrollment = Enrollment(args.game, ContourCardDetector())
    for path in enrollment_images(Path(args.images)):
        code = card_code(path, args.game)
        try:
            image = read_picture(path)
        except PictureTooLarge as exc:
            raise UsageError(str(path), "images", str(exc)) from None
        if image is None:
            raise UsageError(str(path), "images", "not a picture OpenCV can read")
        try:
            enrollment.add(image, code)
        except BadInput as exc:
            raise UsageError(str(path), "images", exc.problem) from None
    try:
        profile = enrollment.profile(OnnxEmbedder(Path(args.model)))
    except ModelMissing as exc:
        raise UsageError("", "model", str(exc)) from None
    written = profile.save(out)
    codes = sorted(set(enrollment.codes))
    print(f"enrolled {len(codes)} cards ({len(enrollment.codes)} shots) into {written}; "
          f"similarity floor {profile.gallery.threshold:.3f}, consistency {profile.gallery.min_consistency:.3f} "
          f"(fine cells {profile.gallery.min_fine:.3f})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("enroll", help="teach the project one physical deck from photos of its cards")
    parser.add_argument("--game", required=True, choices=GAMES, help="the game the deck is for, or generic")
    parser.add_argument("--images", required=True, metavar="DIR",
                        help="one photo per card face, named by card code (red-14.jpg; red-14__2.jpg adds a shot)")
    parser.add_argument("--out", required=True, metavar="DECK", help="deck profile to write (file, or folder)")
    parser.add_argument("--model", default=str(DEFAULT_MODEL), help=argparse.SUPPRESS)  # benchmarks of other models
    parser.set_defaults(func=run)
