"""Rules of the refs30 round (question structure, dev21), checked by hand on the author's own
phrasings over a tiny hand-made KG.

* **rule 1, "was it <adjective> <preposition>?" is no cleft** (analysis._main_pronouns): the
  "it" of "whom else was it pessimistic about?" is the main clause's subject pronoun (a name of
  the reference), not the dummy of "who was it that ...";
* **rule 2, "that intent" / "such aid"** (analysis.SAME_ACTION_RE): an anaphor naming the kind
  of the reference's act; the main clause takes the reference's own phrase;
* **rule 3, a possessive pronoun after a role noun** (analysis._role_possessive): "the last
  subject of its statements" — the possessor is the doer, the role noun asks the object;
* **rule 4, a possessed agent noun** (analysis._possessed_agent_noun): "Chile's first visitor"
  is the first to visit Chile: the wh-phrase asks the doer;
* **rule 5, "destination"** (analysis._ROLE_OF_RE): the destination of X's visits is their
  object, X their doer;
* **rule 6, an event clause without commas before "on / in which"**
  (temporal.INTERPOSED_REF): "the first date after X did Y on which Z ..." asks a time;
* **rule 7, "saw <name> <verb>"** (analysis._ref_region): "Which years after X did Y saw Z
  praise W?" — the fronted reference ends before "saw", the asked event is Z's.
"""

from __future__ import annotations

import re

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.method import SCoP
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.analysis import _STRANDED_PREDICATE_RE, SAME_ACTION_RE, _possessed_agent_noun, _role_possessive
from tkgqa_ray.nlu.temporal import _INTERPOSED_EVENT_BARE, infer_answer_type

ROWS = [
    # rule 1
    ("Kenya", "Make_pessimistic_comment", "Chile", "2011-02-02"),
    ("Kenya", "Make_pessimistic_comment", "Bolivia", "2011-06-06"),
    ("Ecuador", "Make_pessimistic_comment", "Chile", "2011-04-04"),
    # rule 3
    ("Peru", "Make_statement", "Bolivia", "2010-01-01"),
    ("Peru", "Make_statement", "Ecuador", "2010-05-05"),
    ("Peru", "Make_statement", "Chile", "2010-09-09"),
    ("Kenya", "Make_statement", "Chile", "2010-07-07"),
    # rules 4, 5, 6, 7
    ("Chile", "Make_a_visit", "Kenya", "2009-01-01"),
    ("Peru", "Make_a_visit", "Chile", "2010-03-03"),
    ("Peru", "Make_a_visit", "Bolivia", "2010-06-06"),
    ("Ecuador", "Make_a_visit", "Peru", "2009-05-05"),
    ("Kenya", "Praise_or_endorse", "Peru", "2009-01-01"),
    ("Kenya", "Praise_or_endorse", "Peru", "2010-05-05"),
    ("Kenya", "Praise_or_endorse", "Peru", "2011-07-07"),
]


def _a(ctx, q):
    return analyze(q, EntityMatcher.for_table(ctx.table))


def _all(ctx, q):
    (row,) = SCoP(ctx)([{"quid": "1", "question": q}])
    return row["predictions"]


# ------------------------------------------------------------------ rule 1
def test_rule1_stranded_predicate_it_is_the_subject(ctx):
    q = "After Kenya made a pessimistic comment about Chile, whom else was it pessimistic about?"
    a = _a(ctx, q)
    assert a.main.pronoun is not None and a.main.open_slot == "object"
    assert a.main.antecedent.names[0] == "Kenya"
    assert answer(ctx, q) == ["Bolivia"]


@pytest.mark.parametrize("tail, expect", [
    (" pessimistic about?", True),
    (" most critical of, after 2010?", True),
    (" that Peru visited first?", False),   # a cleft: "who was it that ..."
    (" Peru visited first?", False),        # (the name is blanked in the masked text: no match)
])
def test_rule1_stranded_predicate_shape(tail, expect):
    assert bool(_STRANDED_PREDICATE_RE.match(tail)) is expect


