"""Run monitoring: Ray custom metrics from the workers, and an end-of-run summary.

Workers record per-question figures with ``ray.util.metrics``; Ray exports them on each node's
metrics port (Prometheus format, names prefixed ``ray_``), where the dashboard's Metrics view /
Grafana and any Prometheus scrape see them live. The summary at the end is computed from the
rows themselves (``summary.json``), so it is exact even when no metrics backend runs.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyarrow as pa

METRIC_NAMES = (
    "tkgqa_questions_done",
    "tkgqa_questions_failed",
    "tkgqa_parse_failures",
    "tkgqa_prompt_tokens",
    "tkgqa_completion_tokens",
    "tkgqa_question_latency_s",
    "tkgqa_batch_latency_s",
    "tkgqa_final_evidence_size",
    "tkgqa_initial_evidence_size",
)
TAG_KEYS = ("method", "backbone", "ablation")
LATENCY_BOUNDARIES = [0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0]
EVIDENCE_BOUNDARIES = [0, 1, 5, 10, 20, 50, 100, 500, 1000, 5000, 20000]


class WorkerMetrics:
    """The metric objects of one worker process (created once, in the actor)."""

    def __init__(self, tags: dict[str, str]) -> None:
        from ray.util.metrics import Counter, Histogram

        self.tags = tags
        keys = TAG_KEYS
        self.done = Counter("tkgqa_questions_done", "Questions finished (any outcome)", tag_keys=keys)
        self.failed = Counter("tkgqa_questions_failed", "Questions finished with an error row", tag_keys=keys)
        self.parse = Counter(
            "tkgqa_parse_failures", "Role outputs that failed schema validation", tag_keys=(*keys, "role")
        )
        self.prompt = Counter("tkgqa_prompt_tokens", "Prompt tokens sent to the backbone", tag_keys=keys)
        self.completion = Counter("tkgqa_completion_tokens", "Completion tokens received", tag_keys=keys)
        self.latency = Histogram(
            "tkgqa_question_latency_s", "Per-question method time (s)", LATENCY_BOUNDARIES, tag_keys=keys
        )
        self.batch_latency = Histogram(
            "tkgqa_batch_latency_s", "Per-batch method time (s)", LATENCY_BOUNDARIES, tag_keys=keys
        )
        self.final_ev = Histogram(
            "tkgqa_final_evidence_size", "Facts given to the answerer", EVIDENCE_BOUNDARIES[1:], tag_keys=keys
        )
        self.initial_ev = Histogram(
            "tkgqa_initial_evidence_size", "Candidate evidence before filtering", EVIDENCE_BOUNDARIES[1:], tag_keys=keys
        )

    def record(self, rows: list[dict[str, Any]], batch_seconds: float) -> None:
        t = self.tags
        self.batch_latency.observe(batch_seconds, tags=t)
        for row in rows:
            self.done.inc(1, tags=t)
            if row["error"] is not None:
                self.failed.inc(1, tags=t)
            if row["prompt_tokens"]:
                self.prompt.inc(row["prompt_tokens"], tags=t)
            if row["completion_tokens"]:
                self.completion.inc(row["completion_tokens"], tags=t)
            self.latency.observe(row["seconds"], tags=t)
            if row["final_evidence_count"] is not None:
                self.final_ev.observe(row["final_evidence_count"], tags=t)
            if row["initial_evidence_count"] is not None:
                self.initial_ev.observe(row["initial_evidence_count"], tags=t)
            if row["parse_failures"]:
                for role in json.loads(row["roles"]):
                    if str(role.get("error") or "").startswith("parse_failure"):
                        self.parse.inc(1, tags={**t, "role": str(role.get("role"))})


def _pcts(values: np.ndarray) -> dict[str, float] | None:
    if values.size == 0:
        return None
    p50, p90, p99 = np.percentile(values, [50, 90, 99])
    return {
        "mean": round(float(values.mean()), 4),
        "p50": round(float(p50), 4),
        "p90": round(float(p90), 4),
        "p99": round(float(p99), 4),
        "max": round(float(values.max()), 4),
    }


def summarize(rows: pa.Table) -> dict[str, Any]:
    """Exact end-of-run figures from the final rows (one per question)."""
    d = rows.to_pydict()
    n = rows.num_rows
    errors = [e for e in d["error"] if e is not None]
    parse_by_role: dict[str, int] = {}
    error_kinds: dict[str, int] = {}
    cache = _cache_counts(d["roles"])
    for e in errors:
        kind = e.split(":", 1)[0]
        error_kinds[kind] = error_kinds.get(kind, 0) + 1
    for roles, pf in zip(d["roles"], d["parse_failures"]):
        if pf:
            for role in json.loads(roles):
                if str(role.get("error") or "").startswith("parse_failure"):
                    name = str(role.get("role"))
                    parse_by_role[name] = parse_by_role.get(name, 0) + 1

    def arr(col: str) -> np.ndarray:
        return np.array([v for v in d[col] if v is not None], dtype=float)

    return {
        "questions": n,
        "ok": n - len(errors),
        "failed": len(errors),
        "errors_by_stage": dict(sorted(error_kinds.items())),
        "parse_failures_by_role": dict(sorted(parse_by_role.items())),
        "prompt_tokens": int(sum(d["prompt_tokens"])),
        "completion_tokens": int(sum(d["completion_tokens"])),
        "latency_s": _pcts(arr("seconds")),
        "initial_evidence": _pcts(arr("initial_evidence_count")),
        "final_evidence": _pcts(arr("final_evidence_count")),
        "answered_by": _counts(d["answered_by"]),
        "cache": cache,
    }


def _cache_counts(roles_col: list[Any]) -> dict[str, int]:
    """Model replies (role-call attempts) in the rows, and how many came from the request
    cache rather than the server. Rows of a resumed run count as they were recorded."""
    calls = cached = 0
    for roles in roles_col:
        for role in json.loads(roles) if roles else []:
            n = int(role.get("attempts") or 0)
            calls += n
            # rows written before ``cached_calls`` existed: all or nothing, from ``cached``
            cached += int(role.get("cached_calls", n if role.get("cached") else 0) or 0)
    return {"replies": calls, "from_cache": cached}


def _counts(values: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        k = "none" if v is None else str(v)
        out[k] = out.get(k, 0) + 1
    return dict(sorted(out.items()))


def format_summary(s: dict[str, Any]) -> str:
    lines = [
        f"questions {s['questions']}  ok {s['ok']}  failed {s['failed']}",
        f"tokens in/out {s['prompt_tokens']}/{s['completion_tokens']}",
    ]
    if s["errors_by_stage"]:
        lines.append("errors by stage: " + ", ".join(f"{k}={v}" for k, v in s["errors_by_stage"].items()))
    if s["parse_failures_by_role"]:
        lines.append("parse failures by role: " + ", ".join(f"{k}={v}" for k, v in s["parse_failures_by_role"].items()))
    if s["latency_s"]:
        lat = s["latency_s"]
        lines.append(f"latency s: mean {lat['mean']}  p50 {lat['p50']}  p90 {lat['p90']}  max {lat['max']}")
    if s["final_evidence"]:
        ev = s["final_evidence"]
        lines.append(f"final evidence: mean {ev['mean']}  p50 {ev['p50']}  max {ev['max']}")
    if s["answered_by"]:
        lines.append("answered by: " + ", ".join(f"{k}={v}" for k, v in s["answered_by"].items()))
    c = s.get("cache")
    if c and c["replies"] and (c["from_cache"] or s["prompt_tokens"]):  # model replies (not symbolic roles)
        lines.append(f"replies from the request cache: {c['from_cache']} of {c['replies']}")
    return "\n".join(lines)
