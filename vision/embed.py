"""The card embedder: rectified card in, unit vector out, one ONNX session with bounded threads.

Preprocessing lives here and nowhere else, so training (scripts/train_embedder.py)
and inference feed the network exactly the same tensor.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.model_files import MODELS_DIR

DEFAULT_MODEL = MODELS_DIR / "card_embedder.onnx"
INPUT_SIZE = (56, 80)  # width, height: small enough for a Pi, large enough for a printed value


class ModelMissing(RuntimeError):
    """The ONNX file is not where it should be: one clear message instead of an ORT trace."""


def preprocess(cards: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 cards -> float32 NCHW in [-1, 1] at INPUT_SIZE."""
    batch = np.stack([cv2.resize(c, INPUT_SIZE, interpolation=cv2.INTER_AREA) for c in cards])
    return (batch.astype(np.float32).transpose(0, 3, 1, 2) / 127.5) - 1.0


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class OnnxEmbedder:
    def __init__(self, model: Path = DEFAULT_MODEL, threads: int = 1) -> None:
        if not model.is_file():
            raise ModelMissing(f"card embedder model not found at {model}; run scripts/train_embedder.py "
                               "and scripts/export_embedder.py, or reinstall the package")
        import onnxruntime as ort  # imported here so the rest of vision works without it

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        self.model = model

    def embed(self, cards: Sequence[np.ndarray]) -> np.ndarray:
        """(n, d) unit vectors, one per card."""
        if not cards:
            return np.zeros((0, self.dim), np.float32)
        out = self.session.run(None, {self.input_name: preprocess(cards)})[0]
        return out / np.linalg.norm(out, axis=1, keepdims=True).clip(1e-6)

    @property
    def dim(self) -> int:
        return int(self.session.get_outputs()[0].shape[1])
