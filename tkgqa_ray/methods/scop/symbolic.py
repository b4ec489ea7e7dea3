"""Symbolic (no-LLM) implementations of SCoP's four roles, built on :mod:`tkgqa_ray.nlu`.

Registered in ``SYMBOLIC_ROLES`` as ``scop.event_parser``, ``scop.aligner``,
``scop.constraint_parser`` and ``scop.answerer`` when this module is imported (the SCoP
method module imports it). Each takes ``(inputs, ctx)`` and returns a dict that validates
against the role's schema; the symbolic backbone validates it like LLM output.

The parsing is designed from the semantics of temporal questions (one asked event, event
references introduced by cues, explicit times, ordinals), see :mod:`tkgqa_ray.nlu.analysis`.
"""

from __future__ import annotations

import re
from dataclasses import replace as dc_replace
from typing import Any

import numpy as np

from tkgqa_ray.backbones.base import SYMBOLIC_ROLES
from tkgqa_ray.nlu import QuestionAnalysis, infer_answer_type, infer_time_level
from tkgqa_ray.nlu.analysis import _PRO_VERB_RE, action_noun, leftover_names, leftover_words, passive_agent_first
from tkgqa_ray.nlu.anaphora import (COUNTRY_ANAPHOR_RE, DESCRIPTION_RE, OBJECT_PRONOUN_RE, POSSESSIVE_PATIENT_RE, agreement, antecedent,
                                    features, opening_pronoun)
from tkgqa_ray.nlu.cache import context_analysis
from tkgqa_ray.nlu.coreadings import occasion_floor  # shared with TCC-RAG (refs24, tccrag19)
from tkgqa_ray.time import coarsen, parse_time, format_day

from .triple_index import TripleIndex
from .types import SHARE_MARGIN, UNKNOWN

ENT_OK = 0.6  # entity slot similarity considered reliable
REL_OK = 0.5  # relation similarity for slot-level grounding without fact support
REL_FACT_OK = 0.2  # relation similarity when a KG fact with the grounded entities supports it
DEFAULT_PHRASE = "interact with"

analysis = context_analysis  # the roles of one question share one cached analysis


# ----------------------------------------------------------------------------- event parser
def _split(a: QuestionAnalysis, ctx: Any = None) -> tuple[list, list]:
    """Main-event names and reference clauses. When the clause split left the asked event
    without enough names, its pronouns stand for names of the reference (:func:`_pronoun_names`),
    else names are taken back from reference clauses (in question order) rather than giving
    up. Shared by the event and constraint parsers so anchor indices agree."""
    main = list(a.main.mentions)
    refs = list(a.refs)
    if _pro_form_main(a):
        return main, refs  # the asked event is the reference's action (see _strict_parse)
    stand_ins = _pronoun_names(a, ctx)
    if stand_ins:
        return sorted(main + stand_ins, key=lambda m: m.start), refs
    need = 1 if a.answer_type == "entity" else 2
    while len(main) < need and refs:
        ref = refs.pop(0)
        main = sorted(main + list(ref.mentions), key=lambda m: m.start)
    return main, refs


def _pronoun_names(a: QuestionAnalysis, ctx: Any = None) -> list:
    """A time question's main-clause pronouns as the reference names they stand for, placed
    at the pronoun (so word order gives the slot); [] unless every missing name has one.

    "Before X rejected Y's plan, in what month had Z last praised **him**?": the asked event
    is (Z, praised, Y), and the reference stays an event of its own (borrowing both of its
    names would read "X praised Y" and lose the order). Each pronoun takes the reference name
    that agrees with it best (nlu's :func:`~tkgqa_ray.nlu.anaphora.agreement`); among equals
    one the KG links to the main clause's own name, then the one in the pronoun's own slot
    (a subject pronoun the reference's doer, an object pronoun its object: "..., when had
    **they** last consulted **them**?"). Two pronouns stand for two different names."""
    pros = a.main.pronouns
    if not pros or a.answer_type != "time" or not a.refs or len(a.main.mentions) + len(pros) != 2:
        return []
    ref = a.refs[0]
    r0, r1 = ref.mentions[0], ref.mentions[1]
    if passive_agent_first(a.question[: ref.span[1]], ref.mentions):
        r0, r1 = r1, r0
    own = list(a.main.mentions)
    order = sorted([(p[0], p) for p in pros] + [(m.start, None) for m in own])
    out, taken = [], set()
    for k, (_, p) in enumerate(order):
        if p is None:
            continue
        cands = [m for m in ([r0, r1] if k == 0 else [r1, r0]) if id(m) not in taken]
        pronoun = a.question[p[0] : p[1]]
        scores = [agreement(pronoun, features(m.text, m.name)) for m in cands]
        if not cands or max(scores) == 0:
            return []  # the pronoun stands for no name of the reference
        best = [m for m, s in zip(cands, scores) if s == max(scores)]
        # (a name we know nothing of agrees "well" only for our ignorance of it: it may be
        # that very person, so the KG's evidence for the asked action decides with it)
        pool = [m for m, s in zip(cands, scores) if s == max(scores) or (s == 2 and features(m.text, m.name).kind == "unknown")]
        pick = _acting_stand_in(ctx, pool, own, a.main.phrase, subject=k == 0)
        pick = pick or next((m for m in best if own and _linked(ctx, own[0], m)), best[0])
        taken.add(id(pick))
        out.append(dc_replace(pick, start=p[0], end=p[1]))
    return out


