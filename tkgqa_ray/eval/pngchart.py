"""The PNG charts of the score files (``hits1_by_type.png``, the comparison's
``hits1_by_type_by_backbone.png``): grouped Hits@1 bars with bootstrap error bars, matplotlib.

Drawn on a bare ``Figure`` with the Agg canvas (no pyplot: no global figure registry, nothing
to close, safe beside other threads), with the axes placed from the labels' estimated size
instead of ``tight_layout`` (a second layout pass over every text, a third of a chart's time).
The same bars, as SVG for report.html, come from :mod:`.barchart`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from .barchart import CHAR_W, PALETTE, cut_label, finite_or_none

TICK_PT = 10.0  # matplotlib's default font size (tick labels, axis label)
TITLE_PT = 9.0
LEGEND_PT = 8.0


def _finite(x: Any) -> float:
    v = finite_or_none(x)
    return math.nan if v is None else v


def grouped_bars_png(
    path: str | Path,
    groups: Sequence[str],
    series: Mapping[str, Sequence[Sequence[Any]]],
    title: str,
    ylabel: str = "Hits@1",
    legend_title: str | None = None,
    dpi: int = 120,
) -> Path:
    """One panel: see :func:`panels_png`."""
    return panels_png(path, [(title, groups, series, legend_title)], ylabel=ylabel, dpi=dpi)


def panels_png(
    path: str | Path,
    panels: Sequence[tuple[str, Sequence[str], Mapping[str, Sequence[Sequence[Any]]], str | None]],
    ylabel: str = "Hits@1",
    dpi: int = 120,
) -> Path:
    """Panels stacked vertically, each ``(title, groups, series, legend_title)``: one bar per
    (group, series) on a 0..1 axis with an error bar of ± stderr; ``series`` maps a name to
    one ``(value, stderr)`` per group (None/NaN: no bar, no error bar)."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    n_max = max((len(g) for _, g, _, _ in panels), default=1)
    plot_w, plot_h = max(4.0, min(12.0, 1.1 * n_max)), 2.4  # inches
    left, right = 0.75, 0.25
    width = left + plot_w + right
    blocks = []  # (title height, label height) per panel, inches
    for title, groups, _, _ in panels:
        lines = str(title).count("\n") + 1
        longest = max((len(cut_label(g)) for g in groups), default=1)
        rotated = longest * CHAR_W * TICK_PT * 0.5 + TICK_PT * 0.87  # turned 30 degrees, points
        blocks.append((lines * TITLE_PT * 1.3 / 72 + 0.15, (rotated + 10) / 72 + 0.1))
    height = sum(t + plot_h + b for t, b in blocks)
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    y_top = height
    for (title, groups, series, legend_title), (t_h, b_h) in zip(panels, blocks):
        ax = fig.add_axes((left / width, (y_top - t_h - plot_h) / height, plot_w / width, plot_h / height))
        y_top -= t_h + plot_h + b_h
        x = np.arange(len(groups))
        k = max(1, len(series))
        w = 0.8 / k
        for j, (name, cells) in enumerate(series.items()):
            vals = np.array([_finite(c[0]) for c in cells], dtype=float)
            errs = np.nan_to_num(np.array([_finite(c[1]) for c in cells], dtype=float))
            ax.bar(x + (j - (k - 1) / 2) * w, vals, w, yerr=errs, capsize=2, label=cut_label(name),
                   color=PALETTE[j % len(PALETTE)])
        ax.set_xticks(x, [cut_label(g) for g in groups], rotation=30, ha="right")
        ax.set_xlim(-0.5, len(groups) - 0.5)
        ax.set_ylim(0, 1)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=TITLE_PT)
        if series:
            ax.legend(fontsize=LEGEND_PT, title=legend_title, title_fontsize=LEGEND_PT)
    p = Path(path)
    fig.savefig(p, dpi=dpi)
    return p


__all__ = ["grouped_bars_png", "panels_png"]
