"""Grouped bar charts with error bars, written directly as SVG text (the charts of report.html).

Why not matplotlib here (the project's default for plots): a run report draws four or five of
these and matplotlib spent 0.3-0.7 s of CPU on each (figure and text layout, ``tight_layout``,
SVG serialisation) plus 1.5 s to import in a fresh process -- most of the time of writing a run
report, paid by every pipeline run (docs/testing.md). The charts are simple (bars on a fixed
0..1 axis, error bars, a legend, labels), so this writer draws them in about a millisecond,
byte-for-byte deterministic, with its geometry checked in ``tests/test_eval_barchart.py``. The
file charts (``hits1_by_type.png``, the comparison's PNG) stay matplotlib.

Text widths are estimated (``CHAR_W`` em per character, a little wider than DejaVu Sans'
average) to size the margins; labels longer than ``MAX_LABEL`` characters are cut with "…"
(the page's tables next to the charts carry the full names).
"""

from __future__ import annotations

import base64
import math
import re
from typing import Any, Mapping, Sequence

# matplotlib's tab10, so the charts look as before and series keep their colours
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
FONT = "DejaVu Sans, Bitstream Vera Sans, Arial, Helvetica, sans-serif"
FS = 12  # tick labels, axis label (px)
FS_TITLE = 13
FS_LEGEND = 10
FS_VALUE = 9
CHAR_W = 0.62  # estimated advance per character, in em
LINE_H = 1.25  # line height, in em
MAX_LABEL = 40
PLOT_H = 240.0
YTICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
ROTATE_ABOVE = 4  # more groups than this: x labels turned 30 degrees
VALUE_LABELS_UP_TO = 24  # groups; the first series' values are printed on its bars
INSIDE_FROM = 0.2  # values at least this get their label inside the bar's top
_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(s: Any) -> str:
    s = _BAD_XML.sub("", str(s))
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def cut_label(s: str, n: int = MAX_LABEL) -> str:
    """``s`` cut to ``n`` characters, the last one an ellipsis."""
    return s if len(s) <= n else s[: n - 1] + "…"


def finite_or_none(x: Any) -> float | None:
    """A finite float, or None (missing, NaN, inf)."""
    if x is None:
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _f(x: float) -> str:
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def text_width(s: str, size: float) -> float:
    """Estimated width in px of one line of ``s`` at font ``size``."""
    return len(s) * CHAR_W * size


