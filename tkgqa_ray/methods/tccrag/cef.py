"""Causal evidence filter (CEF) and TEMPORALSELECT as pure functions over fact columns.

CEF (paper §IV-C): (1) causal-equivalent deduplication by a query-conditioned signature
σ(f) = (answer value of f, τ(t)) keeping the earliest fact of each class; (2) sufficiency
selection: boundary preservation, cue coverage, chain-order check with a safe fallback to the
deduplicated set; an optional cap (``max_facts``) bounds the result, keeping the boundary facts
first. Inputs are plain ints so the rules can be tested on hand-made cases.
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


def _direction(order: str | None, select: str | None) -> str:
    """Which end of the timeline is nearest the causal link: the ordering cue's boundary side
    (before: latest first; after: earliest first), else the selection cue's extreme."""
    if order == "before" or (order is None and select == "last"):
        return "desc"
    return "asc"


def coverage_order(facts: Sequence[EvFact], asked: Asked | None, order: str | None,
                   select: str | None) -> list[EvFact]:
    """Class representatives ranked for a bounded evidence set: round-robin over answer values
    (every distinct answer is represented before any answer gets a second fact), each value's
    facts nearest the boundary first (see :func:`_direction`); values ordered by their best fact."""
    desc = _direction(order, select) == "desc"
    key = (lambda f: (-f.start, f.fid)) if desc else (lambda f: (f.start, f.fid))
    groups: dict[tuple, list[EvFact]] = {}
    for f in sorted(facts, key=key):
        groups.setdefault(answer_value(f, asked), []).append(f)
    ranked = []
    for vi, group in enumerate(groups.values()):  # insertion order = order of each value's best fact
        ranked += [((i, vi), f) for i, f in enumerate(group)]
    return [f for _, f in sorted(ranked, key=lambda x: x[0])]


def boundary_facts(eligible: Sequence[EvFact], order: str | None, select: str | None,
                   boundary: Sequence[tuple[int, int]] | None) -> list[EvFact]:
    """Step (i): the facts that anchor the chain. first/last (also compound, e.g. after+last):
    every eligible fact on the earliest/latest day; ``same`` with a resolved boundary: every
    eligible fact starting on an anchor day (interval facts merely overlapping it are covered
    by step (ii) only)."""
    if not eligible:
        return []
    if select in ("first", "last"):
        d = min(f.start for f in eligible) if select == "first" else max(f.start for f in eligible)
        return [f for f in eligible if f.start == d]
    if order == "same" and boundary:
        return [f for f in eligible if any(lo <= f.start <= hi for lo, hi in boundary)]
    return []


def _bounded(seeds: Sequence[EvFact], ranked: Sequence[EvFact], max_facts: int | None) -> list[EvFact]:
    """Seeds, then ``ranked`` (skipping seeds), cut at ``max_facts``; in time order."""
    seen = {f.fid for f in seeds}
    out = list(seeds) + [f for f in ranked if f.fid not in seen]
    if max_facts is not None and max_facts > 0:
        out = out[:max_facts]
    return sorted(out, key=lambda f: (f.start, f.fid))


def causal_evidence_filter(
    facts: Sequence[EvFact],
    *,
    asked: Asked | None,
    order: str | None,
    select: str | None,
    boundary: Sequence[tuple[int, int]] | None,
    relations: Iterable[int] | None = None,
    bucket_days: int = 1,
    max_facts: int | None = None,
) -> CEFResult:
    """Deduplicate, then keep (i) the boundary fact(s) and (ii) one representative per
    cue-consistent class; if the result is empty or is not a chain (consecutive facts not of
    the grounded relation(s), or out of time order) fall back to the deduplicated set.

    ``max_facts`` bounds the final set (the answerer's prompt): the boundary facts go first,
    then classes in :func:`coverage_order` (every answer value before any repeat, nearest the
    boundary first). Without a bound a high-degree anchor under a range cue keeps every class
    (1,192 facts on one real MultiTQ question). The fallback set is bounded the same way."""
    dedup = deduplicate(facts, signatures(facts, asked, order, select, boundary, bucket_days))
    eligible = [f for f in dedup if _eligible(f, order, boundary)]
    seeds = boundary_facts(eligible, order, select, boundary)  # (i) boundary preservation
    # (ii) cue coverage: every eligible class, most answer-relevant first (bounded by max_facts)
    final = _bounded(seeds, coverage_order(eligible, asked, order, select), max_facts)
    info = {"input": len(facts), "dedup": len(dedup), "eligible": len(eligible), "boundary": len(seeds),
            "dropped_by_cap": len(eligible) - len(final)}

    def fallback(why: str) -> CEFResult:
        kept = _bounded([], coverage_order(dedup, asked, order, select), max_facts)
        return CEFResult(dedup, kept, why, {**info, "dropped_by_cap": len(dedup) - len(kept)})

    if not final:
        return fallback("no cue-consistent fact")
    # (iii) chain connectivity
    rels = set(relations) if relations is not None else None
    for a, b in zip(final, final[1:]):
        if b.start < a.start:
            return fallback("time order broken")
        if rels is not None and (a.r not in rels or b.r not in rels or a.r != b.r):
            return fallback("relation chain broken")
    if rels is not None and len(final) == 1 and final[0].r not in rels:
        return fallback("relation chain broken")
    return CEFResult(dedup, final, None, info)
