"""Hand-written question sets: logical forms in KG names -> oracle gold, errors naming
file:line, the `generate --specs` CLI path, and the packaged sets resolving on the real KG."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tkgqa_ray.data.handwritten import SpecError, answer_specs, packaged_sets, read_specs
from tkgqa_ray.data.loaders import load_dataset
from tkgqa_ray.data.synth import write_kg
from tkgqa_ray.kg import FactTable

HAND = [
    ("China", "Make_a_visit", "Iraq", "2010-01-05"),
    ("China", "Make_a_visit", "Iran", "2010-02-10"),
    ("China", "Make_a_visit", "Japan", "2010-02-20"),
    ("Police_(Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Citizen_(Kenya)", "2010-02-11"),
    ("Police_(Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Citizen_(Kenya)", "2011-03-01"),
    ("Russia", "Make_a_visit", "Iraq", "2009-12-01"),
    ("France", "Make_a_visit", "Iraq", "2010-01-05"),
    ("Germany", "Make_a_visit", "Iraq", "2010-04-10"),
]


def _write(tmp_path: Path, rows: list[dict]) -> Path:
    p = tmp_path / "set.jsonl"
    p.write_text("// written by hand\n\n" + "\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return p


def _row(i: int, **kw) -> dict:
    return {"id": f"t{i}", "question": f"question {i}?", **kw}


@pytest.fixture(scope="module")
def table():
    return FactTable.from_rows(HAND)


def test_gold_is_the_oracle_answer_of_each_logical_form(table, tmp_path):
    rows = [
        # who visited Iraq in January 2010 -> China, France (hand-checked from HAND)
        _row(1, qtype="equal", answer_type="entity", time_level="month", target=[None, "Make_a_visit", "Iraq"],
             anchor_time="2010-01", op="equal", granularity="month"),
        # display names work as well as KG names; first visit of China -> Iraq (2010-01-05)
        _row(2, qtype="first_last", answer_type="entity", target=["China", "Make a visit", None], rank="asc"),
        # when did the Kenyan police last arrest Kenyan citizens (year) -> 2011
        _row(3, qtype="first_last", answer_type="time", time_level="year",
             target=["Police (Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Citizen_(Kenya)"], rank="desc"),
        # who visited Iraq first after Russia did -> China and France (2010-01-05)
        _row(4, qtype="after_first", answer_type="entity", target=[None, "Make_a_visit", "Iraq"],
             anchor_event=["Russia", "Make_a_visit", "Iraq"], op="after", rank="asc"),
        # who visited Iraq before Germany did -> Russia, China, France
        _row(5, qtype="before_after", answer_type="entity", target=[None, "Make_a_visit", "Iraq"],
             anchor_event=["Germany", "Make_a_visit", "Iraq"], op="before"),
    ]
    recs = answer_specs(table, read_specs(_write(tmp_path, rows)))
    got = {r["template"]: (sorted(r["answers"]), r["qlabel"], r["time_level"]) for r in recs}
    assert got == {
        "hand/t1": (["China", "France"], "Single", "month"),
        "hand/t2": (["Iraq"], "Single", "day"),
        "hand/t3": (["2011"], "Single", "year"),
        "hand/t4": (["China", "France"], "Multiple", "day"),
        "hand/t5": (["China", "France", "Russia"], "Single", "day"),
    }
    assert [r["quid"] for r in recs] == [1, 2, 3, 4, 5]
    assert [r["question"] for r in recs][:2] == ["question 1?", "question 2?"]
    # the answer facts (then the anchor's) are recorded as events, for evidence metrics
    assert recs[3]["events"][-1] == "Russia|Make_a_visit|Iraq|2009-12-01|2009-12-01"


def test_every_unresolvable_line_is_named_with_its_reason(table, tmp_path):
    rows = [
        _row(1, qtype="equal", answer_type="entity", target=[None, "Make_a_visit", "Atlantis"],
             anchor_time="2010", op="equal", granularity="year"),
        _row(2, qtype="first_last", answer_type="entity", target=["China", "Fly_to", None], rank="asc"),
        # no visit to Iraq in 2012: no answer
        _row(3, qtype="equal", answer_type="entity", target=[None, "Make_a_visit", "Iraq"],
             anchor_time="2012", op="equal", granularity="year"),
        # China visited Iran twice (two days): an ambiguous anchor
        _row(4, qtype="before_after", answer_type="entity", target=[None, "Make_a_visit", "Iraq"],
             anchor_event=["China", "Make_a_visit", "Japan"], op="before"),
        _row(5, qtype="when", answer_type="time", target=["China", "Make_a_visit", "Iraq"]),
        _row(6, qtype="first_last", answer_type="time", target=[None, "Make_a_visit", "Iraq"], rank="asc"),
        _row(7, qtype="equal", answer_type="entity", target=[None, "Make_a_visit", "Iraq"],
             anchor_time="2010-13", op="equal", granularity="month"),
    ]
    with pytest.raises(SpecError) as e:
        answer_specs(table, read_specs(_write(tmp_path, rows)))
    msg = str(e.value)
    assert msg.startswith("6 of 7 hand-written questions do not resolve")
    assert "set.jsonl:3: unknown entity 'Atlantis'" in msg
    assert "set.jsonl:4: unknown relation 'Fly_to'" in msg
    assert "set.jsonl:5: the oracle finds empty" in msg
    assert "set.jsonl:7: qtype must be one of" in msg
    assert "set.jsonl:8: a time question gives both subject and object" in msg
    assert "set.jsonl:9: anchor_time:" in msg
    assert "set.jsonl:6" not in msg  # China visited Japan once: a valid anchor (answers Russia, China, France)


@pytest.mark.parametrize("line, reason", [
    ("{not json", "not JSON"),
    ('{"id": "a", "question": "q?", "qtype": "equal", "answer_type": "entity", "target": [null, "r", "o"], "gold": ["x"]}',
     "unknown key(s) gold"),
    ('{"id": "a", "qtype": "equal", "answer_type": "entity", "target": [null, "r", "o"]}', "missing 'question'"),
])
def test_malformed_lines_name_file_and_line(tmp_path, line, reason):
    p = tmp_path / "bad.jsonl"
    p.write_text("\n" + line + "\n", encoding="utf-8")
    with pytest.raises(SpecError, match=rf"bad.jsonl:2: {re.escape(reason)}"):
        read_specs(p)


def test_duplicate_ids_are_refused(tmp_path):
    row = _row(1, qtype="first_last", answer_type="entity", target=["China", "Make_a_visit", None], rank="asc")
    with pytest.raises(SpecError, match=r"set.jsonl:4: id 't1' already used at .*set.jsonl:3"):
        read_specs(_write(tmp_path, [row, row]))


def test_cli_generate_specs_writes_a_loadable_dataset(tmp_path, capsys):
    from tkgqa_ray.cli import main

    kg = tmp_path / "kg.txt"
    write_kg(HAND, kg)
    specs = _write(tmp_path, [
        _row(1, qtype="first_last", answer_type="entity", target=["China", "Make_a_visit", None], rank="desc"),
    ])
    assert main(["generate", "--kg", str(kg), "--out", str(tmp_path / "ds"), "--specs", str(specs)]) == 0
    meta = json.loads(capsys.readouterr().out)
    assert meta["phrasing_set"] == "handwritten" and meta["n_written"] == 1
    ds = load_dataset("multitq", tmp_path / "ds", split="test")
    assert [q.question for q in ds.questions] == ["question 1?"]
    assert [list(g.answers) for g in ds.golds.values()] == [["Japan"]]
    # an unknown set name is an input error, one line, exit 3
    assert main(["generate", "--kg", str(kg), "--out", str(tmp_path / "x"), "--specs", "no-such-set"]) == 3
    assert "no packaged hand-written set of that name" in capsys.readouterr().err


@pytest.mark.parametrize("name", packaged_sets() or ["(none packaged)"])
def test_packaged_sets_resolve_on_the_real_kg(name, real_kg_table):
    if name == "(none packaged)":
        pytest.skip("no hand-written set is packaged")
    items = read_specs(name)
    recs = answer_specs(real_kg_table, items)  # raises, naming every line, if one does not resolve
    assert len(recs) == len(items) > 0
    assert len({r["question"] for r in recs}) == len(recs)


def test_readme_generate_specs_line_on_the_real_kg(real_kg_path, tmp_path, capsys):
    """README's `tkgqa-ray generate ... --specs dev8` line (a packaged set by name, real KG)."""
    from tkgqa_ray.cli import main

    assert main(["generate", "--kg", str(real_kg_path), "--out", str(tmp_path / "dev8"), "--specs", "dev8", "--no-copy-kg"]) == 0
    meta = json.loads(capsys.readouterr().out)
    assert meta["n_written"] == len(read_specs("dev8")) and meta["specs"].endswith("dev8")
    recs = json.loads((tmp_path / "dev8" / "questions" / "test.json").read_text())
    assert {r["qtype"] for r in recs} == {"equal", "before_after", "first_last", "equal_multi", "after_first", "before_last"}
