"""TCC-RAG round tccrag8 (dev11's TCC-RAG misses): rules of TCC-RAG's own stages.

* main-clause pronoun of a full reference event: a time question whose main clause writes
  a participant as a personal pronoun ("After X consulted Y, in what year did Z first host
  **him**?", "..., what year did **they** first consult W?", "when had **they** last
  consulted **them**?") has that slot filled by the reference name the pronoun stands for
  (agreement, then the same slot); before, the chain read every event of the one named
  participant and its first / last was another event's time.
* gerund reference clause: "after **appealing** to X", "before **rejecting** X" has no
  subject of its own; its understood subject is the main subject (English's reading of an
  adverbial gerund), so the clause is a full event of the main subject, tried first.
* a one-name reference clause of a subject-asking question whose unnamed participant is the
  main object ("... in the same year Japan rejected **their** demands", "... used force
  against **the police**"): the event (clause name, clause relation, main object).

Tiny hand-built KGs, questions written for these tests, answers checked by hand."""

from __future__ import annotations

import pytest

from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace

ROWS = [
    # Obama consulted Japan on 2010-01-01; Merkel hosted Obama before and after it, and Chad
    # in between (the first host of anyone after the consultation: 2010)
    ("Barack_Obama", "Consult", "Japan", "2010-01-01"),
    ("Angela_Merkel", "Host_a_visit", "Barack_Obama", "2009-01-01"),
    ("Angela_Merkel", "Host_a_visit", "Chad", "2010-06-01"),
    ("Angela_Merkel", "Host_a_visit", "Barack_Obama", "2012-01-01"),
    # China visited Kenya on 2011-01-01; Kenya consulted Chad after it (2011), China in 2013
    ("China", "Make_a_visit", "Kenya", "2011-01-01"),
    ("Kenya", "Consult", "Chad", "2011-05-01"),
    ("China", "Consult", "Chad", "2013-03-01"),
    # Kenyan citizens commented on the Kenyan police on 2012-06-01; they consulted them before
    # (2012-02-01) and after it; the police consulted the citizens in between (the converse)
    ("Citizen_(Kenya)", "Make_statement", "Police_(Kenya)", "2012-06-01"),
    ("Citizen_(Kenya)", "Consult", "Police_(Kenya)", "2012-02-01"),
    ("Police_(Kenya)", "Consult", "Citizen_(Kenya)", "2012-04-01"),
    ("Citizen_(Kenya)", "Consult", "Police_(Kenya)", "2012-09-01"),
]



# ----------------------------------------------------------------------------- main-clause pronouns
def test_object_pronoun_of_the_main_clause_is_a_reference_name(ctx):
    pred, tr = top(ctx, "After Barack Obama consulted Japan, in what year did Angela Merkel first host him?")
    assert pred == ["2012"], tr  # without the rule: Merkel's first host of anyone, Chad (2010)
    assert tr["parse"]["object"] == "Barack Obama", tr


def test_subject_pronoun_of_the_main_clause_takes_the_same_slot_among_equals(ctx):
    # "it" agrees with China and Kenya alike: the parallel slot, the reference subject
    pred, tr = top(ctx, "After China visited Kenya, what year did it first consult Chad?")
    assert pred == ["2013"], tr  # without the rule: anyone's first consultation of Chad (2011)
    assert tr["parse"]["subject"] == "China", tr


def test_two_pronouns_are_the_two_reference_names(ctx):
    pred, tr = top(ctx, "Before Kenyan citizens commented on the Kenyan police, when had they last consulted them?")
    assert pred == ["2012-02-01"], tr  # without the rule: no anchor at all
    assert (tr["parse"]["subject"], tr["parse"]["object"]) == ("Citizen (Kenya)", "Police (Kenya)"), tr


def _ent(name, mention):
    return {"name": name, "mention": mention, "start": 0, "end": 1}


@pytest.mark.parametrize("main,subj,obj,expected", [
    # agreement over the slot: "him" is the person, not the party
    ("in what month had Heinz Fischer last expressed a wish to cooperate with him?", "Heinz Fischer", None,
     ("Heinz Fischer", "Head of Government (Greece)")),
    # a passive agent's "by them" is no object pronoun; "was it" opens a cleft
    ("when was Heinz Fischer last criticized by them?", "Heinz Fischer", None, ("Heinz Fischer", None)),
    ("when was it that Heinz Fischer last visited?", "Heinz Fischer", None, ("Heinz Fischer", None)),
])
def test_pronoun_slots(main, subj, obj, expected):
    from tkgqa_ray.methods.tccrag.parsing import _pronoun_slots

    refs = ["Democratic Left", "Head of Government (Greece)"]
    ents = [_ent(refs[0], "the Democratic Left"), _ent(refs[1], "the Greek prime minister"),
            _ent("Heinz Fischer", "Heinz Fischer"), _ent("Chad", "Chad")]
    assert _pronoun_slots(main, ents, refs, subj, obj) == expected