def grouped_bars_svg(
    groups: Sequence[str],
    series: Mapping[str, Sequence[Sequence[Any]]],
    title: str,
    ylabel: str = "Hits@1",
    ns: Sequence[int] | None = None,
    ymax: float = 1.12,
) -> str:
    """One bar per (group, series) with its value on a 0..``ymax`` axis and an error bar of
    ± stderr; ``series`` maps a name to one ``(value, stderr)`` per group, ``None`` (or NaN)
    for a missing value (no bar) or stderr (no error bar). ``ns`` adds "(n=…)" under each
    group's label. The first series' values are printed on its bars (up to 24 groups); with
    more than one series a legend sits between the title and the plot."""
    groups = [str(g) for g in groups]
    names = [str(n) for n in series]
    cells = [list(series[n]) for n in series]
    for name, cs in zip(names, cells):
        if len(cs) != len(groups):
            raise ValueError(f"series {name!r} has {len(cs)} cells for {len(groups)} groups")
    if ns is not None and len(ns) != len(groups):
        raise ValueError(f"{len(ns)} counts for {len(groups)} groups")
    n_g, k = max(1, len(groups)), max(1, len(names))
    rotate = len(groups) > ROTATE_ABOVE

    # --- layout: plot width from the number of bars; margins from the text around it
    plot_w = min(1100.0, max(300.0, 50.0 * n_g * math.sqrt(k) + 60.0))
    slot = plot_w / n_g
    labels = [[cut_label(g)] for g in groups]
    if ns is not None:
        labels = [lines + [f"(n={int(n)})"] for lines, n in zip(labels, ns)]
    lh = LINE_H * FS
    label_w = [max(text_width(s, FS) for s in lines) for lines in labels] or [0.0]
    n_lines = 2 if ns is not None else 1
    if rotate:  # right end at the tick, turned 30 degrees: reaches down and to the left
        sin, cos = 0.5, math.sqrt(3) / 2
        below = max(w * sin + n_lines * lh * cos for w in label_w) + 10
        left_need = max(w * cos - (i + 0.5) * slot for i, w in enumerate(label_w))
        right_need = 0.0
    else:
        below = n_lines * lh + 10
        left_need = max(w / 2 - (i + 0.5) * slot for i, w in enumerate(label_w))
        right_need = max(w / 2 - (n_g - i - 0.5) * slot for i, w in enumerate(label_w))
    left = max(58.0, left_need + 8)
    right = max(14.0, right_need + 6)
    width = left + plot_w + right

    title_lines = [cut_label(t, 120) for t in str(title).split("\n")]
    top = 10 + len(title_lines) * LINE_H * FS_TITLE
    legend_rows: list[list[tuple[int, str, float]]] = []
    if k > 1:  # items left to right, wrapped to the plot's width, rows centred
        row: list[tuple[int, str, float]] = []
        used = 0.0
        for j, name in enumerate(names):
            label = cut_label(name)
            w = 14 + text_width(label, FS_LEGEND) + 16
            if row and used + w > width - 20:
                legend_rows.append(row)
                row, used = [], 0.0
            row.append((j, label, w))
            used += w
        legend_rows.append(row)
        top += 4 + len(legend_rows) * LINE_H * FS_LEGEND + 4
    top += 10  # room for the value labels above short bars
    height = top + PLOT_H + below
    x0, y0 = left, top + PLOT_H  # plot's bottom-left corner

    def ypx(v: float) -> float:
        return y0 - max(0.0, min(ymax, v)) / ymax * PLOT_H

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}" font-size="{FS}">',
        f"<title>{_esc(' '.join(title_lines))}</title>",
        f'<rect width="{_f(width)}" height="{_f(height)}" fill="#fff"/>',
    ]
    # title
    for i, line in enumerate(title_lines):
        out.append(f'<text class="title" x="{_f(width / 2)}" y="{_f(10 + (i + 0.8) * LINE_H * FS_TITLE)}" '
                   f'text-anchor="middle" font-size="{FS_TITLE}">{_esc(line)}</text>')
    # legend
    ly = 10 + len(title_lines) * LINE_H * FS_TITLE + 4
    for row in legend_rows:
        x = (width - sum(w for _, _, w in row)) / 2
        for j, label, w in row:
            out.append(f'<g class="legend"><rect x="{_f(x)}" y="{_f(ly + 2)}" width="10" height="10" '
                       f'fill="{PALETTE[j % len(PALETTE)]}"/><text x="{_f(x + 14)}" y="{_f(ly + 11)}" '
                       f'font-size="{FS_LEGEND}">{_esc(label)}</text></g>')
            x += w
        ly += LINE_H * FS_LEGEND
    # y axis: grid, ticks, label
    for t in YTICKS:
        y = ypx(t)
        out.append(f'<line x1="{_f(x0)}" y1="{_f(y)}" x2="{_f(x0 + plot_w)}" y2="{_f(y)}" stroke="#ddd"/>')
        out.append(f'<text class="ytick" x="{_f(x0 - 6)}" y="{_f(y + FS * 0.35)}" text-anchor="end">{t:.1f}</text>')
    yl_x, yl_y = _f(x0 - 44), _f(y0 - PLOT_H / 2)
    out.append(f'<text class="ylabel" transform="rotate(-90 {yl_x} {yl_y})" x="{yl_x}" y="{yl_y}" '
               f'text-anchor="middle" dominant-baseline="central">{_esc(ylabel)}</text>')
    # bars, error bars, value labels
    bw = slot * 0.8 / k
    for j, cs in enumerate(cells):
        colour = PALETTE[j % len(PALETTE)]
        for i, c in enumerate(cs):
            v = finite_or_none(c[0]) if len(c) > 0 else None
            e = finite_or_none(c[1]) if len(c) > 1 else None
            if v is None:
                continue
            cx = x0 + (i + 0.5) * slot + (j - (k - 1) / 2) * bw
            yt = ypx(v)
            h = round(y0, 1) - round(yt, 1)  # so that every bar's bottom is exactly the axis
            out.append(f'<rect class="bar" data-series="{j}" x="{_f(cx - bw / 2)}" y="{_f(yt)}" '
                       f'width="{_f(bw)}" height="{_f(h)}" fill="{colour}"/>')
            if e is not None and e > 0:
                ya, yb = ypx(v + e), ypx(v - e)
                cap = min(3.0, bw / 3)
                out.append(f'<path class="err" d="M{_f(cx)} {_f(ya)}V{_f(yb)}M{_f(cx - cap)} {_f(ya)}H{_f(cx + cap)}'
                           f'M{_f(cx - cap)} {_f(yb)}H{_f(cx + cap)}" stroke="#222" fill="none"/>')
            if j == 0 and len(groups) <= VALUE_LABELS_UP_TO:
                lo, hi = (ypx(v - e), ypx(v + e)) if e else (yt, yt)
                out.append(_value_label(cx, yt, v, k > 1, lo, hi, y0))
    # x axis: frame, ticks and group labels
    out.append(f'<rect x="{_f(x0)}" y="{_f(y0 - PLOT_H)}" width="{_f(plot_w)}" height="{_f(PLOT_H)}" '
               f'fill="none" stroke="#333"/>')
    for i, lines in enumerate(labels):
        cx = x0 + (i + 0.5) * slot
        out.append(f'<line x1="{_f(cx)}" y1="{_f(y0)}" x2="{_f(cx)}" y2="{_f(y0 + 4)}" stroke="#333"/>')
        ty = y0 + 6 + FS
        spans = "".join(f'<tspan x="{_f(cx)}" dy="{dy}">{_esc(s)}</tspan>'
                        for dy, s in zip(("0", f"{LINE_H}em"), lines))
        if rotate:
            out.append(f'<text class="xtick" transform="rotate(-30 {_f(cx)} {_f(y0 + 6)})" x="{_f(cx)}" y="{_f(ty)}" '
                       f'text-anchor="end">{spans}</text>')
        else:
            out.append(f'<text class="xtick" x="{_f(cx)}" y="{_f(ty)}" text-anchor="middle">{spans}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _value_label(cx: float, yt: float, v: float, turned: bool, err_lo: float, err_hi: float, y0: float) -> str:
    """The value on its bar: inside the bar in white (below the error bar's lower cap when the
    bar has room for it, else at the top), or above the error bar in black when the bar is
    short; turned to read upwards when bars are narrow (more than one series)."""
    text = f"{v:.2f}"
    inside = v >= INSIDE_FROM
    extent = text_width(text, FS_VALUE) if turned else FS_VALUE
    if inside:
        y = err_lo + 3 if y0 - err_lo > extent + 8 else yt + 3
    else:
        y = min(yt, err_hi) - 3
    colour, anchor = ("#fff", "end") if inside else ("#000", "start")
    if turned:  # reads bottom to top; anchored at y, going down (inside) or up (above)
        return (f'<text class="value" transform="rotate(-90 {_f(cx)} {_f(y)})" x="{_f(cx)}" y="{_f(y)}" '
                f'text-anchor="{anchor}" dominant-baseline="central" font-size="{FS_VALUE}" '
                f'fill="{colour}">{text}</text>')
    if inside:
        y += FS_VALUE * 0.8  # baseline below the top
    return (f'<text class="value" x="{_f(cx)}" y="{_f(y)}" text-anchor="middle" font-size="{FS_VALUE}" '
            f'fill="{colour}">{text}</text>')


def svg_data_uri(svg: str) -> str:
    """An ``<img src>`` for the SVG: inside an image it can run no script and fetch nothing."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


__all__ = ["PALETTE", "cut_label", "finite_or_none", "grouped_bars_svg", "svg_data_uri", "text_width"]
