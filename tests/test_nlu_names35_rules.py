"""Rules of the names35 round (dev22, second round), hand-checked against tiny entity lists below
(their names as in the MultiTQ KG).

- a place written as the possessor before a title and a person's name ("Gambia's President Yahya
  Jammeh") is part of the person's mention, whether the KG names the place (then the place's
  mention and the person's become one) or not (names33's place-title rule, now with "'s"); the
  title may already be part of the person's mention ("President Yahya Jammeh");
- a bare plural sector form of two words or more names actors (the question's country's) when its
  head noun, the last word, is no word of the actions, even if its modifier is one ("accused
  opposition figures before ...": "express opposition"); a one-word form of an action ("mobilized
  troops") is still part of the action.
"""

from __future__ import annotations

from tkgqa_ray.nlu import EntityMatcher, analyze

NAMES = [
    "Yahya_Jammeh", "Macky_Sall", "Japan", "France", "Kenya", "Uhuru_Muigai_Kenyatta",
    "Head_of_Government_(Japan)", "Yury_Mikhaylovich_Luzhkov",
    "Mauritania", "Ministry_of_Communication_(Mauritania)", "People_Associated_with_the_Opposition_(Mauritania)",
    "Military_(Mauritania)",
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
