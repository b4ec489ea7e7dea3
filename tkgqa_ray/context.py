"""What a stage can reach: the shared fact store, the embedding indices and the backbone.

One context per worker process. In a Ray run ``store`` and ``embeddings`` are thin clients of
the shared actors (the store is built once per run, never copied per question); in tests they
are the plain in-process classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tkgqa_ray.backbones.base import Backbone
    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.kg.table import FactTable


@dataclass
class RunContext:
    table: "FactTable"  # columns + vocabularies (shared read-only)
    store: "FactStore"  # or ShardedFactStoreClient: same query API
    embeddings: "EmbeddingService"  # or its actor client: same API
    backbone: "Backbone"
    options: dict[str, Any] = field(default_factory=dict)  # method options from config
