"""The closing summary: headline figures from the scorer's long aggregates table, hand-made."""

from __future__ import annotations

import pandas as pd

from tkgqa_ray.pipeline.summary import format_comparison_headline, format_run_headline, headline_figures

P = "multitq_official"


def agg_rows(run: str | None = None, shift: float = 0.0) -> list[dict]:
    rows = [
        (P, "hits@1", "overall", "all", 0.75 + shift, 0.0123, 400),
        (P, "hits@1", "qlabel", "Multiple", 0.5, 0.04, 100),
        (P, "hits@1", "qlabel", "Single", 0.8333 + shift, 0.02, 300),
        (P, "hits@1", "answer_type", "entity", 0.7, 0.03, 250),
        (P, "hits@1", "answer_type", "time", 0.8333, 0.031, 150),
        (P, "hits@3", "overall", "all", 0.9, 0.01, 400),  # another metric: not the headline
        ("lenient", "hits@1", "overall", "all", 0.99, 0.001, 400),  # another protocol
        (P, "hits@1", "qtype", "equal", 0.6, 0.05, 80),  # not a headline split
    ]
    out = [dict(zip(("protocol", "metric", "breakdown", "group", "value", "stderr", "n"), r)) for r in rows]
    if run is not None:
        for r in out:
            r["run"] = run
    return out


def test_run_headline_by_hand(tmp_path):
    (tmp_path / "metrics.md").write_text("# m")
    agg = pd.DataFrame(agg_rows())
    assert [f[0] for f in headline_figures(agg, P)] == ["overall", "Single", "Multiple", "entity", "time"]
    text = format_run_headline(agg, P, tmp_path, {"n_errors": 2, "n_missing": 0})
    assert text.splitlines() == [
        "Hits@1 (multitq_official): 0.750 ± 0.012  (n=400, errors=2, missing=0)",
        "  Single 0.833 ± 0.020 (n=300)  |  Multiple 0.500 ± 0.040 (n=100)",
        "  entity 0.700 ± 0.030 (n=250)  |  time 0.833 ± 0.031 (n=150)",
        f"report: {(tmp_path / 'metrics.md').resolve()}",
    ]
    # the HTML report, once written, is listed first
    (tmp_path / "report.html").write_text("<html></html>")
    assert format_run_headline(agg, P, tmp_path).splitlines()[-2:] == [
        f"report: {(tmp_path / 'report.html').resolve()}", f"report: {(tmp_path / 'metrics.md').resolve()}"]


def test_run_headline_without_labels_or_scores(tmp_path):
    agg = pd.DataFrame([r for r in agg_rows() if r["breakdown"] not in ("qlabel",)])
    lines = format_run_headline(agg, P, tmp_path).splitlines()
    assert lines[1] == "  entity 0.700 ± 0.030 (n=250)  |  time 0.833 ± 0.031 (n=150)" and len(lines) == 2
    empty = pd.DataFrame(columns=["protocol", "metric", "breakdown", "group", "value", "stderr", "n"])
    assert format_run_headline(empty, P, tmp_path) == "Hits@1 (multitq_official): no scores"


def test_comparison_headline_by_hand(tmp_path):
    (tmp_path / "comparison.md").write_text("# c")
    agg = pd.DataFrame(agg_rows("0_scop_symbolic_none") + agg_rows("1_rag_symbolic_none", shift=-0.5))
    lines = format_comparison_headline(agg, P, tmp_path, ["0_scop_symbolic_none", "1_rag_symbolic_none"]).splitlines()
    assert lines[0] == "Hits@1 (multitq_official) by run:"
    assert lines[1] == ("  0_scop_symbolic_none  overall 0.750 ± 0.012  |  Single 0.833 ± 0.020  |  "
                        "Multiple 0.500 ± 0.040  |  entity 0.700 ± 0.030  |  time 0.833 ± 0.031")
    assert lines[2].startswith("  1_rag_symbolic_none   overall 0.250 ± 0.012  |  Single 0.333 ± 0.020")
    assert lines[3] == f"report: {(tmp_path / 'comparison.md').resolve()}"
