"""End to end through Ray Data: answers equal the brute-force gold, error rows, resume,
retry of failed rows, leakage guard, and refusal to mix runs."""

from __future__ import annotations

import json

import pytest

from test_pipeline_methods import compose_cfg, make_dataset, read_rows
from tkgqa_ray.pipeline.driver import run_pipeline
from tkgqa_ray.pipeline.parts import PartStore
from tkgqa_ray.pipeline.validate import ConfigError

pytestmark = pytest.mark.ray


def test_run_resume_and_retry_failed(ray_session, tmp_path):
    root = tmp_path / "ds"
    gold = make_dataset(root, n_questions=30, poison=1, flaky=2)
    flag = tmp_path / "backend-down"
    flag.write_text("1")
    out = tmp_path / "run"
    opts = f"+method.options.flaky_flag={flag}"

    info = run_pipeline(compose_cfg(root, out, opts))
    rows = read_rows(out)
    assert [r["quid"] for r in rows] == [str(1000 + i) for i in range(30)]  # one row per question, in order
    by = {r["quid"]: r for r in rows}
    assert by["1000"]["error"] == "lookup: ValueError: poisoned question"
    assert by["1001"]["error"].startswith("lookup: RuntimeError: flaky") and by["1002"]["error"]
    for q in map(str, range(1003, 1030)):
        assert by[q]["error"] is None and by[q]["predictions"] == gold[q], q  # = the scan oracle
        assert by[q]["evidence"] and by[q]["final_evidence_count"] == len(by[q]["evidence"])
        # leakage guard: the method saw exactly id + text
        assert json.loads(by[q]["trace"])["input_keys"] == ["question", "quid"]
    assert info["counts"] == {"questions": 30, "run_this_invocation": 30, "written_this_invocation": 30, "errors": 3}
    metrics = json.loads((out / "metrics.json").read_text())
    # hand-checked: 27 rows answer exactly the scan-oracle gold (top answer is gold); the three
    # error rows are misses that stay in the denominator
    assert (metrics["n_questions"], metrics["n_ok"], metrics["n_errors"]) == (30, 27, 3)
    for protocol, cells in metrics["overall"].items():
        assert cells["hits@1"]["value"] == pytest.approx(27 / 30) and cells["hits@1"]["n"] == 30, protocol
    assert (out / "metrics.md").exists() and (out / "gold.parquet").exists()
    assert json.loads((out / "summary.json").read_text())["failed"] == 3

    # Lose two batches (as if killed before they were written): resume redoes only those.
    parts = PartStore(out).part_files()
    assert len(parts) == 4  # 30 questions / batch 8
    import pyarrow.parquet as pq

    lost = {q for p in parts[:2] for q in pq.read_table(p).column("quid").to_pylist()}
    for p in parts[:2]:
        p.unlink()
    (out / "predictions.parquet").unlink()
    info2 = run_pipeline(compose_cfg(root, out, opts))
    assert info2["counts"]["run_this_invocation"] == len(lost)
    assert read_rows(out) == rows

    # Nothing to do: a rerun is a no-op that rewrites the same result.
    info3 = run_pipeline(compose_cfg(root, out, opts))
    assert info3["counts"]["run_this_invocation"] == 0 and read_rows(out) == rows

    # The backend is back: retry_failed re-runs exactly the 3 error rows; flaky ones now pass.
    flag.unlink()
    info4 = run_pipeline(compose_cfg(root, out, opts, "run.retry_failed=true"))
    assert info4["counts"]["run_this_invocation"] == 3
    by4 = {r["quid"]: r for r in read_rows(out)}
    assert len(by4) == 30
    assert by4["1000"]["error"] is not None
    assert by4["1001"]["error"] is None and by4["1001"]["predictions"] == gold["1001"]
    assert by4["1002"]["error"] is None and by4["1002"]["predictions"] == gold["1002"]
    assert all(by4[q] == by[q] for q in map(str, range(1003, 1030)))


def test_resume_refuses_a_different_run_in_the_same_dir(ray_session, tmp_path):
    root = tmp_path / "ds"
    make_dataset(root, n_questions=6)
    out = tmp_path / "run"
    run_pipeline(compose_cfg(root, out))
    with pytest.raises(ConfigError, match=r"^config error: backbone.name "):
        run_pipeline(compose_cfg(root, out, "backbone=smollm2-cpu"))
    # run.resume=false starts over in the same dir
    info = run_pipeline(compose_cfg(root, out, "run.resume=false", "run.limit=4"))
    assert info["counts"]["run_this_invocation"] == 4 and len(read_rows(out)) == 4
