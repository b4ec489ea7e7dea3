"""report.html: what the page embeds (hand-checked on the five-question runs of
test_eval_report), escaping of hostile text, the trace budget, the comparison page and the
template shipped as package data. The browser side is tests/test_report_browser.py."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from test_eval_report import GOLDS, PRED_A, PRED_B, make_run
from tkgqa_ray.eval import compare_runs, compute_metrics
from tkgqa_ray.eval.html_report import (
    REPORT_HTML, ROW_COLUMNS, _detail, TEMPLATES, cap_trace, render_run_html, run_payload, script_json, detail_budget,
)

HOSTILE = 'He said "hi" & left </script><script>window.__pwned = 1</script> <b>bold</b> \u2028 it\'s <!-- x'


def embedded(html: str) -> dict:
    """The JSON block of a page, read back as the browser's JSON.parse would."""
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


SVG = {"s": "http://www.w3.org/2000/svg"}


def chart_svg(html: str, title: str):
    """The chart ``<img alt=title>`` of a page, its SVG parsed."""
    import base64
    import xml.etree.ElementTree as ET

    m = re.search(rf'<img alt="{re.escape(title)}" src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert m, f"no chart {title!r}"
    return ET.fromstring(base64.b64decode(m.group(1)))


def rows_by_quid(payload: dict) -> dict[str, dict]:
    cols = payload["columns"]
    return {r[0]: dict(zip(cols, r)) for r in payload["rows"]}


def test_run_page_embeds_hand_checked_rows_and_breakdowns(tmp_path):
    d = make_run(tmp_path, "a", PRED_A, "symbolic", errors=("4",))
    html = (d / REPORT_HTML).read_text(encoding="utf-8")
    p = embedded(html)
    assert p["columns"] == list(ROW_COLUMNS) and p["protocol"] == "multitq_official"
    rows = rows_by_quid(p)
    assert list(rows) == ["1", "2", "3", "4", "5"]
    # official Hits@1: 1 Iran=Iran, 2 Spain!=France (France at rank 2), 3 "2010-01-02" cut to the
    # year "2010" = gold, 4 is an error row, 5 China=China
    assert {q: r["hit"] for q, r in rows.items()} == {"1": 1, "2": 0, "3": 1, "4": 0, "5": 1}
    assert {q: r["hit10"] for q, r in rows.items()} == {"1": 1, "2": 1, "3": 1, "4": 0, "5": 1}
    # per protocol, in payload order: scop_script does not cut dates, so q3 misses there
    order = p["protocols"]
    assert rows["3"]["hits"][order.index("scop_script")] == 0 and rows["3"]["hits"][order.index("lenient")] == 1
    assert {q: r["status"] for q, r in rows.items()} == {"1": "ok", "2": "ok", "3": "ok", "4": "error", "5": "ok"}
    assert rows["4"]["error"] == "answer: Timeout" and rows["4"]["pred"] == []
    assert rows["2"]["pred"] == ["Spain", "France"] and rows["2"]["gold"] == ["France"]
    assert {q: r["type"] for q, r in rows.items()} == {
        "1": "equal", "2": "equal", "3": "first_last", "4": "after_first", "5": "after_first"}
    assert rows["3"]["answer_type"] == "time" and rows["1"]["time_level"] == "month" and rows["4"]["qlabel"] == "Multiple"
    assert rows["1"]["prompt_tokens"] == 50 and rows["1"]["completion_tokens"] == 5
    assert rows["1"]["initial_evidence"] == 20 and rows["1"]["final_evidence"] == 1
    assert rows["1"]["trace"] == {"ev": ["Iran|Sign_formal_agreement|China|2010-01-02|2010-01-02"], "evn": 1}
    # counts and breakdowns (Hits@1, official): equal 1/2, first_last 1/1, after_first 1/2
    assert p["counts"]["n_questions"] == 5 and p["counts"]["n_errors"] == 1 and p["counts"]["n_ok"] == 4
    bt = p["breakdowns"]["qtype"]
    official = dict(zip(bt["groups"], (c[0] for c in bt["series"]["multitq_official"])))
    assert official == {"after_first": 0.5, "equal": 0.5, "first_last": 1.0}
    assert dict(zip(bt["groups"], bt["n"])) == {"after_first": 2, "equal": 2, "first_last": 1}
    gran = p["breakdowns"]["time_level"]
    assert dict(zip(gran["groups"], (c[0] for c in gran["series"]["multitq_official"]))) == {
        "day": pytest.approx(1 / 3), "month": 1.0, "year": 1.0}
    at = p["breakdowns"]["answer_type"]
    assert dict(zip(at["groups"], (c[0] for c in at["series"]["multitq_official"]))) == {"entity": 0.5, "time": 1.0}
    assert list(p["breakdowns"]) == ["qtype", "qlabel", "answer_type", "time_level"]
    head = next(o for o in p["overall"] if o["protocol"] == "multitq_official")
    assert head["hits@1"][0] == pytest.approx(3 / 5) and head["hits@10"][0] == pytest.approx(4 / 5)
    # one chart per breakdown, inline SVG, and nothing the page would fetch from elsewhere
    assert html.count('<img alt="Hits@1 by ') == 4
    assert html.count('src="data:image/svg+xml;base64,') == 4
    assert "http://" not in html and "https://" not in html
    assert "Hits@1 (multitq_official)" in html and "0.600" in html
    # the question-type chart draws those numbers: groups with their n, the primary protocol's
    # values on its bars, a bar per protocol and group, a legend entry per protocol
    svg = chart_svg(html, "Hits@1 by question type")
    ticks = [[s.text for s in t.iterfind("s:tspan", SVG)] for t in svg.iterfind(".//s:text[@class='xtick']", SVG)]
    assert ticks == [["after_first", "(n=2)"], ["equal", "(n=2)"], ["first_last", "(n=1)"]]
    assert [t.text for t in svg.iterfind(".//s:text[@class='value']", SVG)] == ["0.50", "0.50", "1.00"]
    assert len(svg.findall(".//s:rect[@class='bar']", SVG)) == 3 * len(p["protocols"])
    assert [g.find("s:text", SVG).text for g in svg.iterfind(".//s:g[@class='legend']", SVG)] == p["protocols"]


def test_hostile_text_is_escaped_everywhere(tmp_path):
    d = tmp_path / "run"
    d.mkdir()
    rows = pd.DataFrame({
        "quid": ["1", "2"],
        "question": [HOSTILE, "plain?"],
        "predictions": [["<img src=x onerror=alert(1)>"], ["France"]],
        "trace": [json.dumps({"triples_raw": [{"s": HOSTILE}]}), "{}"],
        "roles": [json.dumps([{"role": "answerer</td>", "ok": False, "error": "parse_failure: <x>", "raw": "junk"}]), "[]"],
        "error": [None, "stage: ValueError: bad <input> & \"quotes\""],
    })
    golds = {"1": GOLDS["1"], "2": GOLDS["2"]}
    cfg = {"method": {"name": "<scop & co>"}, "backbone": "symbolic"}
    res = compute_metrics(rows, golds, n_boot=10)
    html = render_run_html(rows, res, golds, cfg)
    assert "</script><script>window.__pwned" not in html
    assert "<img src=x" not in html and "<b>bold</b>" not in html and "<scop & co>" not in html
    assert "&lt;scop &amp; co&gt;" in html  # the title, autoescaped
    # exactly one data block and two scripts: the text cannot open or close one
    assert html.count("</script>") == 2
    r = rows_by_quid(embedded(html))
    assert r["1"]["question"] == HOSTILE and r["1"]["pred"] == ["<img src=x onerror=alert(1)>"]
    assert r["1"]["trace"]["t"] == {"triples_raw": [{"s": HOSTILE}]}
    assert r["1"]["trace"]["roles"][0][0] == "answerer</td>" and r["1"]["trace"]["roles"][0][-1] == "parse_failure: <x>"
    assert r["2"]["status"] == "error" and r["2"]["error"] == 'stage: ValueError: bad <input> & "quotes"'


def test_script_json_round_trips_and_never_closes_a_script():
    obj = {"a": HOSTILE, "b": ["</SCRIPT>", "<!--", "-->", "\u2029", None, 1.5]}
    s = script_json(obj)
    assert "<" not in s and ">" not in s and "&" not in s and "\u2028" not in s and "\u2029" not in s
    assert json.loads(s) == obj
    with pytest.raises(ValueError):
        script_json({"x": float("nan")})  # NaN is not JSON: the payload cleans numbers first


def test_trace_is_cut_to_its_budget_and_says_so():
    big = {"triples_raw": ["x" * 100_000], "steps": list(range(10_000)), "nested": {"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}}}
    for budget in (500, 2_000, 12_000):
        capped = cap_trace(big, budget)
        assert len(json.dumps(capped, ensure_ascii=False, separators=(",", ":"))) <= budget
    roomy = cap_trace(big, 12_000)
    assert roomy["triples_raw"][0].startswith("x" * 400) and roomy["triples_raw"][0].endswith("(+99600 chars)")
    assert roomy["steps"][:25] == list(range(25)) and roomy["steps"][25] == "… +9975 more"
    small = {"constraints": [{"op": "before", "t": "2010"}]}
    assert cap_trace(small, 500) == small  # small traces pass unchanged
    assert cap_trace({}, 500) is None
    # too big even when cut: the telling fields stay, bulky candidates go (with a note)
    scop = {"alignment_candidates": {f"c{i}": ["x" * 40] * 3 for i in range(50)},
            "triples_raw": {"anchors": [["Iran", "visit", "China"]]}, "constraints": [{"operator": "before"}],
            "evidence": {"anchor_facts": [["a|b|c|2010|2010"] * 3] * 3}}
    kept = cap_trace(scop, 200)
    assert kept == {"triples_raw": {"anchors": [["Iran", "visit", "China"]]}, "constraints": [{"operator": "before"}],
                    "…": "left out: 2 field(s)"}
    huge = {f"k{i}": "y" * 50 for i in range(200)}
    few = cap_trace(huge, 100)  # as many fields as fit, and how many did not
    assert few == {"k0": "y" * 40 + "… (+10 chars)", "…": "left out: 199 field(s)"}
    assert len(json.dumps(few, ensure_ascii=False, separators=(",", ":"))) <= 100
    assert cap_trace(["z" * 1000] * 100, 50) == "… (trace left out; see predictions.parquet)"
    # the per-row budget shrinks with the run: generous for small runs, >= 400 chars always
    assert detail_budget(10) == 16_000 and detail_budget(40_000) == 500
    assert detail_budget(54_584) == 400 and detail_budget(10**7) == 400


def test_row_detail_shows_fewer_facts_and_calls_as_the_budget_shrinks():
    row = {
        "evidence": [f"A{i}|rel|B{i}|2010-01-{i % 28 + 1:02d}|2010-01-{i % 28 + 1:02d}" for i in range(50)],
        "roles": json.dumps([{"role": f"r{i}", "ok": True, "attempts": 1, "prompt_tokens": 10, "completion_tokens": 2,
                              "latency_s": 0.5, "cached": False, "error": None, "raw": "x" * 5000} for i in range(40)]),
        "trace": json.dumps({"triples_raw": [["s", "r", "o"]] * 1000, "constraints": [{"op": "before"}]}),
    }
    roomy = _detail(row, 16_000)
    assert len(roomy["ev"]) == 20 and roomy["evn"] == 50 and roomy["ev"][0] == row["evidence"][0]
    assert len(roomy["roles"]) == 31 and roomy["roles"][-1][0] == "… +10 more calls"
    assert roomy["roles"][0] == ["r0", True, 1, 10, 2, 0.5, False, None]  # no raw model text
    assert roomy["t"]["constraints"] == [{"op": "before"}] and roomy["t"]["triples_raw"][25] == "… +975 more"
    tight = _detail(row, 400)
    assert len(tight["ev"]) == 2 and tight["evn"] == 50 and len(tight["roles"]) == 5
    assert len(json.dumps(tight["t"], ensure_ascii=False, separators=(",", ":"))) <= 200
    assert tight["t"]["constraints"] == [{"op": "before"}] and tight["t"]["triples_raw"][:3] == [["s", "r", "o"]] * 3
    small = {"evidence": ["a|b|c|2010|2010"], "trace": '{"answer":["Iran"]}', "roles": "[]"}
    assert _detail(small, 400) == {"ev": ["a|b|c|2010|2010"], "evn": 1, "t": {"answer": ["Iran"]}}
    assert _detail({"trace": "{}", "roles": None, "evidence": []}, 400) is None


def test_payload_of_a_run_with_missing_rows(tmp_path):
    rows = pd.DataFrame({"quid": ["1", "3"], "question": ["q1?", "q3?"], "predictions": [["Iran"], ["2011"]]})
    res = compute_metrics(rows, GOLDS, n_boot=10)
    p = run_payload(rows, res, GOLDS, {"method": "rag"})
    r = rows_by_quid(p)
    assert [q for q, x in r.items() if x["status"] == "missing"] == ["2", "4", "5"]
    assert r["2"]["question"] == "" and r["2"]["trace"] is None and r["2"]["gold"] == ["France"]
    assert sum(x["hit"] for x in r.values()) == 1 and p["counts"]["n_missing"] == 3


def test_comparison_page(tmp_path):
    a = make_run(tmp_path, "a", PRED_A, "symbolic")
    b = make_run(tmp_path, "b", PRED_B, "smollm2", errors=("5",), write_metrics=False)
    out = tmp_path / "cmp"
    compare_runs([a, b], out, n_boot=100)
    assert (b / REPORT_HTML).exists()  # rescored on demand: its own page too
    html = (out / REPORT_HTML).read_text(encoding="utf-8")
    p = embedded(html)
    runs = {t["backbone"]: t for t in p["runs"]}
    assert runs["symbolic"]["cells"]["multitq_official hits@1"][0] == pytest.approx(0.6)
    assert runs["smollm2"]["cells"]["multitq_official hits@1"][0] == pytest.approx(0.4)
    assert runs["symbolic"]["link"] == "../a/report.html" and runs["smollm2"]["n"] == 5
    assert p["by_type"]["breakdown"] == "qtype" and p["by_type"]["groups"] == ["after_first", "equal", "first_last"]
    # B: 4 India (miss), 5 error -> after_first 0; 1 right, 2 right -> equal 1.0; 3 "2011" -> 0
    by = {t["run"]: row["cells"] for t, row in zip(p["runs"], p["by_type"]["rows"])}
    assert [c[0] for c in by["b"]] == [0.0, 1.0, 0.0] and [c[0] for c in by["a"]] == [0.5, 0.5, 1.0]
    assert html.count('src="data:image/svg+xml;base64,') == 2
    assert 'href="../a/report.html"' in html and "http://" not in html and "https://" not in html


def test_templates_are_package_data():
    import tomllib
    from pathlib import Path

    for name in ("report.html.j2", "comparison.html.j2", "_style.css"):
        assert (TEMPLATES / name).is_file(), name
    setup = (Path(__file__).resolve().parents[1] / "setup.py").read_text()
    assert '"tkgqa_ray.eval": ["templates/*.j2", "templates/*.css"]' in setup
    deps = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.startswith("jinja2") for d in deps)
