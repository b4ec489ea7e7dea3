"""``diff`` of runs over different question sets: compared on the intersection only, the rest
reported, refused when one quid names different questions; empty answers shown honestly."""

from __future__ import annotations

import json
import re

import pytest

from test_eval_report import GOLDS, PRED_A, PRED_B, make_run
from tkgqa_ray.eval import diff_runs, save_gold, write_diff
from tkgqa_ray.eval.compare import mcnemar_exact_p
from tkgqa_ray.pipeline.errors import NotComparableError

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

# The run dirs here need rows, gold and run.json only: diff_runs rescores from the rows and
# reads the identity from run.json. Writing each run's report (5 matplotlib charts, ~1-2 s
# each run) adds nothing to these tests; diffs of reported runs are in test_eval_report.py
# (test_diff_two_runs) and test_cli_sweep.py.


def test_diff_compares_only_the_questions_both_runs_have(tmp_path):
    a = make_run(tmp_path, "a", PRED_A, "symbolic", write_metrics=False)  # quids 1-5
    b = make_run(tmp_path, "b", {q: PRED_B[q] for q in ("2", "3", "4")}, "smollm2", write_metrics=False)  # a subset
    d = diff_runs(a, b)
    assert sorted(d.table.quid) == ["2", "3", "4"]
    s = d.summary
    assert s["n"] == 3 and s["only_in_a"] == 2 and s["only_in_b"] == 0
    assert sorted(s["only_in_a_examples"]) == ["1", "5"]
    # over the 3 shared: A right on 3, B right on 2 -> one discordant pair each way
    assert (s["a_only"], s["b_only"]) == (1, 1)
    assert s["a_score"] == pytest.approx(1 / 3) and s["b_score"] == pytest.approx(1 / 3)
    assert s["mcnemar_p"] == mcnemar_exact_p(1, 1)
    assert "Warning: the runs cover different questions" in d.markdown and "only in A: 2" in d.markdown


def test_diff_of_disjoint_runs_is_refused(tmp_path):
    a = make_run(tmp_path, "a", {q: PRED_A[q] for q in ("1", "2")}, "symbolic", write_metrics=False)
    b = make_run(tmp_path, "b", {q: PRED_B[q] for q in ("3", "4", "5")}, "smollm2", write_metrics=False)
    with pytest.raises(NotComparableError, match="no question with gold is in both runs"):
        diff_runs(a, b)


def test_diff_refuses_when_a_quid_has_another_question_text(tmp_path):
    import pandas as pd

    a = make_run(tmp_path, "a", PRED_A, "symbolic", write_metrics=False)
    b = make_run(tmp_path, "b", PRED_B, "smollm2", write_metrics=False)
    rows = pd.read_parquet(b / "predictions.parquet")
    rows.loc[rows.quid == "4", "question"] = "a different question?"
    rows.to_parquet(b / "predictions.parquet", index=False)
    with pytest.raises(NotComparableError, match=r"1 of their 5 shared question ids have different question texts.*quid 4"):
        diff_runs(a, b)


def test_diff_refuses_when_a_quid_has_other_gold(tmp_path):
    from tkgqa_ray.records import Gold

    a = make_run(tmp_path, "a", PRED_A, "symbolic", write_metrics=False)
    b = make_run(tmp_path, "b", PRED_B, "smollm2", write_metrics=False)
    save_gold(b, {**GOLDS, "2": Gold("2", ("Germany",), "entity", "equal", "Single", "day")})
    with pytest.raises(NotComparableError, match="different gold answers.*quid 2"):
        diff_runs(a, b)


def test_diff_shows_no_nan_for_empty_answers(tmp_path):
    a = make_run(tmp_path, "a", PRED_A, "symbolic", write_metrics=False)
    # B answered nothing for 1 and 3 (ok rows, empty predictions) and has no row for 5
    b = make_run(tmp_path, "b", {"1": [], "2": PRED_B["2"], "3": [], "4": PRED_B["4"]}, "smollm2", write_metrics=False)
    d = write_diff(a, b, tmp_path / "diff")
    t = d.table.set_index("quid")
    assert t.loc["3", "b_top"] == "(none)" and t.loc["1", "b_top"] == "(none)"
    md = d.markdown
    assert not re.search(r"\bnan\b", md, re.I) and "None" not in md
    assert "(none)" in md
    assert json.loads((tmp_path / "diff" / "diff.json").read_text())["n"] == 4


def test_cli_diff_exit_5_when_not_comparable(tmp_path):
    import os
    import subprocess
    import sys

    a = make_run(tmp_path, "a", {q: PRED_A[q] for q in ("1", "2")}, "symbolic", write_metrics=False)
    b = make_run(tmp_path, "b", {q: PRED_B[q] for q in ("3", "4")}, "smollm2", write_metrics=False)
    p = subprocess.run([sys.executable, "-m", "tkgqa_ray.cli", "diff", str(a), str(b)], capture_output=True,
                       text=True, timeout=120, env={**os.environ})
    assert p.returncode == 5 and p.stderr.startswith("tkgqa-ray: cannot diff") and "Traceback" not in p.stderr
