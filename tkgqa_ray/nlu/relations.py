"""Relation phrases: what is left of a clause once names, times and question words are gone,
grounded to KG relations by embedding similarity to their display names.

The phrase keeps the verb and its particles/prepositions (``sign an agreement with``,
``express intent to meet``); question scaffolding (wh-words, auxiliaries, articles, cue words)
is removed so the MiniLM encoder compares the action only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .text import tokenize

# Words that carry no relation meaning in a question clause.
_SCAFFOLD = {
    "who", "whom", "whose", "which", "what", "when", "where", "did", "does", "do", "done",
    "was", "were", "is", "are", "be", "been", "being", "has", "have", "had", "will", "would",
    "could", "can", "might", "shall", "should", "the", "a", "an", "that", "this", "these",
    "those", "it", "its", "they", "them", "their", "there", "one", "ones", "someone", "anyone",
    "entity", "entities", "country", "countries", "person", "people", "organisation",
    "organization", "group", "actor", "party", "side", "nation", "state", "year", "month",
    "day", "date", "time", "first", "last", "earliest", "latest", "initially", "finally",
    "most", "recently", "recent", "same", "as", "before", "after", "prior", "following",
    "since", "until", "during", "in", "on", "at", "between", "and", "then", "also", "ever",
    "to", "by", "of", "for", "with", "from", "please", "tell", "me", "name", "give", "list",
    "identify", "according", "kg", "graph", "knowledge", "exactly", "precisely", "just", "exact",
    "specific", "saw", "see", "happen", "happened", "occur", "occurred", "take", "place", "took",
    "very", "second", "third", "time", "times", "?", ",", ".", "!", ";", ":", "'", '"', "-", "'s",
}
# Prepositions and particles are scaffolding at the edges but meaningful inside a phrase
# ("sign an agreement with", "make a visit to"): they are kept when followed by content.
_INNER_OK = {"to", "with", "for", "of", "on", "in", "at", "from", "about", "against", "by", "a", "an", "the", "and", "or", "into", "upon", "over"}


@dataclass(frozen=True, slots=True)
class RelationCandidate:
    id: int
    name: str  # KG form
    score: float


def relation_phrase(text: str) -> str:
    """Strip scaffolding from a clause (names and times must already be masked): the
    longest run between the first and last content word, keeping inner particles."""
    toks = [t for t in tokenize(text)]
    content = [i for i, t in enumerate(toks) if t.norm not in _SCAFFOLD and not t.norm.isdigit()]
    if not content:
        return ""
    a, b = content[0], content[-1]
    words = [t.norm for t in toks[a : b + 1] if t.norm in _INNER_OK or t.norm not in _SCAFFOLD]
    return re.sub(r"\s+", " ", " ".join(words)).strip()


def ground_relation(phrase: str, embeddings: Any, k: int = 5) -> list[RelationCandidate]:
    """Top-``k`` KG relations for ``phrase`` by cosine to the relation display names.

    ``embeddings`` is an EmbeddingService (or its actor client). Results are cached per
    (service, phrase, k): relation phrases repeat a lot across a run.
    """
    if not phrase:
        return []
    return list(_ground_cached(embeddings, phrase, k))


@lru_cache(maxsize=65536)
def _ground_cached(embeddings: Any, phrase: str, k: int) -> tuple[RelationCandidate, ...]:
    scores, ids = embeddings.search("relation", [phrase], k)
    names = _relation_names(embeddings)
    out = []
    for s, i in zip(scores[0], ids[0]):
        if int(i) < 0:
            continue
        out.append(RelationCandidate(int(i), names[int(i)] if names else str(int(i)), float(s)))
    return tuple(out)


def _relation_names(embeddings: Any) -> list[str] | None:
    # The in-process service exposes its FactTable; the Ray actor client proxies every
    # attribute as a remote method, so only trust a real table with a relations list.
    table = getattr(embeddings, "table", None)
    relations = getattr(table, "relations", None)
    return list(relations) if isinstance(relations, (list, tuple)) else None


__all__ = ["RelationCandidate", "ground_relation", "relation_phrase"]
