"""The closing lines of a run, a sweep or a comparison: the headline figures and where the report is.

A run must end by printing its result, not only its bookkeeping: official Hits@1 overall and
by question label (Single / Multiple) and answer type (entity / time), each with its bootstrap
stderr, read from the scorer's long ``aggregates`` table (columns protocol, metric, breakdown,
group, value, stderr, n; a comparison's table adds one ``run`` column). Then the paths of the
report files that exist (``report.html`` when the HTML report is built, ``metrics.md``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

# (breakdown, groups in display order): the headline splits of MultiTQ-style test sets. A group
# missing from the run (labels absent, e.g. TimeQuestions has no Single/Multiple) is left out.
HEADLINE_SPLITS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("qlabel", ("Single", "Multiple")),
    ("answer_type", ("entity", "time")),
)
REPORT_FILES = ("report.html", "metrics.md", "comparison.html", "comparison.md")


def _fmt(value: Any, stderr: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if stderr is None or (isinstance(stderr, float) and math.isnan(stderr)):
        return f"{value:.3f}"
    return f"{value:.3f} ± {stderr:.3f}"


def _cell(agg: Any, protocol: str, breakdown: str, group: str, metric: str = "hits@1") -> tuple[float, float, int] | None:
    sel = agg[(agg.protocol == protocol) & (agg.metric == metric) & (agg.breakdown == breakdown) & (agg.group == group)]
    if sel.empty:
        return None
    r = sel.iloc[0]
    return float(r["value"]), float(r["stderr"]), int(r["n"])


def headline_figures(agg: Any, protocol: str) -> list[tuple[str, float, float, int]]:
    """[(label, value, stderr, n)]: overall first, then each present headline group."""
    out = []
    ov = _cell(agg, protocol, "overall", "all")
    if ov is not None:
        out.append(("overall", *ov))
    for breakdown, groups in HEADLINE_SPLITS:
        for g in groups:
            c = _cell(agg, protocol, breakdown, g)
            if c is not None:
                out.append((g, *c))
    return out


def report_paths(directory: Path) -> list[Path]:
    """The report files present in ``directory``, most readable first."""
    return [directory / f for f in REPORT_FILES if (directory / f).is_file()]


def format_run_headline(agg: Any, protocol: str, run_dir: Path, counts: dict[str, int] | None = None) -> str:
    """Lines like ``Hits@1 (multitq_official)  overall 0.975 ± 0.008 (n=400)`` and the report path."""
    figs = headline_figures(agg, protocol)
    lines = []
    if figs:
        label, v, se, n = figs[0]
        head = f"Hits@1 ({protocol}): {_fmt(v, se)}  (n={n}"
        if counts:
            head += f", errors={counts.get('n_errors', 0)}, missing={counts.get('n_missing', 0)}"
        lines.append(head + ")")
        for breakdown, groups in HEADLINE_SPLITS:
            parts = [f"{g} {_fmt(v, se)} (n={n})" for g, v, se, n in figs[1:] if g in groups]
            if parts:
                lines.append("  " + "  |  ".join(parts))
    else:
        lines.append(f"Hits@1 ({protocol}): no scores")
    for p in report_paths(run_dir):
        lines.append(f"report: {p.resolve()}")
    return "\n".join(lines)


def format_comparison_headline(agg: Any, protocol: str, out_dir: Path, run_names: Sequence[str] | None = None) -> str:
    """One line per run of a sweep/comparison (overall and headline splits), then the report paths."""
    lines = [f"Hits@1 ({protocol}) by run:"]
    if agg is None or len(agg) == 0:
        lines.append("  (no scores)")
    else:
        names = list(run_names) if run_names else list(dict.fromkeys(agg["run"]))
        width = max(len(str(n)) for n in names)
        for name in names:
            figs = headline_figures(agg[agg["run"] == name], protocol)
            cells = [f"{lab} {_fmt(v, se)}" for lab, v, se, _n in figs]
            lines.append(f"  {str(name):<{width}}  " + ("  |  ".join(cells) if cells else "no scores"))
    for p in report_paths(out_dir):
        lines.append(f"report: {p.resolve()}")
    return "\n".join(lines)
