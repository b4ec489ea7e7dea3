"""Rules of the refs24 round (question structure read by nlu's analysis, answered by SCoP),
found on refs24's structure audit (``/work/scratch/fix/refs24_structs.jsonl``, development
material) and the dev sets' residue. Checked by hand on the author's own questions (none is
copied from a question set) over a tiny hand-made KG, and on the real KG's naming.

* **rule 1, a ranked head noun with a relative pronoun before the name** ("Who were the first
  people **that the Kenyan police** arrested?"): the name is the relative clause's subject and
  the wh-phrase its object, as in the contact clause without "that" ("the last guest X
  hosted"); before, the name was read as the asked event's object. With it, **"whom" is
  whole**: the copula / head-noun patterns of the wh-phrase read "who" as a prefix of "whom"
  ("the first one who|m the police arrested"), so the name no longer followed a relative word;
* **rule 2, a group's own sector actors** (``Armed_Force_(Hellenic_Armed_Forces)`` for "the
  Hellenic Armed Forces"): an exact name X that is no place keeps the KG's ``<Sector>_(X)``
  actors as lower-scored alignment candidates; X's own facts come first, and the KG decides
  when X has none for the clause;
* **rule 3, a reference clause names one occasion**: when the best fact of a reference clause
  is a triple of several days and a near-tie reading of the same phrase with the same names
  is a triple of one day ("threatened": Threaten three times, Threaten_non-force once), the
  one occasion is the event the clause refers to;
* **rule 4, "his / her <sector>" in a question that names no country** ("After Steven Smith
  spoke about **his cabinet**, ..."): a person's KG name has no country, so the sector of
  every country is a candidate, all alike, and the clause's KG facts decide (the person's
  statement was about Kenya's cabinet); "its / their" and a question naming a country keep
  the earlier reading;
* **rule 5, "the paper" opening a reference clause** ("Who had threatened the Times of Zambia
  by the time **the paper** accused X?"): a definite description that agrees with the asked
  event's name is that name, the subject of the reference's own action (as a subject pronoun
  is); "the paper / newspaper" agrees with a KG name with a newspaper title word (``press_*``
  rows of ``data/agreement.tsv``), which the name's own words do not give.
"""

from __future__ import annotations

import numpy as np
import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.alignment import MEMBER_WEIGHT, _group_members, mention_candidates
from tkgqa_ray.methods.scop.symbolic import _occasions, _one_occasion, event_parser
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.anaphora import agreement, features

ROWS = [
    # rule 1: the Kenyan police arrested Kenyan men first (2010-02-01), then Kenyan women;
    # Kenyan citizens "arrested" the police earlier (the wrong direction's answer)
    ("Citizen_(Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Police_(Kenya)", "2009-06-01"),
    ("Police_(Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Men_(Kenya)", "2010-02-01"),
    ("Police_(Kenya)", "Arrest,_detain,_or_charge_with_legal_action", "Women_(Kenya)", "2010-05-01"),
    ("Peru", "Make_a_visit", "Kenya", "2010-01-15"),
    ("Chile", "Make_a_visit", "Kenya", "2010-03-15"),
    # rule 2: the Liberty Front's militants visited Kenya (2010-04-01); the Front itself never did
    ("Militant_(Liberty_Front)", "Make_a_visit", "Kenya", "2010-04-01"),
    ("Liberty_Front", "Make_statement", "Kenya", "2010-01-01"),
    ("Uganda", "Criticize_or_denounce", "Kenya", "2010-02-10"),
    ("Uganda", "Criticize_or_denounce", "Kenya", "2010-06-10"),
    # rule 3: Kenyans threatened the Front three times, and once without force
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2009-01-01"),
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2010-06-01"),
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2011-01-01"),
    ("Citizen_(Kenya)", "Threaten_non-force", "Liberty_Front", "2010-03-01"),
    # rule 4: Steven Smith spoke about Kenya's cabinet once (2010-05-05); he criticised Peru
    # before and Chile after it; Peru's cabinet exists too
    ("Steven_Smith", "Make_statement", "Cabinet_/_Council_of_Ministers_/_Advisors_(Kenya)", "2010-05-05"),
    ("Cabinet_/_Council_of_Ministers_/_Advisors_(Peru)", "Make_statement", "Peru", "2010-05-06"),
    ("Steven_Smith", "Criticize_or_denounce", "Peru", "2010-04-01"),
    ("Steven_Smith", "Criticize_or_denounce", "Chile", "2010-06-01"),
    # rule 5: the Lusaka Times accused Peru on 2010-03-03; Chile threatened the paper before,
    # Peru after
    ("Lusaka_Times", "Accuse", "Peru", "2010-03-03"),
    ("Chile", "Threaten", "Lusaka_Times", "2010-01-20"),
    ("Peru", "Threaten", "Lusaka_Times", "2010-08-20"),
]