# ------------------------------------------------------------------ rule 2
@pytest.mark.parametrize("text, expect", [
    ("with whom did he next express that intent?", True),
    ("who was the next to pledge such aid?", True),
    ("who next offered such assistance?", True),
    ("who expressed that intent to meet Peru?", False),  # the noun's own complement: a new act
    ("who provided aid to Peru?", False),
])
def test_rule2_same_action_nouns(text, expect):
    assert bool(SAME_ACTION_RE.search(text)) is expect


def test_rule2_main_clause_takes_the_reference_phrase(ctx):
    q = "After Peru promised economic aid to Chile, who was the next to pledge such aid?"
    a = _a(ctx, q)
    assert a.main.phrase == a.refs[0].phrase


# ------------------------------------------------------------------ rule 3
def test_rule3_possessive_after_role_noun(ctx):
    q = "Before Peru made a statement about Chile, what was the last subject of its statements?"
    a = _a(ctx, q)
    assert a.main.pronoun is not None and a.main.open_slot == "object"
    assert a.main.antecedent.names[0] == "Peru"
    assert answer(ctx, q) == ["Ecuador"]


@pytest.mark.parametrize("masked, expect", [
    ("who was the last subject of his statements?", True),
    ("which party was the target of their criticism?", True),
    ("who was the last subject of his own?", False),   # no action noun after the possessive
    ("who visited his country?", False),               # no role noun before it
])
def test_rule3_role_possessive_shape(masked, expect):
    assert (_role_possessive(masked, []) is not None) is expect


# ------------------------------------------------------------------ rule 4
def test_rule4_possessed_agent_noun_asks_the_doer(ctx):
    q = "Who was Chile's first visitor?"
    assert _a(ctx, q).main.open_slot == "subject"
    assert answer(ctx, q) == ["Peru"]


@pytest.mark.parametrize("tail, expect", [
    ("'s first visitor?", True),
    ("'s last accusers?", True),
    ("'s first leader?", False),          # no "-er" on an action stem of the lexicon
    ("'s visitor from Peru?", False),     # a longer noun phrase
    (" first visitor?", False),           # no possessive
])
def test_rule4_agent_noun_shape(tail, expect):
    assert _possessed_agent_noun("X" + tail, 1) is expect


def test_rule4_patient_noun_unchanged(ctx):
    # "Chile's first guest": a guest is hosted, Chile the host (no agent noun): object asked
    assert _a(ctx, "Who was Chile's first guest?").main.open_slot == "object"


# ------------------------------------------------------------------ rule 5
def test_rule5_destination_of_visits(ctx):
    q = "What was the first destination of Peru's visits?"
    a = _a(ctx, q)
    assert a.main.open_slot == "object"
    assert answer(ctx, q) == ["Chile"]


# ------------------------------------------------------------------ rule 6
def test_rule6_bare_interposed_event_clause(ctx):
    q = "Tell me the first date after Peru visited Chile on which Kenya praised Peru."
    assert infer_answer_type(q) == "time"
    a = _a(ctx, q)
    assert a.answer_type == "time" and a.time_level == "day" and len(a.refs) == 1
    assert answer(ctx, q) == ["2010-05-05"]


@pytest.mark.parametrize("text, expect", [
    (" after Peru visited Chile on which", True),
    (" after the day on which", False),   # the clause's own time noun takes the relative
])
def test_rule6_shape(text, expect):
    assert bool(re.match(_INTERPOSED_EVENT_BARE, text)) is expect


# ------------------------------------------------------------------ rule 7
def test_rule7_saw_clause_is_the_asked_event(ctx):
    q = "Which years after Peru visited Chile saw Kenya praise Peru?"
    a = _a(ctx, q)
    assert a.answer_type == "time" and a.refs[0].phrase == "visited"
    assert [m.names[0] for m in a.main.mentions] == ["Kenya", "Peru"]
    assert set(_all(ctx, q)) == {"2010", "2011"}
