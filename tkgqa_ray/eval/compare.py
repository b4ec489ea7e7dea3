"""Merge run dirs into a comparison report, and diff two runs question by question.

A run dir holds ``predictions.parquet``, ``gold.parquet`` and ``metrics.json`` (written by
:func:`~tkgqa_ray.eval.report.write_run_report`), plus the run's identity (method, backbone,
ablation, dataset) in ``run.json`` or in the config echoed into ``metrics.json``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from tkgqa_ray.records import Gold

from .gold_io import GOLD_FILE, load_gold
from .identity import IDENTITY_KEYS, run_identity
from .metrics import rows_to_frame, score_col, score_questions
from .protocols import HITS_K, PRIMARY_PROTOCOL, get_protocols

PREDICTIONS = "predictions.parquet"
RUN_JSON = "run.json"
HEAVY_COLUMNS = ("trace", "roles")  # left out of all_rows.parquet: per-run files keep them


@dataclass
class RunInfo:
    path: Path
    name: str
    identity: dict[str, str | None]
    metrics: dict[str, Any] | None
    config: dict[str, Any]


def load_run(run_dir: str | Path) -> RunInfo:
    """Read a run dir's identity and metrics; identity falls back run.json -> metrics config ->
    .hydra/config.yaml -> the method/backbone/ablation columns of predictions.parquet."""
    d = Path(run_dir)
    if not d.is_dir():
        raise FileNotFoundError(f"run dir {d} does not exist")
    metrics = json.loads((d / "metrics.json").read_text()) if (d / "metrics.json").exists() else None
    sources: list[dict[str, Any]] = []
    if (d / RUN_JSON).exists():
        try:
            sources.append(json.loads((d / RUN_JSON).read_text()))
        except json.JSONDecodeError as e:
            raise ValueError(f"{d / RUN_JSON}: not JSON ({e})") from None
    if metrics and isinstance(metrics.get("config"), dict):
        sources.append(metrics["config"])
    hydra_cfg = d / ".hydra" / "config.yaml"
    if hydra_cfg.exists():
        import yaml

        sources.append(yaml.safe_load(hydra_cfg.read_text()) or {})
    ident = {k: None for k in IDENTITY_KEYS}
    for src in sources:
        for k, v in run_identity(src).items():
            ident[k] = ident[k] or v
    if any(v is None for v in ident.values()) and (d / PREDICTIONS).exists():
        import pyarrow.parquet as pq

        cols = [c for c in ("method", "backbone", "ablation") if c in pq.read_schema(d / PREDICTIONS).names]
        if cols:
            t = pq.read_table(d / PREDICTIONS, columns=cols).slice(0, 1).to_pylist()
            for k, v in (t[0].items() if t else []):
                ident[k] = ident[k] or (None if v is None else str(v))
    return RunInfo(d, d.name, ident, metrics, sources[0] if sources else {})


def _rescore(info: RunInfo, n_boot: int, seed: int) -> RunInfo:
    from .report import write_run_report

    d = info.path
    if not (d / PREDICTIONS).exists():
        raise FileNotFoundError(f"{d}: no {PREDICTIONS} to score")
    if not (d / GOLD_FILE).exists():
        raise FileNotFoundError(f"{d}: no {GOLD_FILE}; cannot score without gold")
    import pyarrow.parquet as pq

    config = dict(info.config)
    for k, v in info.identity.items():
        config.setdefault(k, v)
    write_run_report(d, pq.read_table(d / PREDICTIONS), load_gold(d), config, n_boot=n_boot, seed=seed)
    return load_run(d)


def _cell(v: float, se: float | None) -> str:
    from .report import fmt

    return fmt(v, se)


@dataclass
class Comparison:
    runs: list[RunInfo]
    aggregates: pd.DataFrame  # run identity + protocol, metric, breakdown, group, value, stderr, n
    markdown: str


def compare_runs(
    run_dirs: Sequence[str | Path],
    out_dir: str | Path | None = None,
    protocol: str = PRIMARY_PROTOCOL,
    rescore: bool = False,
    n_boot: int = 1000,
    seed: int = 0,
) -> Comparison:
    """Merge run dirs: comparison.md, aggregates.{csv,parquet}, all_rows.parquet, a per-type
    Hits@1 chart grouped by backbone and report.html in ``out_dir``. Runs without metrics.json (or all runs
    with ``rescore``) are scored from predictions.parquet + gold.parquet first."""
    if not run_dirs:
        raise ValueError("compare_runs needs at least one run dir")
    get_protocols([protocol])
    runs = []
    for rd in run_dirs:
        info = load_run(rd)
        if rescore or info.metrics is None:
            info = _rescore(info, n_boot, seed)
        runs.append(info)
    names = [r.name for r in runs]
    if len(set(names)) != len(names):  # same leaf name under different parents: use the path
        for r in runs:
            r.name = str(r.path)
    frames = []
    for r in runs:
        a = pd.DataFrame(r.metrics.get("aggregates", []))
        if a.empty:
            continue
        for k in reversed(IDENTITY_KEYS):
            a.insert(0, k, r.identity.get(k))
        a.insert(0, "run", r.name)
        frames.append(a)
    agg = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    md = comparison_markdown(runs, agg, protocol)
    if out_dir is not None:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "comparison.md").write_text(md, encoding="utf-8")
        agg.to_csv(out / "aggregates.csv", index=False)
        agg.to_parquet(out / "aggregates.parquet", index=False)
        _all_rows(runs).to_parquet(out / "all_rows.parquet", index=False)
        plot_by_backbone(agg, out / "hits1_by_type_by_backbone.png", protocol)
        from .html_report import write_comparison_html

        write_comparison_html(out, runs, agg, protocol)
    return Comparison(runs, agg, md)


def _all_rows(runs: Sequence[RunInfo]) -> pd.DataFrame:
    """Every run's per-question rows (minus trace/roles) with identity and per-question hits."""
    frames = []
    for r in runs:
        p = r.path / PREDICTIONS
        if not p.exists():
            continue
        df = pd.read_parquet(p)
        df = df.drop(columns=[c for c in HEAVY_COLUMNS if c in df.columns])
        sp = r.path / "scores.parquet"
        if sp.exists():
            sc = pd.read_parquet(sp)
            keep = ["quid", "status"] + [c for c in sc.columns if "/hits@" in c]
            df["quid"] = df["quid"].astype(str)
            df = df.merge(sc[keep], on="quid", how="left")
        for k in reversed(IDENTITY_KEYS):
            if k in df.columns:
                df = df.drop(columns=[k])
            df.insert(0, k, r.identity.get(k))
        df.insert(0, "run", r.name)
        frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def comparison_markdown(runs: Sequence[RunInfo], agg: pd.DataFrame, protocol: str) -> str:
    from .report import md_table, type_breakdown

    lines = ["# Comparison", ""]
    if agg.empty:
        return "\n".join(lines + ["(no aggregates)", ""])
    protos = list(dict.fromkeys(agg["protocol"]))
    metrics = [f"hits@{k}" for k in HITS_K]
    ov = agg[agg.breakdown == "overall"]
    header = ["run", *IDENTITY_KEYS, "n"] + [f"{p} {m}" for p in protos for m in metrics]
    rows = []
    order = sorted(runs, key=lambda r: tuple(str(r.identity.get(k) or "") for k in IDENTITY_KEYS) + (r.name,))
    for r in order:
        sub = ov[ov.run == r.name]
        if sub.empty:
            continue
        cells = []
        for p in protos:
            for m in metrics:
                x = sub[(sub.protocol == p) & (sub.metric == m)]
                cells.append(_cell(x.value.iloc[0], x.stderr.iloc[0]) if len(x) else "–")
        rows.append([r.name, *(r.identity.get(k) or "–" for k in IDENTITY_KEYS), int(sub.n.iloc[0])] + cells)
    lines += ["## Overall (value ± bootstrap stderr)", "", md_table(header, rows), ""]
    bd = type_breakdown(agg)
    if bd:
        ts = agg[(agg.breakdown == bd) & (agg.metric == "hits@1") & (agg.protocol == protocol)]
        groups = list(dict.fromkeys(ts.group))
        rows = []
        for r in order:
            s = ts[ts.run == r.name].set_index("group")
            if s.empty:
                continue
            rows.append([r.name, r.identity.get("method") or "–", r.identity.get("backbone") or "–",
                         r.identity.get("ablation") or "–"]
                        + [_cell(s.value[g], s.stderr[g]) if g in s.index else "–" for g in groups])
        lines += [f"## Hits@1 by {bd} (`{protocol}`)", "",
                  md_table(["run", "method", "backbone", "ablation", *groups], rows), ""]
    desc = {}
    for r in runs:
        desc.update((r.metrics or {}).get("protocols", {}))
    if desc:
        lines += ["Protocols: " + "; ".join(f"`{k}` = {v}" for k, v in desc.items()), ""]
    return "\n".join(lines)


