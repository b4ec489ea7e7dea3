"""The three answer-matching protocols in use for TKGQA, each with a stable name.

Published tables mix them, so every output names the protocol a number was computed under.

- ``multitq_official``: exact string match against the gold set; when a gold answer is a year
  or a month, the prediction is first cut to 4 or 7 characters (MultiTQ's evaluation).
- ``scop_script``: strip + lowercase, then exact match; no date normalisation (SCoP's script).
- ``lenient``: lowercase, ``_`` read as a space, punctuation and the articles a/an/the removed,
  whitespace collapsed; a hit when a normalised gold is a *substring* of the normalised
  prediction (TCC-RAG / RTQA). ``2005-06`` matches ``2005-06-13`` here.

All three ignore whitespace around a prediction (a trailing newline is a transport artefact,
not an answer). Only ``lenient`` maps KG-form underscores to spaces: methods must emit display
strings (``Barack Obama``), and the strict protocols keep scoring what was emitted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

from tkgqa_ray.time import granularity_of

HITS_K: tuple[int, ...] = (1, 10)
NO_HIT = 1 << 30  # rank of a question none of whose predictions match

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]|_")  # punctuation and symbols (any script); "_" reads as a space
_WS = re.compile(r"\s+")


@lru_cache(maxsize=1 << 18)
def lenient_normalize(s: str) -> str:
    """SQuAD-style normalisation used by the lenient protocol (cached: answers repeat)."""
    s = s.lower().replace("_", " ")
    s = _PUNCT.sub("", s)
    s = _ARTICLES.sub(" ", s)
    return _WS.sub(" ", s).strip()


@dataclass(frozen=True, slots=True)
class Protocol:
    """A named matcher. ``prepare(answers)`` runs once per question; ``hit(pred, prepared)``
    once per prediction until the first match."""

    name: str
    description: str
    prepare: Callable[[Sequence[str]], Any]
    hit: Callable[[str, Any], bool]

    def first_hit(self, predictions: Iterable[str], answers: Sequence[str], limit: int = max(HITS_K)) -> int:
        """0-based rank of the first matching prediction within ``limit``, else :data:`NO_HIT`."""
        prepared = self.prepare(answers)
        for i, p in enumerate(predictions):
            if i >= limit:
                break
            if p is not None and self.hit(str(p), prepared):
                return i
        return NO_HIT

    def hits_at(self, predictions: Sequence[str], answers: Sequence[str], k: int) -> bool:
        return self.first_hit(predictions, answers, limit=k) < k


def _official_prepare(answers: Sequence[str]) -> tuple[frozenset[str], tuple[int, ...]]:
    gold = frozenset(a.strip() for a in answers)
    cuts = set()
    for a in gold:
        g = granularity_of(a)
        if g == "year":
            cuts.add(4)
        elif g == "month":
            cuts.add(7)
    return gold, tuple(sorted(cuts))


def _official_hit(pred: str, prepared: tuple[frozenset[str], tuple[int, ...]]) -> bool:
    gold, cuts = prepared
    p = pred.strip()
    return p in gold or any(p[:n] in gold for n in cuts)


def _scop_prepare(answers: Sequence[str]) -> frozenset[str]:
    return frozenset(a.strip().lower() for a in answers)


def _scop_hit(pred: str, prepared: frozenset[str]) -> bool:
    return pred.strip().lower() in prepared


def _lenient_prepare(answers: Sequence[str]) -> tuple[str, ...]:
    # an answer that normalises to "" (e.g. "The") would match everything: drop it
    return tuple(n for n in {lenient_normalize(a) for a in answers} if n)


def _lenient_hit(pred: str, prepared: tuple[str, ...]) -> bool:
    p = lenient_normalize(pred)
    return any(g in p for g in prepared)


MULTITQ_OFFICIAL = Protocol(
    "multitq_official",
    "exact match; time predictions cut to the gold's granularity (4/7 chars for year/month)",
    _official_prepare,
    _official_hit,
)
SCOP_SCRIPT = Protocol("scop_script", "strip + lowercase exact match, no date normalisation", _scop_prepare, _scop_hit)
LENIENT = Protocol(
    "lenient",
    "lowercase, '_'->space, strip punctuation/articles; normalised gold is a substring of the prediction",
    _lenient_prepare,
    _lenient_hit,
)

PROTOCOLS: dict[str, Protocol] = {p.name: p for p in (MULTITQ_OFFICIAL, SCOP_SCRIPT, LENIENT)}
PRIMARY_PROTOCOL = MULTITQ_OFFICIAL.name


def get_protocols(names: Iterable[str] | None = None) -> list[Protocol]:
    """Protocols by name (all three when ``names`` is None); unknown names raise."""
    if names is None:
        return list(PROTOCOLS.values())
    out = []
    for n in names:
        if n not in PROTOCOLS:
            raise ValueError(f"unknown scoring protocol {n!r} (choose from {sorted(PROTOCOLS)})")
        out.append(PROTOCOLS[n])
    return out
