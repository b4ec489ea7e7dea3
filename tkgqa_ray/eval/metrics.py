"""Per-question scores, Hits@k aggregates with breakdowns and bootstrap stderr, cost columns.

Input: prediction rows (one per question, ``predictions.parquet`` schema) and the gold dict.
Every gold question is in the denominator: a question whose row carries an ``error`` is a miss,
and so is a gold question with no row at all (``missing``; reported, so a partial run is never
mistaken for a finished one). A row whose quid is not in the gold is a dataset mismatch and
raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from tkgqa_ray.records import Gold

from .cells import as_str_list, is_error, rows_to_frame  # noqa: F401 - also imported from here
from .evidence import evidence_metrics
from .protocols import HITS_K, NO_HIT, Protocol, get_protocols

LABELS: tuple[str, ...] = ("qlabel", "qtype", "answer_type", "time_level", "question_level")
# Labels kept in Gold.extra, possibly multi-valued (a question counts in each of its values):
# breakdown name -> extra keys tried in order.
EXTRA_SOURCES: dict[str, tuple[str, ...]] = {
    "types": ("types", "Temporal question type"),  # TimeQuestions: Explicit/Implicit/Temporal/Ordinal
    "temporal_relation": ("temporal_relation",),  # TimelineCronQ-R
}
EXTRA_LABELS: tuple[str, ...] = tuple(EXTRA_SOURCES)
BREAKDOWNS: tuple[str, ...] = LABELS + EXTRA_LABELS


def score_col(protocol: str, k: int) -> str:
    return f"{protocol}/hits@{k}"


def _extra_label(g: Gold, label: str) -> Any:
    v = None
    for key in EXTRA_SOURCES[label]:
        v = g.extra.get(key) if g.extra else None
        if v is not None:
            break
    if v is None or v == "":
        return None
    if isinstance(v, (list, tuple)):
        return [str(x) for x in v] or None
    return [str(v)]


def score_questions(
    rows: Any, golds: Mapping[str, Gold], protocols: Sequence[Protocol] | None = None
) -> pd.DataFrame:
    """One row per gold question: labels, status (ok/error/missing), top prediction, and a
    0/1 column ``<protocol>/hits@<k>`` per protocol and k in :data:`HITS_K`."""
    protocols = list(protocols) if protocols is not None else get_protocols()
    df = rows_to_frame(rows)
    golds = {str(k): v for k, v in golds.items()}
    unknown = sorted(set(df["quid"]) - set(golds))
    if unknown:
        raise ValueError(
            f"{len(unknown)} prediction row(s) have no gold (wrong dataset?), e.g. {unknown[:5]}"
        )
    by_quid = {q: i for i, q in enumerate(df["quid"])}
    preds_col = df["predictions"].tolist() if "predictions" in df.columns else [None] * len(df)
    err_col = df["error"].tolist() if "error" in df.columns else [None] * len(df)
    kmax = max(HITS_K)
    out: dict[str, list] = {"quid": [], "status": [], "top": [], "n_predictions": []}
    for lab in BREAKDOWNS:
        out[lab] = []
    ranks: dict[str, list[int]] = {p.name: [] for p in protocols}
    for quid, g in golds.items():
        i = by_quid.get(quid)
        if i is None:
            status, preds = "missing", []
        elif is_error(err_col[i]):
            status, preds = "error", []
        else:
            status, preds = "ok", as_str_list(preds_col[i])
        out["quid"].append(quid)
        out["status"].append(status)
        out["top"].append(preds[0] if preds else None)
        out["n_predictions"].append(len(preds))
        for lab in LABELS:
            out[lab].append(getattr(g, lab))
        for lab in EXTRA_LABELS:
            out[lab].append(_extra_label(g, lab))
        for p in protocols:
            ranks[p.name].append(p.first_hit(preds, g.answers, kmax) if preds else NO_HIT)
    res = pd.DataFrame(out)
    for p in protocols:
        r = np.asarray(ranks[p.name], dtype=np.int64)
        for k in HITS_K:
            res[score_col(p.name, k)] = (r < k).astype(np.int8)
    return res


def bootstrap_stderr(values: np.ndarray, n_boot: int = 1000, seed: int = 0) -> float:
    """Bootstrap standard error of the mean, deterministic for a given seed.

    For 0/1 scores a resample's sum is exactly Binomial(n, mean), so it is drawn directly
    (same distribution as resampling indices, O(n_boot) instead of O(n_boot·n)); other
    values are resampled in chunks to bound memory.
    """
    v = np.asarray(values, dtype=np.float64)
    n = len(v)
    if n < 2 or n_boot < 2:
        return float("nan")
    rng = np.random.default_rng(seed)
    if np.all((v == 0) | (v == 1)):
        means = rng.binomial(n, v.mean(), size=n_boot) / n
    else:
        chunk = max(1, min(n_boot, 2_000_000 // n))
        means = np.concatenate(
            [v[rng.integers(0, n, size=(min(chunk, n_boot - s), n))].mean(axis=1) for s in range(0, n_boot, chunk)]
        )
    return float(means.std(ddof=1))


def _groups(scores: pd.DataFrame, label: str) -> Iterable[tuple[str, np.ndarray]]:
    col = scores[label]
    if label in EXTRA_LABELS:
        ex = scores[[label]].assign(_i=np.arange(len(scores))).explode(label)
        ex = ex[ex[label].notna()]
        for name, sub in ex.groupby(label, sort=True):
            yield str(name), sub["_i"].to_numpy(dtype=np.int64)
        return
    mask = col.notna().to_numpy()
    if not mask.any():
        return
    idx = np.arange(len(scores))
    for name in sorted(col[mask].astype(str).unique()):
        yield name, idx[(col.astype(str) == name).to_numpy() & mask]


def aggregate(
    scores: pd.DataFrame,
    protocols: Sequence[str],
    breakdowns: Sequence[str] = BREAKDOWNS,
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Long table: protocol, metric, breakdown, group, value, stderr, n.

    ``breakdown="overall", group="all"`` is the headline; label breakdowns whose gold labels
    are all absent are left out.
    """
    rows = []
    parts: list[tuple[str, str, np.ndarray]] = [("overall", "all", np.arange(len(scores)))]
    for lab in breakdowns:
        parts += [(lab, g, ix) for g, ix in _groups(scores, lab)]
    for p in protocols:
        for k in HITS_K:
            vals = scores[score_col(p, k)].to_numpy()
            for bd, group, ix in parts:
                v = vals[ix]
                rows.append(
                    {
                        "protocol": p,
                        "metric": f"hits@{k}",
                        "breakdown": bd,
                        "group": group,
                        "value": float(v.mean()) if len(v) else float("nan"),
                        "stderr": bootstrap_stderr(v, n_boot, seed),
                        "n": int(len(v)),
                    }
                )
    return pd.DataFrame(rows, columns=["protocol", "metric", "breakdown", "group", "value", "stderr", "n"])


