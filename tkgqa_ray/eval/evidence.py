"""Evidence-space metrics (SCoP §4.3): evidence sizes, ECR and gold retention.

Only rows of methods that expose evidence count: those with a non-null
``initial_evidence_count``. Evidence strings are facts in KG form
``"s|r|o|YYYY-MM-DD|YYYY-MM-DD"``.

- ECR (evidence compression ratio) = 1 − ΣFinal / ΣInitial over those rows.
- Gold-answer retention of a question: an entity answer is retained when it is the display
  name (``_``→space) of the subject or object of a final-evidence fact; a time answer when it
  equals a fact's start or end date formatted at the answer's granularity. *Any* = at least
  one gold answer retained, *Full* = all of them.
- Gold-event retention (where the dataset has events): an event ``"s|r|o|start|end"`` is
  retained when a final-evidence fact has the same names (``_``/space and case folded) and the
  same start and end days (``1856`` as a start means its first day, as an end its last).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np
import pandas as pd

from tkgqa_ray.kg.factkey import FactKeyError, decode_fact_key
from tkgqa_ray.records import Gold
from tkgqa_ray.time import format_day, granularity_of, parse_time

from .cells import as_str_list, is_error, rows_to_frame


def _norm_name(s: str) -> str:
    return " ".join(s.replace("_", " ").split()).casefold()


def parse_fact_key(key: str) -> tuple[str, str, str, int, int] | None:
    """``s|r|o|start|end`` -> (s, r, o, start_day, end_day) with display-normalised names;
    None when the string is not a fact key (decoded by :mod:`tkgqa_ray.kg.factkey`)."""
    try:
        s, r, o, a, b = (x.strip() for x in decode_fact_key(key))
    except FactKeyError:
        return None
    try:
        lo = parse_time(a).lo
        hi = parse_time(b).hi
    except ValueError:
        return None
    return _norm_name(s), _norm_name(r), _norm_name(o), lo, hi


class _EvidenceView:
    """Names and dates of a question's final evidence, prepared once for the lookups."""

    def __init__(self, keys: list[str]) -> None:
        self.facts = []
        self.unparsed = 0
        for k in keys:
            f = parse_fact_key(k)
            if f is None:
                self.unparsed += 1
            else:
                self.facts.append(f)
        self.names = {f[0] for f in self.facts} | {f[2] for f in self.facts}
        self.event_set = set(self.facts)
        self._dates: dict[str, set[str]] = {}

    def dates(self, granularity: str) -> set[str]:
        if granularity not in self._dates:
            self._dates[granularity] = {format_day(d, granularity) for f in self.facts for d in (f[3], f[4])}
        return self._dates[granularity]

    def retains_answer(self, answer: str, answer_type: str | None) -> bool:
        g = granularity_of(answer) if answer_type != "entity" else None
        if g is not None:
            return answer.strip() in self.dates(g)
        return _norm_name(answer) in self.names

    def retains_event(self, event: str) -> bool:
        f = parse_fact_key(event)
        return f is not None and f in self.event_set


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else float(num / den)


def _summarise(frame: pd.DataFrame) -> dict[str, Any]:
    ini = frame["initial"].to_numpy(dtype=np.float64)
    fin = frame["final"].to_numpy(dtype=np.float64)
    out: dict[str, Any] = {
        "n": int(len(frame)),
        "mean_initial": float(ini.mean()) if len(ini) else None,
        "mean_final": float(fin.mean()) if len(fin) else None,
        "sum_initial": float(ini.sum()),
        "sum_final": float(fin.sum()),
        "ecr": (1.0 - _ratio(fin.sum(), ini.sum())) if ini.sum() > 0 else None,
    }
    for kind in ("answer", "event"):
        sub = frame[frame[f"{kind}_n"] > 0]
        out[f"{kind}_n"] = int(len(sub))
        out[f"{kind}_any"] = float(sub[f"{kind}_any"].mean()) if len(sub) else None
        out[f"{kind}_full"] = float(sub[f"{kind}_full"].mean()) if len(sub) else None
    return out


def evidence_frame(rows: Any, golds: Mapping[str, Gold]) -> pd.DataFrame:
    """Per-question evidence measurements for rows that expose evidence."""
    df = rows if isinstance(rows, pd.DataFrame) else rows_to_frame(rows)
    cols = ["quid", "qtype", "initial", "final", "answer_n", "answer_any", "answer_full",
            "event_n", "event_any", "event_full", "unparsed"]
    if "initial_evidence_count" not in df.columns:
        return pd.DataFrame(columns=cols)
    ini = pd.to_numeric(df["initial_evidence_count"], errors="coerce")
    fin = pd.to_numeric(df["final_evidence_count"], errors="coerce") if "final_evidence_count" in df.columns else None
    ev = df["evidence"].tolist() if "evidence" in df.columns else [None] * len(df)
    err = df["error"].tolist() if "error" in df.columns else [None] * len(df)
    recs = []
    for i, quid in enumerate(df["quid"].astype(str)):
        if pd.isna(ini.iloc[i]) or is_error(err[i]):
            continue
        g = golds.get(quid)
        if g is None:
            continue
        keys = as_str_list(ev[i])
        final = fin.iloc[i] if fin is not None and not pd.isna(fin.iloc[i]) else len(keys)
        view = _EvidenceView(keys)
        ans = [view.retains_answer(a, g.answer_type) for a in g.answers]
        evs = [view.retains_event(e) for e in g.events]
        recs.append(
            {
                "quid": quid,
                "qtype": g.qtype,
                "initial": float(ini.iloc[i]),
                "final": float(final),
                "answer_n": len(ans),
                "answer_any": bool(any(ans)),
                "answer_full": bool(ans) and all(ans),
                "event_n": len(evs),
                "event_any": bool(any(evs)),
                "event_full": bool(evs) and all(evs),
                "unparsed": view.unparsed,
            }
        )
    return pd.DataFrame(recs, columns=cols)


def evidence_metrics(rows: Any, golds: Mapping[str, Gold]) -> dict[str, Any] | None:
    """Overall and per-qtype evidence summary; None when no row exposes evidence.

    Error rows are left out (their evidence is whatever the failing stage left behind)."""
    golds = {str(k): v for k, v in golds.items()}
    fr = evidence_frame(rows, golds)
    if fr.empty:
        return None
    out = {"overall": _summarise(fr), "by_qtype": {}, "unparsed_evidence": int(fr["unparsed"].sum())}
    for qt, sub in fr[fr["qtype"].notna()].groupby("qtype", sort=True):
        out["by_qtype"][str(qt)] = _summarise(sub)
    return out
