"""Actor references (issue #10): the grammar derived from ``Sector_(Country)`` names, its
attachments, candidate sets, and that exact names and plain entities behave as before.
Expectations are hand-checked against the names below."""

from __future__ import annotations

import itertools

import pytest

from tkgqa_ray.nlu import EntityMatcher, find_entity_mentions
from tkgqa_ray.nlu.actors import ActorGrammar, decompose, plural, sector_own_forms

NAMES = [
    "Police_(Kenya)", "Citizen_(Peru)", "Population_(Peru)", "Government_(Chile)",
    "Head_of_Government_(Chile)", "Foreign_Affairs_(Ghana)", "Ministry_(Ghana)", "Military_(Turkey)",
    "Criminal_(Colombia)", "Education_Ministry_(United_Kingdom)",
    "Cabinet_/_Council_of_Ministers_/_Advisors_(Kazakhstan)", "Lawyer/Attorney_(Kenya)",
    "Citizen_(France)", "Police_(Congo)", "Police_(Democratic_Republic_of_Congo)", "Militant_(Taliban)",
    "Holy_See_(Vatican_City_State)", "Pakistan_Muslim_League_(Q)", "Police_(United_States)",
    "Citizen_(Palestinian_Territory,_Occupied)", "Police_(Bosnia_and_Herzegovina)", "Chile", "Turkey",
    "Peru", "African_Union", "Barack_Obama", "Government", "Police_(Sri_Lanka)", "Iraq",
    "Military_Personnel_-_Special_(Iraq)", "Citizen_(Holy_See_(Vatican_City_State))", "Taliban",
]
ID = {n: i for i, n in enumerate(NAMES)}
M = EntityMatcher(NAMES)


def ments(q: str):
    return [(m.text, m.names) for m in find_entity_mentions(q, M)]


def one(q: str):
    """The single actor mention of q as (surface, KG names best first)."""
    got = [m for m in M.match(q) if m.source == "actor"]
    assert len(got) == 1, (q, got)
    return got[0].text, list(got[0].names)


# ------------------------------------------------------------------ decomposition


def test_decompose_tricky_names():
    a = decompose("Cabinet_/_Council_of_Ministers_/_Advisors_(Kazakhstan)")
    assert (a.sector, a.place) == ("Cabinet / Council of Ministers / Advisors", "Kazakhstan")
    a = decompose("Lawyer/Attorney_(Bosnia_and_Herzegovina)")
    assert (a.sector, a.place) == ("Lawyer/Attorney", "Bosnia and Herzegovina")
    a = decompose("Citizen_(Holy_See_(Vatican_City_State))")  # nested group stays in the place
    assert (a.sector, a.place) == ("Citizen", "Holy See (Vatican City State)")
    a = decompose("Police_(Palestinian_Territory,_Occupied)")
    assert (a.sector, a.place) == ("Police", "Palestinian Territory, Occupied")
    assert decompose("Awami_(People's)_League") is None  # parentheses, but not at the end
    assert decompose("Barack_Obama") is None
    assert decompose("(Kenya)") is None


def test_sector_own_words():
    assert sector_own_forms("Cabinet_/_Council_of_Ministers_/_Advisors")[:3] == ["cabinet", "council of ministers", "advisors"]
    assert sector_own_forms("Lawyer/Attorney") == ["lawyer", "attorney"]
    f = sector_own_forms("Finance_/_Economy_/_Commerce_/_Trade_Ministry")
    assert f[:4] == ["finance ministry", "economy ministry", "commerce ministry", "trade ministry"]
    assert "ministry of trade" in f and "finance minister" in f
    f = sector_own_forms("Justice_Department/Ministery")
    assert f[:2] == ["justice department", "justice ministery"] and "ministry of justice" in f
    assert sector_own_forms("Ministry/Department_of_Technology")[:2] == ["ministry of technology", "department of technology"]
    assert plural("head of government") == "heads of government" and plural("police") == "police"
    assert plural("security forces") == "security forces" and plural("law enforcement") == "law enforcement"
    assert plural("policeman") == "policemen" and plural("men") == "men" and plural("MP") == "MPs" and plural("attorney") == "attorneys"