def _acting_stand_in(ctx: Any, best: list, own: list, phrase: str | None, subject: bool) -> Any:
    """Of reference names that agree as well with a main-clause pronoun (a name of unknown
    gender as well as one of the pronoun's, :func:`_pronoun_names`), the one the KG
    holds the asked action for with the main clause's own name, the pronoun in its own slot
    ("in the month Winston Peters consulted Michael Cullen, when did **he** make statements
    about New Zealand First?": two men; the KG has Peters, not Cullen, make statements about
    the party), refs19. English leaves the choice to what makes sense, as
    :func:`_antecedent` reads the reference's action; any KG link between the names (the
    fallback) is no reading of the asked action. None unless exactly one name has it."""
    if len(best) < 2 or not own or not phrase:
        return None
    acted = [m for m in best if (_acts_between(ctx, m, own[0], phrase) if subject else _acts_between(ctx, own[0], m, phrase))]
    return acted[0] if len(acted) == 1 else None


def _verb_before(q: str, ref: Any) -> bool:
    """True when a word of the reference clause's relation phrase comes before its one name
    (the name is then the action's object: "before visiting Iran", "after it visited Iran")."""
    words = set(ref.phrase.lower().split())
    head = q[ref.cue.end : ref.mentions[0].start].lower() if ref.cue is not None else ""
    if words and re.search(r"\b(?:his|her|its|their)\s*$", head):
        return True  # "after his Oman trip": the possessive is the doer, the name a noun adjunct
    return any(w in words for w in re.findall(r"[a-z']+", head))


# verbs and pro-forms that carry no action of their own in a main clause that repeats the
# reference's: "Who came first after X in visiting Y?" (the action is the reference's
# "visiting"), "who was the first to do the same / do so / do likewise too?" (nlu5's light verbs
# and nlu6's pro-verb forms, one word set)
_LIGHT_VERBS = {"came", "come", "comes", "went", "was", "were", "is", "happened", "did", "do", "does", "done", "doing",
                "the", "same", "so", "likewise", "it", "this", "that", "too", "also", "as", "well", "else"}


def _light(phrase: str) -> bool:
    return all(w in _LIGHT_VERBS for w in phrase.lower().split())


# a passive between the cue and the reference's one name: "after being criticised by",
# "before it had been visited by", "once they were offered aid by"
# (or a nominal with its object a pronoun and its agent after "by": "following a statement
# about it by X" is X's statement, refs18)
_REF_PASSIVE_RE = re.compile(
    r"\b(?:being|been|was|were|is|are|be|get|gets|got|getting)\b[\w\s']*\bby\s+(?:the\s+)?$|\b(?:them|it|him|her)\s+by\s+(?:the\s+)?$",
    re.I)


def _distinct_actions(ctx: Any, own: str, asked: str) -> bool:
    """True when the relation lexicon reads two phrases as different KG relations (nlu12):
    "after holding consultations with Y" is no paraphrase of the asked "spoke about", while
    "denouncing" is one of "condemn" (their best readings share a relation).
    Without a table, or when either phrase has no lexicon reading, they count as one action."""
    rels = getattr(getattr(ctx, "table", None), "relations", None)
    if not rels or not own or not asked:
        return False
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    lex = RelationLexicon.for_relations(list(rels))
    a, b = _best_readings(lex.match(own)), _best_readings(lex.match(asked))
    return bool(a) and bool(b) and not (a & b)


def _best_readings(hits: list) -> set[str]:
    """The relations of a phrase's best lexicon hits (ties within 0.05 of the top score): a
    weaker partial hit ("spoke about" as Consult) is no reading of its own."""
    return {h.relation for h in hits if h.score >= hits[0].score - 0.05} if hits else set()


def _own_action(q: str, ref: Any, doer: str, name: str, asked_phrase: str | None = None, ctx: Any = None) -> list[str]:
    """A one-name reference with its own verb before the name, done by ``doer`` (the asked
    event's subject, left implicit or as a pronoun): (doer, V, name), or (name, V, doer)
    when the clause is passive ("after being criticised by Japan").

    ``asked_phrase``: the phrase to read V with when the reference only orders the asked
    action ("before / after" it: what before_after questions relate is one action, and a
    reworded verb, "announced a willingness to meet" / "declared readiness to negotiate", is
    a paraphrase of it); a same-unit or offset reference keeps its own verb (another action
    on the same day / month)."""
    head = q[ref.cue.end : ref.mentions[0].start] if ref.cue is not None else ""
    passive = bool(_REF_PASSIVE_RE.search(head))
    phrase = ref.phrase
    # (a pro-verb, "before he did so concerning Y", repeats the asked action whatever the rest
    # of the clause reads as)
    pro = ref.cue is not None and bool(_PRO_VERB_RE.search(q, ref.cue.end, ref.span[1]))
    if (asked_phrase and ref.cue is not None and ref.cue.op in ("before", "after") and not ref.cue.offset and not passive
            and (pro or not _distinct_actions(ctx, phrase, asked_phrase))):
        # (a passive reference is another action, done to the asked event's doer: "whom did X
        # arrest before being threatened by Y" -- its own verb stays; so does a verb the
        # lexicon reads as another relation)
        phrase = asked_phrase
    if passive:  # oriented here: the agent's "by" is no part of the action any more
        return [name, re.sub(r"\s+by$", "", phrase), doer]
    return [doer, phrase, name]


# an object pronoun right before the "by" of a nominal's agent: "an appeal to him by X"
_AGENT_NOMINAL_RE = re.compile(r"\b(them|it|him|her)\s+by\s*$", re.I)


