"""Rules of the names35 round (dev22, second round), hand-checked against tiny entity lists below
(their names as in the MultiTQ KG).

- a place written as the possessor before a title and a person's name ("Gambia's President Yahya
  Jammeh") is part of the person's mention, whether the KG names the place (then the place's
  mention and the person's become one) or not (names33's place-title rule, now with "'s"); the
  title may already be part of the person's mention ("President Yahya Jammeh");
- a bare plural sector form of two words or more names actors (the question's country's) when its
  head noun, the last word, is no word of the actions, even if its modifier is one ("accused
  opposition figures before ...": "express opposition"); a one-word form of an action ("mobilized
  troops") is still part of the action;
- a definite description "the <place adjective> <title>" that names no actor (the KG has no
  Head_of_Government_(China)) stands for the one person named before it who has facts with that
  place ("... Wen Jiabao ... the Chinese premier"); with two such persons, none, or a name after
  the title, it is left alone (needs the matcher over the KG's facts);
- the Portuguese / Spanish conjunction "e" / "y" between an Iberian name's capitalised surnames is a
  particle like "de" (José_Dirceu_de_Oliveira_e_Silva is a person's name: "José Dirceu");
- a reflexive object ("accused himself") is its clause's own subject again: a second mention of the
  name before it; not an emphatic one right after the name, "by himself", or across a clause;
- a sector noun before "of" and a name ("hosted a delegation of the Iraqi Interim Government") is no
  context sector: the named body is the participant; alone ("hosted a delegation") it still is one.
"""

from __future__ import annotations

from tkgqa_ray.kg.table import FactTable
from tkgqa_ray.nlu import EntityMatcher, analyze

NAMES = [
    "Yahya_Jammeh", "Macky_Sall", "Japan", "France", "Kenya", "Uhuru_Muigai_Kenyatta",
    "Head_of_Government_(Japan)", "Yury_Mikhaylovich_Luzhkov",
    "Mauritania", "Ministry_of_Communication_(Mauritania)", "People_Associated_with_the_Opposition_(Mauritania)",
    "Military_(Mauritania)", "José_Dirceu_de_Oliveira_e_Silva", "Reynato_Puno_y_Serrano", "Mexico",
    "O_Estado_de_S._Paulo", "Iraqi_Interim_Government", "Government_Delegation_(Japan)",
]
M = EntityMatcher(NAMES)


def found(q: str) -> dict[str, tuple[str, ...]]:
    return {x.text: x.names for x in M.match(q)}


# ------------------------------------------------------------------ possessor place before a titled person


def test_unnamed_possessor_place_joins_titled_person():
    # "Gambia" is no name of the list (as "Senegal" is none of the KG's)
    got = found("Which country did Gambia's President Yahya Jammeh visit first?")
    assert got == {"Gambia's President Yahya Jammeh": ("Yahya_Jammeh",)}


def test_unnamed_possessor_place_with_lower_case_title():
    got = found("When did Moscow's mayor Yury Luzhkov praise France?")
    assert got["Moscow's mayor Yury Luzhkov"] == ("Yury_Mikhaylovich_Luzhkov",)
    assert got["France"] == ("France",)


def test_named_possessor_place_joins_person_whose_mention_has_the_title():
    got = found("Whom did Japan's President Macky Sall visit in 2013?")
    assert got == {"Japan's President Macky Sall": ("Macky_Sall",)}


def test_asked_place_of_possessor_titled_person_is_the_object():
    a = analyze("What was the last place Gambia's President Yahya Jammeh visited?", M)
    assert [m.names for m in a.mentions] == [("Yahya_Jammeh",)]
    assert a.main.open_slot == "object"
    assert "gambia" not in a.main.phrase


def test_possessor_without_title_is_unchanged():
    # no title between: names25 / names33 do not apply, the place stays out of the person's mention
    got = found("Did Kenya's Uhuru Kenyatta visit France?")
    assert "Kenya's Uhuru Kenyatta" not in got


def test_possessive_not_before_a_person_is_unchanged():
    got = found("When did Japan's visit to President Macky Sall happen?")
    assert got["Japan"] == ("Japan",)
    assert "President Macky Sall" in got


def test_question_first_word_is_no_possessor_place():
    got = found("Gambia's President Yahya Jammeh visited which country?")
    # the question's first word can open a sentence, not only name a place: kept out (names33)
    assert "President Yahya Jammeh" in got


# ------------------------------------------------------------------ bare plural whose modifier is an action word


def _mentions(q: str) -> dict[str, tuple[str, ...]]:
    return {m.text: m.names for m in analyze(q, M).mentions}


def test_bare_plural_with_action_word_modifier_names_the_countrys_actor():
    got = _mentions("In what year did Mauritania's communication ministry first accuse opposition figures "
                    "before France criticised them?")
    assert got["opposition figures"] == ("People_Associated_with_the_Opposition_(Mauritania)",)


def test_bare_plural_closing_the_question():
    a = analyze("When did Mauritania's communication ministry accuse opposition figures?", M)
    assert {m.text: m.names for m in a.mentions}["opposition figures"] == (
        "People_Associated_with_the_Opposition_(Mauritania)",)
    assert a.main.phrase == "accuse"


def test_one_word_action_noun_stays_part_of_the_action():
    got = _mentions("Before Mauritania mobilized troops, when did France last visit Japan?")
    assert not any("troops" in t for t in got)


def test_bare_modifier_before_more_of_the_clause_is_no_name():
    # a bare plural with more of its clause after it is the theme (refs15), head noun or not
    got = _mentions("When did Mauritania hand over opposition figures to France?")
    assert "opposition figures" not in got


