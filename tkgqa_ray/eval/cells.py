"""Prediction-row cells as plain values: the row table as a DataFrame, a list cell as
``list[str]``, an error cell as a bool. A leaf shared by the scorer and the evidence metrics."""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd


def json_default(obj: Any) -> Any:
    """numpy scalars/arrays and sets show up in traces; make them JSON, never fail the row.
    The one ``json.dumps(default=...)`` of row cells (prediction rows and report.html)."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return str(obj)


def rows_to_frame(rows: Any) -> pd.DataFrame:
    """Accept a pyarrow Table, a pandas DataFrame or a list of dicts."""
    if isinstance(rows, pd.DataFrame):
        df = rows
    elif hasattr(rows, "to_pandas"):
        df = rows.to_pandas()
    else:
        df = pd.DataFrame(list(rows))
    if "quid" not in df.columns:
        raise ValueError("prediction rows need a 'quid' column")
    df = df.copy()
    df["quid"] = df["quid"].astype(str)
    dup = df["quid"][df["quid"].duplicated()]
    if len(dup):
        raise ValueError(f"prediction rows repeat {len(dup)} quid(s), e.g. {sorted(set(dup))[:5]}")
    return df


def as_str_list(v: Any) -> list[str]:
    """A predictions/evidence cell (list, numpy array, JSON string, None) as a list of str."""
    if v is None:
        return []
    if isinstance(v, float) and math.isnan(v):
        return []
    if isinstance(v, str):
        s = v.strip()
        if s.startswith("["):
            try:
                return [str(x) for x in json.loads(s) if x is not None]
            except json.JSONDecodeError:
                pass
        return [v] if s else []
    return [str(x) for x in v if x is not None]


def is_error(v: Any) -> bool:
    if v is None:
        return False
    if isinstance(v, float):
        return not math.isnan(v)
    return bool(str(v).strip())
