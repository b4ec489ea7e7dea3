"""``report.html``: one self-contained page per run (and per comparison) to look at, not read.

The page holds everything inline (charts as SVG data URIs written by :mod:`.barchart`, the rows as
one JSON block, plain JS that filters and paginates them in the browser), so it opens offline
and can be mailed as one file. The templates are package data (``templates/*.html.j2``).

Size is designed: a row is a compact JSON array (columns named once), the per-question trace is
cut to a byte budget that shrinks with the number of rows, and the browser renders only one
page of rows at a time, so a 54k-question run stays a file a browser opens in seconds.
"""

from __future__ import annotations

import functools
import json
import math
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from .barchart import grouped_bars_svg, svg_data_uri
from .metrics import MetricsResult, as_str_list, is_error, rows_to_frame, score_col
from .cells import json_default
from .identity import IDENTITY_KEYS, run_identity
from .protocols import HITS_K, PRIMARY_PROTOCOL

REPORT_HTML = "report.html"
TEMPLATES = Path(__file__).resolve().parent / "templates"
PAGE_SIZE = 100  # rows per page in the browser

# Breakdowns charted, in order; the first present of TYPE_CHOICES is "the" question type.
TYPE_CHOICES = ("types", "qtype", "question_level")
CHART_BREAKDOWNS = ("qlabel", "answer_type", "time_level", "temporal_relation")
BREAKDOWN_TITLES = {
    "types": "question type", "qtype": "question type", "question_level": "question level",
    "qlabel": "Single / Multiple", "answer_type": "answer type", "time_level": "time granularity",
    "temporal_relation": "temporal relation",
}
# The columns of one embedded row (the JS reads them by name from this list).
ROW_COLUMNS = (
    "quid", "question", "type", "answer_type", "time_level", "qlabel", "status", "hit", "hits",
    "hit10", "gold", "pred", "answered_by", "error", "prompt_tokens", "completion_tokens", "seconds",
    "initial_evidence", "final_evidence", "parse_failures", "trace",
)
# Trace fields shown under their own heading, in this order (the rest go under "other").
TRACE_SECTIONS = (
    ("triples_raw", "Triples as parsed (before alignment)"),
    ("triples_aligned", "Triples after alignment"),
    ("alignment_violations", "Alignment violations"),
    ("constraints", "Constraints"),
    ("ranking", "Ranking"),
    ("evidence", "Evidence selection"),
    ("grounding", "Grounding"),
    ("parse", "Parse"),
    ("route", "Route"),
    ("chain", "Chain"),
    ("cef", "Evidence filter (CEF)"),
    ("plan", "Plan"),
    ("steps", "Plan steps"),
    ("retrieved", "Retrieved facts"),
    ("failures", "Role failures"),
    ("traceback", "Traceback"),
)
MAX_PREDICTIONS = max(HITS_K)
MAX_GOLD = 10
MAX_ERROR_CHARS = 500
MAX_QUESTION_CHARS = 1000
# A row's expandable detail (trace + evidence facts + role calls) gets a budget in characters of
# JSON: generous for small runs, shrinking so that all details together stay near
# DETAIL_TOTAL_BUDGET (54,584 questions -> 400 each); the full rows stay in predictions.parquet.
DETAIL_MAX_CHARS = 16_000
DETAIL_MIN_CHARS = 400
DETAIL_TOTAL_BUDGET = 20_000_000
# (detail budget at least, evidence facts, role calls) shown: fewer as the budget shrinks
DETAIL_LEVELS = ((6_000, 20, 30), (2_000, 10, 15), (1_000, 5, 8), (0, 2, 4))
# When even the tightest step is too large, these trace fields are kept first (then the rest).
TRACE_PRIORITY = ("error", "traceback", "failures", "triples_raw", "triples_aligned", "constraints", "parse", "plan",
                  "route", "answer", "grounding", "cef", "ranking", "steps", "plan_error", "alignment_violations")
# trace capping steps: (budget at least, chars per string, items per list/dict, nesting depth);
# capping starts at the first step the budget allows (each step is a walk over the trace)
CAP_STEPS = ((6_000, 400, 25, 6), (2_000, 160, 10, 5), (800, 80, 5, 4), (0, 40, 3, 4))