def test_names_with_parentheses_that_are_not_actors():
    g = ActorGrammar.from_names(NAMES)
    actors = {NAMES[e] for e in g.actors}
    assert "Holy_See_(Vatican_City_State)" not in actors  # the "sector" is itself a place
    assert "Pakistan_Muslim_League_(Q)" not in actors  # "Q" is no place, the sector no sector
    assert {"Citizen_(Holy_See_(Vatican_City_State))", "Militant_(Taliban)", "Police_(Kenya)"} <= actors


# ------------------------------------------------------------------ attachments


@pytest.mark.parametrize(
    "q, surface, best",
    [
        ("Who did the Kenyan police arrest in 2010?", "the Kenyan police", "Police_(Kenya)"),
        ("Who did the police of Kenya accuse?", "the police of Kenya", "Police_(Kenya)"),
        ("Who did Kenya's police accuse?", "Kenya's police", "Police_(Kenya)"),
        ("Who did Kenyan policemen arrest?", "Kenyan policemen", "Police_(Kenya)"),
        ("Who praised the citizens of Peru?", "the citizens of Peru", "Citizen_(Peru)"),
        ("Who praised citizens from Peru?", "citizens from Peru", "Citizen_(Peru)"),
        ("Which country did Peruvians protest against?", "Peruvians", "Citizen_(Peru)"),
        ("Who did the French want to meet?", "the French", "Citizen_(France)"),
        ("Who did the leader of Chile visit?", "the leader of Chile", "Head_of_Government_(Chile)"),
        ("What did the head of the Chilean government say?", "the head of the Chilean government", "Head_of_Government_(Chile)"),
        ("Who did the Ghanaian Foreign Ministry blame?", "the Ghanaian Foreign Ministry", "Foreign_Affairs_(Ghana)"),
        ("Who did the Ghanaian foreign minister blame?", "the Ghanaian foreign minister", "Foreign_Affairs_(Ghana)"),
        ("When did the Turkish army attack?", "the Turkish army", "Military_(Turkey)"),
        ("Who did a Colombian criminal kill?", "a Colombian criminal", "Criminal_(Colombia)"),
        ("Who did Colombian criminals kill?", "Colombian criminals", "Criminal_(Colombia)"),
        ("Who did the UK Department of Education visit?", "the UK Department of Education", "Education_Ministry_(United_Kingdom)"),
        ("Who did the British education ministry visit?", "the British education ministry", "Education_Ministry_(United_Kingdom)"),
        ("Who negotiated with the Kazakh cabinet?", "the Kazakh cabinet", "Cabinet_/_Council_of_Ministers_/_Advisors_(Kazakhstan)"),
        ("Who negotiated with the Council of Ministers of Kazakhstan?", "the Council of Ministers of Kazakhstan", "Cabinet_/_Council_of_Ministers_/_Advisors_(Kazakhstan)"),
        ("Who hired a Kenyan attorney?", "a Kenyan attorney", "Lawyer/Attorney_(Kenya)"),
        ("Whom did Taliban militants attack?", "Taliban militants", "Militant_(Taliban)"),
        ("Who did the US police arrest?", "the US police", "Police_(United_States)"),
        ("Who did American police officers arrest?", "American police officers", "Police_(United_States)"),
        ("Who visited the Palestinians?", "the Palestinians", "Citizen_(Palestinian_Territory,_Occupied)"),
        ("Who did Bosnian police arrest?", "Bosnian police", "Police_(Bosnia_and_Herzegovina)"),
        ("Who did the police of Bosnia and Herzegovina arrest?", "the police of Bosnia and Herzegovina", "Police_(Bosnia_and_Herzegovina)"),
        ("Who did Sri Lankan police arrest?", "Sri Lankan police", "Police_(Sri_Lanka)"),
        ("Who did Iraqi special forces attack?", "Iraqi special forces", "Military_Personnel_-_Special_(Iraq)"),
        ("Who did Vatican citizens greet?", "Vatican citizens", "Citizen_(Holy_See_(Vatican_City_State))"),
        ("Who did the citizens of the Holy See greet?", "the citizens of the Holy See", "Citizen_(Holy_See_(Vatican_City_State))"),
    ],
)
def test_attachment_forms(q, surface, best):
    text, names = one(q)
    assert text == surface and names[0] == best
    m = next(m for m in M.match(q) if m.source == "actor")
    assert q[m.start : m.end] == surface


