"""Retrieval baselines end to end on a tiny hand-made KG (real store, MiniLM, symbolic backbone)."""

from __future__ import annotations

import pytest

from tkgqa_ray.methods.base import METHODS
from tkgqa_ray.methods.baselines import symbolic_filter
from tkgqa_ray.retrieval.answers import candidate_answers
from tkgqa_ray.retrieval.dense import dense_fact_ids
from tkgqa_ray.retrieval.render import fact_keys
from tkgqa_ray.nlu.signals import question_signals

ROWS = [
    ("Iran", "Sign_formal_agreement", "China", "2005-04-12"),
    ("Japan", "Sign_formal_agreement", "China", "2005-04-20"),
    ("France", "Sign_formal_agreement", "China", "2007-11-26"),
    ("Iran", "Sign_formal_agreement", "China", "2009-01-01"),
    ("Barack_Obama", "Make_a_visit", "Ireland", "2011-05-23"),
    ("Barack_Obama", "Make_a_visit", "Ireland", "2013-06-17"),
    ("China", "Make_statement", "Japan", "2006-02-02"),
    ("Angela_Merkel", "Criticize_or_denounce", "Russia", "2014-03-03"),
    ("Angela_Merkel", "Make_a_visit", "China", "2010-07-15"),
    ("Vladimir_Putin", "Make_a_visit", "China", "2012-06-05"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS)


def test_signals_answer_type_and_granularity():
    s = question_signals("Who signed an agreement with China in April 2005?")
    assert (s.answer_type, s.granularity, s.order, s.select) == ("entity", "month", "in", None)
    assert s.explicit.text == "April 2005"
    s = question_signals("In which year did Barack Obama first visit Ireland?")
    assert (s.answer_type, s.granularity, s.select) == ("time", "year", "first")
    s = question_signals("Before Mexico, which country did China visit last?")
    assert (s.answer_type, s.order, s.select) == ("entity", "before", "last")
    s = question_signals("Who visited China in the same month as Angela Merkel?")
    assert (s.order, s.same_granularity) == ("same", "month")
    s = question_signals("When did Iran sign an agreement with China?")
    assert (s.answer_type, s.granularity, s.order) == ("time", "day", None)
    s = question_signals("Who criticized Russia after 2014-03-01?")
    assert (s.order, s.explicit.granularity) == ("after", "day")


def test_dense_expansion_puts_time_matches_first(ctx):
    q = "Who signed an agreement with China in April 2005?"
    e = question_signals(q).explicit
    (fids, scores), = dense_fact_ids(ctx, [q], 4, time_hints=[(e.lo, e.hi)], triple_pool=10)
    keys = fact_keys(ctx.table, fids)
    # the two April-2005 facts first (by triple rank), whichever agreement triple ranks higher
    assert {k[:-22] for k in keys[:2]} == {"Iran|Sign_formal_agreement|China", "Japan|Sign_formal_agreement|China"}
    assert all("2005-04" in k for k in keys[:2])
    assert len(keys) == 4 and len(set(keys)) == 4
    # no time hint: each triple's earliest fact before any triple's second fact
    (fids2, _), = dense_fact_ids(ctx, [q], 10, triple_pool=10)
    keys2 = fact_keys(ctx.table, fids2)
    assert len(keys2) == 10  # every fact of the KG, since the pool holds every triple
    first_iran = keys2.index("Iran|Sign_formal_agreement|China|2005-04-12|2005-04-12")
    second_iran = keys2.index("Iran|Sign_formal_agreement|China|2009-01-01|2009-01-01")
    assert second_iran >= 8  # only two triples have a second fact; they come last
    assert first_iran < 8


def test_candidate_answers_hand_cases():
    keys = [
        "Iran|Sign_formal_agreement|China|2005-04-12|2005-04-12",
        "Japan|Sign_formal_agreement|China|2005-04-20|2005-04-20",
        "Iran|Sign_formal_agreement|China|2009-01-01|2009-01-01",
    ]
    q = "Who signed an agreement with China in April 2005?"
    assert candidate_answers(q, keys) == ["Iran", "Japan"]  # Iran twice, China is mentioned
    assert candidate_answers(q, keys, select="last") == ["Iran", "Japan"]  # 2009 > 2005-04-20
    assert candidate_answers(q, keys[:2], select="last") == ["Japan", "Iran"]
    tq = "In which month did Iran sign an agreement with China?"
    assert candidate_answers(tq, keys) == ["2005-04", "2009-01"]
    # the Japan fact names only one question entity (tier 1 < 2): not a candidate
    assert candidate_answers("When did Iran sign an agreement with China?", keys, select="last") == [
        "2009-01-01", "2005-04-12"]
    # no fact names both: the tier-1 facts count
    assert candidate_answers("When did Japan sign an agreement?", keys) == ["2005-04-20"]
    # entity tiers: a fact naming a question entity beats unrelated ones
    noisy = ["Peru|Make_statement|Chile|2005-01-01|2005-01-01"] * 3 + keys[1:2]
    assert candidate_answers(q, noisy) == ["Japan"]


def test_symbolic_filter_keeps_question_entities_and_time():
    keys = [
        "France|Sign_formal_agreement|China|2007-11-26|2007-11-26",
        "Iran|Make_statement|Japan|2005-04-02|2005-04-02",
        "Japan|Sign_formal_agreement|China|2005-04-20|2005-04-20",
    ]
    out = symbolic_filter({"question": "Who signed an agreement with China in April 2005?",
                           "fact_keys": keys, "keep_k": 2}, None)
    assert out == {"keep": [3, 1]}  # only fact 3 names China in April 2005; pad by order


def test_rag_end_to_end(ctx):
    method = METHODS.get("rag")(ctx, k=4, triple_pool=10)
    states = method([{"quid": "q1", "question": "Who signed an agreement with China in April 2005?"},
                     {"quid": "q2", "question": "In which year did Barack Obama visit Ireland?"}])
    s1, s2 = states
    assert s1["error"] is None and s2["error"] is None
    assert s1["initial_evidence_count"] == s1["final_evidence_count"] == 4
    assert set(s1["predictions"][:2]) == {"Iran", "Japan"}
    assert s1["answered_by"] == "dense"
    # round-robin expansion: the Obama-Ireland triple ranks first, its earliest fact leads; the
    # frequency answerer has no reason to prefer 2013 over other triples' years (ties: order)
    assert s2["predictions"][0] == "2011"
    assert "Barack_Obama|Make_a_visit|Ireland|2011-05-23|2011-05-23" == s2["evidence"][0]
    assert all(r["role"] == "answerer" and r["ok"] for s in states for r in s["roles"])
    assert all(e.count("|") == 4 for e in s1["evidence"])


def test_rag_filter_and_llm_only(ctx):
    m = METHODS.get("rag_filter")(ctx, k=8, keep_k=3, triple_pool=10)
    (s,) = m([{"quid": "q1", "question": "Who signed an agreement with China in April 2005?"}])
    assert s["initial_evidence_count"] == 8 and s["final_evidence_count"] == 3
    assert [r["role"] for r in s["roles"]] == ["filter", "answerer"]
    assert set(s["predictions"][:2]) == {"Iran", "Japan"}
    m = METHODS.get("llm_only")(ctx)
    (s,) = m([{"quid": "q1", "question": "Who signed an agreement with China in April 2005?"}])
    assert s["predictions"] == [] and s["final_evidence_count"] == 0 and s["error"] is None


class SpyBackbone:
    """Records every request so the test can check what a method passes to its roles."""

    name, is_llm = "spy", False

    def __init__(self, inner):
        self.inner, self.requests = inner, []

    def bind(self, ctx):
        self.inner.bind(ctx)

    def run(self, requests):
        self.requests.extend(requests)
        return self.inner.run(requests)


# --------------------------------------------------------------------------- gold leakage
# Every gold field of the question records holds a poison value that occurs nowhere else (not
# in the KG, not in a question). A method that reads gold by any route, however indirect,
# carries a poison value into its rows (predictions, evidence, trace, role ledger) or into
# what it sends its backbone; a method that does not, cannot produce one.
POISON = "Zqgoldleak"
LEAK_QUESTIONS = {
    "q1": "Who signed an agreement with China in April 2005?",
    "q2": "In which year did Barack Obama visit Ireland?",
    "q3": "Who made a visit to China?",
}


def _write_poisoned_dataset(root):
    import json

    (root / "kg").mkdir(parents=True)
    (root / "kg" / "full.txt").write_text("".join("\t".join(r) + "\n" for r in ROWS))
    records = [
        {"quid": quid, "question": text, "answers": [f"{POISON} answer {quid}"], "answer_type": f"{POISON}_type",
         "qtype": f"{POISON}_qtype", "qlabel": f"{POISON}_qlabel", "time_level": f"{POISON}_level",
         "question_level": f"{POISON}_qlevel", "events": [f"{POISON}|r|o|2005-04-12|2005-04-12"],
         "note": f"{POISON} extra label"}
        for quid, text in LEAK_QUESTIONS.items()
    ]
    (root / "questions").mkdir()
    (root / "questions" / "test.json").write_text(json.dumps(records))


@pytest.fixture(scope="module")
def poisoned_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("poisoned")
    _write_poisoned_dataset(root)
    return root


def run_as_the_pipeline(method, root) -> list[dict]:
    """Questions go the pipeline's way: the dataset loader, then exactly the worker's input
    columns, then ``MethodWorker.__call__`` (the Ray Data UDF body) — so if the loader, the
    input columns or the worker ever carried a gold field, the poison would reach the method."""
    import pyarrow as pa

    from tkgqa_ray.data.loaders import load_dataset
    from tkgqa_ray.pipeline.worker import INPUT_COLUMNS, MethodWorker

    ds = load_dataset("multitq", root)
    assert all(POISON in g.answers[0] for g in ds.golds.values())  # the poison is really in the gold
    batch = pa.table({c: [str(getattr(q, c)) for q in ds.questions] for c in INPUT_COLUMNS})
    worker = MethodWorker.__new__(MethodWorker)  # __init__ builds from Ray refs; same fields here
    worker.method, worker.ctx, worker.metrics = method, method.ctx, None
    worker.meta = {"method": method.name, "backbone": "spy", "ablation": method.ablation}
    return worker(batch).to_pylist()


def assert_no_gold(rows: list[dict], spy: SpyBackbone) -> None:
    import json

    assert [r["quid"] for r in rows] == list(LEAK_QUESTIONS)
    for row in rows:
        assert POISON not in json.dumps(row, default=str), f"gold leaked into the row of {row['quid']}: {row}"
    for req in spy.requests:
        text = json.dumps(req.inputs, default=str)
        assert POISON not in text, f"gold leaked into a {req.method}.{req.role} request: {text[:300]}"


@pytest.mark.parametrize("name", METHODS.names())
def test_no_method_reads_gold(ctx, poisoned_root, name):
    """Every registered method (SCoP included) over poisoned gold: no poison in its output."""
    from dataclasses import replace

    spy = SpyBackbone(ctx.backbone)
    method = METHODS.get(name)(replace(ctx, backbone=spy))
    rows = run_as_the_pipeline(method, poisoned_root)
    assert all(r["error"] is None for r in rows), [r["error"] for r in rows]
    if name != "llm_only":  # the symbolic llm_only answers nothing; the others must answer
        assert any(r["predictions"] for r in rows), rows
    assert_no_gold(rows, spy)


@pytest.mark.parametrize("where", ["predictions", "trace", "role_request"])
def test_leak_check_catches_a_method_that_reads_gold(ctx, poisoned_root, monkeypatch, where):
    """The check above is not vacuous: the rag method, made to peek at the gold (re-reading the
    question file, the way a careless method could), fails it wherever the gold surfaces."""
    from dataclasses import replace

    from tkgqa_ray.backbones.base import RoleRequest
    from tkgqa_ray.data.loaders import load_dataset
    from tkgqa_ray.retrieval import answers

    golds = load_dataset("multitq", poisoned_root).golds
    real_call = answers.Answer.__call__

    def peeking_answer(self, states):
        states = real_call(self, states)
        for st in states:
            gold = golds[st["quid"]]
            if where == "predictions":
                st["predictions"] = [*st["predictions"][:1], *gold.answers]
            elif where == "trace":
                st["trace"]["hint"] = gold.qtype
            else:
                self.ctx.backbone.run([RoleRequest("rag", "answerer", {"question": st["question"], "t": gold.time_level})])
        return states

    monkeypatch.setattr(answers.Answer, "__call__", peeking_answer)
    spy = SpyBackbone(ctx.backbone)
    rows = run_as_the_pipeline(METHODS.get("rag")(replace(ctx, backbone=spy)), poisoned_root)
    with pytest.raises(AssertionError, match="gold leaked"):
        assert_no_gold(rows, spy)
