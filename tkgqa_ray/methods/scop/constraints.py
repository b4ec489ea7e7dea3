"""Stage IV (a): constraint parsing (role ``constraint_parser``) into typed κ and ρ, and the
deterministic executors: admissibility predicates (conjunction, any-anchor semantics) and
RankSelect. Execution on the fact store is in :mod:`.evidence`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tkgqa_ray.time import admissible_any, admissible_mask, parse_time

from .roles import call_role
from .schemas import ConstraintOutput
from .state import ScopStage, scop_state
from .types import Constraint, Ranking

MAX_EVIDENCE = 20
FIRST_LAST_KEEP = 3


def typed(out: dict | None) -> tuple[list[Constraint], Ranking | None]:
    if not out:
        return [], None
    cons = []
    for c in out.get("constraints") or []:
        ref = c["reference"]
        if c["ref_type"] == "explicit_interval":
            ref = (str(ref[0]), str(ref[1]))
        cons.append(Constraint(c["ref_type"], c["operator"], ref, c.get("granularity"), int(c.get("offset") or 0)))
    rk = out.get("ranking")
    return cons, (Ranking(rk["order"], int(rk.get("k") or 1)) if rk else None)


def reference_span(c: Constraint) -> tuple[int, int]:
    """Day range of an explicit time / interval reference (calendar spans for coarse times)."""
    if c.ref_type == "explicit_time":
        sp = parse_time(str(c.reference))
        return sp.lo, sp.hi
    a, b = c.reference  # type: ignore[misc]
    return parse_time(str(a)).lo, parse_time(str(b)).hi


def constraint_mask(
    lx: np.ndarray, ux: np.ndarray, c: Constraint, anchor_spans: Sequence[Sequence[tuple[int, int]]]
) -> np.ndarray:
    """Θ_κ over candidate ranges. Event references: admissible w.r.t. *any* resolvable fact
    of the anchor; an anchor with no fact (or an out-of-range index) admits nothing."""
    g = c.granularity if c.operator == "equal" else None
    if c.ref_type == "event":
        j = int(c.reference)  # type: ignore[arg-type]
        spans = anchor_spans[j] if 0 <= j < len(anchor_spans) else []
        if not spans:
            return np.zeros(len(lx), dtype=bool)
        if not c.offset and c.operator == "before":  # any anchor: ux < max(la)
            return ux < max(s[0] for s in spans)
        if not c.offset and c.operator == "after":  # any anchor: lx > min(ua)
            return lx > min(s[1] for s in spans)
        return admissible_any(lx, ux, c.operator, sorted(set(spans)), g, c.offset)
    la, ua = reference_span(c)
    return admissible_mask(lx, ux, c.operator, la, ua, g, c.offset)


def apply_constraints(
    lx: np.ndarray, ux: np.ndarray, cons: Sequence[Constraint], anchor_spans: Sequence[Sequence[tuple[int, int]]]
) -> np.ndarray:
    """Conjunction of all constraints (no constraint -> everything admissible)."""
    mask = np.ones(len(lx), dtype=bool)
    for c in cons:
        mask &= constraint_mask(lx, ux, c, anchor_spans)
    return mask


def rank_select(ids: np.ndarray, start: np.ndarray, rk: Ranking | None, cap: int = MAX_EVIDENCE) -> np.ndarray:
    """RankSelect: sort by (start, id) in ρ's direction; first/last (k=1) keep the top 3
    facts, the k-th keeps every fact up to the k-th distinct start day. Facts tied on the
    start day of the last kept fact are kept too (ties), up to ``cap``.
    Without ρ: chronological order, truncated to ``cap``."""
    ids = np.asarray(ids, dtype=np.int64)
    if not len(ids):
        return ids
    st = np.asarray(start)[ids]
    order = np.lexsort((ids, st))
    if rk is not None and rk.order == "desc":
        order = np.lexsort((-ids, -st.astype(np.int64)))
    ids, st = ids[order], st[order]
    if rk is None:
        return ids[:cap]
    days_seen = np.cumsum(np.r_[True, st[1:] != st[:-1]])  # distinct-day rank of each fact
    keep = max(FIRST_LAST_KEEP if rk.k == 1 else 0, int(np.searchsorted(days_seen, rk.k, side="right")))
    keep = min(keep, len(ids))
    if keep and keep < len(ids):  # extend over ties with the last kept fact
        last = st[keep - 1]
        while keep < len(ids) and st[keep] == last:
            keep += 1
    return ids[: min(keep, cap)]


class ConstraintParseStage(ScopStage):
    name = "scop.constraint_parser"
    reads = ("aligned",)
    writes = ("constraints", "ranking")

    def __call__(self, states: list[dict]) -> list[dict]:
        live = [st for st in states if not scop_state(st).aligned.empty]
        inputs = []
        for st in live:
            aligned = scop_state(st).aligned.to_json()
            inputs.append({"question": st["question"], "anchors": aligned["anchors"], "search": aligned["search"]})
        outs = call_role(self.ctx, live, "constraint_parser", inputs, ConstraintOutput)
        parsed = {id(st): typed(out) for st, out in zip(live, outs)}
        for st in states:
            s = scop_state(st)
            s.constraints, s.ranking = parsed.get(id(st), ([], None))
            n_anchor = len(s.aligned.anchors)
            if any(c.ref_type == "event" and not (0 <= int(c.reference) < n_anchor) for c in s.constraints):  # type: ignore[arg-type]
                s.trace.setdefault("failures", []).append(
                    {"role": "constraint_parser", "error": f"event reference out of range ({n_anchor} anchors)"}
                )
            s.trace["constraints"] = [c.to_json() for c in s.constraints]
            s.trace["ranking"] = None if s.ranking is None else s.ranking.to_json()
        return states


class NoConstraintStage(ScopStage):
    """``wo_constraint``: no temporal parsing or filtering; structural matches pass, top-10."""

    name = "scop.no_constraint"
    writes = ("constraints", "ranking", "evidence_cap")

    def __call__(self, states: list[dict]) -> list[dict]:
        for st in states:
            s = scop_state(st)
            s.constraints, s.ranking, s.evidence_cap = [], None, 10
            s.trace["constraints"] = []
            s.trace["ranking"] = None
            s.trace["constraints_disabled"] = True
        return states


__all__ = [
    "ConstraintParseStage",
    "NoConstraintStage",
    "apply_constraints",
    "constraint_mask",
    "rank_select",
    "reference_span",
    "typed",
]