def _pronoun_object(q: str, ref: Any) -> str | None:
    """The object pronoun after the name of a one-name reference clause with its own action
    on it, or None: "Whom did the Kenyan police arrest first after X threatened **them**?" --
    X threatened the police, not "X arrested someone" (a pro-form "after X did it / so"
    repeats the asked action and stays a parallel reference). The pattern is nlu's
    (:data:`tkgqa_ray.nlu.anaphora.OBJECT_PRONOUN_RE`), shared with TCC-RAG."""
    if not ref.phrase or ref.cue is None:
        return None
    if _light(ref.phrase):  # only a motion verb's goal: "before X went there" (refs22)
        tail = q[ref.mentions[0].end : ref.span[1]]
        m = COUNTRY_ANAPHOR_RE.search(tail)
        return m.group(0) if m and _motion_there(tail, m) else None
    # a nominal event with its agent after "by" ("prior to an appeal to **him** by Nigerian
    # doctors", "following a statement about **it** by X"): the pronoun is its object (refs18)
    head = q[ref.cue.end : ref.mentions[0].start]
    m = _AGENT_NOMINAL_RE.search(head)
    if m and _acts_before(head, m.start()):
        return m.group(1)
    tail = q[ref.mentions[0].end : ref.span[1]]
    m = OBJECT_PRONOUN_RE.search(tail)
    if m and _acts_before(tail, m.start()):
        return m.group(1)
    # "after the Israeli army occupied **his** territory", "turned down **their** proposal to
    # meet": the possessor of a noun the CAMEO action is named with is its patient (refs19;
    # "a statement about his cabinet" keeps the cabinet, no word of Make_statement)
    m = POSSESSIVE_PATIENT_RE.search(tail)
    if m and _acts_before(tail, m.start()) and action_noun(m.group("noun")):
        return m.group(1)
    # "before Human Rights Watch visited **the country**": a definite description standing for
    # a country of the asked event, like "it" (nlu's agreement: a country only)
    m = COUNTRY_ANAPHOR_RE.search(tail)
    if m and (_acts_before(tail, m.start()) or _motion_there(tail, m)):
        return m.group(0)
    return None


# verbs of motion that carry their goal in a place adverb: "went / came / travelled there" is
# "went to" the place (CAMEO 042, Make_a_visit: the lexicon's "go to", "travel to"), where
# "went" alone is a light verb (_LIGHT_VERBS: "who went first ...")
_MOTION_RE = re.compile(r"\b(?:went|gone|go|goes|going|came|come|comes|travell?ed|flew|headed|returned)\s*$", re.I)


def _motion_there(tail: str, m: Any) -> bool:
    """True when the place adverb ``m`` ("there") is the goal of a verb of motion right before
    it ("... before Laura Silsby **went there**": she went to the country; refs22)."""
    return m.group(0).lower() == "there" and bool(_MOTION_RE.search(tail[: m.start()]))


def _goal_phrase(phrase: str, pronoun: str | None) -> str:
    """A motion verb's phrase with its goal's preposition when the goal was "there" ("went"
    -> "went to", the lexicon's Make_a_visit); any other phrase unchanged."""
    if pronoun and pronoun.lower() == "there" and _MOTION_RE.search(phrase):
        return phrase + " to"
    return phrase


def _acts_before(text: str, i: int) -> bool:
    """True when ``text`` before offset ``i`` has a word other than a light verb: an action
    on the pronoun or description at ``i``."""
    return any(w not in _LIGHT_VERBS for w in re.findall(r"[a-z]+", text[:i].lower()))


def _description_of(q: str, ref: Any, names: Any) -> str | None:
    """A definite description after the name of a one-name reference clause with its own
    action on it that stands for one of ``names`` by a word of that name ("in the same month
    Serbia's central bank made a statement about **the fund**": the IMF asked about; nlu's
    :data:`~tkgqa_ray.nlu.anaphora.DESCRIPTION_RE`, refs17), or None."""
    if not ref.phrase or _light(ref.phrase) or ref.cue is None:
        return None
    tail = q[ref.mentions[0].end : ref.span[1]]
    for m in DESCRIPTION_RE.finditer(tail):
        if _acts_before(tail, m.start()) and any(agreement(m.group(0), features(x.text, x.name)) for x in names):
            return m.group(0)
    return None


def _drop(phrase: str, desc: str | None) -> str:
    """The relation phrase without a description that stands for a name (its object)."""
    return " ".join(re.sub(rf"\b{re.escape(desc)}\b", " ", phrase, flags=re.I).split()) if desc else phrase


def _subject_pronoun_of(q: str, ref: Any, m: Any) -> bool:
    """True when a one-name reference clause opens with a subject pronoun that agrees with
    the asked event's name ``m`` and has an action of its own before its name ("before
    **she** consulted X", "in the month **he** was upbeat about X"): the pronoun is ``m``
    doing (or, passive, undergoing) that action; nlu's pattern, shared with TCC-RAG."""
    if ref.cue is None or not ref.phrase or _light(ref.phrase):
        return False
    pro = opening_pronoun(q[ref.cue.end : ref.mentions[0].start])
    return pro is not None and antecedent(pro, [(m.text, m.name)]) is not None


# a possessive determiner opening a one-name reference before its action noun: "after **his**
# statement about Y", "following **their** visit to Y" (next29)
_LEAD_POSSESSIVE_RE = re.compile(r"\s*(?P<p>his|her|its|their)\s+(?P<n>[a-z]+)\b", re.I)


