"""TCC-RAG causal evidence filter: boundary preservation and the evidence cap, hand-checked.

Each case is built so that dropping a step changes the answer: boundary preservation matters
when the cap cuts coverage at the other end of the timeline (compound cues after+last,
before+first), and coverage ranks every answer value before any repeat.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tkgqa_ray.methods.base import METHODS
from tkgqa_ray.methods.tccrag.cef import EvFact, boundary_facts, causal_evidence_filter, coverage_order

D = lambda s: dt.date.fromisoformat(s).toordinal()  # noqa: E731


def F(fid, s, day, r=0, o=9):
    return EvFact(fid, s, r, o, D(day), D(day))


# subjects 1..6 (asked = subject); fact 4 duplicates 3 (same answer, same day)
FACTS = [F(1, 1, "2010-01-01"), F(2, 2, "2010-02-01"), F(3, 3, "2010-03-01"), F(4, 3, "2010-03-01"),
         F(5, 4, "2010-06-01"), F(6, 5, "2010-07-01"), F(7, 6, "2010-08-01")]


def ids(res):
    return [f.fid for f in res.final]


def cef(order, select, boundary, cap, facts=FACTS, asked="subject"):
    return causal_evidence_filter(facts, asked=asked, order=order, select=select,
                                  boundary=[(D(boundary), D(boundary))] if boundary else None,
                                  relations=[0], max_facts=cap)


def test_after_last_cap_keeps_the_latest_not_the_nearest():
    # "After <2010-04-01>, who was the last to ...": eligible 5, 6, 7; coverage runs from the
    # boundary (5 first), the seed is the latest (7): with a cap of 1 only the seed survives.
    assert ids(cef("after", "last", "2010-04-01", None)) == [5, 6, 7]
    assert ids(cef("after", "last", "2010-04-01", 1)) == [7]
    assert ids(cef("after", "last", "2010-04-01", 2)) == [5, 7]
    assert ids(cef("after", None, "2010-04-01", 1)) == [5]  # no selection cue: nearest the boundary


def test_before_first_cap_keeps_the_earliest():
    # eligible before 2010-06-15 after dedup: 1, 2, 3, 5; coverage from the boundary: 5, 3, 2, 1
    assert ids(cef("before", "first", "2010-06-15", 1)) == [1]
    assert ids(cef("before", "first", "2010-06-15", 2)) == [1, 5]
    assert ids(cef("before", None, "2010-06-15", 2)) == [3, 5]
    res = cef("before", "first", "2010-06-15", 2)
    assert res.info["boundary"] == 1 and res.info["dropped_by_cap"] == 2 and res.fallback is None


def test_selection_only_and_same_day():
    assert ids(cef(None, "last", None, 2)) == [6, 7]
    assert ids(cef(None, "first", None, 2)) == [1, 2]
    # same: the anchor-day facts (3; 4 is its duplicate) are the boundary facts
    same = cef("same", None, "2010-03-01", 5)
    assert ids(same) == [3] and same.info["boundary"] == 1
    assert [f.fid for f in boundary_facts(FACTS, "same", None, [(D("2010-03-01"), D("2010-03-01"))])] == [3, 4]
    assert boundary_facts(FACTS, "before", None, [(D("2010-03-01"), D("2010-03-01"))]) == []


def test_coverage_gives_every_answer_value_a_fact_before_repeats():
    # subject 1 is dense right before the boundary; 2 and 3 are further away
    facts = [F(10, 1, "2010-01-10"), F(11, 1, "2010-01-09"), F(12, 1, "2010-01-08"),
             F(13, 2, "2010-01-05"), F(14, 3, "2010-01-04")]
    assert [f.fid for f in coverage_order(facts, "subject", "before", None)] == [10, 13, 14, 11, 12]
    assert ids(cef("before", None, "2010-12-31", 3, facts)) == [14, 13, 10]
    # asked = time: one answer value, so the cap keeps the days nearest the boundary
    assert ids(cef("before", None, "2010-12-31", 2, facts, asked="time")) == [11, 10]


def test_fallback_set_is_bounded_too():
    # mixed relations (semantic fallback evidence) break the chain -> deduplicated set, capped
    facts = [F(1, 1, "2010-01-01"), F(2, 2, "2010-02-01", r=5), F(3, 3, "2010-03-01", r=5)]
    res = cef(None, None, None, None, facts)
    assert res.fallback == "relation chain broken" and ids(res) == [1, 2, 3]
    res = cef(None, None, None, 2, facts)
    assert res.fallback == "relation chain broken" and ids(res) == [1, 2]
    assert res.info["dropped_by_cap"] == 1


def test_unbounded_and_zero_cap_keep_every_class():
    assert ids(cef("before", None, "2010-12-31", None)) == ids(cef("before", None, "2010-12-31", 0)) == [1, 2, 3, 5, 6, 7]


# ----------------------------------------------------------------------------- the method option
@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    from test_tccrag_core import ROWS

    return make_symbolic_ctx(ROWS)


def test_max_evidence_option_bounds_the_answerers_facts(ctx):
    q = {"quid": "e", "question": "Which country did China visit after Mexico?"}
    (full,) = METHODS.get("tccrag")(ctx, max_evidence=0)([dict(q)])
    assert full["evidence"] == ["China|Make_a_visit|Peru|2010-05-05|2010-05-05",
                                "China|Make_a_visit|Cuba|2010-06-01|2010-06-01"]
    (one,) = METHODS.get("tccrag")(ctx, max_evidence=1)([dict(q)])
    assert one["error"] is None
    assert one["evidence"] == ["China|Make_a_visit|Peru|2010-05-05|2010-05-05"]  # nearest after Mexico
    assert one["final_evidence_count"] == 1 and one["initial_evidence_count"] == 2
    assert one["trace"]["cef"]["dropped_by_cap"] == 1
    assert one["predictions"][0] == "Peru"
