"""`tkgqa-ray run -m` sweep → one run dir per job + merged comparison (Hydra callback);
`tkgqa-ray report` rebuilds it; `tkgqa-ray diff` compares two runs question by question."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline_methods import make_dataset

pytestmark = [pytest.mark.ray, pytest.mark.cli_processes]


def _cli(args: list[str], cwd: Path, env: dict, timeout: int = 600) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "tkgqa_ray.cli", *args], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=timeout)
    assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-4000:])
    return p


def _main(args: list[str], capsys) -> str:
    """``tkgqa-ray ARGS`` in this process (what the console script calls): its stdout. The
    report/diff commands need no Ray and no fresh interpreter; their exit codes as a process
    are tested in test_pipeline_reliability."""
    from tkgqa_ray.cli import main

    capsys.readouterr()
    rc = main(args)
    out, err = capsys.readouterr()
    assert rc == 0, (out[-2000:], err[-4000:])
    return out


def test_multirun_sweep_comparison_report_and_diff(ray_session, tmp_path, capsys):
    import ray

    root = tmp_path / "ds"
    gold = make_dataset(root, n_questions=8, seed=5)  # scan-oracle answers by quid
    env = {**os.environ, "RAY_ADDRESS": ray.get_runtime_context().gcs_address,
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    sweep = tmp_path / "sweep"
    meth = "test_pipeline_methods:StoreLookup"
    _cli(["run", "-m", "method=llm_only", f"method.name={meth},rag", "backbone=symbolic",
          "dataset=multitq", f"dataset.root={root}", f"hydra.sweep.dir={sweep}", "run.progress=false",
          "run.num_workers=1", "store.num_shards=1", "embeddings.warm=false"], tmp_path, env)
    runs = sorted(p.parent for p in sweep.glob("*/predictions.parquet"))
    assert [r.name for r in runs] == [f"0_{meth}_symbolic_none", "1_rag_symbolic_none"]
    for r in runs:
        assert (r / "metrics.json").exists() and (r / ".hydra" / "config.yaml").exists()
        assert (r / "report.html").exists()
    # job 1 (same KG, same store / embedding settings) reused job 0's store and embedding service
    res = [json.loads((r / "run.json").read_text())["resources"] for r in runs]
    assert res[0]["store_reused_from"] is None and res[1]["store_reused_from"] == res[0]["run_id"]
    # Each job diverts Ray's known-harmless lines into its own ray_console.log (Ray Data's
    # per-dataset lines); only job 0 started Ray here, and job 1's file says where its lines are.
    logs = [(r / "ray_console.log").read_text() for r in runs]
    assert all("Dataset" in t for t in logs), [t[:300] for t in logs]
    assert logs[1].startswith("# tkgqa-ray: an earlier run in this process started Ray")
    assert str((runs[0] / "ray_console.log").resolve()) in logs[1].splitlines()[0]
    comp = sweep / "comparison"
    md = (comp / "comparison.md").read_text()
    assert meth in md and "rag" in md
    for f in ("aggregates.csv", "aggregates.parquet", "all_rows.parquet", "report.html"):
        assert (comp / f).exists(), f
    assert list(comp.glob("*.png"))

    # The store lookup answers every question (scan-oracle gold); rag with the symbolic
    # answerer scores what it scores: its Hits@1 is recomputed here from its rows and the
    # scan-oracle gold (top prediction among the gold answers), per question.
    import pandas as pd

    def hits(run: Path) -> dict[str, bool]:
        rows = pd.read_parquet(run / "predictions.parquet")
        return {q: len(p) > 0 and p[0] in gold[q] for q, p in zip(rows.quid, rows.predictions)}

    h0, h1 = hits(runs[0]), hits(runs[1])
    assert sorted(h0) == sorted(h1) == sorted(gold) and all(h0.values())
    m0, m1 = (json.loads((r / "metrics.json").read_text()) for r in runs)
    assert (m0["n_questions"], m0["n_errors"]) == (m1["n_questions"], m1["n_errors"]) == (8, 0)
    assert m0["overall"]["multitq_official"]["hits@1"]["value"] == 1.0  # every answer = the scan oracle's
    rag_hits1 = sum(h1.values()) / 8
    assert m1["overall"]["multitq_official"]["hits@1"]["value"] == pytest.approx(rag_hits1)
    agg = pd.read_parquet(comp / "aggregates.parquet")
    overall = agg[(agg.metric == "hits@1") & (agg.breakdown == "overall") & (agg.protocol == "multitq_official")]
    assert dict(zip(overall.method, overall.value)) == pytest.approx({meth: 1.0, "rag": rag_hits1})

    # Rebuild from existing dirs into another folder: same table.
    _main(["report", str(sweep), "-o", str(tmp_path / "again")], capsys)
    assert (tmp_path / "again" / "comparison.md").read_text() == md

    # One run dir: rebuild its own report in place.
    (runs[1] / "metrics.md").unlink()
    (runs[1] / "report.html").unlink()
    out = _main(["report", str(runs[1])], capsys)
    assert (runs[1] / "metrics.md").exists() and (runs[1] / "report.html").exists()
    lines = out.strip().splitlines()
    assert lines[0].startswith("Hits@1 (multitq_official): ") and "(n=8, errors=0, missing=0)" in lines[0]
    assert lines[-1] == f"report written to {runs[1] / 'report.html'}"

    # Per-question diff.
    out = _main(["diff", str(runs[0]), str(runs[1]), "-o", str(tmp_path / "diff")], capsys)
    summary = json.loads((tmp_path / "diff" / "diff.json").read_text())
    assert summary["n"] == 8 and summary["a_score"] == 1.0 and summary["b_score"] == pytest.approx(rag_hits1)
    assert (summary["a_only"], summary["b_only"]) == (sum(not h for h in h1.values()), 0)  # A right where rag missed
    assert "Per-question diff" in out
