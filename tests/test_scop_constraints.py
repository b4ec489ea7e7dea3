"""Constraint execution on hand-made facts: predicates, offsets, granularity, any-anchor
semantics, multi-anchor conjunctions, RankSelect ties, anchor-only mode. Expected ids are
worked out by hand from the dates below."""

import numpy as np
import pytest

from tkgqa_ray.kg import FactStore, FactTable
from tkgqa_ray.methods.scop.constraints import rank_select
from tkgqa_ray.methods.scop.constraints import typed
from tkgqa_ray.methods.scop.evidence import NameResolver, build_evidence
from tkgqa_ray.methods.scop.types import Ranking, Reading

ROWS = [
    ("A", "visit", "X", "2010-01-10"),  # 0
    ("B", "visit", "X", "2010-01-20"),  # 1
    ("C", "visit", "X", "2010-02-05"),  # 2
    ("D", "visit", "X", "2010-02-05"),  # 3  (tie with 2)
    ("E", "visit", "X", "2010-03-01"),  # 4
    ("F", "visit", "X", "2011-06-01"),  # 5
    ("K", "praise", "X", "2010-02-03"),  # 6  anchor for offsets
    ("K", "praise", "X", "2010-03-01"),  # 7  second fact of the same anchor triple
    ("A", "visit", "Y", "2010-01-12"),  # 8  other object: never a candidate
    ("L", "blame", "M", "2010-01-15"),  # 9  second anchor
]


class Ctx:
    def __init__(self):
        self.table = FactTable.from_rows(ROWS)
        self.store = FactStore(self.table)


@pytest.fixture(scope="module")
def ctx():
    return Ctx()


def evidence(ctx, res, sc, fetched=None):
    """build_evidence on a scratch written as JSON (constraints/ranking as the trace shows them)."""
    cons, rk = typed({"constraints": sc["constraints"], "ranking": sc["ranking"]})
    return build_evidence(ctx, res, Reading.from_json(sc), cons, rk, sc.get("evidence_cap"), fetched)


def run(ctx, constraints, ranking=None, anchors=(("K", "praise", "X"),), search=("?", "visit", "X"), cap=None):
    sc = {"anchors": [list(a) for a in anchors], "search": list(search) if search else None,
          "constraints": constraints, "ranking": ranking}
    if cap:
        sc["evidence_cap"] = cap
    ev = evidence(ctx, NameResolver(ctx.table), sc)
    subj = [ctx.table.entities[ctx.table.s[i]] for i in ev.target_facts]
    return ev, subj


def ev_c(op, ref=0, g=None, off=0):
    return {"ref_type": "event", "operator": op, "reference": ref, "granularity": g, "offset": off}


def t_c(op, ref, g=None):
    return {"ref_type": "explicit_time", "operator": op, "reference": ref, "granularity": g, "offset": 0}


def test_structural_candidates_and_counts(ctx):
    ev, subj = run(ctx, [])
    assert ev.initial == 6 and subj == ["A", "B", "C", "D", "E", "F"]
    assert ev.anchor_counts == [2]


def test_explicit_time_predicates(ctx):
    assert run(ctx, [t_c("equal", "2010-02", "month")])[1] == ["C", "D"]
    assert run(ctx, [t_c("before", "2010-02")])[1] == ["A", "B"]  # ux < 2010-02-01
    assert run(ctx, [t_c("after", "2010")])[1] == ["F"]  # lx > 2010-12-31
    assert run(ctx, [t_c("equal", "2010-01-20", "day")])[1] == ["B"]
    inter = {"ref_type": "explicit_interval", "operator": "inside", "reference": ["2010-01-15", "2010-02"], "granularity": None, "offset": 0}
    assert run(ctx, [inter])[1] == ["B", "C", "D"]


def test_event_reference_any_anchor_fact_suffices(ctx):
    # anchor K praise X on 2010-02-03 and 2010-03-01: before any = before 2010-03-01
    assert run(ctx, [ev_c("before")])[1] == ["A", "B", "C", "D"]
    # after any = after 2010-02-03
    assert run(ctx, [ev_c("after")])[1] == ["C", "D", "E", "F"]
    # same month as any anchor fact: Feb 2010 or Mar 2010
    assert run(ctx, [ev_c("equal", g="month")])[1] == ["C", "D", "E"]


def test_offsets(ctx):
    # 2 days after 2010-02-03 -> 2010-02-05 (C, D); after 2010-03-01 -> 2010-03-03 (none)
    assert run(ctx, [ev_c("after", off=2)])[1] == ["C", "D"]
    # 40 days before 2010-03-01 -> 2010-01-20 (B); before 2010-02-03 -> 2009-12-25 (none)
    assert run(ctx, [ev_c("before", off=40)])[1] == ["B"]


