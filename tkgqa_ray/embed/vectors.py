"""Leaf of the embedding layer: the unit-norm rule every encoder applies and the error an
unloadable model raises (encoder, hashing and ONNX encoders all import these, never each other)."""

from __future__ import annotations

import numpy as np


class EncoderUnavailableError(RuntimeError):
    """The requested model cannot be loaded here (e.g. a hub name offline and not in the cache)."""


def l2_normalise(x: np.ndarray) -> np.ndarray:
    """Row-wise unit norm as contiguous float32; zero rows stay zero (no NaN)."""
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(x / norms, dtype=np.float32)
