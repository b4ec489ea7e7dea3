"""Rules of the refs27 round (question structure read by nlu's analysis, answered by SCoP),
found on dev13/dev19's residue (development material). Checked by hand on the author's own
questions (none is copied from a question set) over a tiny hand-made KG.

* **rule 1, "all of the" before a time noun** ("**List all of the days** when ...", "Could you
  list all of the months in which ..."): the distributive determiner "all of the" is "all the":
  the question asks a time (before, it was read as an entity question and "all of" entered the
  action's phrase);
* **rule 2, near-tied relation co-readings under first/last** ("the last one Peru eased
  sanctions against"): the phrase names no kind of sanction, and the KG names two relations that
  differ only by a qualifier it does not state (``Ease_administrative_sanctions``,
  ``Ease_economic_sanctions,_boycott,_embargo``): the rank is over their union, not over the
  better-scored one alone. A relation with another act word (``Demand_easing_of_...``,
  ``Refuse_to_ease_...``) or a qualifier the phrase states is no co-reading, and an unranked
  question keeps its reading;
* **rule 3, the search's own direction** ("who Peru first attacked"): the search is reversed only
  when its own direction has no KG support; when reversed facts ("? Use_conventional_military_force
  Peru", many distinct attackers) fill the top-10 candidate facts, the best fact of a near-tied
  reading in the asked direction (Peru Use_unconventional_violence ?) stays among them.
"""

from __future__ import annotations

import numpy as np
import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.alignment import SlotCands, relation_coreadings
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.temporal import infer_answer_type, infer_time_level

ROWS = [
    # rule 1: Peru praised Kenyan citizens in 2013 (February, March)
    ("Peru", "Praise_or_endorse", "Citizen_(Kenya)", "2013-02-02"),
    ("Peru", "Praise_or_endorse", "Citizen_(Kenya)", "2013-03-03"),
    # rule 2: Peru eased administrative sanctions against Chile (2010, 2012) and economic
    # sanctions against Bolivia (2009) and Kenya (2014): the last easing of any kind is Kenya's,
    # the first Bolivia's; the last easing for Kenya is 2014's (economic), not 2011's; Peru demanded an easing for Japan last (2016)
    ("Peru", "Ease_administrative_sanctions", "Chile", "2010-01-01"),
    ("Peru", "Ease_administrative_sanctions", "Chile", "2012-01-01"),
    ("Peru", "Ease_administrative_sanctions", "Kenya", "2011-01-01"),
    ("Peru", "Ease_economic_sanctions,_boycott,_embargo", "Bolivia", "2009-01-01"),
    ("Peru", "Ease_economic_sanctions,_boycott,_embargo", "Kenya", "2014-01-01"),
    ("Peru", "Demand_easing_of_administrative_sanctions", "Japan", "2016-01-01"),
    ("Peru", "Refuse_to_ease_administrative_sanctions", "Japan", "2017-01-01"),
]



def _a(ctx, q):
    return analyze(q, EntityMatcher.for_table(ctx.table))


# ------------------------------------------------------------------ rule 1
@pytest.mark.parametrize("q, level", [
    ("List all of the days when Peru praised Kenyan citizens.", "day"),
    ("Could you list all of the months in which Peru praised Kenyan citizens?", "month"),
    ("Tell me all of the years when Peru praised Kenyan citizens.", "year"),
])
def test_rule1_all_of_the_time_noun_asks_a_time(ctx, q, level):
    assert infer_answer_type(q) == "time"
    assert infer_time_level(q) == level
    a = _a(ctx, q)
    assert a.answer_type == "time"
    assert a.main.phrase == "praised"


def test_rule1_answers(ctx):
    assert answer(ctx, "Could you list all of the months in which Peru praised Kenyan citizens?") in (["2013-02"], ["2013-03"])


def test_rule1_all_of_an_entity_stays_an_entity_question():
    assert infer_answer_type("List all of the countries Peru praised.") == "entity"


# ------------------------------------------------------------------ rule 2
RELS = ["Ease_administrative_sanctions", "Ease_economic_sanctions,_boycott,_embargo",
        "Demand_easing_of_administrative_sanctions", "Refuse_to_ease_administrative_sanctions",
        "Impose_embargo,_boycott,_or_sanctions", "Make_statement", "Make_optimistic_comment"]


def _cands(scores, swap=None):
    ids = np.arange(len(scores), dtype=np.int64)
    return SlotCands(ids, np.asarray(scores, np.float64), swap=None if swap is None else np.asarray(swap, bool))


def test_rule2_coreadings_by_kg_naming():
    c = _cands([0.977, 0.913, 0.754, 0.72, 0.72])
    got = relation_coreadings("eased sanctions against", c, RELS)
    assert got == {"Ease_administrative_sanctions": ("Ease_economic_sanctions,_boycott,_embargo",),
                   "Ease_economic_sanctions,_boycott,_embargo": ("Ease_administrative_sanctions",)}


def test_rule2_no_coreading_when_the_phrase_tells_them_apart_or_far_apart():
    c = _cands([0.977, 0.913, 0.754, 0.72, 0.72])
    # the qualifier is stated: only one name has every content word of the phrase
    assert relation_coreadings("eased economic sanctions against", c, RELS) == {}
    # too far apart in score: no near tie
    assert relation_coreadings("eased sanctions against", _cands([0.977, 0.80, 0.754, 0.72, 0.72]), RELS) == {}
    # a reading in the other direction is no co-reading
    assert relation_coreadings("eased sanctions against", _cands([0.977, 0.913], [False, True]), RELS) == {}
    # "made a statement": Make_optimistic_comment lacks "statement"
    ids = np.asarray([5, 6], np.int64)
    assert relation_coreadings("made a statement about", SlotCands(ids, np.asarray([0.95, 0.9])), RELS) == {}


def test_rule2_first_last_over_the_coreadings(ctx):
    assert answer(ctx, "Who was the last one Peru eased sanctions against?") == ["Kenya"]
    assert answer(ctx, "Who was the first one Peru eased sanctions against?") == ["Bolivia"]


def test_rule2_time_question_over_the_coreadings(ctx):
    assert answer(ctx, "When did Peru last ease sanctions against Kenya?") == ["2014-01-01"]


def test_rule2_a_stated_kind_keeps_its_relation(ctx):
    assert answer(ctx, "Who was the last one Peru eased administrative sanctions against?") == ["Chile"]


# ------------------------------------------------------------------ rule 3
# Twelve actors used conventional military force against Peru (reversed facts of "whom did Peru
# attack": they outscore, and once filled the whole top-10); Peru itself used unconventional
# violence against Chile (2011) and Bolivia (2012): "who Peru first attacked" asks Peru's target
ATTACKERS = ["Kenya", "Japan", "Iran", "Iraq", "Egypt", "Libya", "Qatar", "Oman", "Ghana", "Mali", "Chad", "Niger"]
ROWS3 = [(x, "Use_conventional_military_force", "Peru", f"20{10 + i:02d}-01-01") for i, x in enumerate(ATTACKERS)] + [
    ("Peru", "Use_unconventional_violence", "Chile", "2011-05-05"),
    ("Peru", "Use_unconventional_violence", "Bolivia", "2012-05-05"),
]


@pytest.fixture(scope="module")
def ctx3(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS3, encoder="hashing")


def test_rule3_own_direction_reading_is_kept_among_the_facts(ctx3):
    assert answer(ctx3, "Could you tell me who Peru first attacked?") == ["Chile"]
    assert answer(ctx3, "Could you tell me who Peru last attacked?") == ["Bolivia"]