def test_actor_beside_plain_entities_and_spans():
    q = "After Barack Obama met the Chilean president, who did the police of Kenya criticise in Iraq?"
    got = [(m.text, m.names[0], m.source) for m in M.match(q)]
    assert got == [
        ("Barack Obama", "Barack_Obama", "exact"),
        ("the Chilean president", "Head_of_Government_(Chile)", "actor"),
        ("the police of Kenya", "Police_(Kenya)", "actor"),
        ("Iraq", "Iraq", "exact"),
    ]


# ------------------------------------------------------------------ candidate sets


def test_ambiguity_stays_a_candidate_set_best_first():
    m = next(m for m in M.match("Who did the Chilean government praise?") if m.source == "actor")
    # the government itself, the state (ICEWS codes it as the country), the head of government
    assert m.names == ("Government_(Chile)", "Chile", "Head_of_Government_(Chile)")
    assert m.scores[0] > m.scores[1] > m.scores[2] > 0 and m.score == m.scores[0]
    assert [c[1] for c in m.candidates] == list(m.names)
    _, names = one("Who did the Congolese police arrest?")  # two Congos
    assert set(names) == {"Police_(Congo)", "Police_(Democratic_Republic_of_Congo)"}
    _, names = one("Which country did Peruvians protest against?")  # citizens first, population kept
    assert names == ["Citizen_(Peru)", "Population_(Peru)"]


def test_government_without_its_entity_falls_back_to_the_country():
    # no Government_(Iraq) in NAMES: "the Iraqi government" is the state, Iraq
    assert one("Who did the Iraqi government accuse?") == ("the Iraqi government", ["Iraq"])
    # but other sectors do not: no Police_(Iraq), no mention ("Iraqi" is not "Iraq")
    assert ments("Who did the Iraqi police arrest?") == []


def test_lookup_resolves_actor_surfaces_too():
    assert M.lookup("the Kenyan police") == (ID["Police_(Kenya)"],)
    assert M.lookup("Police_(Kenya)") == M.lookup("police (kenya)") == (ID["Police_(Kenya)"],)
    assert M.lookup_scored("Chilean government")[0] == (ID["Government_(Chile)"], 1.0)
    assert M.lookup("the Kenyan police arrested") == ()  # only a whole-surface actor counts


# ------------------------------------------------------------------ no regressions, no false actors


def test_exact_names_unchanged():
    assert ments("Who did Police (Kenya) arrest?") == [("Police (Kenya)", ("Police_(Kenya)",))]
    assert ments("Who visited Citizen (Peru) in 2010?") == [("Citizen (Peru)", ("Citizen_(Peru)",))]
    assert [m.source for m in M.match("Who did Police (Kenya) arrest?")] == ["exact"]
    # a plain entity that looks like ADJ + SECTOR stays the plain entity
    assert ments("Who did the African Union praise?") == [("African Union", ("African_Union",))]
    assert ments("Who did Chile and Turkey visit?") == [("Chile", ("Chile",)), ("Turkey", ("Turkey",))]
    assert ments("Who did Government praise?") == [("Government", ("Government",))]
    assert ments("Did the Taliban attack?") == [("Taliban", ("Taliban",))]


