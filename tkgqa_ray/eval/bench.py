"""Scoring throughput at MultiTQ test-split scale (54,584 questions, 10 predictions each).

``python -m tkgqa_ray.eval.bench`` prints wall and CPU seconds of :func:`compute_metrics`
(three protocols, Hits@1/10, all breakdowns, 1000 bootstrap resamples each). Synthetic
questions: a third time answers at month granularity, the rest two-entity answer sets.
"""

from __future__ import annotations

import random
import time

import pandas as pd

from tkgqa_ray.eval.metrics import compute_metrics
from tkgqa_ray.records import Gold

QTYPES = ("equal", "before_after", "first_last", "equal_multi", "after_first", "before_last")


def synthetic(n: int = 54584, seed: int = 0) -> tuple[pd.DataFrame, dict[str, Gold]]:
    rnd = random.Random(seed)
    golds: dict[str, Gold] = {}
    preds = []
    for i in range(n):
        qt = QTYPES[i % 6]
        if i % 3 == 0:
            ans: tuple[str, ...] = (f"{2005 + i % 11}-{1 + i % 12:02d}",)
            at = "time"
            top = f"{2005 + (i + rnd.randint(0, 1)) % 11}-{1 + i % 12:02d}-{1 + i % 28:02d}"
            p = [top] + [f"{2005 + j}" for j in range(9)]
        else:
            ans, at = (f"Entity {i % 500}", f"Entity {(i * 7) % 500}"), "entity"
            p = [f"Entity {(i + rnd.randint(0, 2)) % 500}"] + [f"Entity {j}" for j in range(9)]
        golds[str(i)] = Gold(str(i), ans, at, qt, "Single" if qt in QTYPES[:3] else "Multiple", "month")
        preds.append(p)
    rows = pd.DataFrame({"quid": list(golds), "predictions": preds, "error": [None] * n})
    return rows, golds


def main() -> None:
    rows, golds = synthetic()
    t, c = time.perf_counter(), time.process_time()
    res = compute_metrics(rows, golds)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    print(f"| questions | protocols | wall s | cpu s |\n| --- | --- | --- | --- |\n"
          f"| {len(rows):,} | {len(res.protocols)} | {wall:.2f} | {cpu:.2f} |")
    print(res.headline())


if __name__ == "__main__":
    main()
