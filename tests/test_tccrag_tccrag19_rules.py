"""TCC-RAG round tccrag19: rules SCoP / nlu already had, now read by TCC-RAG too.

* **group members** (refs24): an exact plain KG name X that is no place keeps the KG's
  ``<Sector>_(X)`` actors as further readings (``nlu.actors.group_members``, shared with SCoP's
  alignment): "the Liberty Front visited Kenya" is filed under Militant_(Liberty_Front);
* **one occasion** (refs24): of two near-tie readings of a reference clause's phrase with the
  same names, the one whose event happened on one day is the occasion when the best one's
  happened on several ("threatened": Threaten three times, Threaten_non-force once);
* **pronoun-only reference clauses** (refs25, nlu.analysis._pronoun_refs): "after **it**
  imposed sanctions on **them**" is a full event of the main clause's names by agreement; the
  arbiter sees both grounding paths' surfaces of an entity;
* **"his cabinet"** (refs24, nlu's every-country reading): of a full reference event's tied
  candidates, those with a KG event with the other name come first.

Tiny hand-built KG, questions written for these tests, answers checked by hand."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.scop import alignment
from tkgqa_ray.methods.tccrag.method import ALT_PER_SLOT, _kg_first, _one_occasion, _pronoun_clause, _reference
from tkgqa_ray.methods.tccrag.parsing import MEMBER_SCORE, with_group_members
from tkgqa_ray.nlu.actors import group_members

ROWS = [
    # group members: the Liberty Front's militants visited Kenya (2010-04-01); the Front itself
    # only made a statement; Uganda criticised Kenya before and after the visit
    ("Militant_(Liberty_Front)", "Make_a_visit", "Kenya", "2010-04-01"),
    ("Liberty_Front", "Make_statement", "Kenya", "2010-01-01"),
    ("Uganda", "Criticize_or_denounce", "Kenya", "2010-02-10"),
    ("Uganda", "Criticize_or_denounce", "Kenya", "2010-06-10"),
    # one occasion: Kenyans threatened the Front three times, and once without force (2010-03-01);
    # they appealed to the Kenyan police after the first threat, to the president after the one
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2009-01-01"),
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2010-06-01"),
    ("Citizen_(Kenya)", "Threaten", "Liberty_Front", "2011-01-01"),
    ("Citizen_(Kenya)", "Threaten_non-force", "Liberty_Front", "2010-03-01"),
    ("Citizen_(Kenya)", "Make_an_appeal_or_request", "Police_(Kenya)", "2009-02-01"),
    ("Citizen_(Kenya)", "Make_an_appeal_or_request", "Head_of_Government_(Kenya)", "2010-03-20"),
    # pronoun-only clause: Rwanda's government imposed sanctions on its citizens once (2012-05-01);
    # the citizens appealed to the government in 2011 and 2013
    ("Government_(Rwanda)", "Impose_administrative_sanctions", "Citizen_(Rwanda)", "2012-05-01"),
    ("Citizen_(Rwanda)", "Make_an_appeal_or_request", "Government_(Rwanda)", "2011-03-01"),
    ("Citizen_(Rwanda)", "Make_an_appeal_or_request", "Government_(Rwanda)", "2013-03-01"),
    # "his cabinet": Steven Smith spoke about Kenya's cabinet once (2010-05-05); four other
    # countries' cabinets exist (before Kenya's in id order); he criticised Peru before, Chile after
    ("Cabinet_/_Council_of_Ministers_/_Advisors_(Peru)", "Make_statement", "Peru", "2010-05-06"),
    ("Cabinet_/_Council_of_Ministers_/_Advisors_(Chile)", "Make_statement", "Chile", "2010-05-06"),
    ("Cabinet_/_Council_of_Ministers_/_Advisors_(Uganda)", "Make_statement", "Uganda", "2010-05-06"),
    ("Cabinet_/_Council_of_Ministers_/_Advisors_(Burundi)", "Make_statement", "Burundi", "2010-05-06"),
    ("Steven_Smith", "Make_statement", "Cabinet_/_Council_of_Ministers_/_Advisors_(Kenya)", "2010-05-05"),
    ("Steven_Smith", "Criticize_or_denounce", "Peru", "2010-04-01"),
    ("Steven_Smith", "Criticize_or_denounce", "Chile", "2010-06-01"),
]



def _id(ctx, name):
    return ctx.table.entity_id[name]


# ----------------------------------------------------------------------------- group members
def test_group_members_is_shared_with_scop(ctx):
    t = ctx.table
    assert alignment._group_members is group_members  # SCoP's alignment imports the nlu function
    members = group_members(t)
    assert [t.entities[i] for i in members[_id(ctx, "Liberty_Front")]] == ["Militant_(Liberty_Front)"]
    assert _id(ctx, "Kenya") not in members  # a place's sectors are the actor grammar's


def test_with_group_members_appends_below_the_name(ctx):
    t = ctx.table
    front, mil = _id(ctx, "Liberty_Front"), _id(ctx, "Militant_(Liberty_Front)")
    assert with_group_members([(front, 1.0)], t) == [(front, 1.0), (mil, MEMBER_SCORE)]
    kenya = _id(ctx, "Kenya")
    assert with_group_members([(kenya, 1.0)], t) == [(kenya, 1.0)]  # no place's citizens
    assert with_group_members([(front, 1.0), (mil, 0.7)], t) == [(front, 1.0), (mil, 0.7)]  # already there


def test_the_kg_decides_for_the_member(ctx):
    pred, tr = top(ctx, "When did Uganda first criticise Kenya after the Liberty Front visited Kenya?")
    assert pred == ["2010-06-10"]
    assert tr["chain"]["reading"]["entity_reading"]["reference"][0] == "Militant_(Liberty_Front)"


# ----------------------------------------------------------------------------- one occasion
def _tbl(starts):
    return SimpleNamespace(start=np.asarray(starts))


def test_one_occasion_moves_the_single_day_reading_first():
    t = _tbl([10, 20, 30, 15])
    many, once = np.array([0, 1, 2]), np.array([3])
    r = [(1, False), (2, False)]
    assert _one_occasion(t, [many, once], r, (0.95, 0.93))[0] is once
    assert _one_occasion(t, [many, once], r, (0.95, 0.85))[0] is many  # not a good fit of the phrase
    assert _one_occasion(t, [many, once], r, (0.99, 0.93))[0] is many  # no near tie
    assert _one_occasion(t, [many, once], [(1, False), (2, True)], (0.95, 0.93))[0] is many  # other direction
    assert _one_occasion(t, [once, many], r, (0.95, 0.93))[0] is once  # the best is one occasion already
    assert _one_occasion(t, [many, once], r, ())[0] is many  # no scores (a pro-verb clause)


def test_one_occasion_bounds_the_chain(ctx):
    pred, tr = top(ctx, "After Kenyans threatened the Liberty Front, whom did they first make an appeal to?")
    assert [tuple(b) for b in tr["chain"]["boundary"]] == [(733832, 733832)]  # 2010-03-01: the one occasion
    assert pred == ["Head of Government (Kenya)"]  # not the police, appealed to after the first Threaten day


# ----------------------------------------------------------------------------- pronoun-only clause
def test_pronoun_clause_takes_nlus_names():
    ents = [{"name": "Citizen (Rwanda)", "start": 18, "end": 34}, {"name": "Government (Rwanda)", "start": 51, "end": 67}]
    assert _pronoun_clause(ents, ((51, 67), (18, 34)), (68, 110)) == ["Government (Rwanda)", "Citizen (Rwanda)"]
    assert _pronoun_clause(ents, ((51, 67),), (68, 110)) is None  # one name only
    assert _pronoun_clause(ents[:1], ((51, 67), (18, 34)), (68, 110)) is None  # not grounded
    clauses = [((68, 110), "imposed administrative sanctions on", (62, 67), ((51, 67), (18, 34)))]
    ref = _reference("x" * 120, ents, (62, 67), clauses)
    assert ref["entities"] == ["Government (Rwanda)", "Citizen (Rwanda)"] and ref["phrase"]


def test_pronoun_clause_bounds_the_chain(ctx):
    pred, tr = top(ctx, "In which year did Rwanda's citizens first appeal to their government after it imposed "
                        "administrative sanctions on them?")
    assert tr["parse"]["reference"] == ["Government (Rwanda)", "Citizen (Rwanda)"]
    assert pred == ["2013"]


# ----------------------------------------------------------------------------- "his cabinet"
def test_kg_first_orders_tied_candidates_by_evidence(ctx):
    t = ctx.table
    cabs = [_id(ctx, f"Cabinet_/_Council_of_Ministers_/_Advisors_({c})") for c in ("Peru", "Chile", "Uganda", "Burundi", "Kenya")]
    own = [[e, 0.72] for e in cabs]
    smith, stmt = _id(ctx, "Steven_Smith"), t.relation_id["Make_statement"]
    assert _kg_first(t, own, smith, {stmt})[0][0] == cabs[-1]
    assert _kg_first(t, own[:ALT_PER_SLOT], smith, {stmt}) == own[:ALT_PER_SLOT]  # all tried anyway
    ranked = [[cabs[0], 0.9]] + own[1:]
    assert _kg_first(t, ranked, smith, {stmt}) == ranked  # not tied with the best: kept
    assert _kg_first(t, own, smith, {t.relation_id["Criticize_or_denounce"]}) == own  # no such event


def test_his_cabinet_lets_the_kg_decide(ctx):
    pred, _ = top(ctx, "After Steven Smith made a statement about his cabinet, who did he first criticise?")
    assert pred == ["Chile"]