def test_no_actor_without_a_country_or_without_a_kg_entity():
    # rule: a bare sector never becomes a mention, even when the KG has only a few of them
    assert ments("Who did the police praise in 2010?") == []
    assert ments("Which criminals did the citizens accuse?") == []
    # "the French police": no Police_(France) in the KG, and "the French" + a sector is not
    # the French people
    assert ments("Who did the French police arrest?") == []
    # a pronoun is not the US: capitals matter in a question that uses them
    assert ments("Could you tell us police news?") == []
    # after a wh-word the phrase is the kind of entity asked for, not a mention
    assert ments("Which Kenyan lawyer did Barack Obama hire?") == [("Barack Obama", ("Barack_Obama",))]
    assert ments("Which Colombian criminals did the Kenyan police arrest?") == [("the Kenyan police", ("Police_(Kenya)",))]
    # ... but after "in which" it is a relative clause whose subject names an actor
    assert ments("Name the year in which Kenyan police arrested Barack Obama.")[0] == ("Kenyan police", ("Police_(Kenya)",))
    # an adjective alone is not an actor ("Peruvian" is no people noun in the singular)
    assert ments("Which Peruvian company signed?") == []


def test_misspelt_country_words_next_to_a_sector():
    text, names = one("Who did Columbian criminals kill?")
    assert (text, names) == ("Columbian criminals", ["Criminal_(Colombia)"])
    m = next(m for m in M.match("Who did Columbian criminals kill?") if m.source == "actor")
    assert 0.8 < m.score < 1.0  # a corrected spelling is a little less sure
    assert one("Who did criminals from Columbia kill?")[1] == ["Criminal_(Colombia)"]
    assert one("Who did the criminals of the Columbia kill?")[1] == ["Criminal_(Colombia)"]
    # no sector beside it: nothing is corrected, nothing matched
    assert ments("Who did Columbian visit?") == []


def test_all_lower_case_question_still_matches():
    assert one("who did the kenyan police arrest?") == ("the kenyan police", ["Police_(Kenya)"])


# ------------------------------------------------------------------ the people phrasing set renders through this grammar


def test_people_surfaces_round_trip():
    from tkgqa_ray.data.surface_actors import actor_surface

    counter = itertools.count()

    def pick(seq):  # deterministic cycling, like the generator's seeded draws
        return seq[next(counter) % len(seq)]

    seen = set()
    for name in NAMES:
        display = name.replace("_", " ")
        for _ in range(8):
            s = actor_surface(display, pick)
            seen.add(s)
            if ID[name] not in M.actors.actors:
                assert s == display  # plain entities pass through
                continue
            got = M.match(f"Who did {s} visit in 2010?")
            # the gold entity is a best candidate (ties: "Congolese police" fits both Congos)
            assert got and dict(zip(got[0].entity_ids, got[0].scores or [1.0]))[ID[name]] == got[0].score, (name, s, got)
    kenya = {s for s in seen if "Kenya" in s and "(" not in s}  # people-like forms were drawn
    assert len(kenya) >= 3 and any("Kenyan" in s for s in kenya), kenya


# ------------------------------------------------------------------ the real KG


@pytest.mark.realkg
def test_real_kg_coverage_and_people_questions(real_kg_table):
    from tkgqa_ray.data.generator import generate

    table = real_kg_table  # loaded once per session (conftest)
    names = list(table.entities)
    m = EntityMatcher.for_table(table)
    g = m.actors
    n_paren = sum(1 for n in names if decompose(n) is not None)
    assert len(g.actors) >= 6000 and len(g.actors) / n_paren > 0.97
    # every actor has a non-KG surface that the matcher maps back to it (best candidate)
    covered = 0
    for eid in g.actors:
        for s in g.surfaces(eid):
            got = m.match(f"Who did {s} visit?")
            if got and got[0].source == "actor" and eid in got[0].entity_ids:
                covered += 1
                break
    assert covered / len(g.actors) > 0.95, covered / len(g.actors)
    # people-set questions: the gold actors are linked
    recs = generate(table, 120, seed=3, phrasing_set="people")
    want = found = 0
    for r in recs:
        ids = {e for e in _spec_entities(r["spec"]) if e in g.actors}
        ments = m.match(r["question"])
        got = {e for x in ments for e in x.entity_ids}
        want += len(ids)
        found += len(ids & got)
    assert want >= 50 and found / want > 0.9, (found, want)


