"""Where the shared real photos live, found relative to this file (../shared/data)."""

from pathlib import Path

import pytest

REAL_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "realphotos"

needs_real_photos = pytest.mark.skipif(not REAL_PHOTOS.is_dir(), reason=f"{REAL_PHOTOS} is absent")

REALDEV_PHOTOS = REAL_PHOTOS.parent / "realphotos-dev"

needs_realdev_photos = pytest.mark.skipif(not REALDEV_PHOTOS.is_dir(), reason=f"{REALDEV_PHOTOS} is absent")
