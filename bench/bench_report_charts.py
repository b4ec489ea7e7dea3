"""The run report's charts: what one run's report costs, and the SVG writer against matplotlib.

    python bench/bench_report_charts.py RUN_DIR [--repeat 3]

RUN_DIR is a finished run (predictions.parquet + gold.parquet), e.g. from
``tkgqa-ray run run.limit=50 run.output_dir=/tmp/x``. Prints CPU seconds (``process_time``, steadier
than wall time on a shared box) of: writing the whole report (``write_run_report``), the page's
charts drawn by :mod:`tkgqa_ray.eval.barchart`, the same charts drawn by matplotlib as the page
drew them before (the baseline: figure, bars with error bars and value labels, ``tight_layout``,
SVG with text as text), and the one PNG (``hits1_by_type.png``). The first report in a process
also pays matplotlib's import (for the PNG); it is timed separately.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path


def matplotlib_svg(groups, series, title, ns):
    """The previous chart of report.html (html_report.svg_bar_chart before the SVG writer)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    import numpy as np

    labels = [f"{g}\n(n={n})" for g, n in zip(groups, ns)]
    width_in = min(14.0, max(4.5, 0.55 * len(groups) * max(1, len(series)) ** 0.5 + 2.5))
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "tkgqa-ray", "font.size": 9}):
        fig, ax = plt.subplots(figsize=(width_in, 3.6))
        x = np.arange(len(groups))
        k = max(1, len(series))
        w = 0.8 / k
        for j, (name, cells) in enumerate(series.items()):
            vals = np.array([np.nan if c[0] is None else c[0] for c in cells], dtype=float)
            errs = np.array([0.0 if c[1] is None else c[1] for c in cells], dtype=float)
            bars = ax.bar(x + (j - (k - 1) / 2) * w, np.nan_to_num(vals), w, yerr=errs, capsize=2, label=str(name))
            if j == 0 and len(groups) <= 24:
                for b, v in zip(bars, vals):
                    if np.isfinite(v):
                        inside = v >= 0.2
                        ax.text(b.get_x() + b.get_width() / 2, v - 0.03 if inside else v + 0.03, f"{v:.2f}",
                                ha="center", va="top" if inside else "bottom", fontsize=7,
                                color="white" if inside else "black", rotation=90 if k > 1 else 0)
        ax.set_xticks(x, labels, rotation=30 if len(groups) > 4 else 0, ha="right" if len(groups) > 4 else "center")
        ax.set_ylim(0, 1.12)
        ax.set_ylabel("Hits@1")
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(title, fontsize=10, pad=22 if k > 1 else 6)
        if k > 1:
            ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=k, frameon=False)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
    return buf.getvalue()


def cpu(f, *a, repeat=1, **k):
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        f(*a, **k)
        best = min(best, time.process_time() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--repeat", type=int, default=3, help="best of this many (after the first)")
    a = ap.parse_args()

    import pyarrow.parquet as pq

    from tkgqa_ray.eval import load_gold, write_run_report
    from tkgqa_ray.eval.barchart import grouped_bars_svg
    from tkgqa_ray.eval.html_report import BREAKDOWN_TITLES, breakdown_table, run_breakdowns
    from tkgqa_ray.eval.metrics import compute_metrics
    from tkgqa_ray.eval.report import plot_hits1_by_type

    rows = pq.read_table(a.run_dir / "predictions.parquet")
    golds = load_gold(a.run_dir)
    with tempfile.TemporaryDirectory() as tmp:
        first = cpu(write_run_report, tmp, rows, golds, {})
        report = cpu(write_run_report, tmp, rows, golds, {}, repeat=a.repeat)
        res = compute_metrics(rows, golds, n_boot=1000)
        tables = [(f"Hits@1 by {BREAKDOWN_TITLES.get(bd, bd)}", breakdown_table(res, bd)) for bd in run_breakdowns(res)]

        def charts(draw):
            for title, t in tables:
                draw(t["groups"], t["series"], title, ns=t["n"])

        ours = cpu(charts, lambda g, s, title, ns: grouped_bars_svg(g, s, title, ns=ns), repeat=a.repeat)
        charts(matplotlib_svg)  # warm
        base = cpu(charts, matplotlib_svg, repeat=a.repeat)
        png = cpu(plot_hits1_by_type, res, Path(tmp) / "x.png", repeat=a.repeat)
    print(f"run dir {a.run_dir}: {rows.num_rows} questions, {len(tables)} page charts; CPU seconds, best of {a.repeat}")
    print(f"write_run_report: first in the process {first:.3f} s (with matplotlib's import), then {report:.3f} s")
    print(f"page charts: SVG writer {ours * 1000:.1f} ms, matplotlib SVG (baseline) {base * 1000:.0f} ms, "
          f"ratio {base / max(ours, 1e-9):.0f}x")
    print(f"hits1_by_type.png (matplotlib): {png * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