def _spec_entities(spec) -> list[int]:
    from tkgqa_ray.data.oracle_answers import QSpec

    s = QSpec.from_json(spec)
    out = [x for x in (s.target[0], s.target[2]) if x is not None]
    if s.anchor_event is not None:
        out += [s.anchor_event[0], s.anchor_event[2]]
    return out


# ------------------------------------------------------------------ dev3 round (#10)

DEV3_NAMES = [
    "Thief_(Colombia)", "Media_Personnel_(Uganda)", "Member_of_the_Judiciary_(Sri_Lanka)",
    "High_Ranking_Military_Personnel_(Turkey)", "Main_Opposition_(Austria)",
    "People_Associated_with_the_Opposition_(Ukraine)", "Treasury/Finance_Ministry_(Japan)",
    "Finance_/_Economy_/_Commerce_/_Trade_Ministry_(Japan)", "Military_(Turkey)", "Ukraine", "Japan",
    "Military_(El_Salvador)", "El_Salvador",
]
M3 = EntityMatcher(DEV3_NAMES)


@pytest.mark.parametrize(
    "q,surface,best",
    [
        # plural of a noun in -f ("thief" -> "thieves"), as an adjective or an "in" attachment
        ("Who did Colombian thieves rob?", "Colombian thieves", "Thief_(Colombia)"),
        ("Who did thieves in Colombia rob?", "thieves in Colombia", "Thief_(Colombia)"),
        # "X personnel" as people write it
        ("Who did Ugandan media workers ask?", "Ugandan media workers", "Media_Personnel_(Uganda)"),
        # the country adjective inside the sector phrase: templates, singular and plural
        ("Who coerced a member of the Sri Lankan judiciary?", "a member of the Sri Lankan judiciary", "Member_of_the_Judiciary_(Sri_Lanka)"),
        ("Who met members of the Sri Lankan judiciary?", "members of the Sri Lankan judiciary", "Member_of_the_Judiciary_(Sri_Lanka)"),
        ("Who did senior Turkish military officers accuse?", "senior Turkish military officers", "High_Ranking_Military_Personnel_(Turkey)"),
        ("Who did a senior Turkish military officer accuse?", "a senior Turkish military officer", "High_Ranking_Military_Personnel_(Turkey)"),
        ("Who did the main Austrian opposition criticise?", "the main Austrian opposition", "Main_Opposition_(Austria)"),
        ("Who did people associated with the Ukrainian opposition ask?", "people associated with the Ukrainian opposition", "People_Associated_with_the_Opposition_(Ukraine)"),
        ("Who did supporters of the opposition in Ukraine ask?", "supporters of the opposition in Ukraine", "People_Associated_with_the_Opposition_(Ukraine)"),
        # a correctly spelt word of a multi-word place is not "corrected" ("Salvador" -> "Salvadoran")
        ("Who did El Salvador's military attack?", "El Salvador's military", "Military_(El_Salvador)"),
        # a name with two alternatives beats one with four for a word both list
        ("Who did the Japanese finance ministry visit?", "the Japanese finance ministry", "Treasury/Finance_Ministry_(Japan)"),
        ("Who did the Japanese trade ministry visit?", "the Japanese trade ministry", "Finance_/_Economy_/_Commerce_/_Trade_Ministry_(Japan)"),
    ],
)
def test_dev3_round_actor_forms(q, surface, best):
    got = [m for m in M3.match(q) if m.source == "actor"]
    assert len(got) == 1, (q, got)
    assert got[0].text == surface and got[0].names[0] == best, got[0]


def test_plural_of_f_nouns_and_templates():
    assert plural("thief") == "thieves"
    assert plural("member of the qqslotqq judiciary") == "members of the qqslotqq judiciary"
    assert plural("senior qqslotqq military officer") == "senior qqslotqq military officers"