# ------------------------------------------------------------------ rule 1
@pytest.mark.parametrize("q", [
    "Who were the first people that the Kenyan police arrested?",
    "Who was the first one whom the Kenyan police arrested?",
])
def test_rule1_relative_clause_name_is_its_subject(ctx, q):
    a = analyze(q, EntityMatcher.for_table(ctx.table))
    assert a.main.open_slot == "object"
    assert answer(ctx, q) == ["Men (Kenya)"]


@pytest.mark.parametrize("masked, end", [
    ("Who was the first one whom the", "Who was the first one whom"),
    ("Who was the first party who visited", "Who was the first party who"),
])
def test_rule1_whom_is_not_who_plus_m(masked, end):
    from tkgqa_ray.nlu.analysis import _wh_span

    assert masked[slice(*_wh_span(masked))] == end


def test_rule1_a_subject_relative_still_asks_the_subject(ctx):
    q = "Who was the first country that visited Kenya?"
    assert analyze(q, EntityMatcher.for_table(ctx.table)).main.open_slot == "subject"
    assert answer(ctx, q) == ["Peru"]


# ------------------------------------------------------------------ rule 2
def test_rule2_members_of_a_group_not_of_a_place(ctx):
    t = ctx.table
    members = _group_members(t)
    front, kenya = t.entity_id["Liberty_Front"], t.entity_id["Kenya"]
    assert [t.entities[i] for i in members[front]] == ["Militant_(Liberty_Front)"]
    assert kenya not in members  # Citizen_(Kenya), Police_(Kenya): the actor grammar's, not the name's


def test_rule2_exact_group_name_keeps_its_members_below_itself(ctx):
    t = ctx.table
    m = EntityMatcher.for_table(t)
    ments = [x for x in m.match("before the Liberty Front visited Kenya") if x.text.endswith("Liberty Front")]
    c = mention_candidates(ments, t)[ments[0].text]
    assert [t.entities[i] for i in c.ids] == ["Liberty_Front", "Militant_(Liberty_Front)"]
    assert list(c.scores) == [1.0, MEMBER_WEIGHT]
    assert len(mention_candidates(ments)[ments[0].text].ids) == 1  # no table: the name alone


def test_rule2_the_kg_decides_for_the_member(ctx):
    # the Front never visited Kenya; its militants did, on 2010-04-01
    assert answer(ctx, "Who criticised Kenya after the Liberty Front visited Kenya?") == ["Uganda"]
    assert answer(ctx, "When did Uganda first criticise Kenya after the Liberty Front visited Kenya?") == ["2010-06-10"]


def test_rule2_members_vary_no_alternative_reading(ctx):
    from tkgqa_ray.methods.scop.alignment import SlotCands, alternative_readings
    from tkgqa_ray.methods.scop.types import Triple

    t = ctx.table
    m = EntityMatcher.for_table(t)
    ments = [x for x in m.match("after the Liberty Front visited Kenya") if x.text.endswith("Liberty Front")]
    ec = mention_candidates(ments, t)
    assert ec[ments[0].text].members == 1
    tri = Triple(ments[0].text, "visited", "Kenya")
    rc = {"visited": SlotCands(np.asarray([t.relation_id["Make_a_visit"]]), np.asarray([0.95]))}
    ec["Kenya"] = SlotCands(np.asarray([t.entity_id["Kenya"]]), np.asarray([1.0]), True)
    alts = alternative_readings([tri], None, [tri], None, ec, rc, t)
    assert all(r.reading.anchors[0].s != "Militant_(Liberty_Front)" for r in alts)


