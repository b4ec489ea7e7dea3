"""Embeddings: sentence-transformers encoder, FAISS inner-product indices, disk cache, Ray actor.

Importing this package does not import Ray or torch; ``EmbeddingClient`` /
``EmbeddingServiceActor`` load Ray on first access and ``load_encoder`` loads the model.
"""

from __future__ import annotations

from typing import Any

from tkgqa_ray.embed.cache import CacheKey, EmbeddingCache, default_cache_dir, texts_hash
from tkgqa_ray.embed.encoder import (
    BACKENDS,
    DEFAULT_ENCODER,
    EncoderUnavailableError,
    TextEncoder,
    l2_normalise,
    load_encoder,
)
from tkgqa_ray.embed.faiss_index import IndexConfig, VectorIndex, faiss_gpu_count
from tkgqa_ray.embed.progress import ProgressBoard, ProgressPoller, Reporter
from tkgqa_ray.embed.service import EmbeddingIndex, EmbeddingService, fact_texts

__all__ = [
    "BACKENDS", "ProgressBoard", "ProgressPoller", "Reporter",
    "CacheKey", "DEFAULT_ENCODER", "EmbeddingCache", "EmbeddingClient", "EmbeddingIndex",
    "EmbeddingService", "EmbeddingServiceActor", "EncoderUnavailableError", "IndexConfig",
    "TextEncoder", "VectorIndex", "default_cache_dir", "fact_texts", "faiss_gpu_count",
    "l2_normalise", "load_encoder", "texts_hash",
]


def __getattr__(name: str) -> Any:
    if name in ("EmbeddingClient", "EmbeddingServiceActor", "DEFAULT_ACTOR_NAME"):
        from tkgqa_ray.embed import actor

        return getattr(actor, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