def plot_by_backbone(agg: pd.DataFrame, path: str | Path, protocol: str = PRIMARY_PROTOCOL) -> Path | None:
    """One panel per (dataset, method, ablation); bars per question type, grouped by backbone."""
    from .pngchart import panels_png
    from .report import type_breakdown

    if agg.empty:
        return None
    bd = type_breakdown(agg) or "overall"
    sub = agg[(agg.breakdown == bd) & (agg.metric == "hits@1") & (agg.protocol == protocol)].copy()
    sub = sub.fillna({k: "–" for k in IDENTITY_KEYS})
    panels = []
    for ds, me, ab in dict.fromkeys(zip(sub.dataset, sub.method, sub.ablation)):
        ps = sub[(sub.dataset == ds) & (sub.method == me) & (sub.ablation == ab)]
        groups = list(dict.fromkeys(ps.group))
        series = {}
        for b in dict.fromkeys(ps.backbone):
            bs = ps[ps.backbone == b].groupby("group")[["value", "stderr"]].mean().reindex(groups)
            series[str(b)] = list(zip(bs["value"].tolist(), bs["stderr"].tolist()))
        panels.append((f"{ds} · {me} · ablation={ab}", groups, series, "backbone"))
    return panels_png(path, panels, ylabel=f"Hits@1 ({protocol})", dpi=110)


