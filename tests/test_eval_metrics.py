"""Per-question scores, breakdowns, bootstrap stderr, cost, evidence metrics, gold I/O."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from tkgqa_ray.eval import bootstrap_stderr, compute_metrics, evidence_metrics, load_gold, save_gold, score_questions
from tkgqa_ray.eval.evidence import parse_fact_key
from tkgqa_ray.records import Gold


def G(quid, answers, **kw):
    return Gold(quid=quid, answers=tuple(answers), **kw)


@pytest.fixture
def golds():
    return {
        "q1": G("q1", ["Iran"], answer_type="entity", qtype="equal", qlabel="Single", time_level="month",
                extra={"types": ["Explicit"]}),
        "q2": G("q2", ["Barack Obama"], answer_type="entity", qtype="before_after", qlabel="Single",
                time_level="day", extra={"types": ["Explicit", "Temporal"]}),
        "q3": G("q3", ["2010"], answer_type="time", qtype="equal_multi", qlabel="Multiple", time_level="year",
                extra={"types": ["Ordinal"]}),
        "q4": G("q4", ["France"], answer_type="entity", qtype="first_last", qlabel="Single", time_level="day"),
        "q5": G("q5", ["Japan"], answer_type="entity", qtype="after_first", qlabel="Multiple", time_level="day"),
    }


@pytest.fixture
def rows():
    return pd.DataFrame(
        {
            "quid": ["q1", "q2", "q3", "q4"],
            "predictions": [["Iran"], ["x", "y", "Barack Obama"], ["2010-05-17"], ["France"]],
            "error": [None, None, None, "answer: TimeoutError"],
            "prompt_tokens": [100, 200, None, 300],
            "completion_tokens": [10, 20, None, 30],
            "seconds": [1.0, 3.0, None, 2.0],
        }
    )


def val(res, p, m="hits@1", bd="overall", g="all"):
    return res.value(p, m, bd, g)


def test_hand_computed_overall_and_breakdowns(rows, golds):
    res = compute_metrics(rows, golds, n_boot=200)
    # q1 hit, q2 hit only at rank 3, q3 hit via year cut (official/lenient), q4 error, q5 missing
    assert val(res, "multitq_official") == pytest.approx(2 / 5)
    assert val(res, "multitq_official", "hits@10") == pytest.approx(3 / 5)
    assert val(res, "scop_script") == pytest.approx(1 / 5)
    assert val(res, "scop_script", "hits@10") == pytest.approx(2 / 5)
    assert val(res, "lenient") == pytest.approx(2 / 5)
    assert val(res, "lenient", "hits@10") == pytest.approx(3 / 5)
    assert val(res, "multitq_official", bd="qtype", g="equal") == 1.0
    assert val(res, "multitq_official", bd="qtype", g="first_last") == 0.0  # error row = miss
    assert val(res, "multitq_official", bd="qlabel", g="Single") == pytest.approx(1 / 3)
    assert val(res, "multitq_official", bd="qlabel", g="Multiple") == pytest.approx(1 / 2)
    assert val(res, "scop_script", bd="answer_type", g="time") == 0.0
    assert val(res, "multitq_official", bd="time_level", g="year") == 1.0
    # TimeQuestions-style multi-valued types: a question counts in each of its types
    assert val(res, "multitq_official", bd="types", g="Explicit") == pytest.approx(0.5)
    assert val(res, "multitq_official", "hits@10", bd="types", g="Temporal") == 1.0
    assert val(res, "multitq_official", bd="types", g="Ordinal") == 1.0
    a = res.aggregates
    assert set(a.breakdown) == {"overall", "qlabel", "qtype", "answer_type", "time_level", "types"}  # no question_level
    assert int(a[(a.breakdown == "types") & (a.group == "Explicit")].n.iloc[0]) == 2
    assert res.counts == {"n_questions": 5, "n_rows": 4, "n_ok": 3, "n_errors": 1, "n_missing": 1}
    sc = res.scores.set_index("quid")
    assert sc.loc["q4", "status"] == "error" and sc.loc["q5", "status"] == "missing"
    assert sc.loc["q2", "multitq_official/hits@10"] == 1 and sc.loc["q2", "multitq_official/hits@1"] == 0


def test_cost_columns(rows, golds):
    res = compute_metrics(rows, golds, n_boot=10)
    c = res.cost
    assert c["mean_prompt_tokens"] == pytest.approx(200.0) and c["n_prompt_tokens"] == 3
    assert c["mean_tokens"] == pytest.approx((110 + 220 + 330) / 3)
    assert c["mean_seconds"] == pytest.approx(2.0)


def test_bad_rows(golds):
    with pytest.raises(ValueError, match="no gold"):
        score_questions(pd.DataFrame({"quid": ["zz"], "predictions": [["a"]]}), golds)
    with pytest.raises(ValueError, match="repeat"):
        score_questions(pd.DataFrame({"quid": ["q1", "q1"], "predictions": [["a"], ["b"]]}), golds)


def test_arrow_input_and_int_quids():
    golds = {3000009: G("3000009", ["Iran"])}
    t = pa.table({"quid": ["3000009"], "predictions": [["Iran"]]})
    res = compute_metrics(t, golds, n_boot=10)
    assert res.value("multitq_official") == 1.0


def test_underscore_diagnostic(golds):
    res = compute_metrics(pd.DataFrame({"quid": ["q2"], "predictions": [["Barack_Obama"]]}), golds, n_boot=10)
    assert res.diagnostics["rows_with_underscore_top_prediction"] == 1
    assert res.scores.set_index("quid").loc["q2", "lenient/hits@1"] == 1
    assert res.scores.set_index("quid").loc["q2", "multitq_official/hits@1"] == 0


def test_bootstrap_deterministic_and_calibrated():
    rng = np.random.default_rng(1)
    v = (rng.random(2000) < 0.3).astype(float)
    a, b = bootstrap_stderr(v, 1000, seed=5), bootstrap_stderr(v, 1000, seed=5)
    assert a == b
    assert bootstrap_stderr(v, 1000, seed=6) != a
    p = v.mean()
    assert a == pytest.approx(math.sqrt(p * (1 - p) / len(v)), rel=0.1)
    # the binomial shortcut agrees with plain index resampling
    idx = np.random.default_rng(0).integers(0, len(v), size=(1000, len(v)))
    assert a == pytest.approx(v[idx].mean(axis=1).std(ddof=1), rel=0.1)
    # non-binary values take the resampling path
    x = rng.normal(10, 2, 3000)
    assert bootstrap_stderr(x, 500, seed=0) == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)), rel=0.12)
    assert math.isnan(bootstrap_stderr(np.array([1.0])))


def test_metrics_deterministic(rows, golds):
    a = compute_metrics(rows, golds, n_boot=300, seed=3).aggregates
    b = compute_metrics(rows, golds, n_boot=300, seed=3).aggregates
    pd.testing.assert_frame_equal(a, b)


# ----------------------------------------------------------------------------- evidence


@pytest.fixture
def ev_golds():
    return {
        "e1": G("e1", ["Iran"], answer_type="entity", qtype="equal",
                events=("China|Sign formal agreement|Iran|2005-04-12|2005-04-12",
                        "China|Make a visit|Japan|2005-04-02|2005-04-02")),
        "e2": G("e2", ["South Korea", "France"], answer_type="entity", qtype="equal"),
        "e3": G("e3", ["2005-04"], answer_type="time", qtype="before_after"),
        "e4": G("e4", ["2005"], answer_type="time", qtype="before_after"),
        "e5": G("e5", ["Japan"], answer_type="entity", qtype="equal"),
        "e6": G("e6", ["Louis Pasteur"], answer_type="entity", qtype="simple",
                events=("Rumford Medal|winner|Louis Pasteur|1856-01-01|1856-01-01",)),
    }


@pytest.fixture
def ev_rows():
    return pd.DataFrame(
        {
            "quid": ["e1", "e2", "e3", "e4", "e5", "e6"],
            "predictions": [["Iran"], ["France"], ["2005-04"], ["2005"], ["Japan"], ["Louis Pasteur"]],
            "evidence": [
                ["China|Sign_formal_agreement|Iran|2005-04-12|2005-04-12",
                 "China|Make_a_visit|Japan|2005-04-01|2005-04-01"],
                ["South_Korea|Express_intent_to_cooperate|China|2005-01-01|2005-01-01", "free text, not a fact"],
                ["A|r|B|2005-04-30|2005-04-30"],
                ["A|r|B|2006-01-01|2006-01-01"],
                [],
                ["Rumford_Medal|winner|Louis_Pasteur|1856-01-01|1856-01-01"],
            ],
            "initial_evidence_count": [10, 5, 4, 1, None, 2],
            "final_evidence_count": [2, 1, 1, 1, None, 1],
        }
    )


def test_evidence_hand_computed(ev_rows, ev_golds):
    ev = evidence_metrics(ev_rows, ev_golds)
    o = ev["overall"]
    assert o["n"] == 5  # e5 exposes no evidence
    assert o["ecr"] == pytest.approx(1 - (2 + 1 + 1 + 1 + 1) / (10 + 5 + 4 + 1 + 2))
    assert o["mean_initial"] == pytest.approx(22 / 5)
    assert o["mean_final"] == pytest.approx(6 / 5)
    # answers: e1 full, e2 any-not-full, e3 full (2005-04-30 at month), e4 none (2006), e6 full
    assert o["answer_any"] == pytest.approx(4 / 5)
    assert o["answer_full"] == pytest.approx(3 / 5)
    # events: e1 any not full (Japan visit date differs), e6 full (display vs KG form)
    assert o["event_n"] == 2
    assert o["event_any"] == 1.0 and o["event_full"] == pytest.approx(0.5)
    assert ev["unparsed_evidence"] == 1
    bq = ev["by_qtype"]
    assert bq["before_after"]["ecr"] == pytest.approx(1 - 2 / 5)
    assert bq["before_after"]["answer_any"] == pytest.approx(0.5)
    assert bq["equal"]["event_n"] == 1 and bq["before_after"]["event_any"] is None


def test_evidence_absent_and_errors(ev_golds):
    assert evidence_metrics(pd.DataFrame({"quid": ["e1"], "predictions": [["Iran"]]}), ev_golds) is None
    rows = pd.DataFrame({"quid": ["e1"], "evidence": [["x|y|Iran|2005-01-01|2005-01-01"]],
                         "initial_evidence_count": [3], "final_evidence_count": [1], "error": ["boom"]})
    assert evidence_metrics(rows, ev_golds) is None  # error rows are left out
    rows = pd.DataFrame({"quid": ["e1"], "evidence": [[]], "initial_evidence_count": [0], "final_evidence_count": [0]})
    assert evidence_metrics(rows, ev_golds)["overall"]["ecr"] is None  # ΣInitial = 0


def test_parse_fact_key():
    assert parse_fact_key("Barack_Obama|Make_a_visit|Ireland|2012-08-07|2012-08-07")[:3] == (
        "barack obama", "make a visit", "ireland")
    assert parse_fact_key("a|b|c|1856|1860")[3:] == (
        parse_fact_key("a|b|c|1856-01-01|1860-12-31")[3:])
    assert parse_fact_key("a|b|c|2010-02-30|2010-03-01") is None
    assert parse_fact_key("a|b|c|2010") is None


def test_gold_roundtrip(tmp_path, golds, ev_golds):
    allg = {**golds, **ev_golds}
    p = save_gold(tmp_path, allg)
    assert p.name == "gold.parquet"
    back = load_gold(tmp_path)
    assert back == allg
    with pytest.raises(FileNotFoundError, match="no gold file"):
        load_gold(tmp_path / "nope")


def test_timequestions_and_timeline_labels():
    golds = {
        "1": G("1", ["Jerusalem Prize"], qtype="Explicit,Ordinal",
               extra={"Temporal question type": ["Explicit", "Ordinal"]}),
        "2": G("2", ["1971"], qtype="Implicit", extra={"Temporal question type": ["Implicit"]}),
        "3": G("3", ["x"], question_level="complex", extra={"temporal_relation": "during"}),
    }
    rows = pd.DataFrame({"quid": ["1", "2", "3"], "predictions": [["Jerusalem Prize"], ["1970"], ["x"]]})
    res = compute_metrics(rows, golds, n_boot=10)
    assert res.value("multitq_official", breakdown="types", group="Ordinal") == 1.0
    assert res.value("multitq_official", breakdown="types", group="Implicit") == 0.0
    assert res.value("multitq_official", breakdown="temporal_relation", group="during") == 1.0
    assert res.value("multitq_official", breakdown="question_level", group="complex") == 1.0
