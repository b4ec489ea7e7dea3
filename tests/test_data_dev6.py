"""The ``dev6`` phrasing set (issue #10): registered, every variant and template used on the real
KG (600 questions, seed 0), oracle gold for every record, its relation table consistent with the
KG, head nouns true of the gold, and hand-checked renderings of fixed real facts.
Form and gold only; no parser is run here."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from phrasing_checks import check_generated, first_choice_generator
from tkgqa_ray.data import phrasings_dev6
from tkgqa_ray.data.generator import PHRASING_SETS, QTYPES, VARIANTS, generate, templates_for
from tkgqa_ray.data.oracle_answers import Oracle, QSpec
from tkgqa_ray.data.phrasings_dev6 import conjugate, relation_forms, relation_table

XR = VARIANTS["after_first"]


def test_dev6_is_registered_with_every_point_variant():
    assert "dev6" in PHRASING_SETS
    pairs = templates_for("dev6")
    assert pairs and all(ps.name == "dev6" and t.id.startswith("dev6/") for ps, t in pairs)
    per_variant = Counter(t.variant for _, t in pairs)
    for qtype in QTYPES:
        for v in VARIANTS[qtype]:
            assert per_variant[v] >= 2, v
    assert sum(per_variant[v] for v in XR) >= 40  # the focus: after_first / before_last
    assert sum(per_variant[v] for v in VARIANTS["first_last"]) >= 12
    texts = [t.text for _, t in pairs]
    assert len(texts) == len(set(texts))


def test_cue_and_rank_rows_keep_their_direction():
    """A template serves both after_first and before_last, so every row of a cue / rank word
    carries the same forms, and no form of one direction says the other."""
    w = phrasings_dev6.WORDS
    for keys in (("after", "before"), ("after_clause", "before_clause"), ("fadj_asc", "fadj_desc")):
        forms = {frozenset(vars(x)) for k in keys for x in w[k]}
        assert len(forms) == 1, keys
    for x in (*w["after"], *w["after_clause"]):
        assert not re.search(r"\b(before|prior|ahead|preced\w*|run-up|leading|earlier)\b",
                             " ".join([x, *vars(x).values()])), x
    for x in (*w["before"], *w["before_clause"]):
        assert not re.search(r"\b(after\w*|since|following|wake|subsequent|once|later)\b",
                             " ".join([x, *vars(x).values()])), x
    def text(x) -> str:
        return " ".join([x, *getattr(x, "__dict__", {}).values()])

    for x in (*w["fadj_asc"], *w["fadv_asc"]):
        assert not re.search(r"\b(last|latest|recent\w*|final|previous)\b", text(x)), x
    for x in (*w["fadj_desc"], *w["fadv_desc"]):
        assert not re.search(r"\b(first|earliest|initial|next|soonest)\b", text(x)), x
    # "since" only in front of a clause or as "since then" (never "the next … since Kenya")
    assert all("since" not in (x, x.n, x.ev) for x in w["after"])


def test_verb_morphology_and_relation_forms():
    assert conjugate("hold talks with", "past") == "held talks with"
    assert conjugate("go to", "past") == "went to" and conjugate("slam", "part") == "slammed"
    assert conjugate("want to negotiate with", "ing") == "wanting to negotiate with"
    talks = relation_forms("Consult")[1]
    assert (talks.base, talks.past, talks.base.pp, talks.base.nom) == (
        "hold talks with", "held talks with", "engaged in talks by", "talks with")
    # Host_a_visit keeps its direction: X hosted Y = X received a visit from Y = Y was received by X
    recv = relation_forms("Host_a_visit")[1]
    assert (recv.past, recv.base.pp, recv.base.nom) == ("received a visit from", "received by", "reception of")
    neg = relation_forms("Express_intent_to_meet_or_negotiate")[0]
    assert neg.past == "wanted to negotiate with" and neg.base.agent == "by"
    # outside the table: the lexicon phrase, forms by rule
    odd = relation_forms("Engage_in_mass_killings")[0]
    assert odd.base.nom.startswith("act of engaging") and odd.base.pp.endswith(" by")


def test_relation_table_matches_the_real_kg(real_kg_table):
    """Every paraphrased relation exists in the KG, every passive ends in "by", and no verb or
    noun paraphrase is shared by two relations."""
    t = relation_table()
    assert set(t) <= set(real_kg_table.relations), set(t) - set(real_kg_table.relations)
    owner: dict[tuple[str, str], str] = {}
    for rel in t:
        for p in relation_forms(rel):
            assert p.base.agent == "by", (rel, p.base.pp)
            for key in (("verb", str(p.base)), ("passive", p.base.pp), ("noun", p.base.nom)):
                assert owner.setdefault(key, rel) == rel, (rel, key, owner[key])


@pytest.fixture(scope="module")
def dev6_records(real_kg_table):
    return generate(real_kg_table, 600, seed=0, phrasing_set="dev6")


def test_dev6_generates_a_full_mixed_set_with_oracle_gold(real_kg_table, dev6_records):
    recs = dev6_records
    assert len(recs) == 600
    assert Counter(r["qtype"] for r in recs) == {q: 100 for q in QTYPES}
    check_generated(recs, real_kg_table, "dev6", end="?.")
    # time answers at every level for the ranked multi-event types
    levels = {r["time_level"] for r in recs if r["qtype"] in ("after_first", "before_last")
              and r["answer_type"] == "time"}
    assert levels == {"day", "month", "year"}
    # "Which country" / "the first country" only when every answer is a country
    countries = __import__("tkgqa_ray.data.phrasings_dev3", fromlist=["tables"]).tables()["countries"]
    for r in recs:
        if re.search(r"\bcountry\b", r["question"]):
            assert all(a in countries for a in r["answers"]), r


@pytest.fixture(scope="module")
def first_choice(real_kg_table):
    return first_choice_generator(real_kg_table, "dev6")


def test_hand_checked_renderings(real_kg_table, first_choice):
    gen = first_choice
    e = {n: i for i, n in enumerate(real_kg_table.entities)}
    r = {n: i for i, n in enumerate(real_kg_table.relations)}
    visit, host = r["Make_a_visit"], r["Host_a_visit"]
    crit, threaten = r["Criticize_or_denounce"], r["Threaten"]
    oracle = Oracle(real_kg_table)
    cases = [
        # elliptic reference first; before_last; Obama visited China 2015-06-11, NZ's military 06-15
        ("dev6/xr_subj/0",
         QSpec("before_last", "entity", (None, visit, e["China"]), anchor_event=(
             e["Military_(New_Zealand)"], visit, e["China"]), op="before", rank="desc"),
         "Before the military of New Zealand, who was the last to visit China?", ["Barack Obama"]),
        # the reference as its own sentence, anaphoric "after that"
        ("dev6/xr_subj/3",
         QSpec("after_first", "entity", (None, visit, e["Military_(Myanmar)"]), anchor_event=(
             e["Chen_Bingde"], visit, e["Military_(Myanmar)"]), op="after", rank="asc"),
         "Chen Bingde visited the Burmese military. Who was the first to do so after that?", ["Xu Caihou"]),
        # passive answer with a pluperfect passive reference
        ("dev6/xr_subj/5",
         QSpec("after_first", "entity", (None, visit, e["Military_(Myanmar)"]), anchor_event=(
             e["Chen_Bingde"], visit, e["Military_(Myanmar)"]), op="after", rank="asc"),
         "Who was the Burmese military first visited by once it had been visited by Chen Bingde?", ["Xu Caihou"]),
        # Host_a_visit: the Middle East hosted María Ángela Holguín after hosting British Muslims
        ("dev6/xr_obj/0",
         QSpec("after_first", "entity", (e["Middle_East"], host, None), anchor_event=(
             e["Middle_East"], host, e["Muslim_(United_Kingdom)"]), op="after", rank="asc"),
         "After British Muslims, who did the Middle East first host?", ["María Ángela Holguín"]),
        # relative clause with a head noun true of the gold (Malaysia is a country)
        ("dev6/xr_obj/7",
         QSpec("before_last", "entity", (e["Thailand"], host, None), anchor_event=(
             e["Thailand"], host, e["Mahmoud_Abbas"]), op="before", rank="desc"),
         "Could you tell me the last country that Thailand hosted before Mahmoud Abbas?", ["Malaysia"]),
        # passive answer, elliptic passive reference
        ("dev6/xr_obj/3",
         QSpec("before_last", "entity", (e["Foreign_Affairs_(France)"], visit, None), anchor_event=(
             e["Foreign_Affairs_(France)"], visit, e["South_Sudan"]), op="before", rank="desc"),
         "Who was last visited by the French foreign ministry before South Sudan was?", ["Angola"]),
        # time answer at year level, reference clause first, "when was the last time"
        ("dev6/xr_time/11",
         QSpec("before_last", "time", (e["Population_(Thailand)"], crit, e["Citizen_(Thailand)"]),
               anchor_event=(e["Citizen_(Thailand)"], threaten, e["Abhisit_Vejjajiva"]), op="before",
               rank="desc", time_level="year"),
         "Before citizens of Thailand threatened Abhisit Vejjajiva, when was the last time Population "
         "(Thailand) criticised citizens of Thailand? Answer with the year.", ["2005"]),
        # first_last, passive answer: Vietnam hosted Julia Gillard first
        ("dev6/fl_subj/3", QSpec("first_last", "entity", (None, host, e["Julia_Gillard"]), rank="asc"),
         "Who was Julia Gillard first hosted by?", ["Vietnam"]),
    ]
    for tid, spec, text, gold in cases:
        res = oracle.answer(spec)
        assert res.ok and res.answers == gold, (tid, res.status, res.answers)
        assert gen.render_template(tid, spec, {}, res.answers) == text, tid