@functools.lru_cache(maxsize=1)
def _env():
    """One Jinja environment per process: it keeps the compiled templates (compiling them cost a
    tenth of a second per page)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fmt"] = _fmt
    return env


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def script_json(obj: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>``, ``&`` and the two
    JS line separators become ``\\uXXXX`` escapes, so no text (``</script>``, ``<!--``) can end
    or confuse the block; ``JSON.parse`` reads the same values back."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=json_default)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _finite(x: Any) -> Any:
    if x is None:
        return None
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


# --------------------------------------------------------------------------- trace capping


def _cut_text(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n] + f"… (+{len(s) - n} chars)"


def cap_value(x: Any, max_str: int, max_items: int, depth: int = 5) -> Any:
    """A JSON value with long strings cut, long lists/dicts shortened (a marker says how much
    was left out) and nesting below ``depth`` replaced by a note."""
    t = type(x)  # concrete types: parsed JSON holds only these (ABC checks cost 3x here)
    if t is str:
        return x if len(x) <= max_str else _cut_text(x, max_str)
    if x is None or t is bool or t is int:
        return x
    if t is float:
        return x if math.isfinite(x) else None
    if depth <= 0:
        return "…"
    if t is dict:
        out = {}
        for i, (k, v) in enumerate(x.items()):
            if i == max_items:
                out["…"] = f"+{len(x) - max_items} more keys"
                break
            out[str(k)] = cap_value(v, max_str, max_items, depth - 1)
        return out
    if t is list or t is tuple:
        out_l = [cap_value(v, max_str, max_items, depth - 1) for v in x[:max_items]]
        if len(x) > max_items:
            out_l.append(f"… +{len(x) - max_items} more")
        return out_l
    if isinstance(x, Mapping):
        return cap_value(dict(x), max_str, max_items, depth)
    return _cut_text(str(x), max_str)


def _size(x: Any) -> int:
    return len(json.dumps(x, ensure_ascii=False, separators=(",", ":")))


def cap_trace(trace: Any, budget: int) -> Any:
    """The trace cut to fit ``budget`` characters of JSON. Whole, at the loosest step of
    CAP_STEPS the budget allows, if that fits; else field by field in TRACE_PRIORITY order (the
    triples before and after alignment and the constraints before bulky candidate lists), each
    at the loosest step that fits the room left, with a note of how many fields were left out.
    The full trace is always in predictions.parquet."""
    if not trace:
        return None
    steps = [st[1:] for st in CAP_STEPS if budget >= st[0]]
    capped = cap_value(trace, *steps[0])
    if _size(capped) <= budget:
        return capped
    if not isinstance(trace, Mapping):
        capped = cap_value(trace, *CAP_STEPS[-1][1:])
        return capped if _size(capped) <= budget else "… (trace left out; see predictions.parquet)"
    out: dict[str, Any] = {}
    used, room = 2, budget - 30  # "{}" and the note
    order = sorted(trace, key=lambda k: TRACE_PRIORITY.index(k) if k in TRACE_PRIORITY else len(TRACE_PRIORITY))
    for key in order:
        for step in steps:
            v = cap_value(trace[key], *step)
            n = _size({str(key): v}) - 1
            if used + n <= room:
                out[str(key)] = v
                used += n
                break
    left = len(trace) - len(out)
    if left:
        out["…"] = f"left out: {left} field(s)"
    return out


def detail_budget(n_rows: int) -> int:
    return int(max(DETAIL_MIN_CHARS, min(DETAIL_MAX_CHARS, DETAIL_TOTAL_BUDGET // max(1, n_rows))))



def _loads(v: Any) -> Any:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (dict, list)):
        return v
    try:
        return json.loads(v)
    except (TypeError, ValueError):
        return str(v)


def _role_rows(roles: Any, limit: int) -> list[list[Any]] | None:
    """Role calls as [role, ok, attempts, prompt tokens, completion tokens, seconds, cached, error]."""
    roles = _loads(roles)
    if not isinstance(roles, list) or not roles:
        return None
    out = []
    for r in roles[:limit]:
        if not isinstance(r, dict):
            continue
        lat = _finite(r.get("latency_s"))
        out.append([
            str(r.get("role", "?")), bool(r.get("ok", True)), _finite(r.get("attempts")),
            _finite(r.get("prompt_tokens")), _finite(r.get("completion_tokens")),
            None if lat is None else round(float(lat), 4), bool(r.get("cached", False)),
            None if not r.get("error") else _cut_text(str(r["error"]), 300),
        ])
    if len(roles) > limit:
        out.append([f"… +{len(roles) - limit} more calls", None, None, None, None, None, None, None])
    return out


def _detail(row: Mapping[str, Any], budget: int) -> dict[str, Any] | None:
    """The expandable part of a row within ``budget`` characters: the first evidence facts and
    role calls (how many depends on the budget), then the trace, capped to what is left."""
    _, n_ev, n_roles = next(lv for lv in DETAIL_LEVELS if budget >= lv[0])
    d: dict[str, Any] = {}
    ev = as_str_list(row.get("evidence"))
    if ev:
        d["ev"] = [_cut_text(e, 200) for e in ev[:n_ev]]
        d["evn"] = len(ev)
    roles = _role_rows(row.get("roles"), n_roles)
    if roles:
        d["roles"] = roles
    raw = row.get("trace")
    trace = _loads(raw)
    if trace:
        left = max(budget // 2, budget - (_size(d) if d else 0))
        if isinstance(raw, str) and len(raw) <= left and "NaN" not in raw and "Infinity" not in raw:
            d["t"] = trace  # fits as it is (the stored JSON is already compact)
        else:
            d["t"] = cap_trace(trace, left)
    return d or None


# --------------------------------------------------------------------------- payload


def type_label(scores: pd.DataFrame) -> str | None:
    """The per-question "type" column: the first of TYPE_CHOICES with any value."""
    return next((c for c in TYPE_CHOICES if c in scores.columns and scores[c].notna().any()), None)


def _label_text(v: Any) -> str | None:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, str):
        return v
    if hasattr(v, "__len__"):  # multi-valued labels (lists, numpy arrays from parquet)
        vals = list(v)
        return " + ".join(map(str, vals)) if vals else None
    return str(v)


def question_rows(rows: Any, res: MetricsResult, golds: Mapping[str, Any], protocol: str) -> list[list[Any]]:
    """One compact row per gold question (``ROW_COLUMNS`` order), in the scorer's order."""
    df = rows_to_frame(rows)
    sc = res.scores
    by_quid = {q: i for i, q in enumerate(df["quid"])}
    recs = df.to_dict(orient="records")
    protos = [p.name for p in res.protocols]
    tcol = type_label(sc)
    n = len(sc)
    label = {c: sc[c].tolist() if c and c in sc.columns else [None] * n
             for c in (tcol, "answer_type", "time_level", "qlabel")}
    hits = list(zip(*(sc[score_col(p, 1)].tolist() for p in protos)))
    primary = protos.index(protocol)
    hit10 = sc[score_col(protocol, max(HITS_K))].tolist()
    budget = detail_budget(n)
    golds = {str(k): v for k, v in golds.items()}
    out: list[list[Any]] = []
    for i, (quid, status) in enumerate(zip(sc["quid"].tolist(), sc["status"].tolist())):
        j = by_quid.get(quid)
        r: Mapping[str, Any] = recs[j] if j is not None else {}
        g = golds.get(quid)
        preds = as_str_list(r.get("predictions")) if status == "ok" else []
        err = r.get("error")
        out.append([
            quid,
            _cut_text(_label_text(r.get("question")) or "", MAX_QUESTION_CHARS),
            _label_text(label[tcol][i]),
            _label_text(label["answer_type"][i]),
            _label_text(label["time_level"][i]),
            _label_text(label["qlabel"][i]),
            status,
            int(hits[i][primary]),
            [int(h) for h in hits[i]],
            int(hit10[i]),
            [_cut_text(a, 200) for a in (g.answers if g is not None else ())[:MAX_GOLD]],
            [_cut_text(p, 200) for p in preds[:MAX_PREDICTIONS]],
            _label_text(r.get("answered_by")),
            _cut_text(str(err), MAX_ERROR_CHARS) if is_error(err) else None,
            _int_or_none(r.get("prompt_tokens")),
            _int_or_none(r.get("completion_tokens")),
            _round_or_none(r.get("seconds")),
            _int_or_none(r.get("initial_evidence_count")),
            _int_or_none(r.get("final_evidence_count")),
            _int_or_none(r.get("parse_failures")),
            _detail(r, budget) if r else None,
        ])
    return out


