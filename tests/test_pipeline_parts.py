"""Output rows, part files, resume dedup and consolidation (no Ray)."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tkgqa_ray.pipeline.parts import PartStore, consolidate, dedup_latest
from tkgqa_ray.pipeline.rows import ROW_SCHEMA, rows_to_table, state_to_row
from tkgqa_ray.pipeline.worker import check_input_columns


def _row(quid: str, pred: str = "a", error: str | None = None) -> dict:
    return state_to_row({"quid": quid, "question": f"q{quid}", "predictions": [pred], "error": error}, "m", "b", "none")


def test_state_to_row_sums_tokens_counts_parse_failures_and_serialises_trace():
    state = {
        "quid": 7, "question": "Who?", "predictions": ["X", "Y"], "evidence": ["s|r|o|2010-01-01|2010-01-01"],
        "initial_evidence_count": np.int64(12), "final_evidence_count": 3, "answered_by": "structured",
        "trace": {"ids": np.array([1, 2]), "set": {3}},
        "roles": [
            {"role": "parser", "prompt_tokens": 10, "completion_tokens": 4, "error": None},
            {"role": "aligner", "prompt_tokens": 5, "completion_tokens": 1, "error": "parse_failure: bad json"},
            {"role": "answerer", "prompt_tokens": 7, "completion_tokens": 2, "error": "transport: 503"},
        ],
        "seconds": 0.5, "error": None,
    }
    row = state_to_row(state, "scop", "symbolic", "none")
    assert row["quid"] == "7" and row["predictions"] == ["X", "Y"]
    assert (row["prompt_tokens"], row["completion_tokens"], row["parse_failures"]) == (22, 7, 1)
    assert row["initial_evidence_count"] == 12 and row["final_evidence_count"] == 3
    assert json.loads(row["trace"]) == {"ids": [1, 2], "set": [3]}
    assert [r["role"] for r in json.loads(row["roles"])] == ["parser", "aligner", "answerer"]
    t = rows_to_table([row])
    assert t.schema == ROW_SCHEMA and t.num_rows == 1


def test_error_state_becomes_error_row_with_empty_predictions():
    row = state_to_row({"quid": "1", "question": "q", "error": "lookup: ValueError: x"}, "m", "b", "none")
    assert row["error"] == "lookup: ValueError: x" and row["predictions"] == [] and row["evidence"] == []


def test_parts_resume_keeps_latest_row_per_quid(tmp_path):
    ps = PartStore(tmp_path)
    assert ps.read_latest().num_rows == 0 and ps.next_seq() == 0
    ps.append(rows_to_table([_row("1", "old"), _row("2", error="boom")]), ps.next_seq())
    ps.append(rows_to_table([_row("3")]), ps.next_seq())
    ps.append(rows_to_table([_row("2", "fixed")]), ps.next_seq())  # a retried question
    assert [p.name for p in ps.part_files()] == ["part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]
    latest = {r["quid"]: r for r in ps.read_latest().to_pylist()}
    assert sorted(latest) == ["1", "2", "3"]
    assert latest["2"]["predictions"] == ["fixed"] and latest["2"]["error"] is None
    assert latest["1"]["predictions"] == ["old"]
    assert not list(ps.dir.glob(".*tmp*"))  # atomic writes leave no temporaries


def test_dedup_latest_within_one_part_keeps_later_position():
    t = rows_to_table([_row("1", "first"), _row("1", "second")])
    t = t.append_column("_seq", pa.array([0, 0], pa.int64()))
    assert dedup_latest(t).column("predictions").to_pylist() == [["second"]]


def test_consolidate_orders_by_question_list_drops_extras_and_refuses_gaps(tmp_path):
    rows = rows_to_table([_row("3"), _row("1"), _row("9")])
    out = consolidate(rows, ["1", "3"], tmp_path / "predictions.parquet")
    assert out.column("quid").to_pylist() == ["1", "3"]
    assert pq.read_table(tmp_path / "predictions.parquet").column("quid").to_pylist() == ["1", "3"]
    with pytest.raises(RuntimeError, match="1 question"):
        consolidate(rows, ["1", "2"], tmp_path / "p2.parquet")


def test_part_numbering_continues_after_a_restart(tmp_path):
    ps = PartStore(tmp_path)
    ps.append(rows_to_table([_row("1")]), 0)
    ps.append(rows_to_table([_row("2")]), 1)
    assert PartStore(tmp_path).next_seq() == 2
    PartStore(tmp_path).clear()
    assert PartStore(tmp_path).part_files() == []


def test_worker_input_must_be_exactly_quid_and_question():
    check_input_columns(["quid", "question"])
    with pytest.raises(AssertionError, match="answers"):
        check_input_columns(["quid", "question", "answers"])
