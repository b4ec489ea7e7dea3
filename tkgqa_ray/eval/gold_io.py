"""Gold labels on disk next to a run's predictions (``gold.parquet``).

A run dir must be re-scorable on its own (``tkgqa-ray report``/``diff``) without reloading the
dataset, so the pipeline saves the gold of the questions it ran. Methods never read this file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

import pyarrow as pa
import pyarrow.parquet as pq

from tkgqa_ray.records import Gold

GOLD_FILE = "gold.parquet"

GOLD_SCHEMA = pa.schema(
    [
        ("quid", pa.string()),
        ("answers", pa.list_(pa.string())),
        ("answer_type", pa.string()),
        ("qtype", pa.string()),
        ("qlabel", pa.string()),
        ("time_level", pa.string()),
        ("question_level", pa.string()),
        ("events", pa.list_(pa.string())),
        ("extra", pa.string()),  # JSON object
    ]
)


def golds_to_table(golds: Mapping[str, Gold]) -> pa.Table:
    cols: dict[str, list] = {f.name: [] for f in GOLD_SCHEMA}
    for g in golds.values():
        cols["quid"].append(str(g.quid))
        cols["answers"].append([str(a) for a in g.answers])
        for k in ("answer_type", "qtype", "qlabel", "time_level", "question_level"):
            v = getattr(g, k)
            cols[k].append(None if v is None else str(v))
        cols["events"].append([str(e) for e in g.events])
        cols["extra"].append(json.dumps(g.extra, sort_keys=True, default=str))
    return pa.table(cols, schema=GOLD_SCHEMA)


def table_to_golds(table: pa.Table, source: str = "<table>") -> dict[str, Gold]:
    missing = {"quid", "answers"} - set(table.column_names)
    if missing:
        raise ValueError(f"{source}: gold table lacks column(s) {sorted(missing)}")
    out: dict[str, Gold] = {}
    for i, r in enumerate(table.to_pylist()):
        quid = str(r["quid"])
        if quid in out:
            raise ValueError(f"{source}: row {i}: duplicate quid {quid!r}")
        extra = r.get("extra")
        try:
            extra_d = json.loads(extra) if extra else {}
        except json.JSONDecodeError as e:
            raise ValueError(f"{source}: row {i}: extra is not JSON ({e})") from None
        out[quid] = Gold(
            quid=quid,
            answers=tuple(r["answers"] or ()),
            answer_type=r.get("answer_type"),
            qtype=r.get("qtype"),
            qlabel=r.get("qlabel"),
            time_level=r.get("time_level"),
            question_level=r.get("question_level"),
            events=tuple(r.get("events") or ()),
            extra=extra_d,
        )
    return out


def save_gold(path: str | Path, golds: Mapping[str, Gold]) -> Path:
    """Write ``golds`` to ``path`` (a file, or a dir that gets ``gold.parquet``)."""
    p = Path(path)
    if p.is_dir():
        p = p / GOLD_FILE
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    pq.write_table(golds_to_table(golds), tmp)
    tmp.replace(p)  # atomic: a reader never sees half a file
    return p


def load_gold(path: str | Path) -> dict[str, Gold]:
    """Read a gold file written by :func:`save_gold` (``path`` may be the run dir)."""
    p = Path(path)
    if p.is_dir():
        p = p / GOLD_FILE
    if not p.exists():
        raise FileNotFoundError(f"no gold file at {p} (runs save it next to predictions.parquet)")
    return table_to_golds(pq.read_table(p), str(p))
