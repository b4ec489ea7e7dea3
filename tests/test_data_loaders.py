"""Dataset loaders: record → (visible Question, Gold) split, layouts, errors."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tkgqa_ray.data import DatasetError, load_dataset, load_questions
from tkgqa_ray.data.loaders import (
    load_multitq_questions,
    load_timelinecronq_questions,
    load_timequestions_questions,
)
from tkgqa_ray.records import VISIBLE_FIELDS, Question

MULTITQ = [
    {"quid": 3000009, "question": "Who signed an agreement with China in April 2005?",
     "answers": ["Iran", "Kuomintang"], "answer_type": "entity", "time_level": "month",
     "qtype": "equal", "qlabel": "Single"},
    {"quid": 3000010, "question": "When did Barack Obama first visit Ireland?",
     "answers": ["2011-05"], "answer_type": "time", "time_level": "month",
     "qtype": "first_last", "qlabel": "Single"},
]
TCQR = [
    {"id": "tcq-1", "question": "Who won the Rumford Medal right after Louis Pasteur?",
     "answer": ["John Tyndall"], "events": ["Rumford Medal|winner|Louis Pasteur|1856-01-01|1856-01-01"],
     "question_level": "medium", "question_type": "relation_union", "answer_type": "entity",
     "temporal_relation": "after", "split": "test", "qtype": "after"},
    {"id": "tcq-2", "question": "x?", "answer": ["y"], "events": [], "question_level": "simple",
     "split": "train"},
]
TQ = [
    {"Id": 12946, "Question": "what was jorge luis borges awarded in 1971",
     "Temporal signal": ["OVERLAP"], "Temporal question type": ["Explicit"],
     "Answer": [{"AnswerType": "Entity", "WikidataQid": "Q277787", "WikidataLabel": "Jerusalem Prize"}]},
    {"Id": 7, "Question": "when was x born", "Temporal signal": ["No signal"],
     "Temporal question type": ["Temporal"],
     "Answer": [{"AnswerType": "Value", "AnswerArgument": "1899-08-24T00:00:00Z"}]},
]


def _write(path: Path, obj) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj))
    return path


def _multitq_root(tmp_path: Path) -> Path:
    root = tmp_path / "MultiTQ"
    _write(root / "questions" / "test.json", MULTITQ)
    (root / "kg").mkdir()
    (root / "kg" / "full.txt").write_text("China\tMake_a_visit\tIran\t2005-04-01\n")
    return root


def test_multitq_split_visible_and_gold(tmp_path):
    qs, golds = load_multitq_questions(_write(tmp_path / "t.json", MULTITQ))
    assert qs == [Question("3000009", MULTITQ[0]["question"]), Question("3000010", MULTITQ[1]["question"])]
    g = golds["3000009"]
    assert g.answers == ("Iran", "Kuomintang")
    assert (g.answer_type, g.time_level, g.qtype, g.qlabel) == ("entity", "month", "equal", "Single")
    assert golds["3000010"].answers == ("2011-05",)


def test_no_gold_reachable_from_question(tmp_path):
    qs, golds = load_multitq_questions(_write(tmp_path / "t.json", MULTITQ))
    for q in qs:
        assert tuple(f.name for f in dataclasses.fields(q)) == VISIBLE_FIELDS
        assert not hasattr(q, "__dict__")  # slots: nothing can be attached
        values = [getattr(q, f) for f in VISIBLE_FIELDS]
        gold = golds[q.quid]
        for leak in (*gold.answers, gold.qtype, gold.answer_type, gold.qlabel, gold.time_level):
            assert leak not in values
        with pytest.raises((AttributeError, TypeError, dataclasses.FrozenInstanceError)):
            q.answers = ("x",)  # type: ignore[attr-defined]


def test_timelinecronq_fields_and_split_filter(tmp_path):
    path = _write(tmp_path / "all.json", TCQR)
    qs, golds = load_timelinecronq_questions(path, split="test")
    assert [q.quid for q in qs] == ["tcq-1"]
    g = golds["tcq-1"]
    assert g.answers == ("John Tyndall",)
    assert g.events == ("Rumford Medal|winner|Louis Pasteur|1856-01-01|1856-01-01",)
    assert g.question_level == "medium" and g.qtype == "after"
    assert g.extra["temporal_relation"] == "after" and g.extra["question_type"] == "relation_union"
    assert "events" not in g.extra and "answer" not in g.extra


def test_timequestions_fields(tmp_path):
    qs, golds = load_timequestions_questions(_write(tmp_path / "test.json", TQ))
    assert qs[0] == Question("12946", "what was jorge luis borges awarded in 1971")
    assert golds["12946"].answers == ("Jerusalem Prize",) and golds["12946"].answer_type == "entity"
    assert golds["12946"].qtype == "Explicit"
    assert golds["12946"].extra["answer_qids"] == ["Q277787"]
    assert golds["7"].answers == ("1899-08-24",) and golds["7"].answer_type == "time"


def test_load_dataset_layout_limit_seed(tmp_path):
    root = _multitq_root(tmp_path)
    ds = load_dataset("multitq", root, "test")
    assert ds.kg_path == root / "kg" / "full.txt" and len(ds) == 2
    assert [q.quid for q in load_dataset("multitq", root, "test", limit=1).questions] == ["3000009"]
    a = load_dataset("multitq", root, "test", limit=1, seed=5)
    b = load_dataset("multitq", root, "test", limit=1, seed=5)
    assert a.questions == b.questions and set(a.golds) == {a.questions[0].quid}
    qs, golds = load_questions({"name": "multitq", "root": str(root), "split": "test"})
    assert len(qs) == 2 and set(golds) == {"3000009", "3000010"}


def test_tcqr_and_tq_roots(tmp_path):
    r1 = tmp_path / "tcqr"
    _write(r1 / "questions" / "test.json", TCQR[:1])
    (r1 / "kg").mkdir()
    (r1 / "kg" / "kg.tsv").write_text("a\tb\tc\t1856-01-01\t1856-01-01\n")
    ds = load_dataset("timelinecronq_r", r1, "test")
    assert ds.kg_path == r1 / "kg" / "kg.tsv" and [q.quid for q in ds.questions] == ["tcq-1"]
    r2 = tmp_path / "tq"
    _write(r2 / "test.json", TQ)
    ds = load_dataset("timequestions", r2, "test")
    assert ds.kg_path is None and len(ds) == 2


def test_errors_name_the_expected_path(tmp_path):
    with pytest.raises(DatasetError, match=str(tmp_path / "nope")):
        load_dataset("multitq", tmp_path / "nope", "test")
    root = _multitq_root(tmp_path)
    with pytest.raises(DatasetError, match=r"questions/dev\.json"):
        load_dataset("multitq", root, "dev")
    with pytest.raises(DatasetError, match="unknown dataset"):
        load_dataset("multiqt", root, "test")
    (root / "kg" / "full.txt").unlink()
    with pytest.raises(DatasetError, match=r"kg/full\.txt"):
        load_dataset("multitq", root, "test")


def test_bad_records_are_clear_errors(tmp_path):
    with pytest.raises(DatasetError, match=r"record 1.*'answers'"):
        load_multitq_questions(_write(tmp_path / "a.json", [MULTITQ[0], {"quid": 1, "question": "q"}]))
    with pytest.raises(DatasetError, match="duplicate question id"):
        load_multitq_questions(_write(tmp_path / "b.json", [MULTITQ[0], MULTITQ[0]]))
    bad = tmp_path / "c.json"
    bad.write_text('[\n{"quid": 1,\n "question": }\n]')
    with pytest.raises(DatasetError, match=r"c\.json:3"):
        load_multitq_questions(bad)
    jl = tmp_path / "d.jsonl"
    jl.write_text(json.dumps(MULTITQ[0]) + "\n{broken\n")
    with pytest.raises(DatasetError, match=r"d\.jsonl:2"):
        load_multitq_questions(jl)
