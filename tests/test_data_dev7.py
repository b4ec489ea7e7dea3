"""The ``dev7`` phrasing set (issue #10): registered, every variant and template used on the real
KG (600 questions, seed 0), oracle gold for every record, its relation table consistent with the
KG, and hand-checked renderings of fixed real facts. Form and gold only; no parser is run here."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

from tkgqa_ray.data import phrasings_dev7
from tkgqa_ray.data.generator import PHRASING_SETS, QTYPES, VARIANTS, generate, templates_for
from tkgqa_ray.data.oracle_answers import Oracle, QSpec
from tkgqa_ray.data.phrasings_dev7 import conjugate, relation_forms, relation_table
from phrasing_checks import check_generated, first_choice_generator

FOCUS = VARIANTS["first_last"] + VARIANTS["equal_multi"] + ("eq_time", "xr_time")


def test_dev7_is_registered_with_every_point_variant():
    assert "dev7" in PHRASING_SETS
    pairs = templates_for("dev7")
    assert pairs and all(ps.name == "dev7" and t.id.startswith("dev7/") for ps, t in pairs)
    per_variant = Counter(t.variant for _, t in pairs)
    for qtype in QTYPES:
        for v in VARIANTS[qtype]:
            assert per_variant[v] >= 2, v
    assert sum(per_variant[v] for v in FOCUS) >= 40
    texts = [t.text for _, t in pairs]
    assert len(texts) == len(set(texts))
    # no single wrapper dominates the set
    openers = Counter(t.split()[0] for t in texts if not t.startswith("{"))
    assert max(openers.values()) <= len(texts) // 6, openers


def test_words_keep_their_forms_and_meaning():
    w = phrasings_dev7.WORDS
    for g in ("day", "month", "year"):
        forms = [set(vars(x)) for x in w[f"when_{g}"]]
        assert all(f == forms[0] for f in forms), g
        for x in w[f"when_{g}"]:
            other = {"day": "month|year", "month": "day|date|year", "year": "day|date|month"}[g]
            assert not re.search(rf"\b({other})\b", " ".join([x, *vars(x).values()])), (g, x)
        for x in w[f"same_{g}"]:
            other = {"day": "month|year", "month": "day|year", "year": "day|month"}[g]
            assert not re.search(rf"\b({other})\b", " ".join([x, *vars(x).values()])), (g, x)
    for x in w["fadj_asc"] + w["fadv_asc"]:
        assert not re.search(r"last|latest|recent", " ".join([x, *vars(x).values()])), x
    for x in w["fadj_desc"] + w["fadv_desc"]:
        assert not re.search(r"first|earliest|before", " ".join([x, *vars(x).values()])), x
    for x in w["before"] + w["before_clause"]:
        assert not re.search(r"after|later|following", " ".join([x, *vars(x).values()])), x
    for x in w["after"] + w["after_clause"]:
        assert not re.search(r"before|earlier|prior", " ".join([x, *vars(x).values()])), x


def test_verb_morphology():
    assert conjugate("slam", "past") == "slammed" and conjugate("slam", "ing") == "slamming"
    assert conjugate("confer with", "past") == "conferred with"
    assert conjugate("pay a visit to", "past") == "paid a visit to"
    assert conjugate("cut ties with", "past") == "cut ties with"
    assert conjugate("have talks with", "past") == "had talks with"
    assert conjugate("send troops against", "past") == "sent troops against"
    assert conjugate("physically attack", "past") == "physically attacked"
    assert conjugate("give aid to", "part") == "given aid to"
    assert conjugate("rebuke", "ing") == "rebuking"


def test_relation_table_matches_the_real_kg(real_kg_table):
    """Every paraphrased relation exists in the KG (a typo would silently fall back), no
    paraphrase is shared by two relations, none is negated, and the frequent relations are all
    covered."""
    t = relation_table()
    assert set(t) <= set(real_kg_table.relations), set(t) - set(real_kg_table.relations)
    owner: dict[str, str] = {}
    for rel, bases in t.items():
        for b in bases:
            assert owner.setdefault(b, rel) == rel, (b, rel, owner[b])
            assert not re.search(r"\b(not|never|no|refuse\w*|fail\w*)\b", b), (rel, b)
    counts = Counter(real_kg_table.relations[i] for i in real_kg_table.r)
    top = [r for r, n in counts.items() if n >= 15]  # every relation with 15+ facts
    assert set(top) <= set(t), set(top) - set(t)
    forms = relation_forms("Criticize_or_denounce")
    assert [str(p.past) for p in forms] == ["criticized", "slammed", "rebuked", "denounced", "condemned"]
    assert forms[1].base.ger == "slamming" and forms[1].base.part == "slammed"
    # outside the table: the lexicon's phrase, with rule-made forms
    odd = relation_forms("Engage_in_mass_expulsion")
    assert len(odd) == 1 and odd[0].base.ger.startswith("engaging in mass expulsion")


@pytest.fixture(scope="module")
def dev7_records(real_kg_table):
    return generate(real_kg_table, 600, seed=0, phrasing_set="dev7")


def test_dev7_generates_a_full_mixed_set_with_oracle_gold(real_kg_table, dev7_records):
    recs = dev7_records
    assert len(recs) == 600
    assert Counter(r["qtype"] for r in recs) == {q: 100 for q in QTYPES}
    check_generated(recs, real_kg_table, "dev7")
    # a stranded preposition is never followed by a preposition-led time phrase ("on on")
    for r in recs:
        assert not re.search(r"\b(on|in|to|with|at|of|for|about|against) \1\b", r["question"]), r
    # time answers at every level, and the unit word always the record's level
    unit = {"day": r"\b(dates?|days?)\b", "month": r"\bmonths?\b", "year": r"\byears?\b"}
    times = [r for r in recs if r["answer_type"] == "time"]
    assert {r["time_level"] for r in times} == {"day", "month", "year"}
    for r in times:
        q = r["question"].replace("the year 20", "20")  # the "ord" date style of a reference
        assert re.search(unit[r["time_level"]], q), r
        for g, pat in unit.items():
            if g != r["time_level"] and not (g == "day" and "days" in q):
                assert not re.search(pat, q), (g, r)
    # equal_multi at every granularity, with the granularity's word
    for r in recs:
        if r["qtype"] == "equal_multi" and r["spec"]["offset"] is None:
            assert re.search(unit[r["spec"]["granularity"]], r["question"]), r


@pytest.fixture(scope="module")
def fc(real_kg_table):
    return first_choice_generator(real_kg_table, "dev7")


def _ids(table):
    e = {n: i for i, n in enumerate(table.entities)}
    r = {n: i for i, n in enumerate(table.relations)}
    return e, r


def test_hand_checked_time_answers(real_kg_table, fc):
    e, r = _ids(real_kg_table)
    oracle = Oracle(real_kg_table)
    china, japan = e["China"], e["Japan"]
    visit, crit = r["Make_a_visit"], r["Criticize_or_denounce"]
    spec = QSpec("first_last", "time", (china, visit, japan), rank="asc", time_level="month")
    assert fc.render_template("dev7/fl_time/1", spec) == "Which was the first month in which China visited Japan?"
    assert oracle.answer(spec).answers == ["2005-03"]
    spec = QSpec("first_last", "time", (china, visit, japan), rank="desc", time_level="year")
    assert fc.render_template("dev7/fl_time/2", spec) == (
        "In what year did China visit Japan for the last time?")
    assert oracle.answer(spec).answers == ["2015"]
    spec = QSpec("first_last", "time", (china, visit, japan), rank="asc", time_level="day")
    assert fc.render_template("dev7/fl_time/0", spec) == (
        "Could you tell me the exact date when China first visited Japan?")
    assert oracle.answer(spec).answers == ["2005-03-01"]
    spec = QSpec("first_last", "time", (china, crit, japan), rank="desc", time_level="day")
    assert fc.render_template("dev7/fl_time/5", spec) == (
        "Any idea when China most recently criticized Japan? Just the date, please.")
    assert oracle.answer(spec).answers == ["2015-12-22"]
    spec = QSpec("equal", "time", (china, visit, japan), time_level="month")
    assert fc.render_template("dev7/eq_time/5", spec) == "China visited Japan — in which month was that?"


def test_hand_checked_equal_multi_and_ranked(real_kg_table, fc):
    e, r = _ids(real_kg_table)
    china, japan, iran = e["China"], e["Japan"], e["Iran"]
    visit, crit = r["Make_a_visit"], r["Criticize_or_denounce"]
    spec = QSpec("equal_multi", "entity", (china, visit, None), anchor_event=(japan, crit, iran),
                 op="equal", granularity="month", time_level="month")
    assert fc.render_template("dev7/em_obj_event/1", spec, {"g": "month"}) == (
        "Japan criticized Iran. Who did China visit that same month?")
    spec = QSpec("equal_multi", "entity", (None, visit, iran), anchor_event=(japan, crit, china),
                 op="equal", granularity="day", time_level="day")
    assert fc.render_template("dev7/em_subj_event/3", spec, {"g": "day"}) == (
        "On the same day that Japan criticized China, who visited Iran?")
    spec = QSpec("equal_multi", "entity", (china, visit, None), anchor_event=(japan, crit, iran),
                 op="after", offset=3)
    assert fc.render_template("dev7/em_obj_offset/1", spec, {"N": 3}) == (
        "Japan criticized Iran. 3 days later, whom did China visit?")
    spec = QSpec("before_last", "entity", (china, visit, None), anchor_event=(china, visit, iran),
                 op="before", rank="desc")
    assert fc.render_template("dev7/xr_obj/1", spec) == (
        "Remind me which actor China last visited before it visited Iran.")
    spec = QSpec("after_first", "time", (china, visit, japan), anchor_event=(japan, crit, iran),
                 op="after", rank="asc", time_level="year")
    assert fc.render_template("dev7/xr_time/1", spec) == (
        "Japan criticized Iran. After that, in which year did China first visit Japan?")
    spec = QSpec("first_last", "entity", (None, visit, japan), rank="desc")
    assert fc.render_template("dev7/fl_subj/0", spec) == "Do you happen to know who most recently visited Japan?"
    spec = QSpec("first_last", "entity", (e["Police_(Kenya)"], r["Arrest,_detain,_or_charge_with_legal_action"], None),
                 rank="asc")
    assert fc.render_template("dev7/fl_obj/1", spec) == "Of all the parties the Kenyan police arrested, which came first?"
    spec = QSpec("equal", "entity", (None, visit, japan), anchor_time=None, op="equal", granularity="year",
                 time_level="year")
    d = date(2010, 5, 17).toordinal()
    assert fc.render_template("dev7/eq_subj_time/3", spec, {"t": d, "g": "year"}) == (
        "In 2010, someone visited Japan. Who was it?")


def test_hand_checked_equal_multi_on_real_facts(real_kg_table, fc):
    """Two equal_multi questions over real facts, with their oracle gold."""
    e, r = _ids(real_kg_table)
    oracle = Oracle(real_kg_table)
    support = r["Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)"]
    spec = QSpec("equal_multi", "entity", (e["Vietnam"], support, None),
                 anchor_event=(e["Mwai_Kibaki"], r["Engage_in_negotiation"], e["Tanzania"]), op="before", offset=28)
    assert fc.render_template("dev7/em_obj_offset/0", spec, {"N": 28}) == (
        "Who did Vietnam offer diplomatic support to 28 days before Mwai Kibaki negotiated with Tanzania?")
    assert oracle.answer(spec).answers == ["Japan"]  # 2012-08-15, the anchor 2012-09-12
    sudan = e["Sudan"]
    spec = QSpec("equal_multi", "entity", (None, r["Consult"], sudan),
                 anchor_event=(e["South_Sudan"], r["Make_optimistic_comment"], sudan),
                 op="equal", granularity="day", time_level="day")
    assert fc.render_template("dev7/em_subj_event/1", spec, {"g": "day"}) == (
        "South Sudan spoke optimistically about Sudan. Any idea who consulted Sudan that same day?")
    assert oracle.answer(spec).answers == ["South Sudan"]
