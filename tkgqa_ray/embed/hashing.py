"""A model-free encoder: signed character-trigram hashing, L2-normalised.

Not semantic, but deterministic, instant and dependency-free, with the property tests need
(identical strings → cosine 1, strings sharing many trigrams → high cosine). Select it with
``encoder_name="hashing"`` (or ``"hashing-<dim>"``) for fast pipeline tests and smoke runs;
real runs use MiniLM or a hub model.
"""

from __future__ import annotations

import zlib
from typing import Sequence

import numpy as np

from tkgqa_ray.embed.vectors import l2_normalise


class HashingEncoder:
    def __init__(self, dim: int = 256, n: int = 3) -> None:
        if dim < 8:
            raise ValueError(f"hashing encoder dim must be >= 8, got {dim}")
        self.dim = int(dim)
        self.n = int(n)
        self.name = f"hashing-{self.dim}"
        self.calls = 0  # encode() calls, so tests can see what reached the encoder
        self.texts_encoded = 0

    def _grams(self, text: str) -> list[str]:
        t = f"  {text.lower().replace('_', ' ')}  "
        return [t[i : i + self.n] for i in range(len(t) - self.n + 1)]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of strings, not a single str")
        self.calls += 1
        self.texts_encoded += len(texts)
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            for g in self._grams(text):
                h = zlib.crc32(g.encode("utf-8"))
                out[row, h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        return l2_normalise(out)

    def __repr__(self) -> str:
        return f"HashingEncoder(dim={self.dim})"
