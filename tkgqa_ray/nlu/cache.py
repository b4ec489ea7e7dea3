"""One per-process cache of :func:`~tkgqa_ray.nlu.analysis.analyze` for a run context.

SCoP's symbolic roles, its alignment and TCC-RAG's stages all read the same analysis of a
question; analysing once per (question, KG table, embedding index) keeps them consistent and
cheap. Keys hold ``id``s, not the objects, so a cached analysis never keeps an index alive.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from .analysis import QuestionAnalysis, analyze
from .entities import EntityMatcher

_CACHE: "OrderedDict[tuple, QuestionAnalysis]" = OrderedDict()
CACHE_MAX = 4096


def context_analysis(question: str, ctx: Any) -> QuestionAnalysis:
    """``analyze(question)`` with ``ctx``'s KG table and embeddings, LRU-cached per process."""
    matcher = EntityMatcher.for_table(ctx.table)
    embeddings = getattr(ctx, "embeddings", None)
    key = (question, id(matcher), id(embeddings))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    a = _CACHE[key] = analyze(question, matcher, embeddings)
    if len(_CACHE) > CACHE_MAX:
        _CACHE.popitem(last=False)
    return a