def _int_or_none(v: Any) -> int | None:
    v = _finite(v)
    return None if v is None else int(v)


def _round_or_none(v: Any) -> float | None:
    v = _finite(v)
    return None if v is None else round(float(v), 3)


def breakdown_table(res: MetricsResult, breakdown: str, metric: str = "hits@1") -> dict[str, Any]:
    """{groups, n, series: {protocol: [[value, stderr], ...]}} for one breakdown."""
    a = res.aggregates
    sub = a[(a.breakdown == breakdown) & (a.metric == metric)]
    groups = list(dict.fromkeys(sub.group))
    series = {}
    for p in (p.name for p in res.protocols):
        ps = sub[sub.protocol == p].set_index("group")
        series[p] = [[_finite(ps.value.get(g)), _finite(ps.stderr.get(g))] for g in groups]
    n = sub.drop_duplicates("group").set_index("group").n.reindex(groups).tolist()
    return {"groups": groups, "n": [int(x) for x in n], "series": series}


def run_breakdowns(res: MetricsResult) -> list[str]:
    present = set(res.aggregates.breakdown)
    first = next((b for b in TYPE_CHOICES if b in present), None)
    return ([first] if first else []) + [b for b in CHART_BREAKDOWNS if b in present and b != first]


# --------------------------------------------------------------------------- charts