def _possessor_of(q: str, ref: Any, m: Any) -> bool:
    """True when a one-name reference clause opens with a possessive determiner that agrees
    with the asked event's name ``m``, right before a word of the reference's own phrase and
    with the reference's name after it ("after his statement about Y"): the possessor is
    ``m``, the action's doer."""
    if ref.cue is None or not ref.phrase or _light(ref.phrase) or len(ref.mentions) != 1:
        return False
    d = _LEAD_POSSESSIVE_RE.match(q, ref.cue.end)
    if d is None or d.end() > ref.mentions[0].start or d.group("n").lower() not in ref.phrase.lower().split():
        return False
    return antecedent(d.group("p"), [(m.text, m.name)]) is not None


# (a demonstrative too: "after **that party** made a statement about X", refs25)
_LEAD_DESCRIPTION_RE = re.compile(r"\s*(?:(?:that|when|in\s+which|on\s+which)\s+)?(?P<desc>(?:the|that|this)\s+[a-z]{3,})\s+(?=[a-z]+\b)")


def _subject_description_of(q: str, ref: Any, m: Any) -> str | None:
    """The definite description ("the paper") that opens a one-name reference clause with an
    action of its own before its name, when it agrees with the asked event's name ``m``
    (nlu's :func:`~tkgqa_ray.nlu.anaphora.agreement`: a word of the name, or a newspaper's
    title); None otherwise."""
    if ref.cue is None or not ref.phrase or _light(ref.phrase) or len(ref.mentions) != 1:
        return None
    d = _LEAD_DESCRIPTION_RE.match(q[ref.cue.end : ref.mentions[0].start])
    if d is None or not agreement(d.group("desc"), features(m.text, m.name)):
        return None
    return d.group("desc")


def _agrees(pronoun: str | None, m: Any) -> bool:
    """True when the pronoun may stand for mention ``m`` (nlu's agreement: "them" is no
    country, "he" no police force); any pronoun when there is no such name to check."""
    return pronoun is not None and (m is None or antecedent(pronoun, [(m.text, m.name)]) is not None)


def _linked(ctx: Any, a: Any, b: Any) -> bool:
    """True when the KG holds a triple between an entity candidate of mention ``a`` and one of
    ``b`` (either direction)."""
    table = getattr(ctx, "table", None)
    if table is None or not a.entity_ids or not b.entity_ids:
        return False
    idx = TripleIndex.for_table(table)
    bs = np.asarray(b.entity_ids[:3])
    for e in a.entity_ids[:3]:
        if np.isin(idx.o[idx.with_subject(e)], bs).any() or np.isin(idx.s[idx.with_object(e)], bs).any():
            return True
    return False


def _antecedent(ctx: Any, name: Any, asked: tuple, pronoun: str, linked: bool = True, action: str = "") -> Any:
    """The asked event's name a pronoun of a one-name reference stands for: of the names that
    agree with it best (nlu's :func:`~tkgqa_ray.nlu.anaphora.antecedent`: "them" is Ugandan
    citizens, not the Democratic Party; "him" the head of government, not Catherine Ashton),
    the one the KG holds the reference's ``action`` for from ``name`` to it ("the police
    arrested citizens before the royal administration sued **them**": the KG has it sue the
    citizens, refs18), else the one the KG links to ``name`` at all (the asked subject first),
    else the subject. All of them when none agrees (the old reading). ``linked=False``: the
    subject first among equals, without the KG (a subject pronoun, the asked doer by default)."""
    scores = [agreement(pronoun, features(m.text, m.name)) for m in asked]
    best = [m for m, s in zip(asked, scores) if s == max(scores)] if max(scores) > 0 else list(asked)
    if linked and action and len(best) > 1:
        acted = [m for m in best if _acts_between(ctx, name, m, action)]
        if len(acted) == 1:
            return acted[0]
    return next((m for m in best if linked and _linked(ctx, name, m)), best[0])


def _acts_between(ctx: Any, a: Any, b: Any, phrase: str) -> bool:
    """True when the KG holds a fact of a relation the lexicon reads ``phrase`` as (its best
    readings) from an entity candidate of ``a`` to one of ``b``."""
    return len(_triples_between(ctx, a, b, phrase)) > 0


def _triples_between(ctx: Any, a: Any, b: Any, phrase: str) -> np.ndarray:
    """Triple ids of relations the lexicon reads ``phrase`` as (its best readings) from an
    entity candidate of ``a`` to one of ``b`` (empty without a table)."""
    table = getattr(ctx, "table", None)
    rels = getattr(table, "relations", None)
    if table is None or not rels or not a.entity_ids or not b.entity_ids:
        return np.zeros(0, np.int64)
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    names = _best_readings(RelationLexicon.for_relations(list(rels)).match(phrase))
    ids = [k for k, r in enumerate(rels) if r in names]
    idx = TripleIndex.for_table(table)
    bs = np.asarray(b.entity_ids[:3])
    out = []
    for e in a.entity_ids[:3]:
        rows = idx.with_subject(e)
        out.append(rows[np.isin(idx.r[rows], ids) & np.isin(idx.o[rows], bs)])
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def _same_unit_windows(ctx: Any, ref: Any, r0: Any, r1: Any) -> list[tuple[int, int]]:
    """The calendar units (day / month / year ranges) of the reference event's KG facts, for a
    same-unit reference ("on the day X appealed to Y, ..."); [] for any other cue."""
    cue = ref.cue
    if cue is None or cue.kind != "event" or cue.op != "equal" or cue.offset or cue.granularity not in ("day", "month", "year"):
        return []
    table = ctx.table
    tids = _triples_between(ctx, r0, r1, ref.phrase or "")
    if not len(tids):
        return []
    fids = table.facts_of_triples(tids)
    return sorted({coarsen(int(table.start[f]), int(table.start[f]), cue.granularity) for f in fids})


