"""TCC-RAG round tccrag17: rules of TCC-RAG's own stages.

* an Arabic article opens a name proposal when it is written capitalised or hyphened to a
  capitalised word ("al-Qaeda", "Al Qaeda", "Al Gore"); inside a run it stays a particle
  ("Bashar al-Assad"). Before, "al-Qaeda" was proposed as "Qaeda".
* a group the KG files only under sector names ("Combatant (Al Qaeda)", "Armed Gang (Al
  Qaeda)"): a mention no tier grounds that is such a group's qualifier reads all of them, the
  most frequent first (tccrag14's rule required a similarity hit first); a hyphen and a space
  are one in the qualifier ("al-Qaeda" = "Al Qaeda").
* a time question whose main event names both participants, under "the same <period>" whose
  clause gave no reference name, reads the main event's own times unbounded (SCoP's one-anchor
  answer); not for "before" / "after".
* "(at) the time" written right before a before / after cue ("the time preceding X's ...") is
  the directed cue's head noun, not a same-unit cue; a relative "when" right after the asked
  time noun ("the months when X did Y, in the year Z did W") opens the asked clause, not the
  reference.
* a statement sentence before the question that states the event a pro-verb repeats ("X
  rejected Y. Who was the first to do so after X?"): its other name is the main object.

Tiny hand-built KGs, questions written for these tests, answers checked by hand."""

from __future__ import annotations

from types import SimpleNamespace


from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.tccrag.method import _named_event_unbounded
from tkgqa_ray.methods.tccrag.parsing import _stated_event, capitalised_runs, group_sectors

ROWS = [
    # Al Qaeda has no entity of its own: its combatants are the most frequent sector, its
    # armed gang the next; the Australian police accused the armed gang on 2010-03-01; Nauru
    # used violence against the police before (2010-01-01) and Fiji after it (2010-04-01)
    ("Combatant_(Al_Qaeda)", "Use_conventional_military_force", "Police_(Pakistan)", "2009-01-01"),
    ("Combatant_(Al_Qaeda)", "Use_conventional_military_force", "Police_(Pakistan)", "2009-02-01"),
    ("Combatant_(Al_Qaeda)", "Use_conventional_military_force", "Police_(Pakistan)", "2009-03-01"),
    ("Police_(Australia)", "Accuse", "Armed_Gang_(Al_Qaeda)", "2010-03-01"),
    ("Nauru", "Use_unconventional_violence", "Police_(Australia)", "2010-01-01"),
    ("Fiji", "Use_unconventional_violence", "Police_(Australia)", "2010-04-01"),
    # Tanzania visited Kenya once, on 2011-05-10, the day Kenya hosted it
    ("Tanzania", "Make_a_visit", "Kenya", "2011-05-10"),
    ("Kenya", "Host_a_visit", "Tanzania", "2011-05-10"),
    ("Police_(Kenya)", "Make_statement", "Tanzania", "2011-05-11"),
    # Uganda rejected Kenya on 2012-01-01; Rwanda rejected Kenya after it (2012-02-01), Sudan
    # rejected Uganda (2012-03-01): the reading with Uganda as the main object
    ("Uganda", "Reject", "Kenya", "2012-01-01"),
    ("Rwanda", "Reject", "Kenya", "2012-02-01"),
    ("Sudan", "Reject", "Uganda", "2012-03-01"),
    # Uganda also rejected Burundi, before (2011-06-01) and after (2012-04-01) Kenya
    ("Uganda", "Reject", "Burundi", "2011-06-01"),
    ("Uganda", "Reject", "Eritrea", "2012-04-01"),
]



def _id(ctx, name):
    return ctx.table.display_entity_id[name]


def _runs(q):
    return [q[a:b] for a, b in capitalised_runs(q)]


# ----------------------------------------------------------------------------- Arabic article
def test_an_arabic_article_opens_a_name():
    assert _runs("Who accused al-Qaeda?") == ["al-Qaeda"]
    assert _runs("Who accused Al Qaeda?") == ["Al Qaeda"]
    assert _runs("Did Al Gore meet Bashar al-Assad?") == ["Al Gore", "Bashar al-Assad"]


def test_other_particles_still_trimmed():
    # a lower-case article not hyphened to the name, and other particles, stay out of a run's start
    assert _runs("Who accused al Jazeera?") == ["Jazeera"]
    assert _runs("Who met bin Laden?") == ["Laden"]


# ----------------------------------------------------------------------------- group names
def test_ungrounded_group_mention_reads_its_sectors(ctx):
    com, gang = _id(ctx, "Combatant (Al Qaeda)"), _id(ctx, "Armed Gang (Al Qaeda)")
    assert [e for e, _ in group_sectors("al-Qaeda", [], ctx.table)] == [com, gang]
    assert [e for e, _ in group_sectors("Al Qaeda", [], ctx.table)] == [com, gang]
    # a plain lower-case word is no group name; a mention that is no group's qualifier reads nothing
    assert group_sectors("qaeda", [], ctx.table) == []
    assert group_sectors("Hezbollah", [], ctx.table) == []
    # a KG name itself (a country also qualifies its sectors) reads no sector names
    assert group_sectors("Kenya", [], ctx.table) == []
    # a place the KG has no entity of its own for (only its sectors) is no group either
    assert group_sectors("Pakistan", [], ctx.table) == []


