"""The ``dev4`` phrasing set (issue #10): registered, every variant and template used on the real
KG, oracle gold for every record, head nouns true of every gold answer, its relation table
consistent with the KG, and hand-checked renderings of fixed facts. Form and gold only; no
parser is run here."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tkgqa_ray.data import phrasings_dev4
from tkgqa_ray.data.generator import (
    PHRASING_SETS, QTYPES, VARIANTS, generate, templates_for,
)
from phrasing_checks import check_generated, first_choice_generator
from tkgqa_ray.data.oracle_answers import QSpec
from tkgqa_ray.data.phrasings_dev4 import actor_forms, conjugate, head_nouns, relation_forms, tables

RANKED_VARIANTS = ("xr_subj", "xr_obj", "xr_time")  # after_first / before_last


def test_dev4_is_registered_with_every_point_variant():
    assert "dev4" in PHRASING_SETS
    pairs = templates_for("dev4")
    assert pairs and all(ps.name == "dev4" and t.id.startswith("dev4/") for ps, t in pairs)
    per_variant = Counter(t.variant for _, t in pairs)
    for qtype in QTYPES:
        for v in VARIANTS[qtype]:
            assert per_variant[v] >= 2, v
    # the set's focus: >= 40 shapes shared by after_first and before_last
    assert sum(per_variant[v] for v in RANKED_VARIANTS) >= 40
    assert all(per_variant[v] >= 15 for v in RANKED_VARIANTS), per_variant
    texts = [t.text for _, t in pairs]
    assert len(texts) == len(set(texts))


def test_dev4_templates_do_not_repeat_dev3():
    dev3 = {t.text for _, t in templates_for("dev3")}
    assert not dev3 & {t.text for _, t in templates_for("dev4")}


def test_verb_morphology():
    assert conjugate("go on a visit to", "past") == "went on a visit to"
    assert conjugate("go to", "part") == "gone to"
    assert conjugate("have consultations with", "past") == "had consultations with"
    assert conjugate("have consultations with", "ing") == "having consultations with"
    assert conjugate("slam", "past") == "slammed" and conjugate("slam", "ing") == "slamming"
    assert conjugate("commit unconventional violence against", "past").startswith("committed ")
    assert conjugate("seek diplomatic cooperation from", "part") == "sought diplomatic cooperation from"
    assert conjugate("hijack or take hostage", "part") == "hijacked or taken hostage"
    assert conjugate("violently crack down on", "past") == "violently cracked down on"
    assert conjugate("sue", "ing") == "suing"


def test_actor_forms_add_an_attributive_form():
    iran = actor_forms("Iran")
    assert iran == ["Iran"] and iran[0].attr == "the Iranian" and iran[0].it == "it"
    police = actor_forms("Police (Kenya)")
    assert police[0] == "the Kenyan police" and police[0].attr == police[0].pos == "the Kenyan police's"
    assert actor_forms("Barack Obama")[0].attr == "Barack Obama's"


def test_relation_forms():
    visit = relation_forms("Make_a_visit")
    assert [str(p.base) for p in visit] == ["make a visit to", "go on a visit to", "go on a trip to"]
    assert (visit[2].past, visit[2].base.part, visit[0].base.pp, visit[0].base.doer) == (
        "went on a trip to", "gone on a trip to", "visited by", "visitor to")
    crit = relation_forms("Criticize_or_denounce")[0]
    assert (crit.base, crit.base.nom, crit.base.doer) == ("condemn", "condemnation of", "critic of")
    # no agent noun in the table: "party to <base>"
    assert relation_forms("Consult")[0].base.doer == "party to hold consultations with"
    # not in this table: dev3's paraphrases, with this set's extra forms
    yld = relation_forms("Yield")[0]
    assert (yld.base, yld.base.part, yld.base.doer) == ("yield to", "yielded to", "party to yield to")
    # in neither table: the lexicon's phrase
    odd = relation_forms("Engage_in_mass_killings")[0]
    assert odd.base.part and odd.base.pp.endswith(" by")


def test_relation_table_matches_the_real_kg(real_kg_table):
    """Every relation paraphrased exists in the KG (a typo would silently fall back), every
    passive ends in its agent word, and no wording is shared by two relations (so each names
    exactly one)."""
    t = tables()
    assert set(t["relations"]) <= set(real_kg_table.relations), set(t["relations"]) - set(real_kg_table.relations)
    owner: dict[str, str] = {}
    for rel in t["relations"]:
        for p in relation_forms(rel):
            assert p.base.agent in ("by", "from", "with"), (rel, p.base.pp)
            for form in (str(p.base), p.base.nom):
                assert owner.setdefault(form, rel) == rel, (form, rel, owner[form])
    bodies = {s.replace("_", " ") for s in t["body_sectors"] | t["org_sectors"]}
    kg_sectors = {m.group(1) for n in real_kg_table.entities
                  if (m := re.match(r"^(.*) \(([^()]*)\)$", n.replace("_", " ")))}
    assert bodies <= kg_sectors, bodies - kg_sectors


def test_head_nouns_are_true_of_every_answer():
    generic = {"actor", "party", "participant", "side"}
    assert {str(h) for h in head_nouns(["Iran", "Japan"])} == generic | {"country", "nation"}
    assert {str(h) for h in head_nouns(["Police (Kenya)", "Citizen (Kenya)"])} == generic | {
        "Kenyan actor", "party from Kenya"}
    assert {str(h) for h in head_nouns(["Police (Kenya)", "Government (Kenya)"])} == generic | {
        "Kenyan actor", "party from Kenya", "organisation", "organization", "Kenyan organisation",
        "organization in Kenya"}
    assert {str(h) for h in head_nouns(["Government (Kenya)", "Foreign Affairs (Chad)"])} == generic | {
        "government body", "state institution", "organisation", "organization"}
    assert {str(h) for h in head_nouns(["Iran", "Police (Kenya)"])} == generic
    assert {str(h) for h in head_nouns(["Barack Obama"])} == generic
    assert {str(h) for h in head_nouns(["Hong Kong", "Japan"])} == generic  # not a sovereign country
    assert {str(h) for h in head_nouns(["Police (Uganda)"])} == generic  # kept literal in dev3
    assert {h.pl for h in head_nouns(["Iran"])} >= {"countries", "nations"}


@pytest.fixture(scope="module")
def dev4_records(real_kg_table):
    return generate(real_kg_table, 720, seed=7, phrasing_set="dev4")


def test_dev4_generates_a_full_mixed_set_with_oracle_gold(real_kg_table, dev4_records):
    recs = dev4_records
    assert len(recs) == 720
    assert Counter(r["qtype"] for r in recs) == {q: 120 for q in QTYPES}
    by_id = check_generated(recs, real_kg_table, "dev4")
    for r in recs:
        q, text = r["question"], by_id[r["template"]].text
        if "{H" in text:  # the head noun used is one that is true of every gold answer
            nouns = {str(h) for h in head_nouns(r["answers"])} | {h.pl for h in head_nouns(r["answers"])}
            assert any(re.search(rf"\b{re.escape(n)}\b", q) for n in nouns), (q, r["answers"])
    # every type at every time level it supports (all six reach day, month and year)
    for qtype in QTYPES:
        assert {r["time_level"] for r in recs if r["qtype"] == qtype} == {"day", "month", "year"}, qtype
    for qtype in ("after_first", "before_last"):  # time questions at every level, not only entities
        assert {r["time_level"] for r in recs if r["qtype"] == qtype and r["answer_type"] == "time"} == {
            "day", "month", "year"}, qtype
    # a country head noun appears, and only over all-country answers
    ctry = [r for r in recs if re.search(r"\b(Which|which|what|What) (country|nation)\b", r["question"])]
    assert ctry
    countries = set(phrasings_dev4.phrasings_dev3.tables()["countries"]) - tables()["not_countries"]
    assert all(set(r["answers"]) <= countries for r in ctry)


@pytest.fixture(scope="module")
def first_choice(real_kg_table):
    return first_choice_generator(real_kg_table, "dev4")


def test_hand_checked_renderings(real_kg_table, first_choice):
    gen = first_choice
    e = {n: i for i, n in enumerate(real_kg_table.entities)}
    r = {n: i for i, n in enumerate(real_kg_table.relations)}
    visit, threaten = r["Make_a_visit"], r["Threaten"]
    danish_fm, iran, china, japan, iraq = (e[n] for n in (
        "Foreign_Affairs_(Denmark)", "Iran", "China", "Japan", "Iraq"))

    first_visit_after_dk = QSpec("after_first", "entity", (None, visit, iran),
                                 anchor_event=(danish_fm, visit, iran), op="after", rank="asc")
    # reference in the middle; MultiTQ's bare-actor ellipsis
    assert gen.render_template("dev4/xr_subj/0", first_visit_after_dk) == (
        "Who, after the Danish foreign ministry, was the first to make a visit to Iran?")
    # ranked agent noun, imperative
    assert gen.render_template("dev4/xr_subj/2", first_visit_after_dk) == (
        "Name the first visitor to Iran after the Danish foreign ministry.")
    # head noun from the answers (all countries), event noun of the reference with a pronoun
    assert gen.render_template("dev4/xr_subj/4", first_visit_after_dk, answers=["Iraq", "Japan"]) == (
        "Which actor was the first to make a visit to Iran in the wake of the Danish foreign ministry's trip to it?")
    # two-sentence context
    assert gen.render_template("dev4/xr_subj/17", first_visit_after_dk) == (
        "The Danish foreign ministry made a visit to Iran. Who was the first to do so after it?")
    # lower-case start, no question mark
    assert gen.render_template("dev4/xr_subj/19", first_visit_after_dk) == (
        "who first made a visit to Iran in the wake of the trip to it by the Danish foreign ministry")

    last_visit_before_japan = QSpec("before_last", "entity", (china, visit, None),
                                    anchor_event=(china, visit, japan), op="before", rank="desc")
    # in-situ object wh
    assert gen.render_template("dev4/xr_obj/1", last_visit_before_japan) == "China last made a visit to whom before Japan?"
    # "by the time" + pluperfect reference
    assert gen.render_template("dev4/xr_obj/2", last_visit_before_japan) == (
        "Whom did China make a visit to last by the time it had made a visit to Japan?")
    # attributive country adjective on the reference's event noun
    assert gen.render_template("dev4/xr_obj/7", last_visit_before_japan) == (
        "In the run-up to the Chinese trip to Japan, whom did it make a visit to last?")

    first_time_after_threat = QSpec("after_first", "time", (china, visit, japan),
                                    anchor_event=(iran, threaten, iraq), op="after", rank="asc",
                                    time_level="month")
    assert gen.render_template("dev4/xr_time/1", first_time_after_threat) == (
        "Which month did China make a visit to Japan first in the wake of the Iranian threat against Iraq?")
    assert gen.render_template("dev4/xr_time/4", first_time_after_threat) == (
        "In which month was China's first trip to Japan after Iran's threat against Iraq?")
    assert gen.render_template("dev4/xr_time/16", first_time_after_threat) == (
        "Think of the first time China made a visit to Japan once Iraq had been threatened by Iran: what was the month?")
    # the direction carried by a verb: "directly preceded" = the latest before the reference
    last_visit_before_dk = QSpec("before_last", "entity", (None, visit, iran),
                                 anchor_event=(danish_fm, visit, iran), op="before", rank="desc")
    assert gen.render_template("dev4/xr_subj/23", last_visit_before_dk) == (
        "Who directly preceded the Danish foreign ministry in making a visit to Iran?")
    assert gen.render_template("dev4/xr_subj/22", last_visit_before_dk) == (
        "Whose trip to Iran came last before the Danish foreign ministry's?")
    # "by the time" before a clause, the ranked agent noun with "previous" never used for fl
    assert gen.render_template("dev4/xr_subj/24", last_visit_before_dk) == (
        "What's the name of the last visitor to Iran by the time the Danish foreign ministry made a visit to it?")
