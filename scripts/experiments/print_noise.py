"""How alike a real card's print stays (`vision.pipeline.card_print`) from one webcam frame
to the next of a still table: the tracker takes a card it no longer finds for still lying
where it lay while the print at its outline is as its last sighting showed it
(`TrackerSettings.print_likeness`), so that likeness must hold under a camera's own noise
and compression. Each card the detector finds on ../shared/data/realphotos-dev's photos
(webcam blackjack tables, bridge deals, SET grids) is cut from two copies of its photo,
each with Gaussian noise of `sigma` grey levels added and saved as JPEG at quality 80;
prints JSON.

    nice .venv/bin/python scripts/experiments/print_noise.py [--sigmas 2,4,6]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detectors import card_detector  # noqa: E402
from vision.pipeline import card_print  # noqa: E402
from vision.track import TrackerSettings  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "realphotos-dev" / "photos"


def noisy(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """`image` as a webcam frame of the same still table might show it."""
    frame = np.clip(image.astype(np.float32) + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sigmas", default="2,4,6", help="noise levels, grey levels")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    detector, least = card_detector(), TrackerSettings().print_likeness
    images = [image for path in sorted(PHOTOS.iterdir()) if (image := cv2.imread(str(path))) is not None]
    finds = [(image, [d.corners for d in detector.detect(image)]) for image in images]
    report = {}
    for sigma in (float(s) for s in args.sigmas.split(",")):
        likeness = []
        for image, outlines in finds:
            a, b = noisy(image, sigma, rng), noisy(image, sigma, rng)
            likeness += [float(card_print(a, corners) @ card_print(b, corners)) for corners in outlines]
        values = np.array(likeness)
        report[f"sigma_{sigma:g}"] = {"cards": len(values), "min": round(float(values.min()), 4),
                                      "p1": round(float(np.percentile(values, 1)), 4),
                                      "median": round(float(np.median(values)), 4),
                                      f"share_at_least_{least}": round(float((values >= least).mean()), 4)}
    print(json.dumps({"photos": len(images), "print_likeness": least, **report}, indent=1))


if __name__ == "__main__":
    main()