# --------------------------------------------------------------------------- per-question diff


@dataclass
class RunDiff:
    table: pd.DataFrame  # one row per question: quid, type, question, gold, a_top, b_top, a_hit, b_hit, outcome
    by_type: pd.DataFrame  # type, n, both, a_only, b_only, neither, net
    summary: dict[str, Any]
    markdown: str


def mcnemar_exact_p(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for discordant counts b, c (binomial, p=0.5)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(k + 1)]
    m = max(logs)
    tail = math.exp(m) * sum(math.exp(x - m) for x in logs)
    return min(1.0, 2 * tail)


def _read_rows(run_dir: Path) -> pd.DataFrame:
    p = run_dir / PREDICTIONS
    if not p.exists():
        raise FileNotFoundError(f"{run_dir}: no {PREDICTIONS}")
    import pyarrow.parquet as pq

    names = pq.read_schema(p).names
    cols = [c for c in ("quid", "question", "predictions", "error") if c in names]
    return rows_to_frame(pd.read_parquet(p, columns=cols))


def _shown(value: Any, status: str | None = "ok") -> str:
    """A cell of the diff table: an answer, or why there is none (never ``nan``/``None``)."""
    if status not in (None, "ok"):
        return f"({status})"
    if value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == "":
        return "(none)"
    return str(value)


def _by_quid(df: pd.DataFrame, col: str) -> dict[str, Any]:
    return dict(zip(df.quid, df[col])) if col in df.columns else {}


def _not_comparable(message: str) -> Exception:
    from tkgqa_ray.pipeline.errors import NotComparableError

    return NotComparableError(message)


