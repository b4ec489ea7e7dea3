"""PoK's time-aware re-ranking (paper Eq. 6-7): score = μ·cos + (1−μ)·φ_t, μ = 0.2.

φ_t for ``before``: 1 − |t_q − t| / max(t_q − t) over the candidates with t < t_q, and −100
otherwise (mirror for ``after``); facts nearest the boundary score highest. ``in`` (an explicit
period, our extension) scores 1 inside the period and −100 outside. Facts scored −100 are
outside the valid range and are dropped, as the paper's time filter does.
"""

from __future__ import annotations

import numpy as np

MU = 0.2
INVALID = -100.0


def time_scores(t: np.ndarray, op: str, t_q: tuple[int, int]) -> np.ndarray:
    """φ_t per candidate day ``t`` for boundary span ``t_q = (lo, hi)``."""
    t = np.asarray(t, dtype=np.float64)
    lo, hi = float(t_q[0]), float(t_q[1])
    out = np.full(t.shape, INVALID)
    if op == "before":
        ok = t < lo
        if ok.any():
            gap = lo - t[ok]
            out[ok] = 1.0 - gap / gap.max() if gap.max() > 0 else 1.0
    elif op == "after":
        ok = t > hi
        if ok.any():
            gap = t[ok] - hi
            out[ok] = 1.0 - gap / gap.max() if gap.max() > 0 else 1.0
    elif op in ("in", "same"):
        out[(t >= lo) & (t <= hi)] = 1.0
    else:
        raise ValueError(f"unknown time operator {op!r}")
    return out


def rerank(cos: np.ndarray, t: np.ndarray, op: str | None, t_q: tuple[int, int] | None,
           mu: float = MU, k: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """(positions of the top-k candidates, their scores), best first; stable on ties.

    Without a time constraint the score is the cosine alone.
    """
    cos = np.asarray(cos, dtype=np.float64)
    if op is None or t_q is None:
        score = cos
    else:
        ts = time_scores(t, op, t_q)
        score = mu * cos + (1.0 - mu) * ts
        valid = ts > INVALID / 2
        idx = np.nonzero(valid)[0]
        order = idx[np.argsort(-score[idx], kind="stable")][:k]
        return order, score[order]
    order = np.argsort(-score, kind="stable")[:k]
    return order, score[order]
