"""Where the shipped ONNX models lie, found the same way in a checkout and in an installed wheel.

The models and their cards live in the repository's `models/` folder; `vision/models` is a
link to it, so the wheel ships them as package data of `vision` (pyproject.toml) instead
of as a top-level package of that generic name, and both read them beside this file.
"""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent / "models"