def _supported_antecedent(ctx: Any, pronoun: str, names: tuple, ante: Any, act: str, slot: str, ref: Any = None) -> Any:
    """A main-clause pronoun that agrees equally well with both names of the reference ("In
    the same month Mauritian citizens appealed to the courts of Mauritius, who cut back
    relations with **them**?": two plural groups) stands for the one the KG holds the asked
    action for, with that name in the pronoun's slot (refs15): English leaves the choice to
    what makes sense, SCoP to admissible evidence. Agreement, or evidence for both or neither,
    keeps nlu's pick ``ante``."""
    scores = [agreement(pronoun, features(m.text, m.name)) for m in names]
    if ante is None or scores[0] != scores[1] or scores[0] == 0:
        return ante
    ok = [m for m in names if _acts_on(ctx, m, act, slot)]
    if len(ok) == 2 and ref is not None:
        # both have it: a same-unit reference admits only the asked action in the reference's
        # own day / month / year ("On the day Pakistan's education sector appealed to the
        # government, who consulted **it**?": the sector, consulted that day; refs19)
        windows = _same_unit_windows(ctx, ref, *names)
        if windows:
            ok = [m for m in ok if _acts_on(ctx, m, act, slot, windows)] or ok
    return ok[0] if len(ok) == 1 else ante


def _acts_on(ctx: Any, m: Any, phrase: str, slot: str, windows: list[tuple[int, int]] | None = None) -> bool:
    """True when the KG holds a fact of a relation the lexicon reads ``phrase`` as (its best
    readings) with an entity candidate of ``m`` as its ``slot`` ("subject" / "object");
    with ``windows`` (day ranges), one that starts inside one of them."""
    table = getattr(ctx, "table", None)
    rels = getattr(table, "relations", None)
    if table is None or not rels or not m.entity_ids or not phrase:
        return False
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    names = _best_readings(RelationLexicon.for_relations(list(rels)).match(phrase))
    ids = [k for k, r in enumerate(rels) if r in names]
    if not ids:
        return False
    idx = TripleIndex.for_table(table)
    for e in m.entity_ids[:3]:
        rows = idx.with_subject(e) if slot == "subject" else idx.with_object(e)
        rows = rows[np.isin(idx.r[rows], ids)]
        if windows is None and len(rows):
            return True
        if windows and len(rows):
            starts = table.start[table.facts_of_triples(rows)]
            if any(((starts >= lo) & (starts <= hi)).any() for lo, hi in windows):
                return True
    return False


def _pro_form_main(a: QuestionAnalysis) -> bool:
    """An entity question whose main clause names no one while its first reference clause is
    a full event: "Before X criticised Y, who was the last to do so / to criticise it?". The
    main clause repeats the reference's action on its object (a pro-form: "do so", "it", or
    nothing) and asks for its subject; the reference stays the anchor rather than lending
    its names to the asked event. With a subject pronoun ("..., whom did they criticise
    first?") the pronoun is the reference's doer and the object is asked."""
    return a.answer_type == "entity" and not a.main.mentions and bool(a.refs) and len(a.refs[0].mentions) >= 2


def event_parser(inputs: dict, ctx: Any) -> dict:
    """Strict reading first; when it lacks names for the asked event, the best relaxed
    reading (never a parse failure: that path is for malformed LLM output)."""
    q = inputs["question"]
    a = analysis(q, ctx)
    try:
        return _strict_parse(q, a, ctx)
    except ValueError as exc:
        out = _relaxed_parse(q, a)
        out["relaxed"] = str(exc)  # recorded in the trace (trace.relaxed) by the event-parser stage
        return out


def _slot_text(x: str) -> str:
    """A surface usable as a slot (no '?', no temporal expression: schema rules)."""
    x = re.sub(r"[?]", " ", x)
    x = re.sub(r"\b(?:before|after|prior to|same (?:day|month|year))\b", " ", x, flags=re.I)
    x = re.sub(r"\b(?:1[5-9]|20)\d\d(?:-\d\d(?:-\d\d)?)?\b", " ", x)
    return " ".join(x.split())


def _relaxed_parse(q: str, a: QuestionAnalysis) -> dict:
    """Names from the mentions plus leftover capitalised runs (or, failing those, the
    leftover content words), in question order; the same slot logic as the strict parse."""
    phrase = a.main.phrase or next((r.phrase for r in a.refs if r.phrase), "") or DEFAULT_PHRASE
    names = [m.text for m in sorted(a.mentions, key=lambda m: m.start)]
    extra = [_slot_text(x) for x in leftover_names(a)]
    names += [x for x in extra if x]
    if not names:
        rest = _slot_text(leftover_words(a, phrase))
        names = [rest or phrase]
    if a.answer_type == "entity":
        x = names[0]
        open_slot = a.main.open_slot or "subject"
        search = [UNKNOWN, phrase, x] if open_slot == "subject" else [x, phrase, UNKNOWN]
        return {"anchors": [], "search": search}
    if len(names) < 2:
        rest = _slot_text(leftover_words(a, phrase)) or phrase
        names = names + [rest]
    return {"anchors": [[names[0], phrase, names[1]]], "search": None}