def _check_same_questions(a_dir: Path, b_dir: Path, ra: pd.DataFrame, rb: pd.DataFrame, shared: list[str],
                          golds: Mapping[str, Gold]) -> None:
    """Refuse when one quid names different questions in the two runs (other text, other gold)."""
    ta, tb = _by_quid(ra, "question"), _by_quid(rb, "question")
    texts = [q for q in shared if q in ta and q in tb and ta[q] != tb[q]]
    if texts:
        q = texts[0]
        raise _not_comparable(
            f"cannot diff {a_dir} and {b_dir}: {len(texts)} of their {len(shared)} shared question ids have "
            f"different question texts (e.g. quid {q}: {ta[q]!r} in A, {tb[q]!r} in B); "
            "they were run on different question files"
        )
    if (b_dir / GOLD_FILE).exists():
        gb = {str(k): v for k, v in load_gold(b_dir).items()}
        answers = [q for q in shared if q in gb and q in golds and tuple(gb[q].answers) != tuple(golds[q].answers)]
        if answers:
            q = answers[0]
            raise _not_comparable(
                f"cannot diff {a_dir} and {b_dir}: {len(answers)} shared question(s) have different gold answers "
                f"(e.g. quid {q}: {list(golds[q].answers)} in A, {list(gb[q].answers)} in B)"
            )


def diff_runs(
    run_a: str | Path,
    run_b: str | Path,
    golds: Mapping[str, Gold] | None = None,
    protocol: str = PRIMARY_PROTOCOL,
    k: int = 1,
    examples: int = 10,
) -> RunDiff:
    """Which questions A gets right and B wrong (and vice versa) under ``protocol`` Hits@k,
    with counts by question type and an exact McNemar test on the discordant pairs.

    Only the questions *both* runs have a row for (and gold for) are compared; questions in
    only one run are counted and listed in the summary (``only_a`` / ``only_b``), never scored
    as misses. Gold defaults to run A's ``gold.parquet``. Raises ``NotComparableError``
    when a shared quid has another question text (or other gold answers) in B, or when the
    runs share no question."""
    if k not in HITS_K:
        raise ValueError(f"k must be one of {HITS_K}")
    (proto,) = get_protocols([protocol])
    a_dir, b_dir = Path(run_a), Path(run_b)
    golds = {str(q): g for q, g in (golds if golds is not None else load_gold(a_dir)).items()}
    ra, rb = _read_rows(a_dir), _read_rows(b_dir)
    qa, qb = list(dict.fromkeys(ra.quid)), set(rb.quid)
    shared_all = [q for q in qa if q in qb]
    only_a = [q for q in qa if q not in qb]
    sa_set = set(qa)
    only_b = [q for q in dict.fromkeys(rb.quid) if q not in sa_set]
    _check_same_questions(a_dir, b_dir, ra, rb, shared_all, golds)
    shared = [q for q in shared_all if q in golds]
    no_gold = len(shared_all) - len(shared)
    if not shared:
        raise _not_comparable(
            f"cannot diff {a_dir} and {b_dir}: no question with gold is in both runs "
            f"({len(qa)} in A, {len(qb)} in B, {len(shared_all)} shared)"
        )
    keep = set(shared)
    ra, rb = ra[ra.quid.isin(keep)], rb[rb.quid.isin(keep)]
    sub_golds = {q: golds[q] for q in shared}
    sa = score_questions(ra, sub_golds, [proto]).set_index("quid").reindex(shared).reset_index()
    sb = score_questions(rb, sub_golds, [proto]).set_index("quid").reindex(shared)
    col = score_col(protocol, k)
    tcol = next((c for c in ("qtype", "question_level", "answer_type") if sa[c].notna().any()), None)
    table = pd.DataFrame(
        {
            "quid": sa.quid,
            "type": sa[tcol].fillna("–") if tcol else "all",
            "gold": [_shown(" | ".join(golds[q].answers)) for q in sa.quid],
            "a_top": [_shown(t, s) for t, s in zip(sa.top, sa.status)],
            "b_top": [_shown(t, s) for t, s in zip(sb.top, sb.status)],
            "a_status": sa.status.to_numpy(),
            "b_status": sb.status.to_numpy(),
            "a_hit": sa[col].astype(bool).to_numpy(),
            "b_hit": sb[col].astype(bool).to_numpy(),
        }
    )
    questions = _by_quid(ra, "question") or _by_quid(rb, "question")
    if questions:
        table.insert(2, "question", [_shown(questions.get(q)) for q in table.quid])
    table["outcome"] = [
        "both" if a and b else "a_only" if a else "b_only" if b else "neither"
        for a, b in zip(table.a_hit, table.b_hit)
    ]
    by_type = (
        table.groupby("type")["outcome"].value_counts().unstack(fill_value=0)
        .reindex(columns=["both", "a_only", "b_only", "neither"], fill_value=0)
    )
    by_type.insert(0, "n", by_type.sum(axis=1))
    by_type["net"] = by_type["a_only"] - by_type["b_only"]
    total = by_type.sum(axis=0)
    by_type.loc["all"] = total
    by_type = by_type.reset_index().rename(columns={"index": "type"})
    ia, ib = load_run(a_dir), load_run(b_dir)
    summary = {
        "run_a": str(a_dir), "run_b": str(b_dir),
        "identity_a": ia.identity, "identity_b": ib.identity,
        "protocol": protocol, "metric": f"hits@{k}",
        "n": int(len(table)),
        "n_a_rows": len(qa), "n_b_rows": len(qb),
        "only_in_a": len(only_a), "only_in_b": len(only_b), "shared_without_gold": no_gold,
        "only_in_a_examples": only_a[:20], "only_in_b_examples": only_b[:20],
        "a_score": float(table.a_hit.mean()) if len(table) else None,
        "b_score": float(table.b_hit.mean()) if len(table) else None,
        "a_only": int(total["a_only"]), "b_only": int(total["b_only"]),
        "mcnemar_p": mcnemar_exact_p(int(total["a_only"]), int(total["b_only"])),
    }
    md = _diff_markdown(table, by_type, summary, examples)
    return RunDiff(table, by_type, summary, md)


