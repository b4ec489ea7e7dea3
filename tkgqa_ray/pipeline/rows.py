"""The output row of ``predictions.parquet`` (docs/architecture.md "Output row").

One fixed Arrow schema so every part file, the resume reader and the consolidated file agree.
``trace`` and ``roles`` are JSON strings (nested, free-form); token counts are sums over the
question's role calls; ``parse_failures`` counts role calls whose output failed validation.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pyarrow as pa

from tkgqa_ray.eval.cells import json_default

ROW_SCHEMA = pa.schema(
    [
        ("quid", pa.string()),
        ("question", pa.string()),
        ("method", pa.string()),
        ("backbone", pa.string()),
        ("ablation", pa.string()),
        ("predictions", pa.list_(pa.string())),
        ("evidence", pa.list_(pa.string())),
        ("initial_evidence_count", pa.int64()),
        ("final_evidence_count", pa.int64()),
        ("answered_by", pa.string()),
        ("trace", pa.string()),
        ("roles", pa.string()),
        ("prompt_tokens", pa.int64()),
        ("completion_tokens", pa.int64()),
        ("parse_failures", pa.int64()),
        ("seconds", pa.float64()),
        ("error", pa.string()),
    ]
)
COLUMNS = tuple(ROW_SCHEMA.names)


def _dumps(value: Any) -> str:
    return json.dumps(value, default=json_default, ensure_ascii=False, sort_keys=True)


def _opt_int(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    return int(value)


def state_to_row(state: dict[str, Any], method: str, backbone: str, ablation: str) -> dict[str, Any]:
    """Turn a finished method state into one output row (schema ``ROW_SCHEMA``)."""
    roles = list(state.get("roles") or [])
    prompt_tokens = sum(int(r.get("prompt_tokens") or 0) for r in roles)
    completion_tokens = sum(int(r.get("completion_tokens") or 0) for r in roles)
    parse_failures = sum(1 for r in roles if str(r.get("error") or "").startswith("parse_failure"))
    error = state.get("error")
    return {
        "quid": str(state["quid"]),
        "question": str(state["question"]),
        "method": method,
        "backbone": backbone,
        "ablation": ablation,
        "predictions": [str(p) for p in (state.get("predictions") or [])],
        "evidence": [str(e) for e in (state.get("evidence") or [])],
        "initial_evidence_count": _opt_int(state.get("initial_evidence_count")),
        "final_evidence_count": _opt_int(state.get("final_evidence_count")),
        "answered_by": None if state.get("answered_by") is None else str(state["answered_by"]),
        "trace": _dumps(state.get("trace") or {}),
        "roles": _dumps(roles),
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "parse_failures": parse_failures,
        "seconds": float(state.get("seconds") or 0.0),
        "error": None if error is None else str(error),
    }


def rows_to_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=ROW_SCHEMA)
