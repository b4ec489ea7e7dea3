"""Run report files, merged comparison of run dirs, and the per-question diff."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from tkgqa_ray.eval import compare_runs, diff_runs, load_run, run_identity, save_gold, write_diff, write_run_report
from tkgqa_ray.eval.compare import mcnemar_exact_p
from tkgqa_ray.records import Gold

GOLDS = {
    "1": Gold("1", ("Iran",), "entity", "equal", "Single", "month"),
    "2": Gold("2", ("France",), "entity", "equal", "Single", "day"),
    "3": Gold("3", ("2010",), "time", "first_last", "Single", "year"),
    "4": Gold("4", ("Japan",), "entity", "after_first", "Multiple", "day"),
    "5": Gold("5", ("China",), "entity", "after_first", "Multiple", "day"),
}
# A: 1 right, 2 wrong, 3 right, 4 wrong, 5 right     B: 1 right, 2 right, 3 wrong, 4 wrong, 5 error
PRED_A = {"1": ["Iran"], "2": ["Spain", "France"], "3": ["2010-01-02"], "4": ["China"], "5": ["China"]}
PRED_B = {"1": ["Iran"], "2": ["France"], "3": ["2011"], "4": ["India"], "5": []}


def make_run(root, name, preds, backbone, errors=(), write_metrics=True, method="rag"):
    d = root / name
    d.mkdir()
    rows = pd.DataFrame(
        {
            "quid": list(preds),
            "question": [f"question {q}?" for q in preds],
            "method": method,
            "backbone": backbone,
            "ablation": "none",
            "predictions": list(preds.values()),
            "evidence": [["Iran|Sign_formal_agreement|China|2010-01-02|2010-01-02"]] * len(preds),
            "initial_evidence_count": [20] * len(preds),
            "final_evidence_count": [1] * len(preds),
            "trace": ["{}"] * len(preds),
            "prompt_tokens": [50] * len(preds),
            "completion_tokens": [5] * len(preds),
            "seconds": [0.5] * len(preds),
            "error": ["answer: Timeout" if q in errors else None for q in preds],
        }
    )
    rows.to_parquet(d / "predictions.parquet", index=False)
    save_gold(d, GOLDS)
    cfg = {"dataset": {"name": "tiny"}, "method": {"name": method}, "backbone": {"name": backbone}, "ablation": "none"}
    (d / "run.json").write_text(json.dumps(cfg))
    if write_metrics:
        write_run_report(d, rows, GOLDS, cfg, n_boot=100)
    return d


def test_run_report_files(tmp_path):
    d = make_run(tmp_path, "a", PRED_A, "symbolic")
    m = json.loads((d / "metrics.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert set(m["protocols"]) == {"multitq_official", "scop_script", "lenient"}
    assert m["n_questions"] == 5 and m["n_errors"] == 0
    assert m["overall"]["multitq_official"]["hits@1"]["value"] == pytest.approx(3 / 5)
    assert m["overall"]["scop_script"]["hits@1"]["value"] == pytest.approx(2 / 5)  # "2010-01-02" != "2010"
    assert m["overall"]["multitq_official"]["hits@10"]["value"] == pytest.approx(4 / 5)
    assert m["breakdowns"]["qtype"]["after_first"]["multitq_official"]["hits@1"]["n"] == 2
    assert m["config"]["backbone"] == {"name": "symbolic"}
    assert m["versions"]["pyarrow"] and m["bootstrap"] == {"n_boot": 100, "seed": 0}
    assert m["evidence"]["overall"]["ecr"] == pytest.approx(0.95)
    assert m["cost"]["mean_tokens"] == pytest.approx(55.0)
    md = (d / "metrics.md").read_text()
    assert "multitq_official" in md and "lenient" in md and " ± " in md
    assert "## By qtype" in md and "## Evidence" in md and "## Cost per question" in md
    assert "method=rag" in md and "backbone=symbolic" in md
    assert (d / "hits1_by_type.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    sc = pd.read_parquet(d / "scores.parquet")
    assert sorted(sc.quid) == ["1", "2", "3", "4", "5"]


def test_identity_sources(tmp_path):
    assert run_identity({"method": "scop", "run": {"backbone": {"name": "qwen"}}}) == {
        "dataset": None, "method": "scop", "backbone": "qwen", "ablation": None}
    d = tmp_path / "bare"
    d.mkdir()
    pd.DataFrame({"quid": ["1"], "method": ["pok"], "backbone": ["smol"], "ablation": ["none"],
                  "predictions": [["Iran"]]}).to_parquet(d / "predictions.parquet")
    ident = load_run(d).identity
    assert (ident["method"], ident["backbone"], ident["ablation"]) == ("pok", "smol", "none")


def test_compare_two_runs(tmp_path):
    a = make_run(tmp_path, "a", PRED_A, "symbolic")
    b = make_run(tmp_path, "b", PRED_B, "smollm2", errors=("5",), write_metrics=False)  # rescored on demand
    out = tmp_path / "cmp"
    c = compare_runs([a, b], out, n_boot=100)
    assert (b / "metrics.json").exists()
    for f in ("comparison.md", "aggregates.csv", "aggregates.parquet", "all_rows.parquet",
              "hits1_by_type_by_backbone.png"):
        assert (out / f).exists(), f
    agg = pd.read_csv(out / "aggregates.csv")
    ov = agg[(agg.breakdown == "overall") & (agg.protocol == "multitq_official") & (agg.metric == "hits@1")]
    assert dict(zip(ov.backbone, ov.value)) == {"symbolic": pytest.approx(0.6), "smollm2": pytest.approx(0.4)}
    assert set(agg.method) == {"rag"} and set(agg.dataset) == {"tiny"}
    rows = pd.read_parquet(out / "all_rows.parquet")
    assert len(rows) == 10 and "trace" not in rows.columns
    assert rows[(rows.backbone == "smollm2") & (rows.quid == "5")].status.iloc[0] == "error"
    assert int(rows["multitq_official/hits@1"].sum()) == 5
    md = c.markdown
    assert "symbolic" in md and "smollm2" in md and "0.600 ±" in md and "Hits@1 by qtype" in md


def test_diff_two_runs(tmp_path):
    a = make_run(tmp_path, "a", PRED_A, "symbolic")
    b = make_run(tmp_path, "b", PRED_B, "smollm2", errors=("5",))
    d = diff_runs(a, b)
    t = d.table.set_index("quid")
    assert t.outcome.to_dict() == {"1": "both", "2": "b_only", "3": "a_only", "4": "neither", "5": "a_only"}
    bt = d.by_type.set_index("type")
    assert bt.loc["after_first", ["n", "both", "a_only", "b_only", "neither", "net"]].tolist() == [2, 0, 1, 0, 1, 1]
    assert bt.loc["all", ["a_only", "b_only"]].tolist() == [2, 1]
    assert d.summary["a_score"] == pytest.approx(0.6) and d.summary["b_score"] == pytest.approx(0.4)
    assert t.loc["3", "question"] == "question 3?" and t.loc["3", "b_top"] == "2011"
    # Hits@10 changes q2: A has France at rank 2
    d10 = diff_runs(a, b, k=10)
    assert d10.table.set_index("quid").outcome["2"] == "both"
    w = write_diff(a, b, tmp_path / "diff")
    assert "A right, B wrong" in (tmp_path / "diff" / "diff.md").read_text()
    assert json.loads((tmp_path / "diff" / "diff.json").read_text())["a_only"] == 2
    assert len(pd.read_parquet(tmp_path / "diff" / "diff.parquet")) == 5 and w.summary["b_only"] == 1


def test_mcnemar():
    assert mcnemar_exact_p(0, 0) == 1.0
    assert mcnemar_exact_p(5, 0) == pytest.approx(2 / 32)
    assert mcnemar_exact_p(3, 3) == 1.0
    assert mcnemar_exact_p(1, 4) == pytest.approx(2 * (1 + 5) / 32)


def test_headline_and_pipeline_run_json(tmp_path):
    d = make_run(tmp_path, "a", PRED_A, "symbolic")
    # the pipeline's run.json: identity at top level, full config nested
    (d / "run.json").write_text(json.dumps({"dataset": "tiny", "method": "scop", "backbone": "qwen",
                                            "ablation": "w/o_constraint", "config": {"dataset": {"name": "x"}}}))
    assert load_run(d).identity == {"dataset": "tiny", "method": "scop", "backbone": "qwen", "ablation": "w/o_constraint"}
    assert run_identity({"config": {"method": {"name": "pok"}}})["method"] == "pok"
    from tkgqa_ray.eval import compute_metrics

    h = compute_metrics(pd.read_parquet(d / "predictions.parquet"), GOLDS, n_boot=50).headline()
    assert h.startswith("hits@1: multitq_official 0.600 ±") and "n=5" in h