def _diff_markdown(table: pd.DataFrame, by_type: pd.DataFrame, s: Mapping[str, Any], examples: int) -> str:
    from .report import fmt, md_table

    def who(ident: Mapping[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in ident.items() if v is not None)

    lines = [
        f"# Per-question diff ({s['metric']}, `{s['protocol']}`)", "",
        f"- A: `{s['run_a']}` ({who(s['identity_a'])}): {fmt(s['a_score'])}",
        f"- B: `{s['run_b']}` ({who(s['identity_b'])}): {fmt(s['b_score'])}",
        f"- {s['n']} questions (in both runs); A right & B wrong: {s['a_only']}; B right & A wrong: {s['b_only']}; "
        f"exact McNemar p = {s['mcnemar_p']:.3g} (over these {s['n']} only)", "",
    ]
    if s.get("only_in_a") or s.get("only_in_b") or s.get("shared_without_gold"):
        def ex(key: str) -> str:
            return f" (e.g. {', '.join(map(str, s[key][:5]))})" if s.get(key) else ""

        lines[-1:-1] = [
            f"- **Warning: the runs cover different questions.** Compared only on the {s['n']} both have; "
            f"only in A: {s['only_in_a']}{ex('only_in_a_examples')}; only in B: {s['only_in_b']}{ex('only_in_b_examples')}"
            + (f"; in both but without gold: {s['shared_without_gold']}" if s.get("shared_without_gold") else ""),
        ]
    lines += [
        "## By type", "",
        md_table(list(by_type.columns), by_type.itertuples(index=False)), "",
    ]
    for outcome, title in (("a_only", "A right, B wrong"), ("b_only", "B right, A wrong")):
        sub = table[table.outcome == outcome].head(examples)
        if sub.empty:
            continue
        cols = [c for c in ("quid", "type", "question", "gold", "a_top", "b_top") if c in sub.columns]
        lines += [f"## {title} (first {len(sub)})", "", md_table(cols, sub[cols].itertuples(index=False)), ""]
    return "\n".join(lines)


def write_diff(
    run_a: str | Path, run_b: str | Path, out_dir: str | Path, golds: Mapping[str, Gold] | None = None,
    protocol: str = PRIMARY_PROTOCOL, k: int = 1,
) -> RunDiff:
    """:func:`diff_runs` written to ``out_dir``: diff.md, diff.parquet, diff_by_type.csv, diff.json."""
    d = diff_runs(run_a, run_b, golds, protocol, k)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "diff.md").write_text(d.markdown, encoding="utf-8")
    d.table.to_parquet(out / "diff.parquet", index=False)
    d.by_type.to_csv(out / "diff_by_type.csv", index=False)
    (out / "diff.json").write_text(json.dumps(d.summary, indent=2), encoding="utf-8")
    return d
