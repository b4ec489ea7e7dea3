"""The report's charts: the SVG writer's geometry (bars, error bars, axis, labels, legend)
checked against hand-computed values, escaping of hostile labels, and the PNG writer's bars."""

from __future__ import annotations

import base64
import math
import re
import xml.etree.ElementTree as ET

import pytest

from tkgqa_ray.eval.barchart import CHAR_W, FS, LINE_H, PALETTE, grouped_bars_svg, svg_data_uri

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def bars(root):
    return [(int(r.get("data-series")), float(r.get("x")), float(r.get("y")), float(r.get("width")),
             float(r.get("height")), r.get("fill")) for r in root.iterfind(".//s:rect[@class='bar']", NS)]


def texts(root, cls):
    return ["".join(t.itertext()) for t in root.iterfind(f".//s:text[@class='{cls}']", NS)]


# p: a=0.5±0.1, b=0.25 (no stderr), c missing;  q: a=1.0±0, b=0.0±0.05, c=0.75±0.125
GROUPS = ["a", "b", "c"]
SERIES = {"p": [(0.5, 0.1), (0.25, None), (None, 0.2)], "q": [(1.0, 0.0), (0.0, 0.05), (0.75, 0.125)]}


def test_bars_error_bars_and_axis_are_where_the_values_say():
    root = parse(grouped_bars_svg(GROUPS, SERIES, "Hits@1 by x", ns=[2, 3, 4]))
    b = bars(root)
    # one bar per present value, in series order then group order; p's missing c has none
    assert [(s, round(h, 1) > 0) for s, _, _, _, h, _ in b] == [(0, True), (0, True), (1, True), (1, False), (1, True)]
    base = {round(y + h, 1) for _, _, y, _, h, _ in b}
    assert len(base) == 1  # one baseline
    y0 = base.pop()
    scale = b[2][4] / 1.0  # q/a is 1.0: px per unit
    want = [0.5, 0.25, 1.0, 0.0, 0.75]
    assert [h for *_, h, _ in b] == pytest.approx([v * scale for v in want], abs=0.11)
    # grid lines at 0, 0.2, ..., 1.0 on the same scale
    grid = sorted(float(ln.get("y1")) for ln in root.iterfind(".//s:line[@stroke='#ddd']", NS))
    assert grid == pytest.approx(sorted(y0 - t * scale for t in (0, 0.2, 0.4, 0.6, 0.8, 1.0)), abs=0.11)
    assert texts(root, "ytick") == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
    # colours: series j in tab10 colour j
    assert {(s, f) for s, *_, f in b} == {(0, PALETTE[0]), (1, PALETTE[1])}
    # within a group p sits left of q; groups left to right; widths equal
    centres = {(s, i): x + w / 2 for (s, x, _, w, _, _), i in zip(b, (0, 1, 0, 1, 2))}
    assert centres[(0, 0)] < centres[(1, 0)] < centres[(0, 1)] < centres[(1, 1)] < centres[(1, 2)]
    assert len({round(w, 1) for _, _, _, w, _, _ in b}) == 1
    bw = b[0][3]
    # a group's bars touch and are centred on its tick; the axis runs to 1.12 (room for labels)
    ticks = [float(ln.get("x1")) for ln in root.iterfind(".//s:line[@stroke='#333']", NS)]
    assert centres[(1, 0)] - centres[(0, 0)] == pytest.approx(bw, abs=0.11)
    assert [(centres[(0, i)] + centres[(1, i)]) / 2 for i in (0, 1)] == pytest.approx(ticks[:2], abs=0.11)
    assert ticks[2] - ticks[1] == pytest.approx(ticks[1] - ticks[0]) and ticks[1] - ticks[0] == pytest.approx(2.5 * bw)
    frame = root.find(".//s:rect[@fill='none']", NS)
    assert float(frame.get("y")) + float(frame.get("height")) == pytest.approx(y0, abs=0.11)
    assert float(frame.get("height")) == pytest.approx(1.12 * scale, abs=0.2)
    # error bars: p/a ±0.1, q/b +0.05 (clamped at 0 below), q/c ±0.125; none for stderr 0/None
    errs = []
    for pth in root.iterfind(".//s:path[@class='err']", NS):
        m = re.match(r"M([\d.]+) ([\d.]+)V([\d.]+)", pth.get("d"))
        errs.append(tuple(map(float, m.groups())))
    want_err = [(centres[(0, 0)], 0.6, 0.4), (centres[(1, 1)], 0.05, 0.0), (centres[(1, 2)], 0.875, 0.625)]
    assert len(errs) == 3
    for (cx, top, bot), (wcx, wtop, wbot) in zip(errs, want_err):
        assert cx == pytest.approx(wcx, abs=0.11)
        assert top == pytest.approx(y0 - wtop * scale, abs=0.11) and bot == pytest.approx(y0 - wbot * scale, abs=0.11)
    # the first series' values on its bars, centred on them
    vals = list(root.iterfind(".//s:text[@class='value']", NS))
    assert ["".join(t.itertext()) for t in vals] == ["0.50", "0.25"]
    assert [float(t.get("x")) for t in vals] == pytest.approx([centres[(0, 0)], centres[(0, 1)]], abs=0.11)
    # group labels with their n; legend in series order with the bars' colours; the title
    ticks = [[s.text for s in t.iterfind("s:tspan", NS)] for t in root.iterfind(".//s:text[@class='xtick']", NS)]
    assert ticks == [["a", "(n=2)"], ["b", "(n=3)"], ["c", "(n=4)"]]
    legend = [(g.find("s:rect", NS).get("fill"), g.find("s:text", NS).text)
              for g in root.iterfind(".//s:g[@class='legend']", NS)]
    assert legend == [(PALETTE[0], "p"), (PALETTE[1], "q")]
    assert texts(root, "title") == ["Hits@1 by x"] and texts(root, "ylabel") == ["Hits@1"]


