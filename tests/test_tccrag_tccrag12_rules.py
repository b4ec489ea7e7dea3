"""TCC-RAG round tccrag12: rules of TCC-RAG's own stages.

* an organisation named without its place ("Congress") that a grounding tier reads as one
  place's ("Congress (United States)") is also read as the question's other places' (the KG
  has one per place: "Congress (Brazil)"), a further entity reading the KG decides;
* a capitalised temporal subordinator or adverb opening a sentence ("**Once** John Mahama had
  visited Angola, ...") opens no name proposal of the mention extractor (path B);
* an object pronoun of a reference clause that two main-clause names agree with equally
  ("Yemen ... the UNHCR ... before X praised **it**") reads the preferred one first and the
  other as a further entity reading of its slot;
* "the country" written before a one-name reference clause's name ("prior to a visit to
  **the country** by a South Korean governor") refers back to the main clause's country, as
  it does after the name.

Tiny hand-built KGs, questions written for these tests, answers checked by hand."""

from __future__ import annotations


from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.tccrag.parsing import capitalised_runs, other_places

ROWS = [
    # two congresses: the US one (the bare name's usual reading) and Brazil's; Brazilian
    # citizens were pessimistic about Brazil's congress on 2006-03-01, never about the US one;
    # the Brazilian army used force against them in 2005 (before) and 2006-07 (after)
    ("Citizen_(Brazil)", "Make_pessimistic_comment", "Congress_(Brazil)", "2006-03-01"),
    ("Military_(Brazil)", "Use_conventional_military_force", "Citizen_(Brazil)", "2005-02-01"),
    ("Military_(Brazil)", "Use_conventional_military_force", "Citizen_(Brazil)", "2006-07-01"),
    ("Congress_(United_States)", "Make_statement", "Barack_Obama", "2009-01-01"),
    # John Dramani Mahama visited Angola on 2012-05-01, Nigeria before (2012-01-01) and Togo after it
    ("John_Dramani_Mahama", "Make_a_visit", "Angola", "2012-05-01"),
    ("John_Dramani_Mahama", "Make_a_visit", "Nigeria", "2012-01-01"),
    ("John_Dramani_Mahama", "Make_a_visit", "Togo", "2012-06-01"),
    ("Chee_Soon_Juan", "Make_statement", "Malaysia", "2011-01-01"),
    # Catherine Ashton praised Yemen on 2014-03-01 (never the UNHCR); Yemen cooperated
    # diplomatically with the UNHCR in 2012 and 2013 (before) and 2015 (after)
    ("Catherine_Ashton", "Praise_or_endorse", "Yemen", "2014-03-01"),
    ("Yemen", "Engage_in_diplomatic_cooperation", "High_Commission_for_Refugees", "2012-06-01"),
    ("Yemen", "Engage_in_diplomatic_cooperation", "High_Commission_for_Refugees", "2013-06-01"),
    ("Yemen", "Engage_in_diplomatic_cooperation", "High_Commission_for_Refugees", "2015-06-01"),
    # a South Korean governor visited Thailand on 2010-05-01; Thailand gave humanitarian aid to
    # its citizens before (2010-03-01) and to Myanmar after it (2010-08-01)
    ("Governor_(South_Korea)", "Make_a_visit", "Thailand", "2010-05-01"),
    ("Thailand", "Provide_humanitarian_aid", "Citizen_(Thailand)", "2010-03-01"),
    ("Thailand", "Provide_humanitarian_aid", "Myanmar", "2010-08-01"),
]



# ----------------------------------------------------------------------------- other places
def test_other_places(ctx):
    ids = ctx.table.display_entity_id
    us, br = ids["Congress (United States)"], ids["Congress (Brazil)"]
    places = ["Brazil", "United States"]
    assert other_places("Congress", [(us, 0.9)], places, ctx.table) == [(us, 0.9), (br, 0.85)]
    assert other_places("the Congress", [(us, 0.9)], places, ctx.table) == [(us, 0.9), (br, 0.85)]
    # the best candidate is no "<mention> (<place>)" name: nothing added
    assert other_places("Obama", [(ids["Barack Obama"], 0.9)], places, ctx.table) == [(ids["Barack Obama"], 0.9)]
    assert other_places("Congress", [], places, ctx.table) == []


def test_bare_organisation_name_reads_the_questions_place(ctx, monkeypatch):
    import tkgqa_ray.methods.tccrag.method as M

    us = ctx.table.display_entity_id["Congress (United States)"]
    real = M.match_mention_candidates

    def us_congress(mentions, c):  # the embedding tier's reading of the bare name (real KG)
        return [(m, [(us, 0.86)], "embedding") if m == "Congress" else hit for m, hit in
                zip(mentions, [(m, cs, how) for m, cs, how in real(mentions, c)])]

    monkeypatch.setattr(M, "match_mention_candidates", us_congress)
    pred, tr = top(ctx, "In which year did the Brazilian army first use force against civilians after Brazilians "
                        "were pessimistic about Congress?")
    # without the rule: the clause reads the US congress only (no such comment): no boundary
    assert pred == ["2006"], tr
    assert tr["chain"]["reading"]["entity_reading"]["reference"][1] == "Congress_(Brazil)"


# ----------------------------------------------------------------------------- sentence openers
def test_a_capitalised_subordinator_opens_no_name():
    q = "Once John Mahama had made a visit to Angola, what was the first place he visited?"
    assert [q[a:b] for a, b in capitalised_runs(q)] == ["John Mahama", "Angola"]
    q = "As Iran visited China, who visited Chee Soon Juan?"
    assert [q[a:b] for a, b in capitalised_runs(q)] == ["Iran", "China", "Chee Soon Juan"]


def test_once_clause_keeps_its_subject(ctx):
    pred, tr = top(ctx, "Once John Mahama had made a visit to Angola, what was the first place he visited?")
    # without the rule: "Once John Mahama" grounds to nothing, the clause is Angola alone and
    # the main clause has no anchor
    assert pred == ["Togo"], tr
    assert tr["parse"]["reference"] == ["John Dramani Mahama", "Angola"]


# ----------------------------------------------------------------------------- equal antecedents
def test_an_equally_agreeing_name_is_a_further_reading(ctx):
    pred, tr = top(ctx, "In which year did Yemen last engage in diplomatic cooperation with the UNHCR before "
                        "Catherine Ashton praised it?")
    # without the rule: "it" is the UNHCR only (the main object first), never praised by
    # Ashton: an unresolved boundary; Yemen, a country, is "it" as well
    assert pred == ["2013"], tr
    assert tr["chain"]["reading"]["entity_reading"]["reference"] == ["Catherine_Ashton", "Yemen"]


# ----------------------------------------------------------------------------- description before the name
def test_country_description_before_the_clause_name(ctx):
    pred, tr = top(ctx, "To whom had Thailand most recently provided humanitarian aid prior to a visit to the country "
                        "by a South Korean governor?")
    # without the rule: the clause is the governor alone (Thailand's aid to the governor, or its
    # visit to the governor: none), an unresolved boundary
    assert pred == ["Citizen (Thailand)"], tr
    assert tr["parse"]["reference"] == ["Governor (South Korea)", "Thailand"]
