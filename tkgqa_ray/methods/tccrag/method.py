"""TCC-RAG as a chain of stages: parse → causal chain retrieval → causal evidence filter → answer.

Question type, answer type and time level are inferred from the question text
(:mod:`tkgqa_ray.nlu.signals`); nothing reads gold labels (the authors' code routed on the gold qtype).
Ablations: ``wo_ccg`` (semantic retrieval only), ``wo_pqp`` (single-shot parse), ``wo_cef``.

What is a backbone role and what is deterministic by design (the same with an LLM backbone):

* **Roles** (the backbone; symbolic stand-ins in ``parsing.py``): the mention extractor
  (entity path B), the arbiter (when the two entity paths disagree), the relation parser
  (relation phrase, subject/object, asked slot), the answerer; ``single_parser`` in wo_pqp.
* **Deterministic**: the temporal cue (order before/after/same/in, first/last, explicit
  time, offset, granularity) is read by ``nlu.question_signals`` — the paper extracts the cue
  "via deterministic pattern matching on the query surface" because cues are a small closed
  word set; the gazetteer path (the paper's NER path) including actor references; the cue's
  reference entity (the grounded entity/clause right after the cue span: it follows from the
  cue rule, and is given to the relation parser as input); grounding of the relation phrase
  (lexicon + embedding similarity, as the paper); the asked slot when the parser gives none
  (the cue's answer type); routing to TEG/SCCI/OCCI (the paper's routing function of the
  filled slots and the asked slot), boundary resolution, TEMPORALSELECT, the candidate
  readings (the KG decides), CEF (the paper's "two deterministic steps") and the semantic
  fallback's time hint. These are exact functions of the parsed signals, so no model call
  is spent on them and an LLM's output cannot move a cue the question does not state.
"""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import Field

from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.methods.base import Method, Stage, State, register_method
from tkgqa_ray.methods.roles import run_roles
from tkgqa_ray.methods.tccrag.answer import Answer
from tkgqa_ray.nlu.text import EVENT_CLAUSE_GAP_RE
from tkgqa_ray.methods.tccrag.cef import EvFact, causal_evidence_filter, temporal_select
from tkgqa_ray.methods.tccrag.parsing import (
    GROUNDING_THRESHOLD,
    ArbiterOutput,
    clause_analysis,
    MentionOutput,
    demonym_country,
    RelationParseOutput,
    SingleParseOutput,
    gazetteer_candidates,
    group_sectors,
    match_mention_candidates,
    match_mentions,
    other_places,
    place_attached,
    qualified_candidates,
    question_places,
    spelled_names,
    titled_name,
    with_group_members,
)
from tkgqa_ray.methods.tccrag.state import KEY, EntityReading, TccParse, TccragState, check_stages
from tkgqa_ray.methods.tccrag.views import CausalCueGraph
from tkgqa_ray.nlu.anaphora import (COUNTRY_ANAPHOR_RE, OBJECT_PRONOUN_RE, POSSESSIVE_PATIENT_RE, agreement, antecedent, features,
                                    opening_pronoun, organisation_words)
from tkgqa_ray.nlu.relations import EMBED_K, ground_relation, ground_relations, relation_phrase
from tkgqa_ray.nlu.coreadings import coreadings, occasion_floor  # shared with SCoP (refs27 / tccrag21; refs24)
from tkgqa_ray.nlu.analysis import near_series_reading, ranked_series  # shared with SCoP (next29; tccrag23)
from tkgqa_ray.methods.tccrag.cues import cue_signals
from tkgqa_ray.retrieval.dense import dense_fact_ids
from tkgqa_ray.retrieval.render import fact_keys
from tkgqa_ray.schema import StrictModel

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

METHOD = "tccrag"
# Default cap on the facts the answerer sees (option max_evidence; 0 = unbounded): the paper's
# compact evidence (604.8 input tokens per question in all) needs a bound, see cef.py.
MAX_EVIDENCE = 20


def _find(q: str, surface: str) -> tuple[int, int]:
    i = q.casefold().find(surface.casefold())
    return (i, i + len(surface)) if i >= 0 else (-1, -1)


_GAP = EVENT_CLAUSE_GAP_RE  # nlu's one "the time that" clause-gap pattern


def _reference(q: str, ents: list[dict], order_span: tuple[int, int] | None,
               clauses: list[tuple[tuple[int, int], str, tuple[int, int] | None]] = ()) -> dict | None:
    """The reference of the order cue: one entity in the cue clause ("Before Mexico, ...") —
    elliptic, the question's own relation — or a full anchor event "... as Iran visited
    China" (two entities in the cue clause, its own relation phrase).

    The clause is nlu's reference clause of that cue (``clauses``: (span, phrase) of
    ``nlu.analyze``'s reference clauses — the same clause split SCoP reads): it runs from the
    cue to the next clause boundary, through any lead ("earlier than the day when ...") and
    stops before an infinitive that belongs to the main clause ("the first after Japan to
    visit Kenya": Japan is an elliptic reference, "visit Kenya" the main event). The
    entities are TCC-RAG's own grounded ones inside it. Without such a clause, the older
    rule: the grounded entity right after the cue span (only a "the time that" gap between)."""
    if not order_span:
        return None
    anaphor, others = None, []
    for (a, b), phrase, cue, *named in clauses:
        # the clause of this cue: it starts at the cue, or (a reference stated before the
        # question, "X condemned Y. After that, who ...") nlu gave it this cue as its anaphor
        if not (a < order_span[1] and order_span[0] < b) and not (cue and cue[0] < order_span[1] and order_span[0] < cue[1]):
            continue
        inside = sorted((e for e in ents if a <= e["start"] < b), key=lambda e: e["start"])
        if not inside:
            # (a gerund clause with only a pronoun, "after rejecting cooperation with him", is
            # the gerund rule's below: its understood subject is the main subject's)
            pro = None if _gerund_voice(q[order_span[1]:b]) else _pronoun_clause(ents, named[0] if named else (), (a, b))
            if pro is not None:
                return {"entities": pro, "span": [min(a, order_span[0]), b], "phrase": phrase,
                        "anaphor": None, "anaphor_others": []}
            break
        names = list(dict.fromkeys(e["name"] for e in inside))[:2]
        end = max(e["end"] for e in inside if e["name"] in names)
        if len(names) == 1:
            # "... in the year X expressed a wish to meet **him**", "after **the head of
            # government** made a statement about X": the clause's other participant is a
            # main-clause name, written as an anaphor
            ante = _anaphor(q, ents, (a, b), inside)
            if ante is not None and ante["name"] not in names:
                inside = sorted(inside + [ante], key=lambda e: e["start"])
                names = list(dict.fromkeys(e["name"] for e in inside))[:2]
                anaphor = ante["name"]
                others = [n for n in ante.get("others") or [] if n not in names]
        # one name: elliptic, or a clause with its own verb ("after they criticized X"):
        # its phrase is kept for the reference relations (tried after the elliptic reading)
        return {"entities": _agent_first(q[:max(b, end)], inside, names), "span": [min(a, order_span[0]), max(b, end)],
                "phrase": phrase, "anaphor": anaphor, "anaphor_others": others,
                "pronoun_subject": _pronoun_voice(q, order_span[1], inside[0]["start"]) if len(names) == 1 and phrase else None,
                "pronoun": opening_pronoun(q[order_span[1]:inside[0]["start"]]) if len(names) == 1 and phrase and order_span[1] <= inside[0]["start"] else None}
    gerund = _gerund_pronoun(q, ents, order_span)
    if gerund is not None:
        return gerund
    after = sorted((e for e in ents if e["start"] >= order_span[1]), key=lambda e: e["start"])
    if not after or not _GAP.fullmatch(q[order_span[1]:after[0]["start"]]):
        return None
    first = after[0]
    m = re.search(r"[,?]|\b(?:who|whom|which|what|when)\b", q[first["end"]:], re.I)
    clause_end = first["end"] + (m.start() if m else len(q) - first["end"])
    inner = [e for e in after[1:] if e["end"] <= clause_end]
    names = _agent_first(q[:clause_end], [first] + inner[:1], [first["name"]] + ([inner[0]["name"]] if inner else []))
    phrase = ""
    if inner:
        phrase = relation_phrase(q[first["end"]:inner[0]["start"]])
    end = inner[0]["end"] if inner else first["end"]
    return {"entities": names, "span": [order_span[0], max(end, clause_end if inner else end)], "phrase": phrase}


def _pronoun_clause(ents: list[dict], named: tuple, span: tuple[int, int]) -> list[str] | None:
    """The names of a reference clause nlu reads with no name of its own ("... appeal to
    their government after **it** imposed sanctions on **them**", "the same day **the
    Italians** hosted **them**": nlu.analysis' pronoun-only and demonym clauses, refs25):
    ``named`` are the spans of nlu's names for it, main-clause names by agreement, in its
    subject-object order; each is TCC-RAG's grounded entity at that span. None unless both
    are grounded, outside the clause and distinct. Before, such a clause had no entity and
    the question no boundary (d14-0260)."""
    if len(named) != 2:
        return None
    out = []
    for a, b in named:
        hit = next((e for e in ents if e["start"] < b and a < e["end"] and not span[0] <= e["start"] < span[1]), None)
        if hit is None:
            return None
        out.append(hit["name"])
    return out if out[0] != out[1] else None


# words that make no action of their own before the pronoun: "after X did it / had done it"
# repeats the main action (a pro-form; the elliptic reading stays)
_LIGHT_BEFORE_PRONOUN = {"did", "do", "does", "done", "doing", "had", "has", "have", "having", "so", "same",
                         "the", "too", "also", "likewise", "again", "then", "to", "with"}


def _pronoun_voice(q: str, cue_end: int, name_start: int) -> str | None:
    """"active" / "passive" when the reference clause between the cue (ending at ``cue_end``)
    and its first name opens with a subject pronoun, else None: the clause is a full event
    of a main-clause name ("Who did China provide aid to on the day **it** said it would
    cooperate economically with Iraq?": China's statement about Iraq), not the elliptic
    reading (the main relation with the clause's name: "on the same day as Iraq").
    "passive": the name is the clause's agent ("earlier than when **it** was commented on
    **by** X": X commented on the pronoun's name). A clause opening with a gerund: see
    :func:`_gerund_voice`."""
    if not (0 <= cue_end <= name_start):
        return None
    text = q[cue_end:name_start]
    if opening_pronoun(text) is None:
        return _gerund_voice(text)
    return "passive" if _PASSIVE_BY_RE.search(text) else "active"


# an adverbial gerund opening a reference clause: "after **appealing** to X", "before
# **rejecting** X", "after **having** met X", "after **being** criticized by X"; lowercase (a
# capitalised "King" is a name's), of five letters or more ("sing", "ring" are no such verbs),
# and no noun in "-ing" that a time phrase or a determiner-less clause opens with
_GERUND_RE = re.compile(r"\s*([a-z]{2,}ing)\b")
_NOT_GERUND = {"during", "morning", "evening", "spring", "something", "anything", "nothing", "everything",
               "according", "following", "beginning", "regarding", "concerning", "including"}


def _gerund_voice(text: str) -> str | None:
    """"gerund" / "gerund_passive" ("after being criticized by X": X is the agent) when the
    reference clause's text (from the cue to its first name) opens with a gerund, else None. An adverbial gerund has no subject of its own: English
    reads its understood subject as the main clause's ("After appealing to Zambian citizens
    for economic aid, who did Rupiah Banda first make a request of?": Banda's appeal; "...
    last express intent to meet with France before rejecting Obama": Xi's rejection), so the
    clause is a full event of the main subject, as a clause opening with a subject pronoun.
    Before, it was read elliptically first (the main relation with the clause's name: Banda's
    requests of the citizens, Obama's intent to meet France), a different event."""
    m = _GERUND_RE.match(text)
    if not m or m.group(1) in _NOT_GERUND:
        return None
    return "gerund_passive" if _PASSIVE_BY_RE.search(text) else "gerund"