def _mean_of(df: pd.DataFrame, col: str) -> tuple[float | None, int]:
    if col not in df.columns:
        return None, 0
    v = pd.to_numeric(df[col], errors="coerce").dropna()
    return (float(v.mean()) if len(v) else None), int(len(v))


def cost_summary(rows: Any) -> dict[str, Any]:
    """Mean tokens and seconds per question over rows that carry them (None when absent)."""
    df = rows if isinstance(rows, pd.DataFrame) else rows_to_frame(rows)
    out: dict[str, Any] = {}
    for col in ("prompt_tokens", "completion_tokens", "seconds", "parse_failures"):
        m, n = _mean_of(df, col)
        out[f"mean_{col}"] = m
        out[f"n_{col}"] = n
    if {"prompt_tokens", "completion_tokens"} <= set(df.columns):
        tot = pd.to_numeric(df["prompt_tokens"], errors="coerce") + pd.to_numeric(
            df["completion_tokens"], errors="coerce"
        )
        tot = tot.dropna()
        out["mean_tokens"] = float(tot.mean()) if len(tot) else None
    else:
        out["mean_tokens"] = None
    return out


@dataclass
class MetricsResult:
    """Everything the report writes; ``aggregates`` is the canonical long table."""

    protocols: list[Protocol]
    scores: pd.DataFrame
    aggregates: pd.DataFrame
    counts: dict[str, int]
    cost: dict[str, Any]
    evidence: dict[str, Any] | None = None
    diagnostics: dict[str, Any] = field(default_factory=dict)
    bootstrap: dict[str, int] = field(default_factory=dict)

    def headline(self, metric: str = "hits@1") -> str:
        """One line for logs: the overall ``metric`` under every protocol, plus counts."""
        a = self.aggregates
        ov = a[(a.breakdown == "overall") & (a.metric == metric)]
        parts = [f"{r.protocol} {r.value:.3f} ± {r.stderr:.3f}" for r in ov.itertuples()]
        c = self.counts
        return (f"{metric}: " + " | ".join(parts)
                + f"  (n={c['n_questions']}, errors={c['n_errors']}, missing={c['n_missing']})")

    def value(self, protocol: str, metric: str = "hits@1", breakdown: str = "overall", group: str = "all") -> float:
        a = self.aggregates
        sel = a[(a.protocol == protocol) & (a.metric == metric) & (a.breakdown == breakdown) & (a.group == group)]
        if sel.empty:
            raise KeyError((protocol, metric, breakdown, group))
        return float(sel["value"].iloc[0])


def compute_metrics(
    rows: Any,
    golds: Mapping[str, Gold],
    protocols: Iterable[str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> MetricsResult:
    """Score ``rows`` against ``golds`` under the named protocols (all three by default)."""
    protos = get_protocols(protocols)
    df = rows_to_frame(rows)
    scores = score_questions(df, golds, protos)
    agg = aggregate(scores, [p.name for p in protos], n_boot=n_boot, seed=seed)
    status = scores["status"].value_counts()
    counts = {
        "n_questions": int(len(scores)),
        "n_rows": int(len(df)),
        "n_ok": int(status.get("ok", 0)),
        "n_errors": int(status.get("error", 0)),
        "n_missing": int(status.get("missing", 0)),
    }
    preds = df["predictions"].map(as_str_list) if "predictions" in df.columns else pd.Series([], dtype=object)
    diagnostics = {
        "rows_without_predictions": int(sum(1 for p in preds if not p)),
        # methods must emit display strings; KG-form names only score under `lenient`
        "rows_with_underscore_top_prediction": int(sum(1 for p in preds if p and "_" in p[0])),
    }
    return MetricsResult(
        protocols=protos,
        scores=scores,
        aggregates=agg,
        counts=counts,
        cost=cost_summary(df),
        evidence=evidence_metrics(df, golds),
        diagnostics=diagnostics,
        bootstrap={"n_boot": n_boot, "seed": seed},
    )
