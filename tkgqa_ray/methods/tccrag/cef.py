"""Causal evidence filter (CEF) and TEMPORALSELECT as pure functions over fact columns.

CEF (paper §IV-C): (1) causal-equivalent deduplication by a query-conditioned signature
σ(f) = (answer value of f, τ(t)) keeping the earliest fact of each class; (2) sufficiency
selection: boundary preservation, cue coverage, chain-order check with a safe fallback to the
deduplicated set. Inputs are plain ints so the rules can be tested on hand-made cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence

Asked = Literal["subject", "object", "time"]


@dataclass(frozen=True, slots=True)
class EvFact:
    fid: int
    s: int
    r: int
    o: int
    start: int  # day ordinal
    end: int


@dataclass
class CEFResult:
    dedup: list[EvFact]
    final: list[EvFact]
    fallback: str | None = None  # why the final set fell back to ``dedup``
    info: dict = field(default_factory=dict)


def _eligible(f: EvFact, order: str | None, boundary: Sequence[tuple[int, int]] | None) -> bool:
    """Cue-consistency with the ordering component; "any reference event suffices"."""
    if not order or not boundary:
        return True
    if order == "before":
        return f.end < max(lo for lo, _ in boundary)
    if order == "after":
        return f.start > min(hi for _, hi in boundary)
    # same / in: overlaps a reference span
    return any(f.start <= hi and f.end >= lo for lo, hi in boundary)


def temporal_select(facts: Iterable[EvFact], order: str | None, select: str | None,
                    boundary: Sequence[tuple[int, int]] | None) -> list[EvFact]:
    """Restrict to cue-consistent events, then keep the temporal extreme(s) for first/last.

    Ties at the extreme day are all kept (several answers can share the day). Output is in
    ascending time order. An unresolved boundary leaves the ordering component unapplied.
    """
    kept = sorted((f for f in facts if _eligible(f, order, boundary)), key=lambda f: (f.start, f.fid))
    if select == "first" and kept:
        d = kept[0].start
        kept = [f for f in kept if f.start == d]
    elif select == "last" and kept:
        d = max(f.start for f in kept)
        kept = [f for f in kept if f.start == d]
    return kept


def answer_value(f: EvFact, asked: Asked | None) -> tuple:
    if asked == "subject":
        return ("e", f.s)
    if asked == "object":
        return ("e", f.o)
    if asked == "time":
        return ("t",)
    return ("f", f.s, f.r, f.o)  # unknown slot (e.g. fallback evidence): the triple


def signatures(facts: Sequence[EvFact], asked: Asked | None, order: str | None,
               select: str | None, boundary: Sequence[tuple[int, int]] | None,
               bucket_days: int = 1) -> list[tuple]:
    """σ(f) = (answer value, τ(t)).

    τ: range cues (before/after) → day bucket relative to the boundary (width ``bucket_days``);
    same/absent → the day itself; first/last without an ordering cue → dense rank of the day
    within the answer-value group (ascending for first, descending for last).
    """
    vals = [answer_value(f, asked) for f in facts]
    if order in ("before", "after"):
        ref = (max(lo for lo, _ in boundary) if order == "before" else min(hi for _, hi in boundary)) if boundary else 0
        return [(v, (f.start - ref) // bucket_days) for v, f in zip(vals, facts)]
    if order is None and select in ("first", "last"):
        groups: dict[tuple, list[int]] = {}
        for v, f in zip(vals, facts):
            groups.setdefault(v, []).append(f.start)
        ranks = {v: {d: i for i, d in enumerate(sorted(set(ds), reverse=(select == "last")))}
                 for v, ds in groups.items()}
        return [(v, ranks[v][f.start]) for v, f in zip(vals, facts)]
    return [(v, f.start) for v, f in zip(vals, facts)]


def deduplicate(facts: Sequence[EvFact], sigs: Sequence[tuple]) -> list[EvFact]:
    """One representative per signature class: its earliest fact (ties: lower id). Keeps the
    first-seen order of the classes' representatives sorted by time."""
    best: dict[tuple, EvFact] = {}
    for f, sg in zip(facts, sigs):
        cur = best.get(sg)
        if cur is None or (f.start, f.fid) < (cur.start, cur.fid):
            best[sg] = f
    return sorted(best.values(), key=lambda f: (f.start, f.fid))


def causal_evidence_filter(
    facts: Sequence[EvFact],
    *,
    asked: Asked | None,
    order: str | None,
    select: str | None,
    boundary: Sequence[tuple[int, int]] | None,
    relations: Iterable[int] | None = None,
    bucket_days: int = 1,
) -> CEFResult:
    """Deduplicate, then keep the boundary fact(s) and one representative per cue-consistent
    class; if the result is empty or is not a chain (consecutive facts not of the grounded
    relation(s), or out of time order) fall back to the deduplicated set."""
    dedup = deduplicate(facts, signatures(facts, asked, order, select, boundary, bucket_days))
    eligible = [f for f in dedup if _eligible(f, order, boundary)]
    chosen: dict[int, EvFact] = {}
    # (i) boundary preservation
    if select == "first" and eligible:
        d = min(f.start for f in eligible)
        chosen.update((f.fid, f) for f in eligible if f.start == d)
    elif select == "last" and eligible:
        d = max(f.start for f in eligible)
        chosen.update((f.fid, f) for f in eligible if f.start == d)
    elif order == "same" and boundary:
        chosen.update((f.fid, f) for f in eligible)  # every fact on the anchor day(s)
    # (ii) cue coverage: one representative of every eligible class
    chosen.update((f.fid, f) for f in eligible)
    final = sorted(chosen.values(), key=lambda f: (f.start, f.fid))
    info = {"input": len(facts), "dedup": len(dedup), "eligible": len(eligible)}
    if not final:
        return CEFResult(dedup, list(dedup), "no cue-consistent fact", info)
    # (iii) chain connectivity
    rels = set(relations) if relations is not None else None
    for a, b in zip(final, final[1:]):
        if b.start < a.start:
            return CEFResult(dedup, list(dedup), "time order broken", info)
        if rels is not None and (a.r not in rels or b.r not in rels or a.r != b.r):
            return CEFResult(dedup, list(dedup), "relation chain broken", info)
    if rels is not None and len(final) == 1 and final[0].r not in rels:
        return CEFResult(dedup, list(dedup), "relation chain broken", info)
    return CEFResult(dedup, final, None, info)
