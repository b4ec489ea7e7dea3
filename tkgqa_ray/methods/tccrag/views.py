"""TCC-RAG's multi-view causal cue graph as thin views over the shared fact store.

The store already keeps posting lists keyed by (subject, object), (subject, relation) and
(relation, object), each sorted by start day: those *are* TEG, SCCI and OCCI. A view is a named
query on them (hash lookup + binary search + slice), never a copy, so the store is built once
per run and shared by every method.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


class CausalCueGraph:
    """TEG / SCCI / OCCI over ``store`` (a ``FactStore`` or its sharded client: same API).

    Time bounds are inclusive start-day bounds (``start_min``/``start_max``); ``None`` = open.
    Results are fact ids sorted by (start, id) — the temporal order the causal cues encode.
    """

    def __init__(self, store: Any) -> None:
        self.store = store

    def teg(self, subject: int, obj: int, relation: int | Sequence[int] | None = None,
            start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Directed edges subject → object (optionally of ``relation``): paired-entity lookup."""
        return self.store.query(subject=subject, object=obj, relation=relation,
                                start_min=start_min, start_max=start_max)

    def scci(self, subject: int, relation: int | Sequence[int],
             start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Subject Causal Cue Index: the (subject, relation) posting list in a time range."""
        return self.store.query(subject=subject, relation=relation,
                                start_min=start_min, start_max=start_max)

    def occi(self, relation: int | Sequence[int], obj: int,
             start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Object Causal Cue Index: the (relation, object) posting list in a time range."""
        return self.store.query(relation=relation, object=obj,
                                start_min=start_min, start_max=start_max)