def test_similar_group_name_with_a_hyphen_reads_the_other_sectors(ctx):
    com, gang = _id(ctx, "Combatant (Al Qaeda)"), _id(ctx, "Armed Gang (Al Qaeda)")
    # the embedding tier's reading of "al-Qaeda" (real KG: Extremist (Al Qaeda), 0.853)
    assert group_sectors("al-Qaeda", [(gang, 0.86)], ctx.table) == [(gang, 0.86), (com, 0.86)]


def test_al_qaeda_grounds_to_its_sector_with_the_event(ctx):
    # the most frequent sector (Combatant) has no accusation: the next one's answers
    pred, tr = top(ctx, "Who was the last to accuse al-Qaeda?")
    assert pred == ["Police (Australia)"], tr


# ----------------------------------------------------------------------------- unbounded same
def test_named_event_with_an_unread_same_clause_is_read_unbounded(ctx):
    pred, tr = top(ctx, "On which day did Tanzania pay a visit to Kenya, the same day its hosts welcomed them?")
    assert pred == ["2011-05-10"], tr
    assert tr["chain"]["reading"].get("unbounded") is True, tr["chain"]


def test_unbounded_only_for_same_without_reference():
    sig = SimpleNamespace(order="same", explicit=None)
    p = SimpleNamespace(asked="time", reference=[], subject=1, object=2)
    assert _named_event_unbounded(p, sig)
    assert not _named_event_unbounded(p, SimpleNamespace(order="before", explicit=None))
    assert not _named_event_unbounded(SimpleNamespace(asked="time", reference=[3], subject=1, object=2), sig)
    assert not _named_event_unbounded(SimpleNamespace(asked="time", reference=[], subject=1, object=None), sig)
    assert not _named_event_unbounded(SimpleNamespace(asked="subject", reference=[], subject=None, object=2), sig)


# ----------------------------------------------------------------------------- stated event
def test_a_stated_event_gives_the_pro_verbs_object(ctx):
    pred, tr = top(ctx, "Uganda rejected Kenya. Who was the first to do so after Uganda?")
    assert pred == ["Rwanda"], tr
    assert tr["parse"]["object"] == "Kenya"


def test_stated_event_needs_a_nameless_question_sentence():
    q = "Uganda rejected Kenya. Who rejected Sudan after Uganda?"
    ents = [{"name": "Uganda", "start": 0}, {"name": "Kenya", "start": 16}, {"name": "Sudan", "start": 35}]
    assert _stated_event(q, ents, ["Uganda"], (42, 54)) is None
    q = "Uganda rejected Kenya. Who was the first to do so after Uganda?"
    ents = [{"name": "Uganda", "start": 0}, {"name": "Kenya", "start": 16}]
    assert _stated_event(q, ents, ["Uganda"], (50, 62)) == "Kenya"
    # one sentence: no statement before the question
    q = "Who rejected Kenya after Uganda?"
    assert _stated_event(q, [{"name": "Kenya", "start": 13}], ["Uganda"], (19, 31)) is None


# ----------------------------------------------------------------------------- relative "when"
def _cue(text, start, granularity="day"):
    return SimpleNamespace(kind="event", text=text, start=start, end=start + len(text), op="equal",
                           granularity=granularity, offset=0)


def test_a_relative_when_gives_way_to_the_other_cue():
    from tkgqa_ray.methods.tccrag.cues import _cue_clauses

    q = "Tell me the months when Chile praised Peru, in the year Peru hosted Bolivia."
    when, year = _cue("when", q.index("when")), _cue("in the year", q.index("in the year"), "year")
    assert _cue_clauses(q, [when, year]) == [year]
    # alone, the "when" stays (it is the question's only cue)
    assert _cue_clauses(q, [when]) == [when]
    # "when" after no time noun is a cue of its own ("..., when Peru hosted Bolivia")
    q2 = "In which month did Chile praise Peru, when Peru hosted Bolivia, in the year X?"
    w2 = _cue("when", q2.index("when"))
    assert _cue_clauses(q2, [w2, _cue("in the year", q2.index("in the year"), "year")])[0] is w2


def test_the_year_clause_bounds_the_when_clause(ctx):
    # Uganda rejected Kenya in 2012 (January); Tanzania visited Kenya in 2011 only
    pred, tr = top(ctx, "Tell me the months when Rwanda rejected Kenya, in the year Uganda rejected Kenya.")
    assert pred == ["2012-02"], tr
    assert tr["parse"]["reference"] == ["Uganda", "Kenya"], tr["parse"]


# ----------------------------------------------------------------------------- "the time preceding"
def test_the_time_before_a_directed_cue_is_its_head():
    from tkgqa_ray.methods.tccrag.cues import _cue_clauses

    q = "Looking at the time preceding Uganda's rejection of Kenya, who else did Uganda reject?"
    same = _cue("at the time", q.index("at the time"))
    before = SimpleNamespace(kind="event", text="preceding", start=q.index("preceding"), end=q.index("preceding") + 9,
                             op="before", granularity=None, offset=0)
    assert _cue_clauses(q, [same, before]) == [before]
    # a unit ("the day") keeps its same-unit cue
    q2 = "On the day preceding ..."
    day = _cue("On the day", 0)
    pre2 = SimpleNamespace(kind="event", text="preceding", start=11, end=20, op="before", granularity=None, offset=0)
    assert _cue_clauses(q2, [day, pre2]) == [day, pre2]


def test_the_time_preceding_reads_before(ctx):
    pred, tr = top(ctx, "Looking at the time preceding Uganda's rejection of Kenya, who else did Uganda reject?")
    assert pred == ["Burundi"], tr
