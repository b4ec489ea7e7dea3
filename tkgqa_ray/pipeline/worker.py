"""The Ray Data UDF: one long-lived method instance per actor of the pool.

``MethodWorker.__init__`` runs once per actor: it connects to the run's shared actors (fact
store shards, embedding service), builds the backbone, the :class:`RunContext` and the method.
``__call__`` then maps batches of ``{quid, question}`` to output rows. ``run_chain`` already
turns a failing question into an error row; the guard here also catches what fails *around*
the chain (a method bug outside a stage), so a batch never kills the job.
"""

from __future__ import annotations

import time
from typing import Any

import pyarrow as pa

from tkgqa_ray.pipeline.rows import ROW_SCHEMA, rows_to_table, state_to_row

INPUT_COLUMNS = ("quid", "question")


def check_input_columns(names: list[str]) -> None:
    """Methods see question id + text only; anything else reaching a worker is a leak."""
    if list(names) != list(INPUT_COLUMNS):
        raise AssertionError(f"method input must be exactly {INPUT_COLUMNS}, got {tuple(names)}")


def mark_transport_failure(state: dict[str, Any]) -> dict[str, Any]:
    """A role call that failed at the transport level (endpoint down, timeouts, after the
    backbone's own retries) leaves the question unanswered for reasons outside the method:
    make it an error row so ``run.retry_failed=true`` re-runs it. Parse failures are model
    behaviour and stay scored as they are."""
    if state.get("error") is None:
        for role in state.get("roles") or []:
            err = str(role.get("error") or "")
            if err.startswith("transport"):
                state["error"] = f"{role.get('role')}: {err}"
                break
    return state


class MethodWorker:
    def __init__(self, setup: dict[str, Any]) -> None:
        from tkgqa_ray.pipeline.resources import build_worker_method

        self.meta = dict(setup["meta"])  # method/backbone/ablation names for the rows
        self.method, self.ctx = build_worker_method(setup)
        self.metrics = None
        if setup.get("metrics", True):
            try:
                from tkgqa_ray.pipeline.metrics import WorkerMetrics

                self.metrics = WorkerMetrics(dict(self.meta))
            except Exception:  # noqa: BLE001 - monitoring must never stop an evaluation
                self.metrics = None

    def run_states(self, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            return self.method(states)
        except Exception as exc:  # noqa: BLE001 - a method bug outside run_chain: error rows
            import traceback

            tb = traceback.format_exc(limit=8)
            return [
                {
                    "quid": s["quid"],
                    "question": s["question"],
                    "error": f"method: {type(exc).__name__}: {exc}",
                    "trace": {"traceback": tb},
                    "predictions": [],
                }
                for s in states
            ]

    def __call__(self, batch: pa.Table) -> pa.Table:
        check_input_columns(batch.column_names)
        t0 = time.perf_counter()
        states = [{"quid": str(q), "question": str(t)} for q, t in zip(batch.column("quid").to_pylist(), batch.column("question").to_pylist())]
        out = [mark_transport_failure(s) for s in self.run_states(states)]
        rows = [state_to_row(s, **self.meta) for s in out]
        if self.metrics is not None:
            try:
                self.metrics.record(rows, time.perf_counter() - t0)
            except Exception:  # noqa: BLE001
                pass
        return rows_to_table(rows) if rows else ROW_SCHEMA.empty_table()