def _strict_parse(q: str, a: QuestionAnalysis, ctx: Any = None) -> dict:
    phrase = a.main.phrase or next((r.phrase for r in a.refs if r.phrase), "") or DEFAULT_PHRASE
    main, refs = _split(a, ctx)
    anchors: list[list[str]] = []
    search = None
    asked: tuple = ()  # the asked event's (subject, object) mentions of a time question
    if _pro_form_main(a):
        ref = refs[0]
        r0, r1 = ref.mentions[0], ref.mentions[1]
        if passive_agent_first(q[: ref.span[1]], ref.mentions):
            r0, r1 = r1, r0
        act = a.main.phrase if a.main.phrase and not _light(a.main.phrase) else (ref.phrase or a.main.phrase or DEFAULT_PHRASE)
        # (a pronoun stands for the reference's name nlu's agreement picks, by default the one
        # in its own slot: "After X's statement about Y, whom did they address next?" is X)
        ante = a.main.antecedent
        if a.main.pronoun is not None:
            ante = _supported_antecedent(ctx, q[a.main.pronoun[0] : a.main.pronoun[1]], (r0, r1), ante, act,
                                         "subject" if a.main.open_slot == "object" else "object", ref)
        if a.main.pronoun is not None and a.main.open_slot == "object":
            # the subject pronoun is the asked action's doer, the wh-phrase asks its object
            search = [(ante or r0).text, act, UNKNOWN]
        else:
            search = [UNKNOWN, act, (ante or r1).text]
    elif a.answer_type == "entity":
        if not main:
            raise ValueError("no entity mention for the asked event")
        x = main[0].text
        search = [UNKNOWN, phrase, x] if a.main.open_slot == "subject" else [x, phrase, UNKNOWN]
    else:
        if len(main) < 2:
            raise ValueError("a time question needs a complete event (two entity mentions)")
        m0, m1 = main[0], main[1]
        if passive_agent_first(q, main):
            m0, m1 = m1, m0
        anchors.append([m0.text, phrase, m1.text])
        asked = (m0, m1)
    for ref in refs:
        ms = ref.mentions
        if len(ms) >= 2:
            r0, r1 = ms[0], ms[1]
            if passive_agent_first(q[: ref.span[1]], ms):
                r0, r1 = r1, r0
            anchors.append([r0.text, ref.phrase or phrase, r1.text])
        elif search is not None and search[0] == UNKNOWN and main and _possessor_of(q, ref, main[0]):
            # "After **his** statement about the Greek prime minister, who was the next subject
            # of a statement from Nicos Anastasiades?": the possessive opening the reference is
            # the asked event's named participant, the doer of the reference's own action
            # (whatever role the asked phrase gives the name; next29)
            anchors.append([main[0].text, ref.phrase, ms[0].text])
        elif search is not None and main and _subject_pronoun_of(q, ref, main[0]):
            # "Who last praised Roza Otunbayeva before **she** consulted X?": a subject pronoun
            # opens the reference, a full event of the asked event's named participant (the
            # parallel reading, "X praised Otunbayeva", would drop the reference's own verb)
            anchors.append(_own_action(q, ref, main[0].text, ms[0].text, phrase, ctx))
        elif search is not None and main and (desc := _subject_description_of(q, ref, main[0])):
            # "Who had threatened the Times of Zambia by the time **the paper** accused X?": a
            # definite description opening the reference that agrees with the asked event's
            # name is that name doing the reference's own action (as a subject pronoun; refs24)
            anchors.append(_own_action(q, dc_replace(ref, phrase=_drop(ref.phrase, desc.split()[-1])), main[0].text, ms[0].text, phrase, ctx))
        elif search is not None and search[0] != UNKNOWN and ref.phrase and _verb_before(q, ref):
            # "Who did Iran criticise after threatening Israel / after it had threatened
            # Israel?": the asked event's known subject (implicit or a pronoun) did the
            # reference's own action; a passive ("after being criticised by Japan") makes the
            # name its agent
            anchors.append(_own_action(q, ref, search[0], ms[0].text, phrase, ctx))
        elif search is not None and _agrees(pro := _pronoun_object(q, ref), main[0] if main else None):
            # "after X threatened them": the reference's own action on the asked event's name
            # (one that agrees: "before a US envoy demanded them" are the talks, not Iran;
            # "before X went there": the goal of the motion, a country)
            anchors.append([ms[0].text, _goal_phrase(ref.phrase, pro), search[0] if search[0] != UNKNOWN else search[2]])
        elif search is not None and (desc := _description_of(q, ref, main[:1])):
            # "... made a statement about the fund": the same, by a word of the name (refs17)
            anchors.append([ms[0].text, _drop(ref.phrase, desc), main[0].text])
        elif search is not None:  # parallel reference: the other name in the asked role
            other = ms[0].text
            anchors.append([other, phrase, search[2]] if search[0] == UNKNOWN else [search[0], phrase, other])
        elif anchors:  # time question, one name in the reference
            desc = _description_of(q, ref, asked) if asked else None
            pro = (_pronoun_object(q, ref) or desc) if asked else None
            if pro:
                # "When did X first criticise Y after Z had consulted it?": the reference's own
                # action on a name of the asked event; "it" may stand for either, so agreement
                # and then the reading with KG evidence between Z and that name decide
                action = _drop(ref.phrase, desc if pro == desc else None)
                anchors.append([ms[0].text, action, _antecedent(ctx, ms[0], asked, pro, action=action).text])
            elif ref.phrase and _verb_before(q, ref):
                # "before visiting Iran", "after it had visited Iran": the asked event's subject
                # (implicit or a pronoun) did the reference's action to the name; a subject
                # pronoun that agrees only with the asked object is its object ("before **he**
                # negotiated with X", he = the asked event's Nuri al-Maliki, not the police)
                sub = opening_pronoun(q[ref.cue.end : ms[0].start]) if asked else None
                doer = _antecedent(ctx, ms[0], asked, sub, linked=False).text if sub else anchors[0][0]
                anchors.append(_own_action(q, ref, doer, ms[0].text))
            else:  # elliptic ("after Iran did"): same action, the name replaces the subject
                anchors.append([ms[0].text, anchors[0][1], anchors[0][2]])
    return {"anchors": anchors, "search": search}