def svg_bar_chart(groups: Sequence[str], series: Mapping[str, Sequence[tuple[Any, Any]]], title: str,
                  ylabel: str = "Hits@1", ns: Sequence[int] | None = None) -> str:
    """Grouped bars with bootstrap error bars as an SVG data URI (:mod:`.barchart`: written
    directly, not by matplotlib, which cost most of a run report's time)."""
    return svg_data_uri(grouped_bars_svg(groups, series, title, ylabel=ylabel, ns=ns))


def run_charts(breakdowns: Mapping[str, Mapping[str, Any]]) -> list[dict[str, str]]:
    """One chart per breakdown table (``run_payload(...)["breakdowns"]``, the numbers the page's
    tables show too)."""
    out = []
    for bd, t in breakdowns.items():
        if not t["groups"]:
            continue
        title = f"Hits@1 by {BREAKDOWN_TITLES.get(bd, bd)}"
        out.append({"breakdown": bd, "title": title,
                    "src": svg_bar_chart(t["groups"], t["series"], title, ns=t["n"])})
    return out


# --------------------------------------------------------------------------- pages


def _identity_line(config: Mapping[str, Any] | None) -> dict[str, str | None]:
    return run_identity(dict(config or {}))


def run_payload(rows: Any, res: MetricsResult, golds: Mapping[str, Any], config: Mapping[str, Any] | None,
                protocol: str = PRIMARY_PROTOCOL) -> dict[str, Any]:
    """Everything the run page embeds (also what the tests check by hand)."""
    protos = [p.name for p in res.protocols]
    if protocol not in protos:
        protocol = protos[0]
    a = res.aggregates
    overall = []
    for p in res.protocols:
        cells = {}
        for k in HITS_K:
            x = a[(a.breakdown == "overall") & (a.protocol == p.name) & (a.metric == f"hits@{k}")]
            cells[f"hits@{k}"] = [_finite(x.value.iloc[0]), _finite(x.stderr.iloc[0])] if len(x) else [None, None]
        overall.append({"protocol": p.name, "description": p.description, **cells})
    breakdowns = {bd: breakdown_table(res, bd) for bd in run_breakdowns(res)}
    return {
        "identity": _identity_line(config),
        "protocol": protocol,
        "protocols": protos,
        "counts": {k: int(v) for k, v in res.counts.items()},
        "overall": overall,
        "breakdowns": breakdowns,
        "type_label": BREAKDOWN_TITLES.get(type_label(res.scores) or "", "type"),
        "cost": {k: _finite(v) for k, v in res.cost.items()},
        "columns": list(ROW_COLUMNS),
        "rows": question_rows(rows, res, golds, protocol),
        "page_size": PAGE_SIZE,
        "detail_budget": detail_budget(len(res.scores)),
        "trace_sections": [list(s) for s in TRACE_SECTIONS],
    }


def render_run_html(rows: Any, res: MetricsResult, golds: Mapping[str, Any], config: Mapping[str, Any] | None = None,
                    protocol: str = PRIMARY_PROTOCOL) -> str:
    payload = run_payload(rows, res, golds, config, protocol)
    ident = payload["identity"]
    title = " / ".join(f"{v}" for v in ident.values() if v is not None) or "run"
    return _env().get_template("report.html.j2").render(
        title=title,
        identity=ident,
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        payload=payload,
        charts=run_charts(payload["breakdowns"]),
        data_json=script_json(payload),
    )


def write_run_html(run_dir: str | Path, rows: Any, res: MetricsResult, golds: Mapping[str, Any],
                   config: Mapping[str, Any] | None = None, protocol: str = PRIMARY_PROTOCOL) -> Path:
    """Write ``run_dir/report.html`` (tmp file + rename)."""
    path = Path(run_dir) / REPORT_HTML
    _atomic_write(path, render_run_html(rows, res, golds, config, protocol))
    return path


