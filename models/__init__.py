"""The ONNX models the app ships, each beside its model card (README.md).

A package only so the models travel as package data in an installed wheel; nothing here
is code but the folder's location.
"""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent
