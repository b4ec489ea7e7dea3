"""The ``dev5`` phrasing set (issue #10): registered, every variant and template used on the real
KG, oracle gold for every record, its relation table consistent with the KG, its before_after /
equal_multi templates distinct from dev3's, and hand-checked renderings of fixed facts.
Form and gold only; no parser is run here."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date

import pytest

from tkgqa_ray.data import phrasings_dev3, phrasings_dev5
from tkgqa_ray.data.generator import (
    PHRASING_SETS, QTYPES, VARIANTS, generate, templates_for,
)
from phrasing_checks import check_generated, first_choice_generator
from tkgqa_ray.data.oracle_answers import QSpec
from tkgqa_ray.data.phrasings_dev5 import conjugate, relation_forms, relation_table
from tkgqa_ray.time import coarsen

BA = VARIANTS["before_after"]
EM = VARIANTS["equal_multi"]


def test_dev5_is_registered_with_every_point_variant():
    assert "dev5" in PHRASING_SETS
    pairs = templates_for("dev5")
    assert pairs and all(ps.name == "dev5" and t.id.startswith("dev5/") for ps, t in pairs)
    per_variant = Counter(t.variant for _, t in pairs)
    for qtype in QTYPES:
        for v in VARIANTS[qtype]:
            assert per_variant[v] >= 2, v
    # the set's focus: before_after and equal_multi
    assert sum(per_variant[v] for v in BA) >= 40
    assert sum(per_variant[v] for v in EM) >= 30
    texts = [t.text for _, t in pairs]
    assert len(texts) == len(set(texts))


def test_focus_templates_are_not_dev3s():
    dev3 = {t.text for t in phrasings_dev3.TEMPLATES}
    for t in phrasings_dev5.TEMPLATES:
        assert t.text not in dev3, t.id


def test_cue_rows_have_the_same_forms_in_both_directions():
    """A template is used for both directions (and every granularity), so every row of a cue
    must carry the forms any template asks for."""
    w = phrasings_dev5.WORDS
    keys = {k: set(vars(w["before"][0])) for k in ("before", "after")}
    for k in ("before", "after"):
        assert all(set(vars(x)) == keys["before"] for x in w[k]), k
    for k in ("before_clause", "after_clause"):
        assert all(set(vars(x)) == {"adv", "np"} for x in w[k]), k
    for g in ("day", "month", "year"):
        assert all(set(vars(x)) == {"cl", "inthe", "np", "that", "saw", "a", "both"} for x in w[f"same_{g}"]), g
    # each direction keeps its meaning in every form
    for x in w["before"]:
        assert not re.search(r"\b(after|later|following|subsequent|wake|once|thereafter|followed)\b",
                             " ".join([x, *vars(x).values()]), re.I), x
    for x in w["after"]:
        assert not re.search(r"\b(before|earlier|prior|ahead|preced\w*|advance|beat)\b",
                             " ".join([x, *vars(x).values()]), re.I), x
    for g, other in (("day", "month|year"), ("month", "day|date|year"), ("year", "day|date|month")):
        for x in w[f"same_{g}"]:
            text = " ".join([x, *vars(x).values()])
            assert not re.search(rf"\b({other})\b", text), (g, text)


def test_verb_morphology():
    assert conjugate("slam", "past") == "slammed" and conjugate("slam", "ing") == "slamming"
    assert conjugate("commit unconventional violence against", "past") == "committed unconventional violence against"
    assert conjugate("go on a visit to", "past") == "went on a visit to"
    assert conjugate("speak out against", "past") == "spoke out against"
    assert conjugate("put out a statement on", "past") == "put out a statement on"
    assert conjugate("hold phone talks with", "ing") == "holding phone talks with"
    assert conjugate("sue", "ing") == "suing" and conjugate("carry out consultations with", "past") == (
        "carried out consultations with")


def test_relation_forms():
    slam = relation_forms("Criticize_or_denounce")[0]
    assert (slam.base, slam.past, slam.base.ger, slam.base.pp, slam.base.nom) == (
        "slam", "slammed", "slamming", "slammed by", "condemnation of")
    welcome = relation_forms("Host_a_visit")[1]  # X welcomed a visit by Y = X hosted Y
    assert (welcome.past, welcome.base.pp) == ("welcomed a visit by", "received by")
    # outside this set's table: dev3's table, then the lexicon phrase with rule-made forms
    odd = relation_forms("Engage_in_mass_killings")[0]
    assert odd.base.ger.startswith("engaging in mass killings") and odd.base.pp.endswith(" by")
    assert str(relation_forms("Torture")[0].past) == "tortured"


def test_relation_table_matches_the_real_kg(real_kg_table):
    """Every paraphrased relation exists in the KG (a typo would silently fall back), every
    passive ends in an agent word, and no paraphrase is shared by two relations."""
    t = relation_table()
    assert set(t) <= set(real_kg_table.relations), set(t) - set(real_kg_table.relations)
    owner: dict[tuple[str, str], str] = {}
    for rel in t:
        for p in relation_forms(rel):
            assert p.base.agent in ("by", "from", "with"), (rel, p.base.pp)
            for key in (("verb", str(p.base)), ("passive", p.base.pp), ("noun", p.base.nom)):
                assert owner.setdefault(key, rel) == rel, (rel, key, owner[key])


def test_extra_sector_forms():
    assert phrasings_dev5.actor_forms("Scholar (Ghana)") == ["a Ghanaian scholar", "a scholar in Ghana"]
    settlers = phrasings_dev5.actor_forms("Settler (Israel)")
    assert settlers[0] == "Israeli settlers" and settlers[0].be == "were" and settlers[0].it == "them"
    fin = phrasings_dev5.actor_forms("Finance / Economy / Commerce / Trade Ministry (Armenia)")
    assert fin[1] == "Armenia's economy ministry" and fin[1].its == "its" and fin[1].be == "was"
    assert phrasings_dev5.actor_forms("Economist (Australia)")[0] == "an Australian economist"
    assert phrasings_dev5.actor_forms("Member of Legislative (Govt) (France)")[0] == "a French legislator"
    # not this set's sector or country: dev3's forms / the display name
    assert phrasings_dev5.actor_forms("Police (Kenya)")[0] == "the Kenyan police"
    assert phrasings_dev5.actor_forms("Peacekeeping Troop (African Union)") == ["Peacekeeping Troop (African Union)"]


def test_actor_forms_name_one_entity(real_kg_table):
    """No form this set writes for a sector actor is another KG entity's name, and no two
    entities share a form (dev3's sector forms included)."""
    names = [e.replace("_", " ") for e in real_kg_table.entities]

    def norm(x: str) -> str:
        return re.sub(r"^(the|a|an) ", "", x.lower())

    by_name = {norm(n): n for n in names}
    owner: dict[str, str] = {}
    extra = set(phrasings_dev5.sector_table())
    checked = 0
    for n in names:
        m = phrasings_dev3._SECTOR_RE.match(n)
        if not m:
            continue
        forms = phrasings_dev5.actor_forms(n)
        if [str(f) for f in forms] == [n]:
            continue
        for f in forms:
            key = norm(f)
            assert by_name.get(key, n) == n, (n, f, by_name.get(key))
            assert owner.setdefault(key, n) == n, (n, f, owner[key])
        checked += m.group(1).replace(" ", "_") in extra
    assert checked > 300  # the extra sectors are in use on the real KG


@pytest.fixture(scope="module")
def dev5_records(real_kg_table):
    return generate(real_kg_table, 720, seed=7, phrasing_set="dev5")


def test_dev5_generates_a_full_mixed_set_with_oracle_gold(real_kg_table, dev5_records):
    recs = dev5_records
    assert len(recs) == 720
    assert Counter(r["qtype"] for r in recs) == {q: 120 for q in QTYPES}
    check_generated(recs, real_kg_table, "dev5")
    # explicit-date references at every level, equal_multi at every granularity
    levels = Counter((r["qtype"], r["time_level"]) for r in recs
                     if r["qtype"] == "equal_multi" or r["spec"]["anchor_time"] is not None)
    for qtype in ("before_after", "equal_multi"):
        for g in ("day", "month", "year"):
            assert levels[(qtype, g)] > 0, (qtype, g)
    # time answers at every level (equal / first_last / after_first / before_last)
    assert {r["time_level"] for r in recs if r["answer_type"] == "time"} == {"day", "month", "year"}


@pytest.fixture(scope="module")
def first_choice(real_kg_table):
    return first_choice_generator(real_kg_table, "dev5")


def test_hand_checked_renderings(real_kg_table, first_choice):
    gen = first_choice
    e = {n: i for i, n in enumerate(real_kg_table.entities)}
    r = {n: i for i, n in enumerate(real_kg_table.relations)}
    visit, criticise = r["Make_a_visit"], r["Criticize_or_denounce"]
    appeal = r["Make_an_appeal_or_request"]
    danish_fm, iran, china, japan = e["Foreign_Affairs_(Denmark)"], e["Iran"], e["China"], e["Japan"]
    police = e["Police_(Kenya)"]

    # the reference as its own sentence, anaphoric "before that"
    spec = QSpec("before_after", "entity", (None, visit, iran), anchor_event=(danish_fm, visit, iran), op="before")
    assert gen.render_template("dev5/ba_subj_event/0", spec) == (
        "The Danish foreign ministry visited Iran. Who did the same before that?")
    # a race verb, after = "followed … in"
    spec = QSpec("before_after", "entity", (None, visit, iran), anchor_event=(danish_fm, visit, iran), op="after")
    assert gen.render_template("dev5/ba_subj_event/1", spec) == (
        "Who followed the Danish foreign ministry in visiting Iran?")
    # in-situ object with a clause reference and pronoun agreement (plural actor)
    spec = QSpec("before_after", "entity", (police, criticise, None), anchor_event=(police, criticise, china),
                 op="before")
    assert gen.render_template("dev5/ba_obj_event/1", spec) == (
        "The Kenyan police slammed whom before they slammed China?")
    # explicit date at month level, "after the end of"
    may = date(2010, 5, 17).toordinal()
    spec = QSpec("before_after", "entity", (china, appeal, None), anchor_time=coarsen(may, may, "month"),
                 op="after", time_level="month")
    gen_words = gen._pick
    try:
        gen._pick = lambda seq: seq[-1] if seq and hasattr(seq[0], "race") else seq[0]  # last after-row
        assert gen.render_template("dev5/ba_obj_time/0", spec, {"t": may, "g": "month"}) == (
            "Whom did China call on after the end of May 2010?")
    finally:
        gen._pick = gen_words
    # equal_multi: passive reference clause, in-situ object, month granularity
    spec = QSpec("equal_multi", "entity", (china, visit, None), anchor_event=(japan, criticise, iran),
                 op="equal", granularity="month", time_level="month")
    assert gen.render_template("dev5/em_obj_event/2", spec, {"g": "month"}) == (
        "China visited whom in the same month that Iran was slammed by Japan?")
    # equal_multi: "the day that saw" with a nominal reference, day granularity
    spec = QSpec("equal_multi", "entity", (None, visit, iran), anchor_event=(japan, criticise, china),
                 op="equal", granularity="day", time_level="day")
    assert gen.render_template("dev5/em_subj_event/3", spec, {"g": "day"}) == (
        "Which actor visited Iran on the day that saw the condemnation of China by Japan?")
    # equal_multi with an offset, the reference as its own sentence
    spec = QSpec("equal_multi", "entity", (china, visit, None), anchor_event=(japan, criticise, iran),
                 op="after", offset=3)
    assert gen.render_template("dev5/em_obj_offset/0", spec, {"N": 3}) == (
        "Japan slammed Iran. 3 days later, who did China visit?")


def test_date_styles_ord_and_abbr():
    """The two date styles this set added to ``lexicon.render_time`` (other sets keep theirs)."""
    from tkgqa_ray.data.lexicon import in_time, render_time

    d = date(2011, 9, 22).toordinal()
    assert [render_time(d, g, "ord") for g in ("day", "month", "year")] == [
        "the 22nd of September 2011", "September of 2011", "the year 2011"]
    assert [render_time(d, g, "abbr") for g in ("day", "month", "year")] == ["Sept. 22, 2011", "Sept. 2011", "2011"]
    assert in_time(d, "year", "ord") == "in the year 2011" and in_time(d, "day", "abbr") == "on Sept. 22, 2011"
    assert [render_time(date(2011, 5, n).toordinal(), "day", "ord") for n in (1, 2, 3, 11, 12, 13, 21, 23, 31)] == [
        f"the {n} of May 2011" for n in ("1st", "2nd", "3rd", "11th", "12th", "13th", "21st", "23rd", "31st")]
    assert render_time(d, "month", "text") == "September 2011"  # the existing styles are unchanged


def test_country_adjective_as_event_determiner(real_kg_table, first_choice):
    gen = first_choice
    e = {n: i for i, n in enumerate(real_kg_table.entities)}
    r = {n: i for i, n in enumerate(real_kg_table.relations)}
    visit, criticise = r["Make_a_visit"], r["Criticize_or_denounce"]
    china, japan, iran = e["China"], e["Japan"], e["Iran"]
    spec = QSpec("equal_multi", "entity", (china, visit, None), anchor_event=(japan, criticise, iran),
                 op="after", offset=3)
    assert gen.render_template("dev5/em_obj_offset/8", spec, {"N": 3}) == (
        "3 days after the Japanese condemnation of Iran, whom did China visit?")
    police = phrasings_dev5.actor_forms("Police (Kenya)")[0]
    assert police.attr == "the Kenyan police's"  # not a country: the possessive