# a passive clause up to its agent: "it was negotiated with by", "they were criticized by"
_PASSIVE_BY_RE = re.compile(r"\b(?:was|were|is|are|been|being|got|get)\b.*\bby\s*(?:the\s+)?$", re.I)


def _anaphor(q: str, ents: list[dict], span: tuple[int, int], inside: list[dict]) -> dict | None:
    """The main-clause name a one-name reference clause writes as an anaphor, as an
    occurrence at the anaphor's position (so the clause becomes a full event, oriented by
    :func:`_agent_first`), or None:

    an object pronoun after the clause's name with an action word between ("... the same
    month that al-Shabaab used military force against **it**"), or "the country" / "that
    nation" (nlu's ``COUNTRY_ANAPHOR_RE``, the description SCoP reads the same way: "...
    meet with Colombia before Human Rights Watch visited **the country**"), which agrees with
    a country only (written after the clause's name, or before it: "prior to a visit to **the
    country** by X"); with several main-clause names, the one that agrees with it
    (:func:`tkgqa_ray.nlu.anaphora.antecedent`); else the head noun of a main-clause actor
    reference written again ("... asked **citizens** for ...": :func:`_head_anaphor`).
    A definite description of a main-clause name ("after **the head of government** made a
    statement about X", "before **that party** ...") or a person's surname alone ("before
    **Scioli** voiced ...") is a mention already: nlu's back-references
    (``EntityMatcher._back_refs``) give it the earlier name, so the clause has its two names.

    Before, such a clause was read elliptically (the main relation between the main name and
    the clause's name) or as (main subject, clause relation, name): the wrong event, usually
    none, so the boundary was unresolved."""
    a, b = span
    main = [e for e in ents if e["start"] >= 0 and not (a <= e["start"] < b)]
    if not main or not inside:
        return None
    names = list(dict.fromkeys(e["name"] for e in main))
    first = {n: next(e for e in main if e["name"] == n) for n in names}
    name_end = max(e["end"] for e in inside)
    tail = q[name_end:b]
    def acts(x) -> bool:  # an action word stands before the anaphor
        return bool(x) and not all(w in _LIGHT_BEFORE_PRONOUN for w in re.findall(r"[a-z]+", tail[: x.start()].lower()))

    m = next((x for x in (OBJECT_PRONOUN_RE.search(tail), _possessive_patient(tail), COUNTRY_ANAPHOR_RE.search(tail))
              if acts(x)), None)
    base = name_end
    if m is None and (m := COUNTRY_ANAPHOR_RE.search(q, a, min(e["start"] for e in inside))) is not None:
        # "prior to a visit to **the country** by a South Korean governor", "before **the
        # nation** was criticized by X": the description before the clause's name (a nominal
        # event or a passive; _agent_first orients the pair by its "by")
        base = 0
    if m is None:
        hit = _head_anaphor(tail, first)
        if hit is None or not acts(hit[0]):
            return None
        i = name_end + hit[0].start()
        return {"name": hit[1], "start": i, "end": name_end + hit[0].end(), "anaphor": True}
    # the name that agrees with the pronoun (nlu's antecedent): among equals the last name (the
    # main object) first, or for a person's pronoun the subject first, as SCoP's antecedent
    # ("When did X last praise the German government before Y expressed a wish to meet her?"
    # is X; tccrag6 / nlu11); none when no name agrees ("demanded them": the talks)
    order = names if m.group(0).lower() in ("him", "her") else names[::-1]
    pro = m.group(1) if m.re is POSSESSIVE_PATIENT_RE else m.group(0)
    k = antecedent(pro, [(first[n].get("mention") or n, n) for n in order])
    if k is None:
        return None
    pick = order[k]
    i = base + m.start()
    return {"name": pick, "start": i, "end": i + len(pro), "anaphor": True,
            "others": _equal_antecedents(pro, order, first, pick)}


def _possessive_patient(tail: str):
    """The possessive pronoun of a reference clause's tail whose noun names its CAMEO action
    ("after the Israeli army occupied **his** territory": Occupy_territory; "after the UK
    health ministry turned down **their** proposal to meet": Reject_proposal_to_meet), or
    None: the possessor is the action's patient, as an object pronoun ("occupied him"), so a
    main-clause name stands in the clause's object slot (nlu's ``POSSESSIVE_PATIENT_RE``,
    SCoP's refs19 reading; "a statement about his cabinet" keeps the cabinet: no word of
    Make_statement). Before, such a clause was read elliptically (the main relation between
    the main name and the clause's name: Abbas's visits to the army), the wrong boundary."""
    from tkgqa_ray.nlu.analysis import action_noun

    m = POSSESSIVE_PATIENT_RE.search(tail)
    return m if m is not None and action_noun(m.group("noun")) else None


def _agrees(pronoun: str, first: dict[str, dict], n: str) -> int:
    """How well name ``n`` (written as in ``first``) agrees with ``pronoun`` (nlu's agreement)."""
    return agreement(pronoun, features(first[n].get("mention") or n, n.replace(" ", "_")))


def _equal_antecedents(pronoun: str, order: list[str], first: dict[str, dict], pick: str) -> list[str]:
    """The other main-clause names that agree with the pronoun as well as ``pick`` does
    ("In which year did **Yemen** last cooperate with **the UNHCR** before Catherine Ashton
    praised **it**?": a country and an organisation are both "it"). Agreement cannot choose
    among them; the preferred one (the main object, see :func:`_anaphor`) stays the reading,
    each other is a further entity reading of the anaphor's slot (the KG decides). Before,
    only the preferred one was read: an unresolved boundary when the other was meant."""
    best = _agrees(pronoun, first, pick)
    return [n for n in order if n != pick and _agrees(pronoun, first, n) == best]


def _gerund_pronoun(q: str, ents: list[dict], order_span: tuple[int, int]) -> dict | None:
    """The reference of a cue clause that opens with a gerund and names nobody but an object
    pronoun ("... first criticize Roh Moo Hyun after **rejecting** material cooperation with
    **him**"), or None. The gerund's understood subject is the main subject
    (:func:`_gerund_voice`), and a plain object pronoun never stands for its own clause's
    subject (that would be "himself"), so it is a main-clause name that agrees with it (nlu's
    :func:`antecedent`, the last name first): a one-name reference clause of the main subject,
    its phrase the clause's words before the pronoun. The clause runs from the cue to the next
    comma or question mark. Before, such a clause had no name, so there was no reference at
    all and its words were read into the main relation phrase."""
    cue_end = order_span[1]
    stop = re.search(r"[,?;]", q[cue_end:])
    end = cue_end + (stop.start() if stop else len(q) - cue_end)
    text = q[cue_end:end]
    pro, voice = OBJECT_PRONOUN_RE.search(text), _gerund_voice(text)
    if pro is None or voice is None or any(cue_end <= e["start"] < end for e in ents):
        return None
    main = [e for e in ents if e["start"] >= 0]
    names = list(dict.fromkeys(e["name"] for e in main))[::-1]
    first = {n: next(e for e in main if e["name"] == n) for n in names}
    k = antecedent(pro.group(0), [(first[n].get("mention") or n, n) for n in names])
    if k is None:
        return None
    return {"entities": [names[k]], "span": [order_span[0], end], "phrase": relation_phrase(text[:pro.start()]),
            "anaphor": names[k], "pronoun_subject": voice, "pronoun": None}


def _head_noun(mention: str) -> str | None:
    """The head noun of an actor reference's surface, lowercase: the word before its "of"
    ("the police of Uganda": police), else its last word ("Australian citizens": citizens);
    None when that word is capitalised (a name's, not a common noun)."""
    words = re.findall(r"[\w'’-]+", mention)
    if "of" in words[1:]:
        words = words[: words.index("of", 1)]
    head = words[-1] if words else ""
    return head.lower() if head.isalpha() and head.islower() else None


def _head_anaphor(tail: str, first: dict[str, dict]):
    """(match, name) when a reference clause's tail writes the head noun of a main-clause
    actor reference again, bare or with a determiner ("... before people linked to
    Australia's opposition asked **citizens** for judicial cooperation", after "Australian
    citizens" in the main clause): English repeats the head noun of a definite group for
    the same group, and the KG has no placeless "citizens" it could name instead. Only an
    actor (a ``Sector (Place)`` name) is so referred back to, and an organisation by "the"
    and its name's head noun ("the fund", :func:`_organisation_head`); the earliest such
    noun wins.
    None when no such noun is written. Before, the clause was read elliptically (the main
    relation with the clause's name) or with the main subject, another event."""
    best = None
    for n, e in first.items():
        if not re.search(r"\([^()]+\)$", n):
            head = _organisation_head(n)
            x = head and re.search(rf"\b(?:the|that|this)\s+{re.escape(head)}{_NOUN_PHRASE_END}", tail, re.I)
            if x and (best is None or x.start() < best[0].start()):
                best = (x, n)
            continue
        head = _head_noun(e.get("mention") or "")
        if not head:
            continue
        x = re.search(rf"\b(?:(?:the|those|these|that|this)\s+)?{re.escape(head)}\b(?!\s+(?:of|from|in)\b)", tail, re.I)
        if x and (best is None or x.start() < best[0].start()):
            best = (x, n)
    return best


# where a noun phrase ends with its head noun: the clause's end or punctuation, or a
# preposition / conjunction that does not attach the noun to another group ("of", "from",
# "in" do: "the party of X"); not a following noun or a possessive ("the party members", "the
# fund's director" are other groups)
_NOUN_PHRASE_END = (r"(?=\s*$|\s*[,.;:?!)]|\s+(?:on|to|with|for|about|over|at|by|and|or|as|when|while|that|which|who|"
                    r"again|too|also|before|after|during)\b)")


def _organisation_head(name: str) -> str | None:
    """The head noun of an organisation's KG name, lowercase: its last word when it is an
    organisation word of nlu's agreement data ("International Monetary Fund": fund,
    "Democratic Party": party), else None. English refers back to a named organisation by
    "the" and that noun ("... in the same month Serbia's central bank made a statement about
    **the fund**", after "the IMF"), as to an actor by its head noun (:func:`_head_anaphor`;
    before, only an actor's was read, and the clause was read elliptically)."""
    words = name.split()
    head = words[-1].lower() if len(words) >= 2 else ""
    return head if head in organisation_words() else None


def _with_others(own: list, ref: dict | None, name: str, cands: dict[str, list]) -> list:
    """The candidates of a reference slot: the anaphor's slot also reads each other name
    that agrees with it as well (``anaphor_others``, :func:`_equal_antecedents`), after its
    own candidates, at the floor score of an alternative reading."""
    if not ref or ref.get("anaphor") != name or not ref.get("anaphor_others"):
        return own
    have = {int(e) for e, _ in own}
    alts = [[int(cands[n][0][0]), ALT_ENT_MIN] for n in ref["anaphor_others"] if n in cands]
    return list(own) + [c for c in alts if c[0] not in have]