def test_unresolvable_anchor_admits_nothing(ctx):
    ev, subj = run(ctx, [ev_c("before")], anchors=(("K", "praise", "Y"),))
    assert ev.initial == 6 and subj == []
    ev, subj = run(ctx, [ev_c("before", ref=3)])  # out-of-range anchor index
    assert subj == []


def test_multi_anchor_conjunction(ctx):
    # after L blame M (2010-01-15) AND before K's last praise (2010-03-01) -> B, C, D
    cons = [ev_c("after", ref=1), ev_c("before", ref=0)]
    assert run(ctx, cons, anchors=(("K", "praise", "X"), ("L", "blame", "M")))[1] == ["B", "C", "D"]
    # conjunction with an explicit time
    assert run(ctx, cons + [t_c("equal", "2010-01", "month")], anchors=(("K", "praise", "X"), ("L", "blame", "M")))[1] == ["B"]


def test_rank_select_first_last_keep_three_and_ties(ctx):
    ev, subj = run(ctx, [ev_c("after")], ranking={"order": "asc", "k": 1})
    assert subj == ["C", "D", "E"]  # top 3 (C, D tie on the first day)
    ev, subj = run(ctx, [], ranking={"order": "desc", "k": 1})
    assert subj == ["F", "E", "D", "C"]  # top 3 then the tie of the 3rd (C/D same day) kept
    assert ev.initial == 6 and ev.final == 4


def test_rank_select_kth_keeps_up_to_rank_k():
    start = np.array([5, 1, 1, 3, 7, 3, 9])
    ids = np.arange(7)
    # distinct days asc: 1 (ids 1,2), 3 (3,5), 5 (0), 7 (4), 9 (6)
    assert rank_select(ids, start, Ranking("asc", 2)).tolist() == [1, 2, 3, 5]
    assert rank_select(ids, start, Ranking("asc", 3)).tolist() == [1, 2, 3, 5, 0]
    assert rank_select(ids, start, Ranking("desc", 2)).tolist() == [6, 4]  # days 9, 7 (the 3-fact minimum is for k=1 only)
    assert rank_select(ids, start, None, cap=3).tolist() == [1, 2, 3]
    assert rank_select(ids[:0], start, Ranking("asc", 1)).tolist() == []


def test_cap_twenty():
    start = np.arange(50)
    assert len(rank_select(np.arange(50), start, None)) == 20


def test_anchor_only_mode_targets_unreferenced_anchors(ctx):
    # time question: anchor 0 = the asked event (A visit X), anchor 1 referenced by a constraint
    ev, _ = run(ctx, [ev_c("after", ref=1)], anchors=(("B", "visit", "X"), ("L", "blame", "M")), search=None)
    assert ev.mode == "anchor_only" and ev.initial == 1 and ev.target_facts == [1]
    ev, _ = run(ctx, [ev_c("before", ref=1)], anchors=(("B", "visit", "X"), ("L", "blame", "M")), search=None)
    assert ev.target_facts == []
    ev, _ = run(ctx, [], ranking={"order": "desc", "k": 1}, anchors=(("K", "praise", "X"),), search=None)
    assert ev.target_facts == [7, 6]


def test_surface_form_slot_has_no_structural_match(ctx):
    ev, subj = run(ctx, [], search=("?", "visited", "X"))
    assert ev.initial == 0 and subj == []


def test_batch_prefetch_gives_the_same_evidence_with_one_store_call(ctx):
    from tkgqa_ray.methods.scop.evidence import prefetch_structural

    class CountingStore:
        def __init__(self, store):
            self.store, self.calls = store, 0

        def query(self, **kw):
            self.calls += 1
            return self.store.query(**kw)

        def query_many(self, specs):
            self.calls += 1
            return self.store.query_many(specs)

    res = NameResolver(ctx.table)
    scs = [
        {"anchors": [["K", "praise", "X"]], "search": ["?", "visit", "X"], "constraints": [ev_c("after")], "ranking": None},
        {"anchors": [["K", "praise", "X"], ["L", "blame", "M"]], "search": ["?", "visit", "X"],
         "constraints": [ev_c("before", 0), ev_c("after", 1)], "ranking": {"order": "asc", "k": 1}},
        {"anchors": [["Nobody", "praise", "X"]], "search": None, "constraints": [], "ranking": None},
    ]
    plain = [evidence(ctx, res, sc) for sc in scs]
    counting = CountingStore(ctx.store)
    bctx = type("C", (), {"table": ctx.table, "store": counting})()
    fetched = prefetch_structural(counting, res, [Reading.from_json(sc) for sc in scs])
    batched = [evidence(bctx, res, sc, fetched) for sc in scs]
    assert batched == plain and counting.calls == 1  # 3 distinct resolvable patterns, one call
    # after *any* K-praise-X fact (earliest 2010-02-03): C, D (02-05), E, F
    assert len(fetched) == 3 and plain[0].target_facts == [2, 3, 4, 5]
