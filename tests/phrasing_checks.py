"""Checks every generated phrasing set's tests share (dev3, dev4, dev5): the generated records
carry oracle gold and clean text, every template is used, and a generator that always takes a
form's first choice renders a named template for hand-checked expectations."""

from __future__ import annotations

import re
from typing import Any

from tkgqa_ray.data.generator import QuestionGenerator, templates_for
from tkgqa_ray.data.oracle_answers import Oracle, QSpec


def first_choice_generator(table, phrasing_set: str) -> QuestionGenerator:
    """A generator that picks the first synonym / actor form / paraphrase everywhere."""
    gen = QuestionGenerator(table, seed=0, phrasing_set=phrasing_set)
    gen._pick = lambda seq: seq[0]
    return gen


def check_generated(recs: list[dict[str, Any]], table, phrasing_set: str, *, end: str | None = None) -> dict:
    """Per record: the set's name and template prefix, non-empty gold equal to the oracle's for
    the record's logical form, no unfilled slot / doubled space / stray marker, a capital (or a
    digit) first unless the template keeps a lower-case start (``~``), no "a" before a vowel,
    and ``end`` (if given) holding the last character. Every template of the set is used.
    Returns the templates by id."""
    oracle = Oracle(table)
    by_id = {t.id: t for _, t in templates_for(phrasing_set)}
    for r in recs:
        q = r["question"]
        assert r["phrasing_set"] == phrasing_set and r["template"].startswith(f"{phrasing_set}/"), r
        assert r["answers"], r
        assert "{" not in q and "}" not in q and "  " not in q and " ," not in q and "~" not in q, q
        assert q[0].isupper() or q[0].isdigit() or by_id[r["template"]].text.startswith("~"), q
        assert end is None or q[-1] in end, q
        assert not re.search(r"\ba [AEIOaeio]", q), q
        assert oracle.answer(QSpec.from_json(r["spec"])).answers == r["answers"], r
    used = {r["template"] for r in recs}
    assert used == set(by_id), sorted(set(by_id) - used)
    return by_id