def comparison_payload(runs: Sequence[Any], agg: pd.DataFrame, protocol: str, out_dir: Path | None) -> dict[str, Any]:
    """Runs table (identity, n, hits@k per protocol, link to the run's page) and by-type table."""
    protos = list(dict.fromkeys(agg["protocol"])) if not agg.empty else []
    table = []
    for r in sorted(runs, key=lambda r: tuple(str(r.identity.get(k) or "") for k in IDENTITY_KEYS) + (r.name,)):
        sub = agg[(agg.run == r.name) & (agg.breakdown == "overall")] if not agg.empty else agg
        cells = {}
        for p in protos:
            for k in HITS_K:
                x = sub[(sub.protocol == p) & (sub.metric == f"hits@{k}")]
                cells[f"{p} hits@{k}"] = [_finite(x.value.iloc[0]), _finite(x.stderr.iloc[0])] if len(x) else [None, None]
        page = r.path / REPORT_HTML
        link = None
        if page.exists():
            link = os.path.relpath(page, out_dir) if out_dir is not None else str(page)
            link = Path(link).as_posix()
        table.append({"run": r.name, **{k: r.identity.get(k) for k in IDENTITY_KEYS},
                      "n": int(sub.n.iloc[0]) if len(sub) else None, "cells": cells, "link": link})
    by_type: dict[str, Any] = {"breakdown": None, "groups": [], "rows": []}
    if not agg.empty:
        present = set(agg.breakdown)
        bd = next((b for b in TYPE_CHOICES if b in present), None)
        if bd:
            ts = agg[(agg.breakdown == bd) & (agg.metric == "hits@1") & (agg.protocol == protocol)]
            groups = list(dict.fromkeys(ts.group))
            by_type = {"breakdown": bd, "groups": groups, "rows": []}
            for t in table:
                s = ts[ts.run == t["run"]].set_index("group")
                by_type["rows"].append({"run": t["run"], "cells": [
                    [_finite(s.value.get(g)), _finite(s.stderr.get(g))] if g in s.index else [None, None] for g in groups]})
    return {"protocol": protocol, "protocols": protos, "metrics": [f"hits@{k}" for k in HITS_K],
            "runs": table, "by_type": by_type, "identity_keys": list(IDENTITY_KEYS)}


def _run_label(t: Mapping[str, Any]) -> str:
    parts = [t.get("method"), t.get("backbone")]
    if t.get("ablation") not in (None, "none"):
        parts.append(t.get("ablation"))
    label = " / ".join(str(p) for p in parts if p) or t["run"]
    return label


def comparison_charts(payload: Mapping[str, Any]) -> list[dict[str, str]]:
    runs = payload["runs"]
    if not runs:
        return []
    labels = [_run_label(t) for t in runs]
    if len(set(labels)) != len(labels):
        labels = [t["run"] for t in runs]
    charts = []
    p = payload["protocol"]
    series = {p: [t["cells"].get(f"{p} hits@1", [None, None]) for t in runs]}
    charts.append({"title": f"Hits@1 per run ({p})",
                   "src": svg_bar_chart(labels, series, f"Hits@1 per method / backbone ({p})", ns=[t["n"] or 0 for t in runs])})
    bt = payload["by_type"]
    if bt["groups"]:
        ser = {lab: row["cells"] for lab, row in zip(labels, bt["rows"])}
        title = f"Hits@1 by {BREAKDOWN_TITLES.get(bt['breakdown'], bt['breakdown'])} ({p})"
        charts.append({"title": title, "src": svg_bar_chart(bt["groups"], ser, title)})
    return charts


def render_comparison_html(runs: Sequence[Any], agg: pd.DataFrame, protocol: str = PRIMARY_PROTOCOL,
                           out_dir: str | Path | None = None) -> str:
    payload = comparison_payload(runs, agg, protocol, None if out_dir is None else Path(out_dir))
    return _env().get_template("comparison.html.j2").render(
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        payload=payload,
        charts=comparison_charts(payload),
        labels=[_run_label(t) for t in payload["runs"]],
        type_title=BREAKDOWN_TITLES.get(payload["by_type"]["breakdown"] or "", "type"),
        data_json=script_json(payload),
    )


def write_comparison_html(out_dir: str | Path, runs: Sequence[Any], agg: pd.DataFrame,
                          protocol: str = PRIMARY_PROTOCOL) -> Path:
    out = Path(out_dir)
    path = out / REPORT_HTML
    _atomic_write(path, render_comparison_html(runs, agg, protocol, out))
    return path


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


__all__ = [
    "REPORT_HTML", "ROW_COLUMNS", "cap_trace", "comparison_payload", "render_comparison_html",
    "detail_budget", "render_run_html", "run_payload", "script_json", "write_comparison_html", "write_run_html",
]
