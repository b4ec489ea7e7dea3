"""Rules of the dev9 round (nlu11, #10), each checked by hand on the author's own questions
(none is copied from a question set) over tiny hand-made name lists.

* a **hyphen** where the KG name has a space: "Lee Kuan-yew" for ``Lee_Kuan_Yew``,
  "Indian-administered Kashmir", "al-Assad" (not across spaces: "Kenya - Uganda");
* **name variants**: "UN ..." for "United Nations ..." and back, the British "-isation" of
  "-ization" names; "international governmental organisations" (aliases.tsv);
* **possessive templates**: "the head of Peru's government", "a member of Chile's parliament",
  "the head of Egypt's air force" (the "head of the * government" templates with NAME 's);
* back-references: "the head of government" after "the head of Peru's government" (the name
  without its NAME 's); "the commission" after "the Commission for Human Rights" (the head noun
  before the name's "of" / "for");
* a **possessor**: "Egypt's National Democratic Party": the place before "'s" and another
  capitalised exact name is no mention of its own (also when the embedding fallback found it);
* "-person" nouns pluralise as "-people" ("Ghanaian businesspeople");
* a bare surname of a name the embedding fallback found ("Jomo Kenyatta" for
  ``Jomo_Mzee_Kenyatta`` ... "Kenyatta");
* "who or what" / "whom or what" asks one thing (blanked like a wrapper);
* lexicon: "speak approvingly / favourably of" (Praise_or_endorse), "call on X to {x}" for the
  Appeal_for_ family ("called on X to change its policy": Appeal_for_policy_change).
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.nlu import EntityMatcher
from tkgqa_ray.nlu.entities import find_entity_mentions
from tkgqa_ray.nlu.wrappers import strip_wrapper

NAMES = [
    "Lee_Kuan_Yew", "Indian_administered_Kashmir", "Bashar_al_Assad", "Kenya", "Uganda",
    "United_Nations_Development_Programme", "UN_Human_Rights_Council", "World_Trade_Organization",
    "International_Government_Organizations", "Head_of_Government_(Peru)", "Government_(Peru)", "Peru",
    "Member_of_Parliament_(Chile)", "Chile", "Chief_of_the_Air_Force_(Egypt)", "Egypt",
    "Commission_for_Human_Rights", "National_Democratic_Party", "Kofi_Annan", "Singapore",
    "Businessperson_(Ghana)", "Ghana", "Jomo_Mzee_Kenyatta",
]


@pytest.fixture(scope="module")
def matcher():
    return EntityMatcher(NAMES)


def mentions(matcher, q):
    return [(m.text, m.names[0]) for m in matcher.match(q)]


# ------------------------------------------------------------------ hyphens

def test_hyphen_for_a_kg_space(matcher):
    assert ("Lee Kuan-yew", "Lee_Kuan_Yew") in mentions(matcher, "When did Lee Kuan-yew visit Singapore?")
    assert ("Indian-administered Kashmir", "Indian_administered_Kashmir") in mentions(
        matcher, "Who criticised Indian-administered Kashmir in 2009?")
    assert ("Bashar al-Assad", "Bashar_al_Assad") in mentions(matcher, "Whom did Bashar al-Assad praise?")
    # a spaced dash is no hyphen
    ms = mentions(matcher, "Kenya - Uganda talks: who mediated?")
    assert ("Kenya", "Kenya") in ms and ("Uganda", "Uganda") in ms


# ------------------------------------------------------------------ name variants

def test_un_and_united_nations(matcher):
    assert ("UN Development Programme", "United_Nations_Development_Programme") in mentions(
        matcher, "Whom did the UN Development Programme help in 2012?")
    assert ("United Nations Human Rights Council", "UN_Human_Rights_Council") in mentions(
        matcher, "Who appealed to the United Nations Human Rights Council?")


def test_british_isation(matcher):
    assert ("World Trade Organisation", "World_Trade_Organization") in mentions(
        matcher, "When did Peru first join talks with the World Trade Organisation?")
    assert ("international governmental organisations", "International_Government_Organizations") in mentions(
        matcher, "Whom did international governmental organisations consult in 2011?")


# ------------------------------------------------------------------ possessive templates

def test_possessive_templates(matcher):
    assert mentions(matcher, "Whom did the head of Peru's government praise?")[0] == (
        "the head of Peru's government", "Head_of_Government_(Peru)")
    assert ("a member of Chile's parliament", "Member_of_Parliament_(Chile)") in mentions(
        matcher, "When did a member of Chile's parliament criticise Kofi Annan?")
    assert ("the head of Egypt's air force", "Chief_of_the_Air_Force_(Egypt)") in mentions(
        matcher, "Whom did the head of Egypt's air force visit?")


def test_back_reference_without_the_possessive(matcher):
    ms = mentions(matcher, "When did the head of Peru's government consult Kofi Annan after Chile "
                           "criticised the head of government?")
    assert ms[-1] == ("the head of government", "Head_of_Government_(Peru)")


def test_head_noun_back_reference(matcher):
    ms = mentions(matcher, "Whom did the Commission for Human Rights accuse after the commission visited Peru?")
    assert ("the commission", "Commission_for_Human_Rights") in ms
    # "the commission of X" is another name, no back-reference
    ms = mentions(matcher, "Whom did the Commission for Human Rights accuse after the commission of Peru did?")
    assert ("the commission", "Commission_for_Human_Rights") not in ms


# ------------------------------------------------------------------ possessors

def test_possessor_before_a_name(matcher):
    ms = mentions(matcher, "Whom did Egypt's National Democratic Party criticise in 2010?")
    assert ms == [("National Democratic Party", "National_Democratic_Party")]
    # a place that is itself the actor stays ("Egypt's government" is Egypt)
    assert mentions(matcher, "Whom did Peru praise in 2010?") == [("Peru", "Peru")]


class _FakeEmbeddings:
    """An entity index that knows two spellings only (the embedding fallback's interface)."""

    def __init__(self, table):
        self.table = table

    def search(self, kind, texts, k):
        import numpy as np

        out_s, out_i = [], []
        for t in texts:
            e = self.table.get(t, -1)
            out_s.append([0.9 if e >= 0 else 0.1])
            out_i.append([e])
        return np.array(out_s), np.array(out_i)


def test_possessor_found_by_the_embedding(matcher):
    emb = _FakeEmbeddings({"Egypt's": NAMES.index("Egypt"), "Egypt": NAMES.index("Egypt")})
    ms = [(m.text, m.names[0]) for m in find_entity_mentions(
        "Whom did Egypt's National Democratic Party criticise in 2010?", matcher, emb)]
    assert ms == [("National Democratic Party", "National_Democratic_Party")]


def test_person_plural(matcher):
    assert ("Ghanaian businesspeople", "Businessperson_(Ghana)") in mentions(
        matcher, "Whom did Ghanaian businesspeople praise in 2011?")


def test_surname_of_an_embedding_match(matcher):
    emb = _FakeEmbeddings({"Jomo Kenyatta": NAMES.index("Jomo_Mzee_Kenyatta")})
    ms = [(m.text, m.names[0]) for m in find_entity_mentions(
        "After Jomo Kenyatta visited Ghana, whom did Kenyatta praise?", matcher, emb)]
    assert ("Kenyatta", "Jomo_Mzee_Kenyatta") in ms


def test_who_or_what():
    assert strip_wrapper("Who or what did Ghana criticise in 2010?").split() == [
        "Who", "did", "Ghana", "criticise", "in", "2010?"]
    assert "or what" not in strip_wrapper("Tell me whom or what Peru praised.")


# ------------------------------------------------------------------ end to end (SCoP)
ROWS = [
    ("Chile", "Praise_or_endorse", "Ghana", "2012-02-01"),
    ("Peru", "Make_statement", "Ghana", "2012-03-01"),
    ("Peru", "Criticize_or_denounce", "Ghana", "2012-04-01"),
    ("Peru", "Appeal_for_policy_change", "Kofi_Annan", "2010-05-01"),
    ("Ghana", "Make_an_appeal_or_request", "Kofi_Annan", "2010-06-01"),
    ("Head_of_Government_(Peru)", "Consult", "Kofi_Annan", "2009-07-07"),
    ("Head_of_Government_(Peru)", "Consult", "Kofi_Annan", "2011-08-08"),
    ("Chile", "Praise_or_endorse", "Kofi_Annan", "2011-09-09"),
    ("Chile", "Make_statement", "Kofi_Annan", "2011-10-10"),
]



@pytest.mark.parametrize("q, gold", [
    ("Who spoke approvingly of Ghana in 2012?", ["Chile"]),
    ("Who called on Kofi Annan to change his policy in 2010?", ["Peru"]),
    ("In which year did the head of Peru's government first consult Kofi Annan?", ["2009"]),
])
def test_end_to_end(ctx, q, gold):
    assert answer(ctx, q) == gold


# ------------------------------------------------------------------ TCC-RAG: a person's pronoun (tccrag6)

def _occ(q, surface, name):
    i = q.index(surface)
    return {"name": name, "mention": surface, "start": i, "end": i + len(surface)}


def test_tccrag_person_pronoun_is_the_main_person():
    from tkgqa_ray.methods.tccrag.method import _anaphor

    q = "When did Lula da Silva last praise the Brazilian government before Evo Morales expressed a wish to meet him?"
    ents = [_occ(q, "Lula da Silva", "Lula da Silva"), _occ(q, "the Brazilian government", "Government (Brazil)"),
            _occ(q, "Evo Morales", "Evo Morales")]
    span = (q.index("before"), len(q))
    assert _anaphor(q, ents, span, ents[2:])["name"] == "Lula da Silva"
    # "it" keeps the main object
    q2 = "When did Lula da Silva last praise the Brazilian government before Evo Morales criticised it?"
    ents2 = [_occ(q2, "Lula da Silva", "Lula da Silva"), _occ(q2, "the Brazilian government", "Government (Brazil)"),
             _occ(q2, "Evo Morales", "Evo Morales")]
    assert _anaphor(q2, ents2, (q2.index("before"), len(q2)), ents2[2:])["name"] == "Government (Brazil)"