# ----------------------------------------------------------------------------- aligner
def _slot_best(slot: list | None, thresh: float, raw: str) -> str:
    if slot and slot[0][1] >= thresh:
        return slot[0][0]
    return raw


def _fact_ok(f: dict, ent_ok: float = ENT_OK, rel_ok: float = REL_FACT_OK) -> bool:
    ss, sr, so = f.get("sims", [1.0, 1.0, 1.0])
    return ss >= ent_ok and so >= ent_ok and sr >= rel_ok


def _shared_relation(choices: list[list[dict]]) -> str | None:
    """The relation every clause of a shared action has a reliable fact for (each list in
    preference order), best by summed fact score; None when they share none. A relation
    counts for a clause only when its phrase similarity is within :data:`SHARE_MARGIN` of
    that clause's best reading: a far reading with a fact ("criticise" as Threaten) is no
    paraphrase of the action."""
    best = []
    for facts in choices:
        top = max((f["sims"][1] for f in facts), default=0.0)
        d: dict[str, dict] = {}
        for f in facts:
            if f["sims"][1] >= top - SHARE_MARGIN:
                d.setdefault(f["r"], f)
        best.append(d)
    common = set(best[0]).intersection(*best[1:]) if best else set()
    if not common:
        return None
    return max(sorted(common), key=lambda r: sum(d[r]["score"] for d in best))


def _occasions(ctx: Any, f: dict) -> int:
    """Distinct start days of a candidate fact's triple in the KG (0 when it is unknown)."""
    t = ctx.table
    s, r, o = t.entity_id.get(f["s"]), t.relation_id.get(f["r"]), t.entity_id.get(f["o"])
    if s is None or r is None or o is None:
        return 0
    tr = np.asarray(t.triples)
    key = np.array([s, r, o], dtype=tr.dtype)
    k = int(np.searchsorted(tr.view([("", tr.dtype)] * 3).ravel(), key.view([("", tr.dtype)] * 3)[0]))
    if k >= len(tr) or tuple(tr[k].tolist()) != (s, r, o):
        return 0
    return len(np.unique(np.asarray(t.start)[t.facts_of_triples([k])]))


def _one_occasion(ctx: Any, facts: list[dict]) -> dict | None:
    """A reference clause names one occasion ("after Nigerians threatened the party"): when its
    best fact's triple happened on several days and a near-tie reading of the same phrase with
    the same names happened once (Threaten three times, Threaten_non-force once), the single
    occasion is the event meant (refs24); None to keep the best fact. The KG decides between
    readings the lexicon cannot tell apart; both must fit the phrase well (a loosely worded
    "physical attack on" is near several relations, none of them its synonym)."""
    if not facts or ctx is None or getattr(ctx, "table", None) is None:
        return None
    best = facts[0]
    if _occasions(ctx, best) <= 1:
        return None
    for f in facts[1:]:
        if (f["s"], f["o"]) == (best["s"], best["o"]) and f["sims"][1] >= occasion_floor(best["sims"][1]) \
                and _occasions(ctx, f) == 1:
            return f
    return None


def aligner(inputs: dict, ctx: Any) -> dict:
    """Conservative alignment from the retrieval candidates (``inputs["candidates"]``).

    Each triple takes its best reliable candidate fact; the search triple is reversed only
    when its own direction has no KG support. Triples that repeat one action (an anchor
    marked ``shares_action_with``: "before Japan did", "after Y held talks with X") take one
    relation: when their own best facts disagree, the relation all of them have a reliable
    fact for (best summed score) wins, so both events are read as the same action."""
    cands = inputs["candidates"]
    anchors_in = inputs["anchors"]
    search_in = inputs["search"]
    n = len(anchors_in)
    # reliable facts of each triple, in preference order (search: own direction first)
    ok: list[list[dict]] = []
    for raw, entry in zip(anchors_in, cands[:n]):
        ok.append([f for f in entry["facts"] if _fact_ok(f)])
    if search_in is not None:
        facts = cands[-1]["facts"]
        ok.append([f for f in facts if not f["reversed"] and _fact_ok(f)] + [f for f in facts if f["reversed"] and _fact_ok(f)])
    pick: list[dict | None] = [fs[0] if fs else None for fs in ok]
    for i in range(1 if search_in is None else 0, n):  # (a time question's anchor 0 is the asked event)
        pick[i] = _one_occasion(ctx, ok[i]) or pick[i]
    search_out = None
    if search_in is not None:
        f = pick[-1]
        if f is not None:
            search_out = [f["s"], f["r"], f["o"]]
        else:
            s, r, o = search_in
            slots = cands[-1]["slots"]
            search_out = [
                UNKNOWN if s == UNKNOWN else _slot_best(slots["s"], ENT_OK, s),
                _slot_best(slots["r"], REL_OK, r),
                UNKNOWN if o == UNKNOWN else _slot_best(slots["o"], ENT_OK, o),
            ]
    search_rel = search_out[1] if search_out is not None else None
    for i, raw in enumerate(anchors_in):  # the elided action: the search's relation when supported
        if search_rel is not None and raw[1] == search_in[1]:
            same = [f for f in ok[i] if f["r"] == search_rel]
            if same:
                pick[i] = same[0]
    groups: dict[int, list[int]] = {}
    for i, entry in enumerate(cands[:n]):
        lead = entry.get("shares_action_with")
        if lead is not None:
            groups.setdefault(n if lead == "search" else int(str(lead).split(":")[1]), []).append(i)
    for lead, members in groups.items():
        idx = [lead] + members
        if lead >= len(ok) or any(pick[i] is None for i in idx) or len({pick[i]["r"] for i in idx}) == 1:
            continue
        lists = [ok[i] for i in idx]
        if lead == n:  # the search keeps its own direction when that has support
            lists[0] = [f for f in ok[n] if not f["reversed"]] or ok[n]
        rel = _shared_relation(lists)
        if rel is not None:
            for i, fs in zip(idx, lists):
                pick[i] = next(f for f in fs if f["r"] == rel)
            if lead == n:
                f = pick[n]
                search_out = [f["s"], f["r"], f["o"]]
    anchors_out = []
    for i, (raw, entry) in enumerate(zip(anchors_in, cands[:n])):
        f = pick[i]
        if f is not None:  # fact-level grounding
            anchors_out.append([f["s"], f["r"], f["o"]])
        else:
            slots = entry["slots"]
            anchors_out.append([
                _slot_best(slots["s"], ENT_OK, raw[0]),
                _slot_best(slots["r"], REL_OK, raw[1]),
                _slot_best(slots["o"], ENT_OK, raw[2]),
            ])
    return {"anchors": anchors_out, "search": search_out}