def _kg_first(table, own: list, other: int, rels: set[int]) -> list:
    """A full reference event's slot whose best candidates tie and are more than a reading
    tries (ALT_PER_SLOT): those of them the KG has an event with the clause's ``other`` name
    under a reading of the clause's phrase (``rels``, either direction) come first, the rest
    keep their order. nlu reads "his cabinet" of a person with no country as the cabinet of
    every country, all alike (nlu.analysis._any_place_candidates, refs24): the KG's facts of
    the clause decide, as SCoP's alignment keeps the person's facts whose other name is a
    candidate. Before, the first three countries in name order were tried (Australia,
    Austria, Bangladesh) and the clause had no boundary (d15-0295)."""
    if not own or len(own) <= ALT_PER_SLOT or not rels:
        return own
    top = float(own[0][1])
    tied = [c for c in own if float(c[1]) == top]
    if len(tied) <= ALT_PER_SLOT:
        return own
    ids = np.array([int(c[0]) for c in tied])
    out_, in_ = _entity_rows(table, other)  # the other name's triples, as subject / as object
    hit = set(out_[np.isin(out_[:, 1], list(rels)) & np.isin(out_[:, 2], ids), 2].tolist())
    hit |= set(in_[np.isin(in_[:, 1], list(rels)) & np.isin(in_[:, 0], ids), 0].tolist())
    if not hit:
        return own
    first = [c for c in tied if int(c[0]) in hit]
    return first + [c for c in own if c not in first]


def _pronoun_others(q: str, ctx, ents: list[dict], ref: dict | None, out: dict) -> dict[str, str]:
    """{slot: name} for a main clause with no name of its own whose one filled slot is a
    pronoun standing for a name of the full reference event (:func:`parsing._pronoun_anchor`):
    the reference's other name, when it agrees with the pronoun as well ("On the day
    Pakistan's education sector made an appeal to the government, who consulted **it**?":
    the sector and the government are both "it"). Agreement cannot choose; the parser's pick
    stays the reading, the other name is a further entity reading of the slot (the KG
    decides, before the reference pair under any relation is tried). Before, only the pick
    was read, and the pair's loosest boundary answered with it."""
    names = list((ref or {}).get("entities") or [])
    span = (ref or {}).get("span")
    filled = [(k, out.get(k)) for k in ("subject", "object") if out.get(k)]
    if len(names) != 2 or not span or len(filled) != 1 or filled[0][1] not in names or ctx is None:
        return {}
    if any(e["start"] >= 0 and not (span[0] <= e["start"] < span[1]) for e in ents):
        return {}  # the main clause writes a name: no pronoun-only main clause
    pro = clause_analysis(q, ctx).main.pronoun
    if pro is None:
        return {}
    slot, pick = filled[0]
    other = names[1 - names.index(pick)]
    first = {e["name"]: e for e in ents}
    word = q[pro[0]:pro[1]]
    return {slot: other} if other != pick and _agrees(word, first, other) == _agrees(word, first, pick) > 0 else {}


def _parallel(ref: dict | None, out: dict) -> bool:
    """True when the reference event's anaphor stands for the main clause's name in the same
    slot: the main subject as the clause's subject, or the main object as its object."""
    if not ref or not ref.get("anaphor") or len(ref.get("entities") or []) != 2:
        return False
    a, (s, o) = ref["anaphor"], ref["entities"]
    return (a == out.get("subject") and a == s) or (a == out.get("object") and a == o)


def _per_state(match, mentions: list[list[str]], ctx) -> list[list]:
    """``match`` (:func:`match_mentions` / :func:`match_mention_candidates`) over the mentions
    of every question of the batch in one call, split back per question: one embedding
    search (one encoder batch) for the batch instead of one per question. Measured on 60
    ``dev4`` questions, the per-question calls were 40 of the method's 51 s (MiniLM forward
    passes of a few mentions each); see docs/methods.md."""
    flat = [m for ms in mentions for m in ms]
    hits = match(flat, ctx) if flat else []
    out, i = [], 0
    for ms in mentions:
        out.append(hits[i:i + len(ms)])
        i += len(ms)
    return out


def _agent_first(q: str, occ: list[dict], names: list[str]) -> list[str]:
    """The two names of a full reference event in (subject, object) order: a passive ("after
    Sudan was condemned by the Popular Congress") or a nominal event with its agent after
    "by" ("the condemnation of China by X", "the request to Y by X") names the agent second
    (nlu's ``passive_agent_first``, the rule SCoP's parser orients its reference clauses by).
    ``occ``: the grounded occurrences in the clause, in order; ``q``: the question up to the
    clause end. Before, the clause's word order was taken as (subject, object), so such a
    reference event was looked up the wrong way round: no event (an unresolved boundary) or
    another one (a wrong boundary)."""
    if len(names) != 2:
        return names
    from tkgqa_ray.nlu.analysis import passive_agent_first

    first = [next(e for e in occ if e["name"] == n) for n in names]
    ms = [SimpleNamespace(start=e["start"], end=e["end"]) for e in first]
    return names[::-1] if ms[0].end <= ms[1].start and passive_agent_first(q, ms) else names


def _sentence_initial(q: str, start: int) -> bool:
    """True when the word at ``start`` opens a sentence of ``q`` (nothing or a sentence stop
    before it): its capital says nothing about a name. A part-of-name grounding
    (``name_word_candidates``) of such a word is dropped, as is a lowercase occurrence of it:
    "**Against** whom did Thailand first use force?" is no mention of the World Organization
    Against Torture, nor is "demonstrated **against**"; nor is a word of a stated time ("In
    **Jan.** 2005, ...": no Jan Fischer), dropped at the caller with the cue's time spans."""
    return not q[:start].strip() or q[:start].rstrip()[-1] in ".?!:;"


def _outermost(ents: list[dict]) -> list[dict]:
    """Drop an occurrence that lies inside a longer occurrence of another entity: ``Kenya``
    inside "Police (Kenya)" or inside "the Kenyan police" is part of that name, not a slot
    filler (path B's occurrences are every place its mention's text appears). Our reading of
    an unspecified case: the paper grounds entity *sets*; slots need positions, and the
    longest match wins as in the gazetteer path. Unknown positions (-1) are kept."""
    def inside(e: dict, o: dict) -> bool:
        return (o is not e and o["start"] >= 0 and o["start"] <= e["start"] and e["end"] <= o["end"]
                and o["end"] - o["start"] > e["end"] - e["start"])

    return [e for e in ents if e["start"] < 0 or not any(inside(e, o) for o in ents)]


_POSSESSIVE_GAP_RE = re.compile(r"['’]s?\s+")


def _possessor_qualifiers(ents: list[dict], q: str) -> list[dict]:
    """Drop an occurrence written as the possessor of the next name ("Who released people to
    **Sudan**'s Popular Congress in January 2005?": the name's owner, not a participant; the
    possessed name is another KG entity written right after "'s"). Its other occurrences keep
    their slots. Before, path B's "Sudan" was the main clause's first name and took the object
    slot, so the chain read releases to Sudan (dev21-0176; tccrag24). Only when the possessed
    name is a grounded name of its own: "Sudan's government" is one actor mention, whose
    "Sudan" :func:`_outermost` drops."""
    def possessor(e: dict) -> bool:
        if e["start"] < 0:
            return False
        m = _POSSESSIVE_GAP_RE.match(q, e["end"])
        return m is not None and any(o is not e and o["id"] != e["id"] and o["start"] == m.end() for o in ents)

    return [e for e in ents if not possessor(e)]


def _occurrences(eid: int, pa: dict, pb: dict, chosen: set[int] | None = None) -> list[tuple[str, int, int]]:
    """Where entity ``eid`` is written: the gazetteer's (path A) occurrences, plus path B's
    that lie outside every path-A name. A name can be written twice in two forms, one only
    path B grounds ("... visit to **Ethiopia** ... after **the Ethiopian** stated readiness
    to negotiate with Angola": the demonym by the fuzzy tier); before, path A's occurrences
    alone were kept when both paths had the entity, so the reference clause lost its
    subject (an elliptic reading of "Angola" instead of the full event). Of an entity path A
    does not ground, an occurrence inside a kept path-A name yields (:func:`_inside_exact`)."""
    occ = list(pa.get(eid) or [])
    if not occ:
        return [o for o in pb.get(eid) or [] if not _inside_exact(o, eid, pa, chosen)]
    taken = [(a, b) for o in pa.values() for _, a, b in o]
    occ += [o for o in pb.get(eid) or [] if o[1] >= 0 and not any(a < o[2] and o[1] < b for a, b in taken)]
    return occ


def _inside_exact(o: tuple[str, int, int], eid: int, pa: dict, chosen: set[int] | None) -> bool:
    """True when path B's occurrence ``o`` of an entity path A does not ground lies within a
    path-A occurrence of another kept entity: the gazetteer read that very text as an exact
    name or alias, and path B's other reading of it is a weaker tier's (part of a person's
    name, a fuzzy or embedding neighbour). "... against the Rapid Action Battalion, on what
    date did **RAB** first arrest ...": the gazetteer knows RAB as the battalion's acronym;
    path B's part-of-name match (Abdul **Rab** Rasul Sayyaf) yields. Before, both stood at the
    same span (``_outermost`` keeps equal spans) and the weaker one became the subject."""
    if o[1] < 0:
        return False
    return any(e != eid and (chosen is None or e in chosen) and a <= o[1] and o[2] <= b
               for e, occ in pa.items() for _, a, b in occ)


def _not_excluded(ents: list[dict], spans: list[tuple[int, int]]) -> list[dict]:
    """Drop the occurrences of a name the question excludes from the answer ("**Apart from**
    Mahmoud Abbas, who did X consult before X's consultations with Mahmoud Abbas?", "Which
    actors, **other than** the African Union, ...": nlu's ``excluded`` mentions). Such a name
    fills no slot of the asked event; its other occurrences (here in the reference clause)
    keep theirs. Before, the excluded occurrence was the first name of the main clause and
    became its anchor (the chain read the wrong slot, or nothing)."""
    return [e for e in ents if not any(a < e["end"] and e["start"] < b for a, b in spans)]