def test_subject_pronoun_after_the_inverted_auxiliary():
    from tkgqa_ray.methods.tccrag.parsing import _pronoun_slots

    refs = ["Businessperson (Somalia)", "Cabinet / Council of Ministers / Advisors (Somalia)"]
    ents = [_ent(refs[0], "Somali businesspeople"), _ent(refs[1], "the Somali cabinet"), _ent("Chad", "Chad")]
    assert _pronoun_slots("what year did they first consult Chad?", ents, refs, None, "Chad") == (refs[0], "Chad")
    # no pronoun: nothing filled
    assert _pronoun_slots("what year did Chad first consult?", ents, refs, "Chad", None) == ("Chad", None)


# ----------------------------------------------------------------------------- gerund clauses
GERUND_ROWS = [
    # China criticized Japan on 2010-05-01; its requests: of Japan (2009-01-01, the elliptic
    # reading's event), of Kenya (2009-06-01), of Chad (2010-08-01, the first after the criticism)
    ("China", "Criticize_or_denounce", "Japan", "2010-05-01"),
    ("China", "Make_an_appeal_or_request", "Japan", "2009-01-01"),
    ("China", "Make_an_appeal_or_request", "Kenya", "2009-06-01"),
    ("China", "Make_an_appeal_or_request", "Chad", "2010-08-01"),
    # China rejected Japan on 2012-01-01; its intent to meet Kenya in 2010 and 2013; Japan's
    # intent to meet Kenya in 2014 (the elliptic reading's boundary: the last before it is 2013)
    ("China", "Reject", "Japan", "2012-01-01"),
    ("China", "Express_intent_to_meet_or_negotiate", "Kenya", "2010-03-01"),
    ("China", "Express_intent_to_meet_or_negotiate", "Kenya", "2013-01-01"),
    ("Japan", "Express_intent_to_meet_or_negotiate", "Kenya", "2014-01-01"),
]


@pytest.fixture(scope="module")
def gctx(make_symbolic_ctx):
    return make_symbolic_ctx(GERUND_ROWS, encoder="hashing")


def test_gerund_clause_is_the_main_subjects_event(gctx):
    pred, tr = top(gctx, "After criticizing Japan, who did China first make a request of?")
    assert pred == ["Chad"], tr  # elliptic reading: after the request of Japan, Kenya
    pred, tr = top(gctx, "In what year did China last express intent to meet with Kenya before rejecting Japan?")
    assert pred == ["2010"], tr  # elliptic reading: before Japan's intent to meet Kenya, 2013


@pytest.mark.parametrize("text,expected", [
    (" appealing to ", "gerund"),
    (" rejecting ", "gerund"),
    (" having met ", "gerund"),
    (" being criticized by ", "gerund_passive"),
    (" King ", None),  # a capitalised word is a name's
    (" during the visit of ", None),
    (" the meeting with ", None),  # a noun after a determiner
    (" ", None),
])
def test_gerund_voice(text, expected):
    from tkgqa_ray.methods.tccrag.method import _gerund_voice

    assert _gerund_voice(text) == expected


# ----------------------------------------------------------------------------- converse clause
CONVERSE_ROWS = [
    # Japan rejected Kenyan citizens' demands in 2011; China threatened them in 2011, Chad in
    # 2013; Japan never threatened them (the elliptic reading has no event)
    ("Japan", "Reject", "Citizen_(Kenya)", "2011-04-01"),
    ("China", "Threaten", "Citizen_(Kenya)", "2011-09-01"),
    ("Chad", "Threaten", "Citizen_(Kenya)", "2013-01-01"),
]


@pytest.fixture(scope="module")
def cctx(make_symbolic_ctx):
    return make_symbolic_ctx(CONVERSE_ROWS, encoder="hashing")


def test_unnamed_participant_of_the_clause_is_the_main_object(cctx):
    pred, tr = top(cctx, "Who threatened Kenyan citizens in the same year Japan rejected their demands?")
    assert pred == ["China"], tr  # before: no boundary (Japan never threatened them), no answer
    assert [tuple(b) for b in tr["chain"]["boundary"]] == [(734138, 734502)], tr  # the year 2011