# ----------------------------------------------------------------------------- constraints
def constraint_parser(inputs: dict, ctx: Any) -> dict:
    q = inputs["question"]
    a = analysis(q, ctx)
    n_anchors = len(inputs.get("anchors") or [])
    base = 0 if inputs.get("search") is not None else 1  # anchor 0 is the target of a time question
    cons: list[dict] = []
    for c in a.time_cues:
        if c.kind == "time":
            cons.append({
                "ref_type": "explicit_time", "operator": c.op, "reference": c.time,
                "granularity": c.granularity if c.op == "equal" else None, "offset": c.offset,
            })
        else:
            lo, hi = c.time.split("..")
            cons.append({"ref_type": "explicit_interval", "operator": c.op or "inside", "reference": [lo, hi],
                         "granularity": None, "offset": 0})
    for j, ref in enumerate(_split(a, ctx)[1]):
        idx = base + j
        if idx >= n_anchors:
            break
        c = ref.cue
        cons.append({
            "ref_type": "event", "operator": c.op, "reference": idx,
            "granularity": c.granularity if c.op == "equal" else None, "offset": c.offset,
        })
    o = a.ordinal
    ranking = {"order": o.order, "k": o.k or 1} if o is not None else None
    return {"constraints": cons, "ranking": ranking}


# ----------------------------------------------------------------------------- answerer
def _fmt(day_iso: str, level: str) -> str:
    return format_day(parse_time(day_iso).lo, level)  # type: ignore[arg-type]


def answerer(inputs: dict, ctx: Any) -> dict:
    """Answer realisation: the asked slot of the final facts (entity questions) or their
    start days at the question's granularity (time questions); ranked questions put the
    k-th distinct start day first, others rank by support count."""
    q = inputs["question"]
    facts = inputs.get("facts") or []
    rk = inputs.get("ranking")
    slot = inputs.get("open_slot")
    want_time = infer_answer_type(q) == "time" or slot is None
    level = infer_time_level(q)
    if want_time:
        vals = [_fmt(f["start"], level) for f in facts]
    else:
        vals = [f["s"] if slot == "subject" else f["o"] for f in facts]
        # "apart from / other than X": X is no answer
        out = {n for m in analysis(q, ctx).excluded for n in m.names} if ctx is not None else set()
        if out:
            out |= {n.replace("_", " ") for n in out}
            keep = [i for i, v in enumerate(vals) if v not in out]
            facts, vals = [facts[i] for i in keep], [vals[i] for i in keep]
    if not vals:
        return {"answers": []}
    if rk:
        # facts arrive in RankSelect order; group by distinct start day, k-th group first
        groups: list[list[str]] = []
        last = None
        for f, v in zip(facts, vals):
            if f["start"] != last:
                groups.append([])
                last = f["start"]
            groups[-1].append(v)
        k = max(1, int(rk.get("k") or 1))
        order = ([groups[k - 1]] if k <= len(groups) else []) + [g for i, g in enumerate(groups) if i != k - 1]
        ranked = [v for g in order for v in g]
    else:
        count: dict[str, int] = {}
        first: dict[str, int] = {}
        for i, v in enumerate(vals):
            count[v] = count.get(v, 0) + 1
            first.setdefault(v, i)
        ranked = sorted(count, key=lambda v: (-count[v], first[v]))
    out: list[str] = []
    for v in ranked:
        if v not in out:
            out.append(v)
    return {"answers": out}


def register() -> None:
    for role, fn in (
        ("event_parser", event_parser),
        ("aligner", aligner),
        ("constraint_parser", constraint_parser),
        ("answerer", answerer),
    ):
        name = f"scop.{role}"
        if name not in SYMBOLIC_ROLES:
            SYMBOLIC_ROLES.register(name, fn)


register()