def test_one_series_has_no_legend_and_short_bars_get_their_value_above():
    root = parse(grouped_bars_svg(["x", "y"], {"only": [(0.9, 0.05), (0.1, 0.05)]}, "t"))
    assert root.find(".//s:g[@class='legend']", NS) is None
    (_, _, y_hi, _, _, _), (_, _, y_lo, _, _, _) = bars(root)
    v_hi, v_lo = root.iterfind(".//s:text[@class='value']", NS)
    assert v_hi.get("fill") == "#fff" and float(v_hi.get("y")) > y_hi  # inside the tall bar
    assert v_lo.get("fill") == "#000" and float(v_lo.get("y")) < y_lo  # above the short one
    assert ticks_of(root) == [["x"], ["y"]]  # no counts given: no "(n=...)" line


def ticks_of(root):
    return [[s.text for s in t.iterfind("s:tspan", NS)] for t in root.iterfind(".//s:text[@class='xtick']", NS)]


def test_many_groups_turn_labels_and_drop_value_labels_and_text_stays_on_the_canvas():
    groups = [f"group number {i} with a long name" for i in range(30)]
    root = parse(grouped_bars_svg(groups, {"a": [(i / 30, 0.01) for i in range(30)], "b": [(0.5, 0.1)] * 30},
                                  "many", ns=list(range(30))))
    assert len(bars(root)) == 60 and root.find(".//s:text[@class='value']", NS) is None
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    for t in root.iterfind(".//s:text[@class='xtick']", NS):
        assert t.get("transform").startswith("rotate(-30 ") and t.get("text-anchor") == "end"
        cx, cy = map(float, t.get("transform")[len("rotate(-30 "):-1].split())
        w = max(len(s.text) for s in t.iterfind("s:tspan", NS)) * CHAR_W * FS
        h = float(t.get("y")) - cy + LINE_H * FS + 0.25 * FS  # first baseline, one more line, descent
        # the block's far corner (-w, h) from the centre, turned 30 degrees counter-clockwise
        a = math.radians(-30)
        corner = (cx - w * math.cos(a) - h * math.sin(a), cy - w * math.sin(a) + h * math.cos(a))
        assert corner[0] >= 0 and corner[1] <= height, (corner, width, height)
    for t in root.iter("{http://www.w3.org/2000/svg}text"):
        assert 0 <= float(t.get("x")) <= width and 0 <= float(t.get("y")) <= height


def test_hostile_labels_stay_text():
    evil = '<script>alert(1)</script> & "x"\x00\x1b'
    svg = grouped_bars_svg([evil, "ok"], {"</svg><b>": [(0.5, None), (float("nan"), float("inf"))], "q": [(1, 0)] * 2},
                           f"title {evil}", ylabel="<y>")
    assert "<script" not in svg and "</svg><b>" not in svg
    root = parse(svg)  # still well-formed XML (control characters dropped)
    assert ticks_of(root)[0] == ['<script>alert(1)</script> & "x"']
    assert [g.find("s:text", NS).text for g in root.iterfind(".//s:g[@class='legend']", NS)] == ["</svg><b>", "q"]
    assert texts(root, "ylabel") == ["<y>"]
    assert len(bars(root)) == 3  # NaN is a missing value: no bar


def test_bad_shapes_raise_and_output_is_deterministic():
    with pytest.raises(ValueError, match="2 cells for 3 groups"):
        grouped_bars_svg(["a", "b", "c"], {"p": [(1, 0), (1, 0)]}, "t")
    with pytest.raises(ValueError, match="1 counts for 2 groups"):
        grouped_bars_svg(["a", "b"], {"p": [(1, 0), (1, 0)]}, "t", ns=[1])
    a = grouped_bars_svg(GROUPS, SERIES, "t", ns=[1, 2, 3])
    assert a == grouped_bars_svg(GROUPS, SERIES, "t", ns=[1, 2, 3])
    uri = svg_data_uri(a)
    assert uri.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]).decode("utf-8") == a


def test_png_bars_have_the_values_height(tmp_path):
    import matplotlib.image as mpimg
    import numpy as np

    from tkgqa_ray.eval.pngchart import grouped_bars_png, panels_png

    blue = np.array([int(PALETTE[0][i:i + 2], 16) / 255 for i in (1, 3, 5)])

    def bar_px(path):  # the longest unbroken run of the bars' blue in a pixel column (not the legend's swatch)
        col = np.abs(mpimg.imread(path)[..., :3] - blue).max(axis=-1) < 0.02
        best = 0
        for c in col.T[col.sum(axis=0) > 0]:
            edges = np.flatnonzero(np.diff(np.concatenate(([0], c.astype(np.int8), [0]))))
            best = max(best, int((edges[1::2] - edges[::2]).max()))
        return best

    half = grouped_bars_png(tmp_path / "half.png", ["a"], {"p": [(0.5, None)]}, "t")
    quarter = grouped_bars_png(tmp_path / "quarter.png", ["a"], {"p": [(0.25, None)]}, "t")
    assert half.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert bar_px(half) > 100  # 0.5 of a 2.4 in axis at 120 dpi: ~144 px
    assert bar_px(quarter) / bar_px(half) == pytest.approx(0.5, abs=0.02)
    two = panels_png(tmp_path / "two.png", [("one", ["a"], {"p": [(1.0, None)]}, None),
                                            ("two", ["a", "b"], {"p": [(1.0, None), (None, None)]}, "legend")])
    assert mpimg.imread(two).shape[0] > mpimg.imread(half).shape[0] * 1.8  # stacked panels