# ------------------------------------------------------------------ "the Chinese premier" = the Chinese person named before

ROWS = [
    ("Wen_Jiabao", "Make_statement", "Middle_East", "2010-05-03"),
    ("Wen_Jiabao", "Make_a_visit", "China", "2010-05-04"),
    ("Kim_Hwang_Sik", "Express_intent_to_meet_or_negotiate", "Wen_Jiabao", "2010-05-20"),
    ("Naoto_Kan", "Make_a_visit", "Japan", "2010-05-04"),
    ("Citizen_(China)", "Praise_or_endorse", "Hu_Jintao", "2010-05-04"),
    ("Hu_Jintao", "Make_statement", "France", "2010-05-04"),
    ("Head_of_Government_(India)", "Make_statement", "India", "2010-05-04"),
]
FM = EntityMatcher.for_table(FactTable.from_rows(ROWS))


def _kg_found(q: str) -> dict[str, tuple[str, ...]]:
    return {m.text: m.names for m in FM.match(q)}


def test_role_description_stands_for_the_person_of_its_place_named_before():
    q = "Who asked to meet Wen Jiabao in the same month that the Chinese premier commented on the Middle East?"
    assert _kg_found(q)["the Chinese premier"] == ("Wen_Jiabao",)
    a = analyze(q, FM)
    assert [m.names for m in a.refs[0].mentions][0] == ("Wen_Jiabao",)


def test_role_description_needs_a_person_of_that_place():
    # Naoto Kan has no fact with China or its actors
    assert "the Chinese premier" not in _kg_found("Who hoped to meet Naoto Kan before the Chinese premier went to Japan?")


def test_role_description_with_two_persons_of_the_place_is_left_alone():
    got = _kg_found("Who lauded Hu Jintao after Wen Jiabao had talks with the Chinese president?")
    assert "the Chinese president" not in got


def test_role_description_before_a_name_is_the_names_apposition():
    got = _kg_found("Who hoped to meet Wen Jiabao after the Chinese premier Hu Jintao went to France?")
    assert got["Chinese premier Hu Jintao"] == ("Hu_Jintao",)


def test_role_description_with_the_places_actor_keeps_the_actor():
    got = _kg_found("Who hoped to meet Wen Jiabao after the Indian premier went to China?")
    assert got["the Indian premier"] == ("Head_of_Government_(India)",)


def test_role_description_without_a_person_before_it():
    assert _kg_found("Whom did the Chinese premier meet after Wen Jiabao visited China?").get("the Chinese premier") is None


def test_matcher_without_facts_reads_no_role_description():
    m = EntityMatcher(["Wen_Jiabao", "China", "Middle_East"])
    got = {x.text for x in m.match("Who met Wen Jiabao when the Chinese premier praised China?")}
    assert "the Chinese premier" not in got


# ------------------------------------------------------------------ Iberian "e" / "y" between surnames


def test_iberian_conjunction_between_surnames_is_a_particle():
    assert found("When did Jose Dirceu travel to Mexico?")["Jose Dirceu"] == ("José_Dirceu_de_Oliveira_e_Silva",)
    assert found("Whom did José Dirceu praise in 2005?")["José Dirceu"] == ("José_Dirceu_de_Oliveira_e_Silva",)
    assert found("Did Reynato Puno criticise Mexico?")["Reynato Puno"] == ("Reynato_Puno_y_Serrano",)


def test_one_letter_word_still_no_person():
    from tkgqa_ray.nlu.names import person_words
    assert person_words("O_Estado_de_S._Paulo") is None
    assert person_words("José_Dirceu_de_Oliveira_e_Silva") == ["jose", "dirceu", "oliveira", "silva"]


# ------------------------------------------------------------------ reflexive object


def test_reflexive_object_is_the_clauses_subject_again():
    a = analyze("Once José Dirceu had accused himself, when did he first visit Mexico?", M)
    ref = a.refs[0]
    assert [m.names for m in ref.mentions] == [("José_Dirceu_de_Oliveira_e_Silva",)] * 2
    assert ref.mentions[1].text == "himself" and ref.phrase == "accused"


def test_reflexive_after_a_place():
    a = analyze("Whom did Macky Sall praise after Japan criticised itself?", M)
    assert [m.text for m in a.refs[0].mentions] == ["Japan", "itself"]


def test_emphatic_and_by_reflexives_are_no_mentions():
    a = analyze("When did Macky Sall himself visit France?", M)
    assert "himself" not in [m.text for m in a.mentions]
    a = analyze("When did Macky Sall visit France by himself?", M)
    assert "himself" not in [m.text for m in a.mentions]


def test_reflexive_after_a_pro_verb_is_emphatic():
    a = analyze("Who praised Japan before Macky Sall did so himself?", M)
    assert "himself" not in [m.text for m in a.mentions]


def test_reflexive_across_a_clause_is_no_mention():
    a = analyze("Who visited Japan, and when did he see himself as a leader?", M)
    assert "himself" not in [m.text for m in a.mentions]


# ------------------------------------------------------------------ "a delegation of X"


def test_sector_noun_of_a_name_is_the_names():
    a = analyze("Before Japan received a delegation of the Iraqi Interim Government, whom did Japan last visit?", M)
    assert [m.names[0] for m in a.refs[0].mentions] == ["Japan", "Iraqi_Interim_Government"]
    assert "a delegation" not in [m.text for m in a.mentions]


def test_sector_noun_alone_is_still_a_context_sector():
    a = analyze("Before Japan received a delegation, whom did Japan last visit?", M)
    assert {m.text: m.names for m in a.mentions}["a delegation"] == ("Government_Delegation_(Japan)",)