class ProgressiveParse(Stage):
    """Hybrid entity grounding (+ arbitration), cue rules, relation/role parsing, grounding."""

    name = "tccrag_parse"
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ("parse",)

    def __init__(self, ctx: "RunContext", single_shot: bool = False, relation_k: int = 3) -> None:
        super().__init__(ctx)
        self.single_shot = single_shot
        self.relation_k = relation_k

    def __call__(self, states: list[State]) -> list[State]:
        table = self.ctx.table
        disp = table.display
        if self.single_shot:
            outs = run_roles(self.ctx, states, [
                RoleRequest(METHOD, "single_parser", {"question": s["question"]}, SingleParseOutput, s["quid"])
                for s in states])
            self._warm([(out or {}).get("relation_phrase") for out in outs], 1)
            outs = [out or {"entities": [], "relation_phrase": "", "subject": None, "object": None,
                            "asked": "object", "reference": None} for out in outs]
            per_state = _per_state(match_mentions, [list(out.get("entities", [])) for out in outs], self.ctx)
            for s, out, hits in zip(states, outs, per_state):
                matched = {m: i for m, i, _, _ in hits if i is not None}
                ents = []
                for name, eid in matched.items():
                    a, b = _find(s["question"], name)
                    ents.append({"name": disp(table.entities[eid]), "id": eid, "mention": name, "start": a, "end": b})
                ref = out.get("reference")
                self._finish(s, ents, out, {"entities": [ref], "span": None, "phrase": ""} if ref else None, k=1, agree=None)
            return states

        # path A: gazetteer; path B: the backbone's mention extractor, hybrid-matched
        # each path maps its best candidate id -> occurrences; ``alts`` keeps every scored
        # candidate of the mention (actor references, colliding names) for the readings
        path_a, alts = [], []
        for s in states:
            pa: dict[int, list] = {}
            al: dict[int, list] = {}
            gaz = gazetteer_candidates(s["question"], table)
            for surf, cands, a, b in (gaz + self._context_actors(s["question"], gaz) + self._repeated_names(s["question"], gaz)
                                      + self._titled_names(s["question"], gaz)):
                pa.setdefault(cands[0][0], []).append((surf, a, b))
                al.setdefault(cands[0][0], cands)
            path_a.append(pa)
            alts.append(al)
        outs = run_roles(self.ctx, states, [
            RoleRequest(METHOD, "mention_extractor", {"question": s["question"]}, MentionOutput, s["quid"])
            for s in states])
        path_b = []
        per_state = _per_state(match_mention_candidates, [list(out.get("mentions", [])) if out else [] for out in outs], self.ctx)
        for s, hits, al, pa in zip(states, per_state, alts, path_a):
            pb = {}
            times = cue_signals(s["question"], self.ctx).time_spans
            places = question_places([disp(table.entities[e]) for e in list(pa) + [c[0][0] for _, c, _ in hits if c]])
            for m, cands, how in hits:
                if not cands:  # the last tier: a shared organisation name, qualified by the question's place
                    cands = qualified_candidates(m, places, table)
                elif how in _SIMILAR_TIERS:
                    cands = _qualified_first(qualified_candidates(m, places, table), cands,
                                             lambda m=m, q=s["question"]: [] if place_attached(q, m, places)
                                             else spelled_names(m, self.ctx))
                cands = group_sectors(m, other_places(m, cands, places, table), table)
                if how in _SIMILAR_TIERS:  # "the Vietnamese" of a question naming Vietnam (tccrag22)
                    cands = demonym_country(m, cands, places, table)
                if cands:
                    eid = cands[0][0]
                    occ = [(m, x.start(), x.end()) for x in re.finditer(re.escape(m), s["question"], re.I)]
                    if how == "name_word":  # a name part is written capitalised, inside a sentence
                        occ = [o for o in occ if s["question"][o[1]:o[2]] == m and not _sentence_initial(s["question"], o[1])
                               and not any(a <= o[1] < b for a, b in times)]
                        if not occ:
                            continue
                    pb.setdefault(eid, [])
                    pb[eid].extend(o for o in (occ or [(m, -1, -1)]) if o not in pb[eid])
                    al.setdefault(eid, cands)
            path_b.append(pb)
        # agreement or arbitration
        chosen: list[set[int] | None] = []
        need, reqs = [], []
        for i, s in enumerate(states):
            if set(path_a[i]) == set(path_b[i]):
                chosen.append(set(path_a[i]))
            else:
                chosen.append(None)
                need.append(i)
                reqs.append(RoleRequest(METHOD, "arbiter", {
                    "question": s["question"],
                    "path_a": [disp(table.entities[e]) for e in path_a[i]],
                    "path_b": [disp(table.entities[e]) for e in path_b[i]],
                    # how each candidate is written in the question ("the Thai citizens" for
                    # Citizen (Thailand)): an actor reference is never its KG name verbatim
                    # (both paths' surfaces of an entity: before, path B's replaced path A's, so
                    # "their government" (path A) was lost for "Botswana" (path B), which lies
                    # inside "Botswana's citizens", and the government was dropped; d14-0260)
                    "surfaces": {disp(table.entities[e]): sorted({o[0] for p in (path_a[i], path_b[i]) for o in p.get(e, ())})
                                 for e in list(path_a[i]) + list(path_b[i])},
                }, ArbiterOutput, s["quid"]))
        arb = run_roles(self.ctx, [states[i] for i in need], reqs)
        for i, out in zip(need, arb):
            by_name = {disp(table.entities[e]): e for e in list(path_a[i]) + list(path_b[i])}
            names = out.get("entities", []) if out else list(by_name)
            chosen[i] = {by_name[n] for n in names if n in by_name}
        ents_all = []
        for i, s in enumerate(states):
            ents = []
            for eid in chosen[i]:
                cands = [[int(e), float(sc)] for e, sc in with_group_members(alts[i].get(eid) or [(eid, 1.0)], table)]
                for surf, a, b in _occurrences(eid, path_a[i], path_b[i], chosen[i]):  # every occurrence
                    ents.append({"name": disp(table.entities[eid]), "id": eid, "mention": surf, "start": a, "end": b,
                                 "candidates": cands})
            ents.sort(key=lambda e: e["start"])
            ents_all.append(_not_excluded(_possessor_qualifiers(_outermost(ents), s["question"]), self._excluded(s["question"])))
            s["trace"]["grounding"] = {
                "path_a": [disp(table.entities[e]) for e in path_a[i]],
                "path_b": [disp(table.entities[e]) for e in path_b[i]],
                "agree": i not in need,
            }
        # the cue's reference: deterministic (cue rules), also with an LLM backbone (module doc)
        refs = [_reference(s["question"], ents_all[i], cue_signals(s["question"], self.ctx).order_span,
                           self._clauses(s["question"])) for i, s in enumerate(states)]
        outs = run_roles(self.ctx, states, [
            RoleRequest(METHOD, "relation_parser", {
                "question": s["question"],
                "entities": [{k: e[k] for k in ("name", "mention", "start", "end")} for e in ents_all[i]],
                "entity_names": ", ".join(dict.fromkeys(e["name"] for e in ents_all[i])) or "(none)",
                "reference": " ... ".join(refs[i]["entities"]) if refs[i] else None,
                "reference_entities": refs[i]["entities"] if refs[i] else [],
                "reference_span": refs[i]["span"] if refs[i] else None,
                "reference_phrase": refs[i]["phrase"] if refs[i] else "",
            }, RelationParseOutput, s["quid"]) for i, s in enumerate(states)])
        self._warm([(out or {}).get("relation_phrase") for out in outs] + [(r or {}).get("phrase") for r in refs], self.relation_k)
        for i, (s, out) in enumerate(zip(states, outs)):
            self._finish(s, ents_all[i], out or {}, refs[i], k=self.relation_k, agree=i not in need)
        return states

    def _context_actors(self, q: str, gazetteer: list) -> list[tuple[str, list[tuple[int, float]], int, int]]:
        """Sector nouns the question writes without their country ("... first reject **the
        citizens**", "... a statement about **student dissidents**"), as the gazetteer path's
        candidates: nlu's clause analysis reads them as sectors of the question's own
        countries (``nlu.analysis.context_sectors``, the reading SCoP's parse has; every
        country a candidate, nearest first, the KG decides). The gazetteer matches one name
        at a time, without the question's context, so it grounds none of them; before, such
        a slot was empty (an unbounded chain of one participant, or no boundary at all).
        Only a span no gazetteer match (``gazetteer``: the question's own
        :func:`gazetteer_candidates`) overlaps; (surface, candidates, start, end)."""
        own = [(a, b) for _, _, a, b in gazetteer]
        out = []
        for m in clause_analysis(q, self.ctx).mentions:
            if m.source != "actor" or not m.entity_ids or any(a < m.end and m.start < b for a, b in own):
                continue
            scores = list(m.scores) or [m.score] * len(m.entity_ids)
            out.append((m.text, [(int(e), float(sc)) for e, sc in zip(m.entity_ids, scores)], m.start, m.end))
        return out

    def _repeated_names(self, q: str, gazetteer: list) -> list[tuple[str, list[tuple[int, float]], int, int]]:
        """A name the question repeats by its bare plural head noun, as a further occurrence
        of the gazetteer path: "In the year Indian medical staff made a statement about
        **protesters in India**, in which months did India's special forces fight
        **protesters** with small arms?". nlu's clause analysis places a copy of the reference
        name at the noun in the main clause (``nlu.analysis._repeated_head``, the reading SCoP
        has); the gazetteer matches "protesters in India" only, so the bare repeat stayed a
        word of the asked action ("fight protesters with small arms") and the asked event lost
        its object (d18-0207). Only a main-clause name of the analysis at a span no gazetteer
        match overlaps, of an entity the gazetteer grounds elsewhere (a repeat, no new name);
        (surface as written, candidates, start, end). tccrag22."""
        an = clause_analysis(q, self.ctx)
        own = [(a, b) for _, _, a, b in gazetteer]
        named = {int(c[0][0]) for _, c, _, _ in gazetteer if c}
        listed = {(m.start, m.end) for m in an.mentions}
        out = []
        for m in an.main.mentions:
            if (m.start, m.end) in listed or len(m.entity_ids) != 1 or int(m.entity_ids[0]) not in named:
                continue
            if any(a < m.end and m.start < b for a, b in own):
                continue
            out.append((q[m.start:m.end], [(int(m.entity_ids[0]), float(m.score))], m.start, m.end))
        return out

    def _titled_names(self, q: str, gazetteer: list) -> list[tuple[str, list[tuple[int, float]], int, int]]:
        """An official written by title and full name whose KG name is office and surname
        ("Works Minister Samy Vellu": Minister_of_Public_Works_Vellu), as a gazetteer-path
        candidate: nlu's clause analysis grounds the name by its embedding at nlu's floor (the
        mention SCoP reads); TCC-RAG's own embedding tier wants 0.85 and left the slot empty
        (dev20-0163). Only a mention under that threshold that :func:`parsing.titled_name`
        accepts (the surname and an office word written), at a span no gazetteer match
        overlaps; other embedding neighbours under 0.85 stay unread. tccrag22."""
        own = [(a, b) for _, _, a, b in gazetteer]
        out = []
        for m in clause_analysis(q, self.ctx).mentions:
            if m.source != "embedding" or len(m.entity_ids) != 1 or m.score >= GROUNDING_THRESHOLD:
                continue
            if any(a < m.end and m.start < b for a, b in own) or not titled_name(m.text, m.entity_ids[0], self.ctx.table):
                continue
            out.append((m.text, [(int(m.entity_ids[0]), float(m.score))], m.start, m.end))
        return out

    def _clauses(self, q: str) -> list[tuple[tuple[int, int], str, tuple[int, int] | None, tuple]]:
        """nlu's reference clauses of ``q`` (span, relation phrase, span of its cue, spans of its
        names): deterministic cue rules."""
        return [((r.span[0], r.span[1]), r.phrase, (r.cue.start, r.cue.end) if r.cue is not None else None,
                 tuple((m.start, m.end) for m in r.mentions))
                for r in clause_analysis(q, self.ctx).refs]

    def _excluded(self, q: str) -> list[tuple[int, int]]:
        """Spans of the names nlu reads as excluded from the answer ("Apart from X, who ...")."""
        return [(m.start, m.end) for m in clause_analysis(q, self.ctx).excluded]

    def _warm(self, phrases: list, k: int) -> None:
        """Ground every phrase of the batch in one index search (one encoder batch / one
        actor round trip); ``_ground`` then reads the cache."""
        # grounded once at EMBED_K: its first k are the k readings (the same neighbour search,
        # ``nlu.relations.ground_relations``), the rest the pair rule's further readings
        ground_relations([p for p in phrases if p], self.ctx.embeddings, max(k, EMBED_K), self.ctx.table.relations)

    def _grounding(self, phrase: str, k: int) -> list:
        """The phrase's top-``k`` relation candidates, read from the EMBED_K grounding."""
        return ground_relation(phrase, self.ctx.embeddings, max(k, EMBED_K), self.ctx.table.relations)[:k]

    def _wide(self, phrase: str, k: int) -> tuple[tuple[int, bool], ...]:
        """The phrase's further scored readings after its first ``k`` (the full grounding,
        score >= :data:`PAIR_REL_MIN`): the candidates of :func:`_pair_reading`."""
        if not phrase:
            return ()
        full = self._grounding(phrase, EMBED_K)
        top = {c.id for c in full[:k]}
        return tuple((c.id, c.swap) for c in full[k:] if c.score >= PAIR_REL_MIN and c.id not in top)

    def _ground(self, phrase: str, k: int) -> list[tuple[int, bool]]:
        """Top-k (KG relation id, swap) readings of a phrase: relation lexicon + embedding
        similarity (``nlu.ground_relation``, cached per phrase; works with the in-process
        service and its Ray actor client). ``swap``: the phrase's subject is the KG object."""
        return [(c.id, c.swap) for c in self._grounding(phrase, k)]

    def _coreadings(self, phrase: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The phrase's near-tied relation co-readings among its full grounding (refs27's
        predicate, :func:`tkgqa_ray.nlu.coreadings.coreadings`, as SCoP's alignment reads it):
        (relation id, the ids of its co-readings), for the ranked union of :meth:`ChainRetrieve._chain`."""
        if not phrase:
            return ()
        rels = self.ctx.table.relations
        full = self._grounding(phrase, EMBED_K)
        co = coreadings(phrase, [(c.id, c.score, c.swap) for c in full], rels)
        by_name = {c.name: c.id for c in full}
        return tuple((by_name[n], tuple(by_name[m] for m in ms)) for n, ms in co.items())

    def _lexical(self, phrase: str, k: int) -> bool:
        """True when the phrase's best relation reading is a relation-lexicon hit (a known
        wording of that relation), not an embedding neighbour only."""
        top = self._grounding(phrase, k)[:1] if phrase else []
        return bool(top) and top[0].source == "lexicon"

    def _series(self, q: str) -> bool:
        """nlu's series test (:func:`tkgqa_ray.nlu.analysis.ranked_series`) on the question's
        cached clause analysis; False when the analysis fails."""
        try:
            return ranked_series(clause_analysis(q, self.ctx))
        except Exception:  # noqa: BLE001 - an analysis failure only loses the series reading
            return False

    def _finish(self, s: State, ents: list[dict], out: dict, ref: dict | None, k: int, agree) -> None:
        sig = cue_signals(s["question"], self.ctx)  # deterministic cue; the role's asked slot wins over its answer type
        by_name = {e["name"]: e["id"] for e in ents}
        phrase = out.get("relation_phrase") or ""
        readings = self._ground(phrase, k)
        rels = [r for r, _ in readings]
        ref_ids = [by_name[n] for n in (ref or {}).get("entities", []) if n in by_name]
        ref_readings, ref_scores = [], []
        if ref and _pro_verb_clause(ref.get("phrase") or "", s["question"], ref.get("span")):
            # "Before X did the same to Y, whom did it last visit?": the reference clause's
            # pro-verb stands for the main clause's action, so its relation readings are those
            ref_readings = list(readings)
        elif ref and ref.get("phrase"):  # a swap reading ("was the target of fire from X") reads the clause reversed
            ref_readings = self._ground(ref["phrase"], k)
            ref_scores = [c.score for c in self._grounding(ref["phrase"], k)]
        cands = {e["name"]: e.get("candidates") or [[e["id"], 1.0]] for e in ents}
        ref_names = [n for n in (ref or {}).get("entities", []) if n in by_name]
        slots = {"subject": cands.get(out.get("subject") or ""), "object": cands.get(out.get("object") or "")}
        for slot, other in _pronoun_others(s["question"], self.ctx, ents, ref, out).items():
            slots[slot] = list(slots[slot]) + [[int(cands[other][0][0]), ALT_ENT_MIN]]
        slots.update({f"reference:{j}": _with_others(cands[n], ref, n, cands) for j, n in enumerate(ref_names)})
        if len(ref_names) == 2:
            for j in range(2):
                other = slots[f"reference:{1 - j}"]
                slots[f"reference:{j}"] = _kg_first(self.ctx.table, slots[f"reference:{j}"], int(other[0][0]),
                                                    {r for r, _ in ref_readings})
        parse = TccParse(
            subject=by_name.get(out.get("subject") or ""),
            object=by_name.get(out.get("object") or ""),
            asked=out.get("asked") or ("time" if sig.answer_type == "time" else "object"),
            reference=tuple(ref_ids),
            reference_relations=tuple(r for r, _ in ref_readings),
            reference_swaps=tuple(sw for _, sw in ref_readings),
            reference_scores=tuple(float(x) for x in ref_scores),
            relations=tuple(rels),
            swaps=tuple(sw for _, sw in readings),
            entity_readings=tuple(entity_readings(slots)),
            parallel=_parallel(ref, out),
            reference_pronoun=(ref or {}).get("pronoun_subject") if ref_readings else None,
            pronoun_object=_pronoun_object(ref, out, ents, sig.answer_type),
            lexical=self._lexical(phrase, k),
            pair_relations=self._wide(phrase, k),
            reference_pair_relations=self._wide(ref["phrase"], k) if len(ref_ids) == 2 and ref and ref.get("phrase")
            and not ref_readings == list(readings) else (),
            relation_groups=self._coreadings(phrase),
            series=self._series(s["question"]) if ref_readings else False,
        )
        TccragState.of(s).parse = parse
        s["trace"]["parse"] = {
            "entities": [e["name"] for e in ents],
            "reference": (ref or {}).get("entities"),
            "relation_phrase": phrase,
            "relations": [("<> " if sw else "") + self.ctx.table.relations[r] for r, sw in readings],
            "subject": out.get("subject"),
            "object": out.get("object"),
            "asked": parse.asked,
            "cue": sig.cue,
            "answer_type": sig.answer_type,
            "granularity": sig.granularity,
        }
        amb = {k: [self.ctx.table.entities[int(e)] for e, _ in c[:ALT_PER_SLOT]] for k, c in slots.items() if c and len(c) > 1}
        if amb:
            s["trace"]["parse"]["entity_candidates"] = amb


class ChainRetrieve(Stage):
    """Route to TEG/SCCI/OCCI, resolve the boundary, TEMPORALSELECT; dense top-k only when the
    structured result is empty (``semantic_only`` = the wo_ccg ablation)."""

    name = "tccrag_retrieve"
    reads: tuple[str, ...] = ("parse",)
    writes: tuple[str, ...] = ("cands", "structured", "asked", "relations", "boundary")

    def __init__(self, ctx: "RunContext", semantic_only: bool = False, fallback_k: int = 20) -> None:
        super().__init__(ctx)
        self.semantic_only = semantic_only
        if semantic_only:
            self.reads = ()  # wo_ccg: no parse, dense retrieval with the question only
        self.fallback_k = fallback_k
        self.graph = CausalCueGraph(ctx.store, ctx.table.start)

    def _prefetch(self, states: list[State]) -> None:
        """Every posting list the candidate readings of this batch may need (each relation
        reading's route, the reference events), in one batched store call."""
        keys: list[tuple] = []
        for s in states:
            p0 = TccragState.of(s).parse
            if p0 is None:
                continue
            groups = self._group_alternatives(s)
            for p in p0.entity_parses():
                for r, sw in p.relation_readings():
                    q = p.oriented(sw)
                    subj, obj = q.subject, q.object
                    keys += [(subj, r, obj), (subj, r, None), (None, r, obj)]
                    co = dict(p.relation_groups).get(int(r), ()) if not sw else ()
                    for rr in co:  # ranked co-readings (tccrag21)
                        keys += [(subj, rr, obj), (subj, rr, None), (None, rr, obj)]
                    # a ranked group's other readings (the union of _chain, tccrag20): their
                    # lists were one store call each per question before (tccrag24)
                    for a in (x for e in (subj, obj) if e is not None for x in groups.get(int(e), ())):
                        for rr in (r, *co):
                            keys += [(a, rr, obj), (a, rr, None), (subj, rr, a), (None, rr, a)]
                    for x in q.reference[:1]:
                        keys += [(x, r, obj), (subj, r, x)] + [_event(a, rr, x, rs) for rr, rs in p.reference_readings()
                                                                for a in (subj, obj) if a is not None]
                        keys += [_event(x, rr, a, rs) for rr, rs in p.reference_readings() for a in (subj, obj) if a is not None]
                ref = p.reference
                if len(ref) == 2:
                    keys += [_event(ref[0], rr, ref[1], rs) for rr, rs in p.reference_readings()] + [(ref[0], None, ref[1])]
        keys = [k for k in keys if not (k[0] is None and k[2] is None)]
        self.graph.prefetch(keys)

    def __call__(self, states: list[State]) -> list[State]:
        need_fallback = []
        if not self.semantic_only:
            self._prefetch(states)
        for i, s in enumerate(states):
            st = TccragState.of(s)
            fids, route, info = (np.empty(0, np.int64), None, {}) if self.semantic_only else self.structured(s)
            s["trace"]["route"] = route
            s["trace"]["chain"] = info
            if len(fids):
                st.cands = [int(x) for x in fids]
                st.structured = True
                s["answered_by"] = f"structured:{route}"
            else:
                # the filter conditions fallback facts on the parse (when there is one)
                st.structured, st.boundary = False, None
                st.asked = st.parse.asked if st.parse is not None else None
                st.relations = list(st.parse.relations) or None if st.parse is not None else None
                need_fallback.append(i)
        if need_fallback:
            qs = [states[i]["question"] for i in need_fallback]
            hints = []
            for q in qs:
                e = cue_signals(q, self.ctx).explicit
                hints.append((e.lo, e.hi) if e else None)
            hits = dense_fact_ids(self.ctx, qs, self.fallback_k, time_hints=hints, triple_pool=2 * self.fallback_k)
            for i, (fids, _) in zip(need_fallback, hits):
                s = states[i]
                order = np.lexsort((fids, self.ctx.table.start[fids])) if len(fids) else []
                TccragState.of(s).cands = [int(fids[j]) for j in order]
                s["answered_by"] = ("semantic" if self.semantic_only else "semantic_fallback") if len(fids) else "none"
        for s in states:
            s["initial_evidence_count"] = len(TccragState.of(s).cands)
        return states

    def _group_alternatives(self, s: State) -> dict[int, tuple[int, ...]]:
        """Entity id -> the other readings of its group written alone (nlu's
        ``group_readings``), for a first / last question only: the ids :meth:`_group_union`
        may rank together, whose posting lists :meth:`_prefetch` fetches with the batch's."""
        if cue_signals(s["question"], self.ctx).select not in ("first", "last"):
            return {}
        groups = clause_analysis(s["question"], self.ctx).group_readings
        if not groups:
            return {}
        eid = self.ctx.table.entity_id
        ids = [[eid[n] for n in names if n in eid] for names in groups.values()]
        return {e: tuple(x for x in g if x != e) for g in ids for e in g}

    def _boundary(self, s: State, p: TccParse, sig, r: int) -> tuple[list[tuple[int, int]] | None, bool]:
        """(boundary spans, required): the first of :meth:`_boundaries` (None when none)."""
        bs, required = self._boundaries(s, p, sig, r)
        return (bs[0] if bs else None), required

    def _boundaries(self, s: State, p: TccParse, sig, r: int, ref_rel: int | None = None,
                    loose: bool | str | None = None) -> tuple[list[list[tuple[int, int]]], bool]:
        """(candidate boundaries in order, required). Explicit time first, else the reference
        event via TEG: a full anchor event (two entities, its own relation) or the elliptic
        form (the reference in the asked slot under the question's relation: the paper's
        rule, "TEG retrieves the reference event connecting the anchor and reference entity
        under r").

        Our readings of cases the paper leaves open (tried after the paper's rule; the first
        boundary whose chain is non-empty answers, as for the relation readings):

        * a time question with both slots filled and one reference name ("When did Peru visit
          Kenya after Japan did?"): the name replaces the subject under r (nlu's parallel
          reference, as SCoP reads it); before, no boundary was found at all;
        * a one-name reference clause with its own verb whose other participant is the main
          subject ("Who did the police arrest first after they criticized the protesters?",
          "... prior to its talks with X"): the event (subject, clause relation, name), its
          relation grounded from the clause phrase; only after the elliptic reading under r;
          of a main clause that asks its subject, the converse (name, clause relation, main
          object): the clause's name opens it as its subject, the main object is its unnamed
          participant ("the police", "their demands"); before, such a question had no boundary;
        * a full reference event (two names): one boundary per reading of its phrase (relation
          and direction, score order), then the pair under any relation; ``ref_rel`` given:
          only the reading(s) under that relation (a shared action, see
          :meth:`_relation_readings`). ``loose`` False: without the pair under any relation,
          True: that pair only (None: both). :meth:`structured` tries the pair after every
          entity reading's phrase readings: it ignores the clause's verb, so an alternative
          grounding of one of its names with the verb's event is the better reading ("... on
          the day Iran consulted **an Iranian company**": Business (Iran) has no consultation
          that day, Company - Owner or Operator (Iran) has); before, the primary reading's
          pair under any relation (any event of Iran with Business (Iran)) bounded the chain."""
        from tkgqa_ray.time import coarsen

        if sig.order is None:
            return [], False
        if sig.explicit is not None and sig.order in ("before", "after", "in"):
            return [[(sig.explicit.lo, sig.explicit.hi)]], True
        ref = p.reference
        if not ref or sig.order == "in":
            return [], sig.order in ("before", "after", "same")
        table = self.ctx.table
        evs: list[np.ndarray] = []
        if len(ref) == 2 and loose == "pair":
            # the closest relation the pair has among the phrase's further readings (tccrag20)
            rd = _pair_reading(self.ctx.table, ref[0], ref[1], p.reference_pair_relations,
                               lambda sw: _event(ref[0], 0, ref[1], sw), p.reference_relations)
            if rd is not None:
                evs.append(self._teg(_event(ref[0], rd[0], ref[1], rd[1])))
        elif len(ref) == 2:
            # each reading of the clause's phrase is a boundary reading, in score order, then
            # the pair under any relation; before, only the first reading with an event was
            # kept, so a near miss ("fatally assaulted" read as Physically_assault before
            # Kill_by_physical_assault) fixed a boundary under which the main chain was empty
            if loose is not True:
                evs += [self._teg(_event(ref[0], rr, ref[1], rs)) for rr, rs in p.reference_readings()
                        if ref_rel is None or rr == ref_rel]
                if ref_rel is None:
                    evs = _one_occasion(table, evs, p.reference_readings(), p.reference_scores)
            if ref_rel is None and loose is not False:
                evs.append(self.graph.teg(ref[0], ref[1], None))
        elif ref_rel is not None:
            # a one-name reference sharing the asked action (a ranked series, tccrag23): its
            # event under that relation only, the pronoun's antecedent as its other participant
            # or, without one, the paper's elliptic reading (the name in the asked slot under r)
            ante = _pronoun_antecedent(p)
            if ante is not None:
                pair = (ref[0], ante) if p.reference_pronoun in ("passive", "gerund_passive") else (ante, ref[0])
                evs += [self._teg(_event(pair[0], rr, pair[1], rs)) for rr, rs in p.reference_readings() if rr == ref_rel]
            elif p.asked == "subject" and p.object is not None:
                evs.append(self.graph.teg(ref[0], p.object, r))
            elif p.asked == "object" and p.subject is not None:
                evs.append(self.graph.teg(p.subject, ref[0], r))
        else:
            ante = _pronoun_antecedent(p)
            if ante is not None:  # a clause with a subject pronoun: its own event first
                pair = (ref[0], ante) if p.reference_pronoun in ("passive", "gerund_passive") else (ante, ref[0])
                evs += [self._teg(_event(pair[0], rr, pair[1], rs)) for rr, rs in p.reference_readings()]
            if p.asked == "subject" and p.object is not None:
                evs.append(self.graph.teg(ref[0], p.object, r))
            elif p.asked == "object" and p.subject is not None:
                evs.append(self.graph.teg(p.subject, ref[0], r))
            elif p.asked == "time" and p.subject is not None and p.object is not None:
                evs.append(self.graph.teg(ref[0], p.object, r))  # our reading: the name replaces the subject
            if p.asked in ("object", "time") and p.subject is not None and ante is None:
                evs += [self._teg(_event(p.subject, rr, ref[0], rs)) for rr, rs in p.reference_readings() if rr != r]
            elif p.asked == "subject" and p.object is not None and ante is None and p.reference_relations != p.relations:
                # the converse: the clause's name is its subject, its unnamed participant the
                # main object ("who used unconventional violence against the South African police
                # in the same year a South African MP used military force against **the
                # police**", "... the year X gave in to **their** demands")
                evs += [self._teg(_event(ref[0], rr, p.object, rs)) for rr, rs in p.reference_readings() if rr != r]
        out: list[list[tuple[int, int]]] = []
        for ev in evs:
            if not len(ev):
                continue
            spans = [(int(a), int(b)) for a, b in zip(table.start[ev], table.end[ev])]
            if sig.order == "same":
                d = sig.offset_days
                spans = sorted({coarsen(a + d, b + d, sig.same_granularity or "day") for a, b in spans})
            if spans not in out:
                out.append(spans)
        return out, True

    def _group_union(self, s: State, sig, route: str, subj, obj, bounded: TccParse | None = None) -> tuple[str, list[int]] | None:
        """(slot, the other readings' ids) when the question ranks (first / last) and the
        chain's named slot is one reading of a group written alone (nlu's
        ``QuestionAnalysis.group_readings``, refs26: "al-Qaeda" = Combatant_(Al_Qaeda),
        Armed_Gang_(Al_Qaeda), ...; SCoP's ``evidence.group_union`` reads the same): the first
        or last is over the union of the readings' facts, not over one sector's (tccrag20).
        Before, the first reading with a chain ranked its own facts alone. None otherwise, and
        for a slot whose reading is a participant of the boundary's reference event
        (``bounded``: the parse under a resolved boundary): that event fixed the group's
        reading ("who the Taliban first attacked after signing an agreement with Musharraf":
        Militant (Taliban) signed, and the same actor attacked; d13-0070)."""
        if sig.select not in ("first", "last"):
            return None
        groups = clause_analysis(s["question"], self.ctx).group_readings
        if not groups:
            return None
        table = self.ctx.table
        slots = [("subject", subj)] if route == "scci" else [("object", obj)] if route == "occi" else [("subject", subj), ("object", obj)]
        for slot, e in slots:
            if e is None:
                continue
            if bounded is not None and (int(e) in bounded.reference or _pronoun_antecedent(bounded) == int(e)):
                continue
            names = groups.get(table.entities[int(e)])
            if names:
                alts = [table.entity_id[n] for n in names if n in table.entity_id and table.entity_id[n] != int(e)]
                return (slot, alts) if alts else None
        return None

    def _teg(self, key: tuple) -> np.ndarray:
        """TEG lookup of one (subject, relation, object) key."""
        return self.graph.teg(key[0], key[2], key[1])

    def structured(self, s: State) -> tuple[np.ndarray, str | None, dict]:
        """Try the candidate readings in order — for each entity reading (the best candidate of
        every slot first, then one slot's alternative at a time, see :func:`entity_readings`)
        each relation reading (relation, direction) in score order; the first whose chain is
        non-empty answers (the KG decides) and is recorded in ``info["reading"]``. All their
        posting lists were fetched by :meth:`_prefetch` in one batched store call."""
        sig = cue_signals(s["question"], self.ctx)  # the cue: deterministic by design (module doc)
        info: dict[str, Any] = {"tried": []}
        route = None
        parses = TccragState.of(s).parse.entity_parses()
        # a full reference event under any relation (its phrase ignored) is the weakest
        # boundary: it is tried after every entity reading's phrase-grounded ones (loose=False,
        # then loose=True), see :meth:`_boundaries`
        passes = [(ei, pe, False if len(pe.reference) == 2 else None) for ei, pe in enumerate(parses)]
        # the closest relation a full reference event's pair has (tccrag20): before the pair
        # under any relation, which ignores the clause's phrase altogether
        passes += [(ei, pe, "pair") for ei, pe in enumerate(parses) if len(pe.reference) == 2 and pe.reference_pair_relations]
        passes += [(ei, pe, True) for ei, pe in enumerate(parses) if len(pe.reference) == 2]
        for ei, pe, loose in passes:
            found, seen = self._relation_readings(s, pe, sig, info, ei, len(parses), loose)
            if found is not None:
                return found
            route = route or seen
        for ei, pe in enumerate(parses):
            # the main clause names both participants and none of its phrase's k readings has
            # a chain: the closest relation of its phrase the pair has in the KG (tccrag20)
            if pe.subject is None or pe.object is None or not pe.pair_relations:
                continue
            rd = _pair_reading(self.ctx.table, pe.subject, pe.object, pe.pair_relations,
                               lambda sw, pe=pe: (pe.oriented(sw).subject, 0, pe.oriented(sw).object), pe.relations)
            if rd is None:
                continue
            pp = dataclasses.replace(pe, relations=(rd[0],), swaps=(rd[1],))
            found, _ = self._relation_readings(s, pp, sig, info, ei, len(parses), False if len(pe.reference) == 2 else None,
                                               {"pair_relation": True})
            if found is not None:
                found[2]["pair_relation"] = True
                return found
        for ei, pe in enumerate(parses):
            # a one-name (elliptic) reference whose event the phrase's k readings do not find
            # ("Who else clashed with Sudan using small arms and light weapons after the Sudanese
            # armed opposition had done so?": none of Use_conventional_military_force, ... links
            # the opposition and Sudan): the closest further reading of the phrase the
            # reference's pair has in the KG is the shared action (tccrag24; tccrag20's rule for
            # the paper's elliptic reference event)
            rd = self._elliptic_pair_reading(pe)
            if rd is None:
                continue
            pp = dataclasses.replace(pe, relations=(rd[0],), swaps=(rd[1],))
            found, _ = self._relation_readings(s, pp, sig, info, ei, len(parses), None, {"pair_relation": "reference"})
            if found is not None:
                found[2]["pair_relation"] = "reference"
                return found
        if _one_anchor(parses[0]):
            # the roles of a one-name entity question are read from word order, which a
            # possessive or contact relative clause can hide ("whose property the Indonesian
            # police confiscated on ...": nlu reads the police as the object): when no reading
            # as parsed has a chain, the name in the other slot is the last reading (the KG
            # decides), as SCoP reverses its search triple when its own direction has no fact.
            # Before, such a question got no structured answer
            for ei, pe, loose in passes:
                found, _ = self._relation_readings(s, pe.oriented(True), sig, info, ei, len(parses), loose,
                                                   {"roles_flipped": True})
                if found is not None:
                    found[2]["roles_flipped"] = True
                    return found
        if _named_event_unbounded(parses[0], sig):
            # "On which day did X visit Y, the same day the Italians hosted them?": no name of
            # the "same <period>" clause was read, so there is no reference event to bound the
            # main one. The main event is named in full, and the boundary would only choose
            # among its own times: they are the answer's candidates (SCoP answers from that
            # one anchor). Before, such a question ended with no answer
            for idx, (r, sw) in enumerate(parses[0].relation_readings()):
                p = parses[0].oriented(sw)
                found = self._chain(s, p, parses[0], sig, info, {}, idx, r, sw, "teg", None, 0, len(parses),
                                    {"unbounded": True})
                if found is not None:
                    return found
        if route is None and not info["tried"]:
            info["reason"] = "no anchor for the asked slot"
        return np.empty(0, np.int64), route, info

    def _elliptic_pair_reading(self, pe: TccParse) -> tuple[int, bool] | None:
        """(relation, swap) of :func:`_pair_reading` for a one-name reference read the paper's
        elliptic way (the name in the asked slot, the main clause's other name kept, the main
        relation): an entity question with its other slot named and no pronoun antecedent of
        the reference; None otherwise. Only the phrase's further scored readings
        (``pair_relations``, >= :data:`PAIR_REL_MIN`) in their own direction, and not when the
        pair has one of the k readings (then the direction or the time failed)."""
        if len(pe.reference) != 1 or not pe.pair_relations or _pronoun_antecedent(pe) is not None:
            return None
        if not ((pe.asked == "subject" and pe.object is not None) or (pe.asked == "object" and pe.subject is not None)):
            return None
        ref = int(pe.reference[0])
        main = pe.object if pe.asked == "subject" else pe.subject

        def orient(sw: bool) -> tuple:
            po = pe.oriented(sw)
            return (ref, 0, po.object) if po.asked == "subject" else (po.subject, 0, ref)

        return _pair_reading(self.ctx.table, ref, main, pe.pair_relations, orient, pe.relations)

    def _relation_readings(self, s: State, p0: TccParse, sig, info: dict, ei: int, n_ent: int,
                           loose: bool | str | None = None, extra: dict | None = None):
        """The relation readings of one entity reading ``p0``: ((fact ids, route, info) of the
        first with a non-empty chain or None, the first route seen); the tries are appended
        to ``info["tried"]``. ``loose``: which boundaries of a full reference event
        (:meth:`_boundaries`); True: only the pair under any relation (no shared phase).
        ``extra``: keys added to every try's record (``roles_flipped``)."""
        table = self.ctx.table
        seen = None
        tag = {**({"entity_reading": ei} if ei else {}), **(extra or {})}
        readings = p0.relation_readings()
        # a shared action: the reference clause repeats the main clause's verb ("the first to
        # hold talks with X after Y held talks with X"; its phrase grounds to the same
        # relations, the same one best), so both events are one relation. Each relation is first tried with the
        # reference event under that same relation; the mixed pairs follow. Before, the best
        # main relation took the first reference reading that had an event, under another
        # relation: a chain of one action bounded by an event of another.
        shared = len(p0.reference) == 2 and bool(p0.reference_relations) and bool(readings) and (
            p0.reference_relations[0] == readings[0][0] and set(p0.reference_relations) == {r for r, _ in readings})
        # a parallel event through an anaphor ("which Chadian actor voiced approval of France
        # earliest after X had applauded it": France is the object of both) relates one action
        # in two wordings: the main relations the clause's phrase also grounds to come first,
        # each with the reference event under it (as a shared action); before that rule, the
        # main clause's best reading (Reject, for "voiced approval of") took the applause as
        # its boundary
        # Only a main phrase the relation lexicon does not know is so re-read: a lexicon
        # wording names its action ("last talk by phone with X before Y consulted him" is a
        # telephone call, not a consultation), as the clause's wording names its own
        shared = shared or (len(p0.reference) == 2 and p0.parallel and not p0.lexical
                            and bool(set(p0.reference_relations) & {r for r, _ in readings}))
        # a ranked series ("whom did X negotiate with **next**, following his talks with Y"):
        # a reference phrase whose near readings (within SERIES_MARGIN of its best) include the
        # main phrase's best relation is that action ("talks" -> Consult first, the negotiation
        # near it), as SCoP's shared_actions reads it (next29); before, the clause's best reading
        # (every consultation of the pair) bounded the chain of negotiations (tccrag23)
        shared = shared or (p0.series and bool(readings) and near_series_reading(
            zip(p0.reference_relations, p0.reference_scores, p0.reference_swaps or (False,) * len(p0.reference_relations)),
            readings[0]))
        # a full reference event's boundaries do not depend on r: its best reading is tried
        # with every relation reading before its next readings ("tail"), so an alternative
        # reading of the reference never outranks the next reading of the main relation
        phases = (("shared",) if shared and not loose else ()) + (("first", "tail") if len(p0.reference) == 2 else ("any",))
        for phase in phases:
            for idx, (r, sw) in enumerate(readings):
                p = p0.oriented(sw)
                route = _route(p)
                if route is None:
                    if phase in ("any", "first"):
                        info["tried"].append({"relation": table.relations[r], "swap": sw, "result": "no anchor for the asked slot", **tag})
                    continue
                seen = seen or route
                boundaries, required = self._boundaries(s, p, sig, r, r if phase == "shared" else None, loose)
                if required and not boundaries:
                    if phase in ("any", "first"):
                        info["tried"].append({"relation": table.relations[r], "result": "unresolved boundary", **tag})
                    continue
                ptag = ({"shared_action": True} if phase == "shared" else {"pair_relation": True} if loose == "pair"
                        else {"any_relation": True} if loose else {})
                cands = list(enumerate(boundaries or [None]))
                cands = cands[:1] if phase == "first" else cands[1:] if phase == "tail" else cands
                for bi, boundary in cands:
                    found = self._chain(s, p, p0, sig, info, tag, idx, r, sw, route, boundary, ei, n_ent,
                                        {**({"boundary_reading": bi} if bi else {}), **ptag})
                    if found is not None:
                        return found, seen
        return None, seen

    def _chain(self, s, p, p0, sig, info, tag, idx, r, sw, route, boundary, ei, n_ent, btag):
        """The chain of one reading under one boundary: (fact ids, route, info) or None."""
        table = self.ctx.table
        subj, obj = p.subject, p.object
        smin = smax = None
        if boundary and sig.order == "after":
            smin = min(h for _, h in boundary) + 1
        elif boundary and sig.order == "before":
            smax = max(lo for lo, _ in boundary) - 1
        elif boundary and sig.order in ("same", "in") and not table.is_interval:
            smin, smax = min(lo for lo, _ in boundary), max(h for _, h in boundary)
        def query(a, b, rr=r):
            if route == "teg":
                return self.graph.teg(a, b, rr, smin, smax)
            if route == "scci":
                return self.graph.scci(a, rr, smin, smax)
            return self.graph.occi(rr, b, smin, smax)

        # a rank over a phrase the KG names by several near-tied relations ("the last one
        # Obama eased sanctions against": administrative and economic sanctions) is over all
        # of them (refs27's co-readings, as SCoP ranks; tccrag21). Before, the first reading
        # with a chain ranked its own facts alone
        co = dict(p0.relation_groups).get(int(r), ()) if sig.select in ("first", "last") and not sw else ()
        rs = (r, *co)
        ids = np.unique(np.concatenate([np.asarray(query(subj, obj, rr), np.int64) for rr in rs])) if co else query(subj, obj)
        if co:
            btag = {**btag, "relation_union": [table.relations[x] for x in co]}
        union = self._group_union(s, sig, route, subj, obj, p if boundary else None)
        if union is not None:
            # a rank over a group written alone is over all its readings' facts (refs26)
            slot, alts = union
            parts = [query(a, obj, rr) if slot == "subject" else query(subj, a, rr) for a in alts for rr in rs]
            ids = np.unique(np.concatenate([np.asarray(ids, np.int64)] + [np.asarray(x, np.int64) for x in parts]))
            btag = {**btag, "group_union": len(alts)}
        facts = _evfacts(table, ids)
        chain = temporal_select(facts, sig.order if boundary else None, sig.select, boundary)
        info["tried"].append({"relation": table.relations[r], "swap": sw, "candidates": len(ids), "chain": len(chain),
                              **tag, **btag})
        if chain:
            ents = table.entities
            info.update(relation=table.relations[r], relation_id=int(r), boundary=boundary,
                        reading={"index": idx, "of": len(p0.relations), "relation": table.relations[r], "swap": sw, **btag,
                                 "entity_reading": {"index": ei, "of": n_ent, "changed": p0.changed,
                                                    "subject": ents[p0.subject] if p0.subject is not None else None,
                                                    "object": ents[p0.object] if p0.object is not None else None,
                                                    "reference": [ents[x] for x in p0.reference]}})
            st = TccragState.of(s)
            st.relations = [int(r)]
            st.boundary = boundary
            st.asked = p.asked
            return np.array([f.fid for f in chain], np.int64), route, info
        return None


def _one_occasion(table, evs: list[np.ndarray], readings: list[tuple[int, bool]], scores: tuple[float, ...]) -> list[np.ndarray]:
    """``evs`` (the full reference event's facts per phrase reading, score order) with the
    first near-tie reading of one occasion moved first when the best reading's event has facts
    on several days (:func:`tkgqa_ray.nlu.coreadings.occasion_floor`; same direction, so the same
    names in the same slots). Before, "after Nigerians threatened the Democratic Party" was
    bounded by the first of three Threaten days, not by the one Threaten_non-force day (d16-0085)."""
    if len(evs) < 2 or len(scores) != len(evs) or len(readings) != len(evs) or not len(evs[0]):
        return evs
    days = lambda ev: len(np.unique(np.asarray(table.start)[ev]))  # noqa: E731
    if days(evs[0]) <= 1:
        return evs
    floor = occasion_floor(scores[0])
    for j in range(1, len(evs)):
        if readings[j][1] == readings[0][1] and scores[j] >= floor and len(evs[j]) and days(evs[j]) == 1:
            return [evs[j]] + evs[:j] + evs[j + 1:]
    return evs


PAIR_REL_MIN = 0.4  # a further relation reading's grounding score floor (SCoP's relation slot floor, THRESH)


def _entity_rows(table, e: int) -> tuple[np.ndarray, np.ndarray]:
    """The (s, r, o) triple rows with ``e`` as subject and those with ``e`` as object, each in
    triple-id order: slices of the table's per-entity index (FactTable.triples_with_subject /
    _object, tccrag22), not a mask over every triple per call."""
    tr = table.triples
    return tr[table.triples_with_subject(e)], tr[table.triples_with_object(e)]


def _pair_rows(src, a: int, b: int) -> np.ndarray:
    """The (s, r, o) triple rows between ``a`` and ``b`` in either direction. ``src``: a
    FactTable (its per-entity index) or a bare triple array (a scan)."""
    if isinstance(src, np.ndarray):
        return src[((src[:, 0] == a) & (src[:, 2] == b)) | ((src[:, 0] == b) & (src[:, 2] == a))]
    out_a, in_a = _entity_rows(src, a)
    return np.concatenate([out_a[out_a[:, 2] == b], in_a[(in_a[:, 0] == b) & (in_a[:, 2] != in_a[:, 0])]])


def _pair_reading(tr, a: int, b: int, readings, orient, own=()) -> tuple[int, bool] | None:
    """The first of ``readings`` ((relation, swap), the phrase's further scored readings in
    score order) under which the KG has a fact of the pair ``a`` / ``b``: ``orient(swap)``
    gives the pair's (subject, _, object) read in that direction. Conservative: only a
    relation the phrase's grounding scored (>= :data:`PAIR_REL_MIN`), never any relation of
    the pair. "In what month did Roh Moo-hyun last appeal to Taliban militants to free
    captives?": the phrase's three readings (Make_an_appeal_or_request, ...) have no fact of
    the pair; Appeal_for_release_of_persons_or_property (scored 0.40) is the one the pair has
    (dev19-0121). None when no reading fits, and when the pair has one of the phrase's ``own``
    k relations in either direction: then the relation is the phrase's and what failed is the
    clause's orientation or its time, which a further relation would not mend ("after the act
    of imposing restrictions ... with Chinese journalists by China": China imposed them on
    the journalists; the journalists' closest other relation with China is another event).
    """
    if not readings or a is None or b is None:
        return None
    both = _pair_rows(tr, a, b)
    if set(int(r) for r in own) & set(both[:, 1].tolist()):
        return None
    have = {(int(x), int(r), int(y)) for x, r, y in both}
    for r, sw in readings:
        x, _, y = orient(sw)
        if (int(x), int(r), int(y)) in have:
            return int(r), bool(sw)
    return None


ALT_ENT_MIN = 0.6  # an alternative entity candidate's score floor (as SCoP's alternative readings)
ALT_PER_SLOT = 3  # candidates per slot, the best one included
MAX_ENTITY_READINGS = 6  # the primary reading + alternatives per question


def entity_readings(slots: dict[str, list | None]) -> list[EntityReading]:
    """The entity readings of a parse, primary first. ``slots``: slot name ("subject",
    "object", "reference:<j>") -> scored candidates ``[[id, score], ...]`` best first (None:
    the slot is empty). The primary reading takes every slot's best candidate; each
    alternative replaces ONE slot's candidate by one of its next ones (score ≥ ALT_ENT_MIN,
    ALT_PER_SLOT per slot), best score first — conservative, as SCoP's alternative readings:
    two wrong slots at once are rare, and the reading count stays linear."""
    best = {k: int(c[0][0]) for k, c in slots.items() if c}
    refs = sorted((k for k in slots if k.startswith("reference:")), key=lambda k: int(k.split(":")[1]))

    def reading(pick: dict, changed: str | None, score: float) -> EntityReading:
        return EntityReading(pick.get("subject"), pick.get("object"), tuple(pick[k] for k in refs if k in pick),
                             changed, round(score, 4))

    out = [reading(best, None, 1.0)]
    alts = []
    for k, c in slots.items():
        for e, sc in (c or [])[1:ALT_PER_SLOT]:
            if float(sc) >= ALT_ENT_MIN and int(e) != best.get(k):
                alts.append((-float(sc), len(alts), k, int(e)))
    for neg, _, k, e in sorted(alts)[: MAX_ENTITY_READINGS - 1]:
        out.append(reading({**best, k: e}, k, -neg))
    return out


_PRO_VERB_FILLER = {"do", "did", "does", "done", "doing", "had", "has", "have", "to", "with", "for",
                    "the", "it", "them", "that", "this", "thing"}


_PRO_VERB_RE = re.compile(r"\b(?:do|did|does|done|doing)\s+(?:the\s+same(?:\s+thing)?|so|likewise|similarly)\b", re.I)


def _pro_verb_clause(phrase: str, question: str = "", span=None) -> bool:
    """A reference clause whose action is a pro-verb ("did the same to", "had done so",
    "did likewise"): its phrase has no action word of its own, only "same"/"so"/"likewise"
    (at least one), or it is empty and the clause's text holds the pro-verb (nlu drops it)."""
    from tkgqa_ray.methods.tccrag.parsing import _PRO_FORM_WORDS

    if not phrase.strip():
        return bool(span) and bool(_PRO_VERB_RE.search(question[span[0]:span[1]]))
    words = [w for w in re.findall(r"[a-z]+", phrase.lower()) if w not in _PRO_VERB_FILLER]
    return bool(words) and all(w in _PRO_FORM_WORDS for w in words) and bool(
        {"same", "so", "likewise", "similarly"} & set(words))


def _event(subj, r, obj, swap: bool) -> tuple:
    """(subject, relation, object) of a clause read through relation ``r`` (a store key);
    ``swap``: the clause's subject is the relation's KG object."""
    return (obj, r, subj) if swap else (subj, r, obj)


def _pronoun_object(ref: dict | None, out: dict, ents: list[dict], answer_type: str) -> bool:
    """True when the subject pronoun opening a one-name reference clause of a time question
    agrees with the main object and cannot stand for the main subject (nlu's
    :func:`agreement`): "What year did **the Jordanian royal court** first consult
    **Abbas** after **he** negotiated with Iraq's interim leader?" -- "he" is a person, the
    court is not, so the clause is Abbas's negotiation. Before, such a pronoun always stood
    for the main subject (:func:`_pronoun_antecedent`): the court's negotiation with the
    interim leader, no event, so the boundary was unresolved."""
    pro = (ref or {}).get("pronoun")
    if answer_type != "time" or not pro or (ref or {}).get("pronoun_subject") not in ("active", "passive"):
        return False
    subj, obj = out.get("subject"), out.get("object")
    if not subj or not obj:
        return False
    surf = {}
    for e in ents:
        surf.setdefault(e["name"], e.get("mention") or e["name"])
    def feats(n: str):
        return features(surf.get(n, n), n.replace(" ", "_"))

    def agrees(n: str) -> int:
        return agreement(pro, feats(n))

    # the subject keeps the pronoun unless it cannot agree at all ("What year did HRW first
    # make a statement about the African Union after **it** appealed to X?": both can be "it",
    # and the parallel subject reading stands), or "they" meets a main object written in the
    # plural and a subject that is not (:func:`_plural_they`)
    return (agrees(subj) == 0 and agrees(obj) > 0) or _plural_they(pro, feats(subj), feats(obj))


def _plural_they(pro: str, subj, obj) -> bool:
    """True when "they" has a main object written in the plural and a main subject written in
    the singular (nlu's :func:`features`): "In which year did Adolf Mwesige first say he
    wanted to meet **Ugandan citizens** after **they** had expressed a wish to meet South
    Sudan?" -- the plural noun is what "they" reads first, a person's singular "they" is the
    rarer reading. Before, a subject of unknown gender kept the pronoun (it can agree), so
    the clause was Mwesige's wish to meet South Sudan: no event, an unresolved boundary."""
    return pro.lower() == "they" and obj.plural and not subj.plural


def _pronoun_antecedent(p: TccParse) -> int | None:
    """The main-clause name a one-name reference clause's subject pronoun stands for, or
    None (no such pronoun): the main subject when the question asks the object or the time
    ("who did China aid on the day **it** said ..."), else the main object, the only name of
    a main clause that asks its subject ("who first protested against Musharraf after **he**
    said he would cooperate with Pakistani scholars"). Its event (antecedent, the clause's
    relation, the clause's name) is tried before the elliptic reading: before, the elliptic
    reading came first, and under "same" its event was a fact of the asked chain itself, so
    the clause's name was the answer (China aided Iraq that day), or a subject-asking main
    clause had no clause reading at all (an unresolved boundary). A passive clause ("when it
    was commented on by X") has the clause's name as its subject (``_pronoun_voice``)."""
    if not p.reference_pronoun or len(p.reference) != 1:
        return None
    if p.reference_pronoun in ("gerund", "gerund_passive"):  # its understood subject is the main subject's, never the object
        return p.subject if p.asked in ("object", "time") else None
    if p.asked == "time" and p.pronoun_object and p.object is not None:
        return p.object
    if p.asked in ("object", "time") and p.subject is not None:
        return p.subject
    return p.object if p.asked in ("subject", "time") else None


# the grounding tiers that match a mention to a name it does not spell (embedding cosine,
# fuzzy ratio, a longer name's first and last words): a KG name the mention spells, qualified
# by the question's place, outranks them
_SIMILAR_TIERS = ("embedding", "fuzzy", "name_parts")


def _qualified_first(qualified: list, cands: list, spelled=None) -> list:
    """``cands`` of a mention a similarity tier grounded, with the "<mention> (<place>)"
    names of the question's places first: "Iraq denounced its **Supreme Council**" spells
    Supreme Council (Iraq) with the question's own place, while the name-parts tier's
    Supreme Education Council (first and last word) is another organisation. The similar name stays a further
    reading. Before, a qualified name was read only when no tier matched the mention.

    ``spelled`` (called only when a qualified name exists): the plain KG names that spell the
    mention as a shortened organisation name (:func:`parsing.spelled_names`), [] when the
    question attaches the place to the mention (:func:`parsing.place_attached`). They come
    first: "Can you recall which month **the Security Council** asked Sudan for judicial
    cooperation?" names the UN Security Council; Sudan is the other participant, not the
    council's place, and Security Council (Sudan) has no fact with Sudan (dev19-0133; nlu's
    own reading of the mention qualifies it by no place either). The qualified name stays
    a reading after them."""
    if not qualified:
        return list(cands)
    first = list(spelled()) if spelled is not None else []
    have = {e for e, _ in first}
    first += [c for c in qualified if c[0] not in have]
    have = {e for e, _ in first}
    return first + [c for c in cands if c[0] not in have]


def _one_anchor(p: TccParse) -> bool:
    """An entity question with one name in the subject or the object slot, the other asked:
    the reading whose roles :meth:`ChainRetrieve.structured` may exchange last."""
    return p.asked in ("subject", "object") and (p.subject is None) != (p.object is None)


def _named_event_unbounded(p: TccParse, sig) -> bool:
    """A time question whose main event names both participants, under a "same <period>" cue
    whose clause gave no reference name: the main event's own times are read unbounded
    (:meth:`ChainRetrieve.structured`). Only "same": there the boundary merely selects among
    the main event's times, while an unresolved "before" / "after" would change the answer's
    extreme."""
    return (sig.order == "same" and sig.explicit is None and p.asked == "time" and not p.reference
            and p.subject is not None and p.object is not None)


def _route(p: TccParse) -> str | None:
    subj, obj, asked = p.subject, p.object, p.asked
    if asked == "time" and subj is not None and obj is not None:
        return "teg"
    if asked in ("object", "time") and subj is not None:
        return "scci"
    if asked in ("subject", "time") and obj is not None:
        return "occi"
    if subj is not None and obj is not None:
        return "teg"
    return None


def _evfacts(table, ids) -> list[EvFact]:
    ids = np.asarray(ids, dtype=np.int64)
    return [EvFact(int(i), int(a), int(b), int(c), int(d), int(e)) for i, a, b, c, d, e in zip(
        ids, table.s[ids], table.r[ids], table.o[ids], table.start[ids], table.end[ids])]


class CausalFilter(Stage):
    """CEF over the candidates of either path; ``enabled=False`` is the wo_cef ablation."""

    name = "tccrag_cef"
    reads: tuple[str, ...] = ("cands", "structured", "asked", "relations", "boundary")
    writes: tuple[str, ...] = ()  # the state is consumed here: ``evidence`` (and ``_asked``) for the answerer

    def __init__(self, ctx: "RunContext", enabled: bool = True, max_facts: int | None = None) -> None:
        super().__init__(ctx)
        self.enabled = enabled
        self.max_facts = max_facts  # the method option max_evidence (None/0: unbounded)

    def __call__(self, states: list[State]) -> list[State]:
        table = self.ctx.table
        for s in states:
            st: TccragState = s.pop(KEY, None) or TccragState()  # the last stage that needs it
            facts = sorted(_evfacts(table, st.cands), key=lambda f: (f.start, f.fid))
            sig = cue_signals(s["question"], self.ctx)  # CEF conditions on the deterministic cue (paper §IV-C)
            if self.enabled and facts:
                res = causal_evidence_filter(
                    facts, asked=st.asked, order=sig.order, select=sig.select, boundary=st.boundary,
                    relations=st.relations, max_facts=self.max_facts,
                )
                final = res.final
                s["trace"]["cef"] = {**res.info, "final": len(final), "fallback": res.fallback}
            else:
                final = facts
            s["evidence"] = fact_keys(table, [f.fid for f in final])
            if st.structured and st.asked:
                s["_asked"] = st.asked  # the answerer reads the asked slot of the chain (reading's direction)
        return states


class TCCRAGOptions(StrictModel):
    relation_k: int = Field(3, ge=1, description="a relation phrase is grounded to the top-k KG relations (tried in order)")
    fallback_k: int = Field(20, ge=1, description="semantic fallback: dense top-k, only when structured retrieval is empty")
    max_evidence: int = Field(MAX_EVIDENCE, ge=0, description="cap on the facts the answerer sees after the causal filter (0 = unbounded)")


@register_method
class TCCRAG(Method):
    """Temporal causal chain-guided RAG (see docs/methods.md)."""

    name = "tccrag"
    ablations = ("none", "wo_ccg", "wo_pqp", "wo_cef")
    Options = TCCRAGOptions
    state_key = KEY  # TccragState, dropped after the chain (failed rows too)

    def build_stages(self) -> list[Stage]:
        o = self.options
        stages: list[Stage] = []
        if self.ablation != "wo_ccg":
            stages.append(ProgressiveParse(self.ctx, single_shot=self.ablation == "wo_pqp",
                                           relation_k=o["relation_k"]))
        stages += [
            ChainRetrieve(self.ctx, semantic_only=self.ablation == "wo_ccg", fallback_k=o["fallback_k"]),
            CausalFilter(self.ctx, enabled=self.ablation != "wo_cef", max_facts=o["max_evidence"] or None),
            Answer(self.ctx, METHOD),
        ]
        check_stages(stages, TccragState)  # a missing or reordered stage is refused here, naming the field
        return stages