def test_rule2_real_kg_hellenic_armed_forces(real_kg_table):
    t = real_kg_table
    members = _group_members(t)
    assert "Armed_Force_(Hellenic_Armed_Forces)" in [t.entities[i] for i in members[t.entity_id["Hellenic_Armed_Forces"]]]
    assert t.entity_id["China"] not in members and t.entity_id["Greece"] not in members if "Greece" in t.entity_id else True
    assert 50 <= len(members) <= 100  # 68 non-place group names in ICEWS05-15


# ------------------------------------------------------------------ rule 3
def _fact(r, sim):
    return {"s": "Citizen_(Kenya)", "r": r, "o": "Liberty_Front", "score": 2.0 + sim, "sims": [1.0, sim, 1.0], "reversed": False}


def test_rule3_occasions_count_days(ctx):
    assert _occasions(ctx, _fact("Threaten", 0.98)) == 3
    assert _occasions(ctx, _fact("Threaten_non-force", 0.97)) == 1
    assert _occasions(ctx, _fact("Make_a_visit", 0.5)) == 0


def test_rule3_near_tie_single_occasion_wins(ctx):
    got = _one_occasion(ctx, [_fact("Threaten", 0.98), _fact("Threaten_non-force", 0.965)])
    assert got is not None and got["r"] == "Threaten_non-force"


def test_rule3_a_far_reading_or_a_single_best_keeps_the_best(ctx):
    assert _one_occasion(ctx, [_fact("Threaten", 0.98), _fact("Threaten_non-force", 0.80)]) is None
    assert _one_occasion(ctx, [_fact("Threaten_non-force", 0.98), _fact("Threaten", 0.97)]) is None
    # a loose phrase's close readings are no synonyms: the best stays
    assert _one_occasion(ctx, [_fact("Threaten", 0.70), _fact("Threaten_non-force", 0.69)]) is None


# ------------------------------------------------------------------ rule 4
def test_rule4_his_sector_is_any_countrys(ctx):
    q = "After Steven Smith made a statement about his cabinet, whom did he first criticise?"
    a = analyze(q, EntityMatcher.for_table(ctx.table))
    (ref,) = a.refs
    his = [m for m in ref.mentions if m.text == "his cabinet"]
    assert his and {"Cabinet_/_Council_of_Ministers_/_Advisors_(Kenya)", "Cabinet_/_Council_of_Ministers_/_Advisors_(Peru)"} <= set(his[0].names)
    assert len(set(his[0].scores)) == 1  # all alike: the KG decides
    assert answer(ctx, q) == ["Chile"]


@pytest.mark.parametrize("q", [
    "After Steven Smith made a statement about its cabinet, whom did he first criticise?",
    "After Steven Smith made a statement about their cabinet, whom did he first criticise?",
])
def test_rule4_its_their_keep_no_country(ctx, q):
    a = analyze(q, EntityMatcher.for_table(ctx.table))
    assert not any(m.text.endswith("cabinet") for c in [a.main, *a.refs] for m in c.mentions)


# ------------------------------------------------------------------ rule 5
def test_rule5_paper_agrees_with_a_newspaper_title():
    assert agreement("the paper", features("the Lusaka Times", "Lusaka_Times")) == 2
    assert agreement("the newspaper", features("the Lusaka Times", "Lusaka_Times")) == 2
    assert agreement("the paper", features("Kenya", "Kenya")) == 0
    assert agreement("the paper", features("the Liberty Front", "Liberty_Front")) == 0


def test_rule5_opening_description_is_the_asked_name(ctx):
    q = "Who had threatened the Lusaka Times by the time the paper accused Peru?"
    assert event_parser({"question": q}, ctx)["anchors"][0][:1] == ["Lusaka Times"]
    assert answer(ctx, q) == ["Chile"]
