"""PoK: plan validation, μ re-ranking on hand-computed scores, execution on a hand-made KG."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from tkgqa_ray.methods.base import METHODS
from tkgqa_ray.methods.pok.plan import PlanError, validate_plan
from tkgqa_ray.methods.pok.rerank import rerank, time_scores

D = lambda s: dt.date.fromisoformat(s).toordinal()  # noqa: E731


def _plan(*steps):
    return {"steps": [{"op": op, "text": t} for op, t in steps]}


def test_plan_validation_accepts_the_paper_example():
    steps = validate_plan(_plan(("Retrieve", "When did Segolene Royal investigate China?"),
                                ("Retrieve", "Who investigated China after [answer 1]?"),
                                ("Rank", "Rank these facts by time"),
                                ("reason", "Who is the first among [answer 2]?")))
    assert [s.op for s in steps] == ["Retrieve", "Retrieve", "Rank", "Reason"]


@pytest.mark.parametrize("plan, why", [
    (_plan(("Search", "x"), ("Reason", "y")), "invalid plan"),  # unknown operator
    (_plan(("Retrieve", "x [answer 2]"), ("Reason", "y")), "not an earlier step"),  # forward ref
    (_plan(("Retrieve", "x"), ("Reason", "y [answer 2]")), "not an earlier step"),  # self ref
    (_plan(("Retrieve", "x"), ("Reason", "y [answer 0]")), "not an earlier step"),
    (_plan(("Rank", "x"), ("Retrieve", "y"), ("Reason", "z")), "no retrieved facts"),
    (_plan(("Retrieve", "x"), ("Rank", "y")), "end with a Reason"),
    ({"steps": []}, "invalid plan"),
])
def test_plan_validation_rejects(plan, why):
    with pytest.raises(PlanError, match=why):
        validate_plan(plan)


def test_time_scores_and_mu_rerank_hand_computed():
    cos = np.array([0.9, 0.5, 0.8, 0.1])
    t = np.array([10, 5, 20, 14])
    # before t_q=15: gaps 5, 10, -, 1; max gap 10 -> 0.5, 0.0, -100, 0.9
    assert time_scores(t, "before", (15, 15)).tolist() == pytest.approx([0.5, 0.0, -100.0, 0.9])
    pos, sc = rerank(cos, t, "before", (15, 15), mu=0.2, k=20)
    assert pos.tolist() == [3, 0, 1]  # the fact after t_q is filtered out
    assert sc.tolist() == pytest.approx([0.2 * 0.1 + 0.8 * 0.9, 0.2 * 0.9 + 0.8 * 0.5, 0.2 * 0.5])
    # after t_q=8: gaps 2, -, 12, 6; max 12
    assert time_scores(t, "after", (8, 8)).tolist() == pytest.approx([1 - 2 / 12, -100.0, 0.0, 0.5])
    pos, sc = rerank(cos, t, "after", (8, 8), mu=0.2, k=2)
    assert pos.tolist() == [0, 3]
    assert sc.tolist() == pytest.approx([0.18 + 0.8 * (1 - 2 / 12), 0.02 + 0.4])
    # no time constraint: cosine order
    assert rerank(cos, t, None, None)[0].tolist() == [0, 2, 1, 3]
    # a span boundary: after uses its last day; a single eligible fact is also the farthest (0)
    assert time_scores(np.array([9, 12]), "after", (10, 11)).tolist() == pytest.approx([-100.0, 0.0])


ROWS = [
    ("Jack_Straw", "Make_a_visit", "Iraq", "2006-01-06"),
    ("Barack_Obama", "Make_a_visit", "Iraq", "2006-01-08"),
    ("Barack_Obama", "Make_a_visit", "Iraq", "2006-01-09"),
    ("Ministry_of_Defence_(Denmark)", "Make_a_visit", "Iraq", "2006-01-02"),
    ("Nicolas_Sarkozy", "Make_a_visit", "Iraq", "2005-12-20"),
    ("China", "Make_a_visit", "Mexico", "2010-03-01"),
    ("China", "Make_a_visit", "Chile", "2010-02-20"),
    ("China", "Make_a_visit", "Peru", "2010-05-05"),
    ("Iran", "Sign_formal_agreement", "China", "2005-04-12"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS)


def test_execute_hand_written_plan_uses_earlier_answer_as_boundary(ctx):
    from tkgqa_ray.methods.pok.method import Execute

    plan = _plan(("Retrieve", "Ministry of Defence (Denmark) visit Iraq"),
                 ("Reason", "When did Ministry of Defence (Denmark) visit Iraq?"),
                 ("Retrieve", "Who visited Iraq after [answer 2]?"),
                 ("Rank", "Rank these facts by time"),
                 ("Reason", "Who was the first to visit Iraq after Ministry of Defence (Denmark)?"))
    from tkgqa_ray.methods.pok.state import KEY, PokState

    st = {"quid": "p", "question": "unused", "trace": {}, "roles": [], KEY: PokState(plan=validate_plan(plan))}
    (out,) = Execute(ctx, k=20)([st])
    steps = out["trace"]["steps"]
    assert steps[1]["answers"][0] == "2006-01-02"  # the Danish ministry's visit
    assert steps[2]["time_op"] == "after" and steps[2]["t_q"] == [D("2006-01-02"), D("2006-01-02")]
    # only facts after the boundary reach the reasoner, chronologically
    assert [e.split("|")[3] for e in out["evidence"]][:3] == ["2006-01-06", "2006-01-08", "2006-01-09"]
    assert all(e.split("|")[3] > "2006-01-02" for e in out["evidence"])
    assert out["predictions"][0] == "Jack Straw"
    assert out["final_evidence_count"] == len(out["evidence"])
    assert KEY not in out  # the working state became the result keys


def test_pok_end_to_end_and_ablations(ctx):
    qs = [{"quid": "a", "question": "After Ministry of Defence (Denmark), who was the first to visit Iraq?"},
          {"quid": "b", "question": "Before Mexico, which country did China visit last?"},
          {"quid": "c", "question": "Who signed a formal agreement with China in April 2005?"}]
    out = {s["quid"]: s for s in METHODS.get("pok")(ctx)([dict(q) for q in qs])}
    assert all(s["error"] is None for s in out.values())
    assert out["a"]["predictions"][0] == "Jack Straw"
    assert out["b"]["predictions"][0] == "Chile"
    assert out["c"]["predictions"][0] == "Iran"
    assert [r["role"] for r in out["a"]["roles"]] == ["planner", "reasoner", "reasoner"]
    nop = {s["quid"]: s for s in METHODS.get("pok")(ctx, ablation="wo_plan")([dict(q) for q in qs])}
    assert all([r["role"] for r in s["roles"]] == ["reasoner"] for s in nop.values())
    assert nop["a"]["trace"]["plan"][0]["text"] == qs[0]["question"]
    r1 = METHODS.get("pok")(ctx, ablation="wo_rank")([dict(q) for q in qs])
    r2 = METHODS.get("pok")(ctx, ablation="wo_rank")([dict(q) for q in qs])
    assert [s["evidence"] for s in r1] == [s["evidence"] for s in r2]  # seeded shuffle


def test_invalid_plan_falls_back_to_direct_retrieval(ctx):
    from dataclasses import replace

    from tkgqa_ray.backbones.base import RoleResult

    class BadPlanner:
        name, is_llm = "bad", False

        def __init__(self, inner):
            self.inner = inner

        def run(self, reqs):
            return [RoleResult(role=r.role, output={"steps": [{"op": "Retrieve", "text": "x [answer 5]"},
                                                              {"op": "Reason", "text": "y"}]})
                    if r.role == "planner" else self.inner.run([r])[0] for r in reqs]

    c = replace(ctx, backbone=BadPlanner(ctx.backbone))
    (s,) = METHODS.get("pok")(c)([{"quid": "x", "question": "Who visited Iraq?"}])
    assert "not an earlier step" in s["trace"]["plan_error"]
    assert s["answered_by"] == "fallback_plan" and s["error"] is None
