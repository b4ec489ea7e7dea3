"""Clause structure of a temporal question, from mentions + cues + a little syntax.

A temporal KGQA question has one *main* event (the one asked about) and zero or more
*reference* events introduced by an event cue (``after X``, ``in the same month as X``,
``3 days before X did``). The reference clause runs from its cue to the next clause boundary
(comma, question mark, another cue, a wh-word). A reference clause with two names is a full
event (``after Japan visited China``); with one name it is a *parallel reference*: the same
action as the main event with that name in the asked-for role (``After the Danish Ministry,
who first visited Iraq?`` -> the Danish Ministry visited Iraq).

The asked-for role of the main event (subject or object) follows from word order: a
wh-phrase followed only by an auxiliary before the name (``Who did China visit``) asks for the
object; a passive ``was <verb>ed by X`` makes X the agent; otherwise the wh-phrase is the
subject (``Who visited China``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any

from .actors import decompose, place_lexicon
from .anaphora import DESCRIPTION_RE, OBJECT_PRONOUN_RE, PLACE_ADVERB_RE, SUBJECT_PRONOUN_RE, agreement, antecedent, features, plural_surface
from .entities import EntityMatcher, Mention, find_entity_mentions
from .relations import relation_phrase
from .statement import LEAD_RE, statement_reference
from .temporal import _OFFSET_RE, INTERPOSED_REF, SEQ_GERUND_RE, SEQ_VERBS, Cue, infer_answer_type, infer_time_level, parse_temporal_cues
from .lexicon import _IRREGULAR as _PAST_FORMS, stem
from .text import fold, mask_spans, norm_tokens, tokenize
from .wrappers import wrapper_spans

_AUX = {
    "did", "does", "do", "has", "have", "had", "will", "would", "could", "can", "was", "were",
    "is", "are", "not", "n't", "ever", "the", "a", "an", "then", "also", "first", "last",
    "initially", "finally", "most", "recently", "really", "actually", "previously", "it", "that",
    # rank adjectives of a headless "who was the final / earliest / most recent (that) X ..."
    "final", "earliest", "latest", "recent", "very", "initial",
}
_WH_PHRASE_RE = re.compile(
    r"\b(?:(?:with|to|for|from|against|by|of|on|at|in)\s+)?"
    # "where did X go / travel": a place asked as the destination, like "which country"; also
    # embedded, right before the name ("tell me where X paid visits", nlu10)
    r"(?P<wh>who(?:m|se)?(?:\s+else)?|which|what|where(?=\s+(?:did|does|do|had|has|was|were|is|would|will)\b|\s+(?-i:[A-Z])|\s{3,}\S))"
    r"(?: (?:other )?(?P<noun>[a-z]+(?: (?:leader|official|body|group|party|actor|entity|organi[sz]ation|country|person|institution)s?)?"
    r"(?: (?:or|and|/) [a-z]+)?))?\b",
    re.I,
)
# "Name / identify / list the (first) one (that) ...", "Give me the country ...": asks for an
# entity without a wh-word; the noun phrase plays the wh-phrase's part (embedded word order).
_NAME_THE_RE = re.compile(
    # "List everyone / all those (that) X praised ...": the pronoun is the head
    r"\b(?:name|identify|list|give(?:\s+me)?|find|mention|state)\s+(?:everyone|everybody|all\s+(?:those|the\s+ones))\b(?:\s+(?:that|who|whom|which)\b)?|"
    r"\b(?:name|identify|list|give(?:\s+me)?|find|mention|state)\s+the\s+(?:[a-z]+\s+){0,2}?"
    r"(?:one|ones|entity|entities|party|parties|actor|actors|country|countries|person|people|"
    r"organi[sz]ations?|groups?|side|nations?|states?|participants?)\b(?:\s+(?:that|who|whom|which)\b)?",
    re.I,
)
# "(I'd like to know) the last party X criticised (before Y)": an embedded question whose head is
# a ranked or bare noun phrase with no wh-word; it plays the wh-phrase's part (a name right
# after it is the subject, so the phrase asks the object; "the last party to visit X" or "that
# visited X" ask the subject). Only at the start of the (unwrapped) question.
_HEAD_NP_RE = re.compile(
    r"^\s*the\s+(?:(?:very|first|last|earliest|latest|final|initial|most\s+recent|second|third|next|previous)\s+)*"
    r"(?:one|ones|party|parties|actor|actors|country|countries|entity|entities|person|organi[sz]ations?|groups?|side)\b"
    r"(?:\s+(?:or|and|/)\s+[a-z]+)?"  # "the last person or group X ...": one head (refs20)
    r"(?:\s+(?:that|who|whom|which)\b)?",
    re.I,
)
_REL_ANCHOR_RE = re.compile(r"\b(?:that|who|whom|which)\b", re.I)
_PASSIVE_END_RE = re.compile(r"\b(?:was|were|is|are|be|been|being|got|get|gets)\b[\w\s']*\bby\s*$", re.I)
# a reduced passive relative right after the wh-phrase: "(which was the last country) visited
# by X", "(which country,) most recently criticised by X": X is the agent, the wh the object
_REDUCED_PASSIVE_RE = re.compile(r"\s*(?:\w+ly\s+)?[a-z]+(?:ed|en|wn|t)\s+by\s*$", re.I)
# a passive verb + "by" with no agent after it (a boundary, a cue word or the end follows)
# (within the main clause: the stretch up to "by" crosses no cue word, so the passive of a
# reference clause, "whom did X criticise before Y was criticised by Z", is not taken for it;
# up to three words may follow the participle: "commented on by", "offered talks by",
# "targeted with unconventional violence by")
_STRANDED_BY_RE = re.compile(
    r"(?:(?!\b(?:before|after|prior|following|once|since|until|when|while|earlier|later|subsequent|ahead|during|same)\b)[\w\s'])*?"
    r"\b\w+(?:ed|en|t)(?:\s+(?!(?:before|after|prior|following|once|since|until|when|while|earlier|later|subsequent|ahead|during|same)\b)[a-z]+){0,3}"
    r"\s+by\s*(?=$|[?.,;!]|(?:in|on|during|at|for|before|after|prior|since|until|"
    r"following|ahead|subsequent|earlier|later|first|last|initially|most|the\s+(?:first|last|same))\b)",
    re.I,
)
# an active infinitive after the last form of "be" ("who was the earliest to host a visit by X"):
# the "by" belongs to its object noun, the wh-phrase is the infinitive's subject (not "to be
# visited by X", a passive)
_ACTIVE_INFINITIVE_RE = re.compile(
    # (a copula + noun phrase before the infinitive: "was the earliest / the first party to";
    # not a passive before it, "was refused to yield with by X")
    r"\b(?:was|were|is|are)\s+(?:the|an?)\s+(?:[\w'-]+\s+){0,3}?to\s+(?!be\b|get\b|have\s+been\b)[a-z]+"
    r"(?:(?!\b(?:was|were|is|are|be|been|being|got|get|gets)\b)[\w\s'])*\bby\s*$",
    re.I,
)
_ROLE_OF_RE = re.compile(
    # (singular or plural: "who were the subjects of X's optimistic comments", refs20)
    # (a visit's "destination" is its object, the place visited: refs30)
    r"\b(?:target|recipient|victim|focus|object|subject|addressee|beneficiary|topic|destination)s?\s+of\s+(?:the\s+)?$", re.I
)
# a past participle: regular, or one of the irregular ones of the KG's acts
_PARTICIPLE = r"(?:[a-z]+(?:ed|en|wn)|cut|put|set|shut|hit|sent|held|kept|caught|brought|built|dealt|left|met|struck|sought|sold)"
# a causative passive between the wh-word and the agent: "(who) had / saw / got <noun phrase>
# <participle> by (X)"; the noun phrase is one to four words with no name ("property",
# "a proposal to meet") and does not start with a participle (the perfect "who had hosted a
# visit by X" is active: the wh-word hosted)
_CAUSATIVE_PASSIVE_RE = re.compile(
    rf"\s*(?:\w+ly\s+)?(?:had|has|have|saw|sees|see|got|gets|get)\s+(?!{_PARTICIPLE}\b)(?:[a-z'-]+\s+){{1,4}}?"
    rf"{_PARTICIPLE}\s+by\s*(?:the\s+)?",
    re.I,
)
# a passive with an agent noun phrase that brings "from": "(who) was targeted by violence from
# (X)", "was hit with attacks from": the participle, "by" / "with" and a noun, then "from"
_FROM_AGENT_RE = re.compile(
    rf"\s*(?:was|were|is|are|been|got|get)\s+(?:\w+ly\s+)?{_PARTICIPLE}\s+(?:by|with)\s+"
    r"(?:[a-z'-]+\s+){1,3}?from\s*(?:the\s+)?",
    re.I,
)
_BE_RE = re.compile(r"\b(?:was|were|is|are|been|being|be|got|get|gets|gotten)\b", re.I)
_BY_END_RE = re.compile(r"\bby\s*$", re.I)
_BOUNDARY_RE = re.compile(r"[,;?.!]|\b(?:who|whom|whose|which|what|when)\b", re.I)
_NOUN_STOP = {"did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would", "first", "last"}


@dataclass
class Clause:
    """An event clause: its names (in order), relation phrase and the role asked for."""

    mentions: list[Mention]
    phrase: str
    cue: Cue | None = None  # the event cue introducing a reference clause
    span: tuple[int, int] = (0, 0)
    open_slot: str | None = None  # "subject" | "object" for the main clause of entity questions
    # a personal pronoun standing for a name of the reference clause in a main clause without
    # names ("After X's visit to Y, whom did they visit first?"); open_slot is then relative to it
    pronoun: tuple[int, int] | None = None
    # the reference clause's name that ``pronoun`` stands for (:mod:`.anaphora`: agreement, then
    # the same slot as the pronoun's), or None when there is no pronoun
    antecedent: Mention | None = None
    # a time question's main clause with fewer than two names after a full reference event:
    # its personal pronouns, the asked event's missing names ("Before X rejected Y, in what
    # month had Z last praised **him**?", "..., when had **they** last consulted **them**?")
    pronouns: tuple[tuple[int, int], ...] = ()


@dataclass
class QuestionAnalysis:
    question: str
    mentions: list[Mention]
    cues: list[Cue]
    answer_type: str  # "entity" | "time"
    time_level: str  # "day" | "month" | "year"
    main: Clause
    refs: list[Clause] = field(default_factory=list)
    wh_span: tuple[int, int] | None = None
    wrapper: tuple[tuple[int, int], ...] = ()  # spans of wrapper words ("Could you tell me")
    # places that restrict the answer rather than fill a slot ("which party from Syria"): keys
    # of nlu.actors.place_lexicon (ISO alpha-3 or a region's own name)
    answer_scope: list[str] = field(default_factory=list)
    excluded: tuple[Mention, ...] = ()  # "apart from / other than X": not an answer

    @property
    def ordinal(self) -> Cue | None:
        return next((c for c in self.cues if c.kind == "ordinal"), None)

    @property
    def time_cues(self) -> list[Cue]:
        return [c for c in self.cues if c.kind in ("time", "interval")]

    @property
    def relaxed_reason(self) -> str | None:
        """Why a strict reading of this question is impossible, or None when it is possible.

        A strict reading needs the asked event's names: one for an entity question (the other
        role is asked), two for a time question (names of reference clauses may be borrowed).
        When this is not None a symbolic parser returns its best *relaxed* reading
        (:func:`leftover_names` / :func:`leftover_words` as slots) instead of failing, and
        records ``relaxed_reason`` in its trace so relaxed answers can be told apart."""
        need = 1 if self.answer_type == "entity" else 2
        have = len(self.mentions)
        if have >= need:
            return None
        if self.answer_type == "entity":
            return "no entity mention for the asked event"
        return f"a time question needs a complete event (two entity mentions), found {have}"

    @property
    def relaxed(self) -> bool:
        """True when only a relaxed reading exists (see :attr:`relaxed_reason`)."""
        return self.relaxed_reason is not None

    @property
    def group_readings(self) -> dict[str, tuple[str, ...]]:
        """KG name -> every reading of the group written alone that it is one of (refs26).

        A group the KG knows only through its sectors ("al-Qaeda": ``Combatant_(Al_Qaeda)``,
        ``Armed_Gang_(Al_Qaeda)``, ``Insurgent_(Al_Qaeda)``, ...: :func:`group_mention`) names
        them all at once; its mention keeps them as scored candidates, best first. Where the
        question ranks the facts ("the last to make a statement about al-Qaeda"), the first or
        last is over the union of those readings, not over the best one's alone: a rank over
        one sector's facts answers a question the asker did not put. Shared by the methods
        (SCoP's evidence ranks over the union; ``methods.scop.evidence``)."""
        out: dict[str, tuple[str, ...]] = {}
        for m in self.mentions:
            names = group_mention(m)
            for n in names:
                out.setdefault(n, names)
        return out


def group_mention(m: Mention) -> tuple[str, ...]:
    """The readings of a mention that writes a group alone, or ``()``: two or more candidates,
    all ``Sector_(Group)`` actors of one place that is no country, region or other place of the
    place lexicon (a group the KG has only as its actors' place: ``Combatant_(Al_Qaeda)``,
    ``Armed_Gang_(Al_Qaeda)``), and the surface is that group's name itself ("al-Qaeda", "the
    Taliban"), no sector word with it ("al-Qaeda militants" reads a sector: its own ranking)."""
    if len(m.names) < 2 or m.source != "actor":
        return ()
    ds = [decompose(n) for n in m.names]
    if any(d is None for d in ds) or len({d.place for d in ds}) != 1:
        return ()
    place = ds[0].place
    if place_lexicon().is_place(place):
        return ()
    norm = lambda x: re.sub(r"[^a-z0-9]+", "", x.casefold())
    surface = re.sub(r"^(?:the|a|an)\s+", "", m.text.strip(), flags=re.I)
    if norm(surface) != norm(place):
        return ()
    return tuple(m.names)


# "who was the (very) last one (that) X visited", "which was the first country to ...": the
# copula + noun phrase belongs to the wh-phrase, so what follows decides the asked role
# ("one that X visited" asks the object, "one to visit X" the subject)
_WH_COPULA_RE = re.compile(
    r"(?:\s+(?:was|is|were|are)|['’]s)\s+(?:it\s+)?the\s+(?:(?:[a-z]+\s+){0,3}?"
    r"(?:one|ones|party|parties|country|countries|entity|entities|actor|actors|person|side|organi[sz]ation|"
    r"nation|nations|state|states|group|participant|individual)\b"
    # a disjunctive head ("the last person or group X showed empathy toward"): English joins
    # two head nouns with "or" for one head, the clause after it still the relative (refs20)
    r"(?:\s+(?:or|and|/)\s+[a-z]+)?"
    r"(?:\s+(?:that|who|whom|which)\b)?"
    # headless: "who was the first that X hosted a visit by" (the copula is the wh-phrase's)
    r"|(?:very\s+)?(?:first|last|earliest|latest|final|initial|most\s+recent|next|previous)\s+(?:that|who|whom|which)\b)",
    re.I,
)


# generic actor nouns that head an asked phrase ("which party", "the Tanzanian actors"): one list
# for a place after them ("which party from Syria") and a demonym before them ("which Tanzanian
# actor")
_ACTOR_NOUNS = (r"(?:party|parties|actors?|sides?|entit(?:y|ies)|groups?|organi[sz]ations?|institutions?|bod(?:y|ies)|"
                r"participants?|persons?|people|individuals?|officials?)")
_ACTOR_NOUN_END_RE = re.compile(rf"\b{_ACTOR_NOUNS}\s*$", re.I)
_ADJ_SCOPE_RE = re.compile(rf"(?P<adj>\b[A-Z][\w'-]+)\s+{_ACTOR_NOUNS}\b")


@functools.lru_cache(maxsize=4096)
def _place_of_adjective(word: str) -> str | None:
    """The place key of a demonym adjective ("Tanzanian" -> TZA), or None."""
    lex = place_lexicon()
    w = word.casefold()
    for key, row in lex.rows.items():
        if any(a.casefold() == w for a in row.adjectives):
            return key
    return None


_SCOPE_GAP_RE = re.compile(r" (?:from|of|in|based in) (?:the )?", re.I)


def _wh_span(masked: str, skip: list[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """The wh-phrase of the main clause. A wh-word inside ``skip`` (an event cue and the
    relative words that open its clause: "during the month *in which* X ...", "before the
    day *on which* X ...") is a relative pronoun of the reference, not the question's."""
    imperative = _NAME_THE_RE.search(masked)
    for m in _WH_PHRASE_RE.finditer(masked):
        if any(a <= m.start("wh") < b for a, b in skip):
            continue
        if imperative and imperative.start() <= m.start("wh") < imperative.end():
            # "Give me everyone who ...", "Name the party that ...": the relative pronoun is part
            # of the imperative head, which plays the wh-phrase's part
            return imperative.span()
        wh = m.group("wh").lower()
        end = m.end("wh")
        noun = m.group("noun")
        if noun and wh in ("which", "what") and noun.split()[0].lower() not in _NOUN_STOP:
            end = m.end("noun")
        c = _WH_COPULA_RE.match(masked, end)
        if c:
            end = c.end()
        return (m.start(), end)
    m = _NAME_THE_RE.search(masked)  # "Name the one (that) ...": an imperative wh-phrase
    if m:
        return m.span()
    m = _HEAD_NP_RE.match(masked)  # "(Tell me) the last party (that) X visited"
    if m:
        return m.span()
    m = _REL_ANCHOR_RE.search(masked)
    if m:
        return m.span()
    return None


_REF_LEAD_RE = re.compile(
    r"\s*(?:(?:than|to)\s+)?(?:the\s+(?:time|day|moment|date|occasion|instance)\s+)?(?:when|that|which|(?:on|in|at|during)\s+which)\b", re.I
)


# blanked name(s) (and "and" / "the"), then "to" + a lower-case word that is not a name
_INFINITIVE_RE = re.compile(r"(?:\s|\band\b|\bthe\b|'s\b)*\s(?P<to>to)\s+(?!the\b)[a-z]+\b")


# a wh-word with no auxiliary after it yet (up to the end of the searched text)
_OPEN_WH_RE = re.compile(
    r"\b(?:who|whom|which|what|when)\b(?:(?!\b(?:did|does|do|was|were|is|are|has|have|had)\b)[^,;])*$", re.I
)
# (the name may follow an article, "did the SANDF cooperate", or be a subject pronoun, "did he
# make statements about X": nlu12)
_INVERTED_AUX_RE = re.compile(
    r"\b(?:did|does|do|was|were|is|are|has|have|had)(?:\s{2,}|\s+(?:the|a|an)\s{2,}|\s+(?:he|she|it|they)\s+)\S", re.I)
_SEQ_CUE_RE = re.compile(rf"(?:[a-z]+\s+)?{SEQ_VERBS}", re.I)
# a causative "have" + a name + a past participle ending the clause: "before the NRM **had
# Ugandans arrested**" -- the subject had it done to the name (NRM arrested Ugandans), no
# inverted auxiliary of the main clause ("did X ... before Y had Z arrested?"), whose
# participle takes an object or a name of its own ("had British citizens last accused Blair")
# (refs23); two coordinated participles are one act ("had Nigerians arrested or charged", refs25)
_CAUSATIVE_RE = re.compile(
    r"(?:had|has|have)\s{3,}(?:[a-z]+ly\s+)?[a-z]+(?:ed|en|wn)(?:\s+(?:or|and)\s+[a-z]+(?:ed|en|wn))?"
    r"(?:\s+(?:again|too|as\s+well))?\s{0,2}(?:[,;?.!]|$)", re.I)


def _cue_leads(masked: str, cues: list[Cue]) -> list[tuple[int, int]]:
    """Each event cue with the relative words that open its clause ("the month in which")."""
    out = []
    for c in cues:
        if c.kind == "event":
            lead = _REF_LEAD_RE.match(masked, c.end)
            out.append((c.start, lead.end() if lead else c.end))
    return out


def _adjacent_subject(masked: str, start: int, end: int, names: list[tuple[int, int]]) -> int | None:
    """Where a new clause starts inside a reference region: a name written right after the
    clause's second name with nothing but spaces between ("before X visited China Wen Jiabao
    made demands of China": the comma is left out, and two names in a row are no one phrase of
    an event; the second is the asked event's subject). None when there is no such pair."""
    inside = sorted(n for n in names if start <= n[0] < end)
    for k in range(1, len(inside) - 1):
        if not masked[inside[k][1] : inside[k + 1][0]].strip() and masked[inside[k][1] : inside[k + 1][0]]:
            return inside[k + 1][0]
    return None


def _apposition_end(masked: str, comma: re.Match, names: list[tuple[int, int]]) -> int | None:
    """Where an apposition ends: the comma found is followed by a name and a second comma,
    then a lower-case word ("the King of Bahrain**, Sheikh Hamad bin Isa al Khalifah,** paid
    a visit to China"): the name renames what precedes it, the clause goes on after it
    (before, the first comma ended the reference and its verb went to the main clause).
    None otherwise (a list "X, Y, and Z" has "and" after the second comma). refs25."""
    if comma.group(0) != ",":
        return None
    for a, b in names:
        if a >= comma.end() and not masked[comma.end() : a].strip():
            after = re.match(r"\s*,\s*(?!and\b|or\b|who\b|whom\b|which\b|what\b|when\b)[a-z]", masked[b:])
            return b + after.end() - 1 if after else None
    return None


def _apposition_head(masked: str, start: int, first: Mention, inside: list[Mention]) -> list[tuple[int, int]]:
    """The words an apposition renames, when a clause opens with them ("before **the King of
    Bahrain,** Sheikh Hamad ..., paid a visit"; "before **Kenya's president,** Mwai Kibaki,
    ..."): a description of the appositive name, no word of the clause's action; [] when the
    clause does not open that way."""
    for m in inside:  # the appositive: the name right after the first comma
        head = masked[start : m.start]
        if re.fullmatch(r"[^,;?.!]*,\s*", head) and re.match(r"\s*,\s*[a-z]", masked[m.end :]):
            return [(start, head.rindex(",") + start + 1)]
    return []


def _ref_region(masked: str, cue: Cue, other_cues: list[Cue], names: list[tuple[int, int]] = ()) -> tuple[int, int]:
    end = len(masked)
    lead = _REF_LEAD_RE.match(masked, cue.end)  # "after the time when X ..." / "earlier than when X"
    if lead and re.search(r"\s{3,}", masked[cue.end : lead.end()]):
        lead = None  # it crossed a blanked name: "after Iran that X praised" has no lead word
    m = _BOUNDARY_RE.search(masked, lead.end() if lead else cue.end)
    app = _apposition_end(masked, m, names) if m else None
    if app is not None:  # "before the King of Bahrain, Sheikh Hamad ..., paid a visit to China"
        m = _BOUNDARY_RE.search(masked, app)
    if m:
        end = m.start()
        # "... prior to Y was who?": the copula before a closing wh-word is the main clause's
        cop = re.search(r"\b(?:was|is|were|are)\s*$", masked[:end], re.I) if m.group(0)[0].isalpha() else None
        if cop and cop.start() > cue.end:
            end = cop.start()
    # "the first after X to visit Y": with only a name between the cue and "to <verb>", the
    # infinitive belongs to the main clause's head ("the first ... to visit Y"), not to X
    inf = _INFINITIVE_RE.match(masked, lead.end() if lead else cue.end)
    if inf and inf.start("to") < end:
        end = inf.start("to")
    # "the first time after X visited Y that Z ...", "the last one before X that Z ...": a cue
    # right after a ranked head is a modifier of that head, and the head's relative clause
    # ("that ...") is the asked event, not part of the reference
    if _RANK_HEAD_END_RE.search(masked, 0, cue.start):
        rel = re.compile(r"\bthat\b", re.I).search(masked, lead.end() if lead else cue.end, end)
        if rel:
            end = rel.start()
    for c in other_cues:
        if cue.end <= c.start < end:
            end = c.start
    if _OPEN_WH_RE.search(masked, 0, cue.start):
        # the reference sits between a fronted wh-phrase and its inverted auxiliary ("At what
        # date after X met Y did Z visit W?"): the auxiliary + a name starts the main clause
        # (the name may run up to the region's end: "had British citizens **last** accused
        # Blair", where the ordinal cue ends the region right after the name; refs21)
        inv = _INVERTED_AUX_RE.search(masked, cue.end)
        if inv and inv.start() < end and not _CAUSATIVE_RE.match(masked, inv.start()):
            end = inv.start()
        # ... or a verb of witnessing in the auxiliary's place, a blanked name and a bare verb
        # after it ("Which months before X broke off relations with Y saw Z praise her?": the
        # time is the subject of "saw", the asked event Z's; refs30)
        saw = _SAW_CLAUSE_RE.search(masked, cue.end)
        if saw and saw.start() < end:
            end = saw.start()
    adj = _adjacent_subject(masked, cue.end, end, list(names))
    if adj is not None:
        end = adj
    if _SEQ_CUE_RE.fullmatch(cue.text):  # "followed X in criticising Y": X alone is the reference
        g = SEQ_GERUND_RE.search(masked, cue.end, end)
        if g:
            end = g.start()
    return (cue.start, end)


_SAW_CLAUSE_RE = re.compile(r"\b(?:saw|sees|see|witnessed)\s{3,}(?:[a-z]+ly\s+)?[a-z]{3,}\b(?!['’])")


_RANK_HEAD_END_RE = re.compile(
    r"\b(?:first|last|earliest|latest|final|initial|most\s+recent|next|previous)"
    r"(?:\s+(?:time|occasion|one|ones|entity|entities|party|parties|country|countries|person|actor|actors|"
    r"organi[sz]ation|group|date|day|month|year))?\s*,?\s*$",
    re.I,
)


# the object of an anaphoric cue ("after that", "earlier than it", "before this event"): blanked
# with the cue when the cue points back to a stated reference (nlu.statement)
# a demonstrative standing alone as an operator's object: "after that", "before this" (not "that
# same day", "that year", nor a demonstrative's noun: "after that visit")
_DEMONSTRATIVE_OBJ_RE = re.compile(r"\s*(?:that|this)\b(?=\s*,?\s*(?:[A-Z]|\s{2,}|$)|\s+(?:did|does|do|had|has|have|was|were|is|are|would|will)\b)")
_ANAPHOR_OBJ_RE = re.compile(r"\s*(?:that|this|then|it|so|which|(?:that|this|the\s+latter|the\s+former)\s+(?:event|one|incident|time))\b", re.I)


def analyze(question: str, matcher: EntityMatcher, embeddings: Any = None) -> QuestionAnalysis:
    """Mentions, cues, answer type/granularity and the clause structure of ``question``.

    A wrapper ("Could you tell me ...", "..., please?") is blanked first (offsets kept): its
    words never become a name, a cue or part of a relation phrase. A sector noun written
    without its country ("... against **the police**") is a name of the question's own
    countries (:func:`context_sectors`): the clauses are read again with it."""
    a = _analyze(question, matcher, embeddings)
    repl = context_institutions(a, matcher)
    extra = context_sectors(a, matcher)
    extra += [c for c in counterpart_mentions(a, matcher) if not any(x.start < c.end and c.start < x.end for x in extra)]
    if not extra and not repl:
        return a
    b = _analyze(question, matcher, embeddings, extra, repl)
    if b.wh_span and any(b.wh_span[0] <= m.start < b.wh_span[1] for m in extra):
        # the noun belongs to the asked phrase after all ("which officials")
        return _analyze(question, matcher, embeddings, (), repl) if repl else a
    return b


def context_institutions(a: QuestionAnalysis, matcher: EntityMatcher) -> list[Mention]:
    """An institution written by its capitalised sector name alone after "the" ("the Human
    Rights Commission", "the Democratic Party"), in a question that names a country, is first
    that country's (names34): ICEWS keeps national bodies as Sector_(Country) actors
    (Human_Rights_Commission_(South_Africa), Democratic_Party_(Nigeria)), and English drops
    the country a question already gave ("after the South African police spoke about the Human
    Rights Commission"), as :func:`context_sectors` reads lower-case sector nouns. The mention's
    own readings (an organisation's actor, an exact name) stay candidates after the country's
    actors, a little lower; the KG's facts decide. Only a name of two words or more that is a
    sector's main form (score 1.0) and no country's actor already, found by the KG's names (not
    by the embedding search: "the Security Council" it reads as a council stays as it was);
    countries the mention itself names do not count."""
    g = matcher.actors
    lex = place_lexicon()
    out: list[Mention] = []
    for m in a.mentions:
        if not m.names or m.source not in ("exact", "actor"):
            continue  # a written name only: not a surname, nor the embedding search's guess ("Security Council")
        d = decompose(m.names[0])
        if d is not None and lex.resolve(d.place) is not None:
            continue  # a country's actor already ("South Africa's Human Rights Commission")
        words = tokenize(m.text)
        det = bool(words) and words[0].norm == "the"
        if det:
            words = words[1:]
        elif not re.search(r"\bthe\s+$", a.question[:m.start], re.I):
            continue
        if len(words) < 2 or not all(t.text[:1].isupper() or t.norm in ("of", "and", "for") for t in words):
            continue
        if not words[0].text[:1].isupper():
            continue
        norms = [t.norm for t in words]
        svals = None
        for send, sv in g._sectors(norms, 0):
            if send == len(norms):
                svals = [(sid, sc) for sid, sc in sv if sid >= 0 and sc >= 1.0]
        if not svals:
            continue
        places = [(pid, at) for pid, at in _question_places(a, g) if not (m.start <= at < m.end)]
        if not places:
            continue
        cands = _place_candidates(g, svals, places, m.start)
        if not cands:
            continue
        low = cands[-1][1] * 0.95
        taken = {e for e, _ in cands}
        cands += [(e, min(sc, low)) for e, _, sc in m.candidates if e not in taken]
        ids = tuple(e for e, _ in cands)
        out.append(Mention(m.text, m.start, m.end, ids, tuple(matcher.names[e] for e in ids), cands[0][1], "actor",
                           tuple(sc for _, sc in cands)))
    return out


# "his Indian counterpart", "their Chinese counterparts", "the Russian counterpart": the same
# sector as an actor the question names, in the country of the adjective (refs26)
_COUNTERPART_RE = re.compile(r"\b(?:his|her|its|their|the)\s+(?P<adj>[A-Z][\w'’-]+)\s+counterparts?\b")


@functools.lru_cache(maxsize=4)
def _actor_index(matcher: EntityMatcher) -> dict[tuple[str, str], int]:
    """(sector, place key) -> the KG actor's id, for every ``Sector_(Place)`` name."""
    lex = place_lexicon()
    out: dict[tuple[str, str], int] = {}
    for i, n in enumerate(matcher.names):
        d = decompose(n)
        key = lex.resolve(d.place) if d is not None else None
        if key is not None:
            out.setdefault((d.sector.casefold(), key), i)
    return out


def counterpart_mentions(a: QuestionAnalysis, matcher: EntityMatcher) -> list[Mention]:
    """Names of "<possessive> <demonym> counterpart(s)" (refs26): English means the holder of
    the same office in the adjective's country ("the Pakistani prime minister negotiated with
    **his Indian counterpart**": ``Head_of_Government_(India)``). The office is the sector of
    the nearest ``Sector_(Place)`` name before it whose place is another country; a KG actor of
    that sector in the adjective's country, else no name (a person's office is not in the KG's
    name)."""
    lex = place_lexicon()
    out: list[Mention] = []
    for m in _COUNTERPART_RE.finditer(a.question):
        if any(x.start < m.end() and m.start() < x.end for x in a.mentions) or any(
                x <= m.start() < y for x, y in a.wrapper):
            continue
        key = _place_of_adjective(m.group("adj"))
        if key is None:
            continue
        for x in sorted((x for x in a.mentions if x.end <= m.start()), key=lambda x: -x.start):
            d = decompose(x.name)
            if d is None or lex.resolve(d.place) in (None, key):
                continue
            eid = _actor_index(matcher).get((d.sector.casefold(), key))
            if eid is not None:
                out.append(Mention(m.group(0), m.start(), m.end(), (eid,), (matcher.names[eid],), CONTEXT_WEIGHT, "actor"))
            break
    return out


# the determiners of a sector noun whose country the context gives: an article, a demonstrative
# or a possessive pronoun ("the police", "an armed gang", "those officials", "their legislature")
_CONTEXT_DETS = {"the", "a", "an", "those", "these", "that", "this", "their", "its", "his", "her"}
# the possessive determiners of :data:`_CONTEXT_DETS`: "its / their own N" is their N
_POSSESSIVE_DETS = {"their", "its", "his", "her"}
# generic actor nouns: the asked phrase's head or no sector of a country ("the party that ...",
# "people linked to X", "the public statement"), never a context sector on their own
_GENERIC_SECTOR_WORDS = {"people", "person", "persons", "individual", "individuals", "party", "parties", "group", "groups",
                         "actor", "actors", "side", "sides", "entity", "entities", "body", "bodies", "participant",
                         "participants", "organisation", "organisations", "organization", "organizations", "public",
                         "institution", "institutions", "country", "countries", "nation", "nations", "state", "states"}
# closed-class words that end a noun phrase (the sector noun is then no modifier of a noun after
# it: "the police arrested", "against the police?", but not "an official complaint")
_NP_END_WORDS = {"and", "or", "but", "that", "who", "whom", "which", "whose", "in", "on", "at", "to", "from", "with", "for",
                 "about", "against", "over", "by", "of", "into", "before", "after", "during", "since", "until", "when",
                 "while", "once", "did", "does", "do", "had", "has", "have", "was", "were", "is", "are", "would", "will",
                 "could", "can", "first", "last", "then", "also", "later", "earlier", "again", "most", "prior",
                 "following", "the", "a", "an", "their", "its", "his", "her", "them", "him", "it", "they", "he", "she"}

_INVERTED_AUX = {"did", "does", "do", "had", "has", "have", "would", "will", "could", "can", "should"}


def context_sectors(a: QuestionAnalysis, matcher: EntityMatcher) -> list[Mention]:
    """Sector nouns without a country, as names of the question's countries (refs15).

    English reads a definite or indefinite sector noun in a question about one country as that
    country's ("After Kenya's president visited Uganda, ... before an Australian lawyer lodged
    a complaint against **the police**": the Australian police; "their legislature" is the
    legislature of the people "they" are). The reading is kept a candidate set: every country
    the question names (an actor's place or a place itself, nearest first), each combined with
    the sector when the KG has that actor; the KG evidence decides between them. Only a
    lower-case sector form after a determiner (or a bare plural: "released officials") whose
    noun phrase ends there (punctuation, a closed-class word or a verb follows), outside names,
    cues, the wrapper and the wh-phrase; generic actor nouns ("the party that ...") are none.
    A sector noun with the place adverb "there" after it ("activists there", "criminals there")
    is one too, with or without a determiner: "there" is a place already named (refs26).
    A sector noun before "of" and a name ("a delegation of the Iraqi Interim Government") is
    none: the named body is the participant (names35)."""
    g = matcher.actors
    places = _question_places(a, g)
    anywhere = not places  # only "his / her <sector>": a person's, of any country (refs24)
    if anywhere:
        places = [(pid, 0) for pid in sorted(set(_grammar_place_ids(g).values()))]
    toks = tokenize(a.question)
    busy = [(m.start, m.end) for m in a.mentions] + list(a.wrapper) + [(c.start, c.end) for c in a.cues]
    if a.wh_span:
        busy.append(a.wh_span)
    free = [not any(x <= t.start < y for x, y in busy) for t in toks]
    norms = [t.norm for t in toks]
    short = _short_spans(a)
    out: list[Mention] = []
    k = 0
    while k < len(toks):
        det = norms[k] in _CONTEXT_DETS and k + 1 < len(toks) and free[k]
        j = k + 1 if det else k
        if det and norms[k] in _POSSESSIVE_DETS and j + 1 < len(toks) and norms[j] == "own" and free[j]:
            j += 1  # "its own foreign ministry": "own" only stresses the possessor (refs19)
        hit = _sector_at(g, toks, norms, free, j)
        # a place adverb after the noun ("after **activists there** criticised the police"):
        # the people of a place the question names, so a name whatever its determiner (refs26)
        there = hit is not None and hit[0] < len(toks) and norms[hit[0]] == "there" and free[hit[0]] and not anywhere
        if hit is None or not (det or there or _bare_name(toks, norms, j, hit[0]) or _short_name(toks, norms, j, hit[0], short)) \
                or (anywhere and not (det and norms[k] in _PERSON_POSSESSIVES)):
            k += 1
            continue
        end, svals = hit
        if there:
            end += 1  # the adverb is the noun phrase's own: "activists there"
        if k and norms[k - 1] in ("which", "what", "whose"):
            k = end
            continue
        if end + 1 < len(toks) and norms[end] == "of" and _names_at(a, toks, end + 1):
            k = end  # "a delegation of the Iraqi Interim Government": the body is named, it is the participant (names35)
            continue
        start_tok = k
        cands = _any_place_candidates(g, svals, places) if anywhere else _place_candidates(g, svals, places, toks[start_tok].start)
        if cands:
            s, e = toks[start_tok].start, toks[end - 1].end
            ids = tuple(x for x, _ in cands)
            out.append(Mention(a.question[s:e], s, e, ids, tuple(matcher.names[x] for x in ids), cands[0][1], "actor",
                               tuple(sc for _, sc in cands)))
        k = end
    return out


def _names_at(a: QuestionAnalysis, toks: list, j: int) -> bool:
    """A mention of the question starts at token ``j`` (after an article there)."""
    if j < len(toks) and toks[j].norm in ("the", "a", "an"):
        j += 1
    return j < len(toks) and any(m.start == toks[j].start for m in a.mentions)


# nothing but relative words between a reference's cue and its name: the name is its subject
_LEAD_ONLY_RE = re.compile(r"(?:[\s,]|\b(?:when|that|which|on|in|at|during|the|time|day|month|year)\b)*", re.I)


def _short_spans(a: QuestionAnalysis) -> list[tuple[int, int]]:
    """Where a bare sector noun is a name whatever its form (refs17): a clause short of a name.
    A time question's asked event needs two names ("When did Thai insurgents last carry out
    a violent attack on **civilians** before ..."), a reference clause with its own verb after
    its one name names the verb's object ("before Thai insurgents carried out mass killings of
    **civilians**", "that a Tanzanian defence lawyer got **criminals** released"), and one
    with its one name after its verb its subject right after the cue ("that **extremists**
    occupied territory in Yemen", refs19): with no
    other name there, the noun ("men", "police", "civilians") is that name, not part of the
    action's wording (the noun is blanked from the relation phrase, which still reads); a
    CAMEO action's own noun right after its verb stays the action's ("mobilised **troops**")."""
    out = []
    if a.answer_type == "time" and len(a.main.mentions) + len(a.main.pronouns) < 2:
        at = 0
        for x, y in sorted(r.span for r in a.refs):
            out.append((at, x))
            at = max(at, y)
        out.append((at, len(a.question)))
    for r in a.refs:
        if len(r.mentions) == 1 and r.cue is not None and _LEAD_ONLY_RE.fullmatch(a.question, r.cue.end, r.mentions[0].start):
            out.append((r.mentions[0].end, r.span[1]))
        elif len(r.mentions) == 1 and r.cue is not None:
            # the mirror (refs19): a reference clause whose one name comes after its verb ("in
            # the same month that **extremists** occupied territory in Yemen") has its subject
            # before the verb, right after the cue and its relative words: a bare sector noun
            # there is that subject, not the first word of the action
            at = _LEAD_ONLY_RE.match(a.question, r.cue.end).end()
            out.append((at, at + 1))
    return out


_PREPOSITIONS = {"on", "against", "with", "to", "at", "from", "about", "toward", "towards", "by"}


def _short_name(toks: list, norms: list[str], j: int, end: int, short: list[tuple[int, int]]) -> bool:
    """A bare sector noun in a clause short of a name (:func:`_short_spans`). After a
    preposition of the patient ("attack on civilians", "fire with police"), an auxiliary
    ("did armed gangs attack") or at the clause's start it is a name; after "of" unless a
    CAMEO relation is named with it ("a change of leadership", "deployment of peacekeepers":
    its theme, against "mass killings of civilians"); right after a verb unless it is a word
    of the actions' phrases ("mobilised troops", against "arrest men")."""
    if not any(x <= toks[j].start < y for x, y in short):
        return False
    prev = norms[j - 1] if j else ""
    words = norms[j:end]
    if prev == "of":
        return not any(x in _action_words(names_only=True) for x in words)
    if not prev or prev in _PREPOSITIONS or prev in _INVERTED_AUX or prev in _CLAUSE_CUES or not prev.isalpha():
        return True
    return not _action_noun_phrase(words)


def _action_noun_phrase(words: list[str]) -> bool:
    """A sector form the actions are written with: its one word is a word of the actions'
    phrases ("troops", "peacekeepers"). In a form of two words or more only the head noun, the
    last word, counts: "opposition figures", "protest leaders" are people, whatever their
    modifier is a word of ("express opposition") (names35)."""
    heads = words[-1:] if len(words) > 1 else words
    return any(x in _action_words() for x in heads)


def _bare_name(toks: list, norms: list[str], j: int, end: int) -> bool:
    """A sector noun without a determiner names actors only as a bare plural that closes its
    clause ("Namibia's election commission released **officials**, ..."); a noun the CAMEO
    actions are written with ("mobilised troops against", "deployment of peacekeepers",
    "military or police power") is part of the action, and a bare plural before more of the
    clause is its theme ("handed over freed detainees to Ugandan citizens")."""
    w = norms[end - 1]
    if not (w.endswith("s") and not w.endswith("ss")) or _action_noun_phrase(norms[j:end]):
        return False
    return end >= len(toks) or not toks[end].norm.isalnum() or toks[end].norm in _CLAUSE_CUES


_CLAUSE_CUES = {"before", "after", "since", "until", "when", "while", "once", "following", "prior"}


@functools.lru_cache(maxsize=2)
def _action_words(names_only: bool = False) -> frozenset[str]:
    """The words of the relation lexicon's CAMEO names and phrases (``relation_lexicon.yaml``);
    with ``names_only`` those of the CAMEO names (the lexicon's keys) alone."""
    from .lexicon import load_data

    words: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if not names_only:
                words.update(re.findall(r"[a-z]+", x.lower().replace("_", " ")))
        elif isinstance(x, dict):
            for k, v in x.items():
                words.update(re.findall(r"[a-z]+", str(k).lower().replace("_", " ")))
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk({k: v for k, v in load_data().items() if k != "light"})
    return frozenset(words)


def action_noun(word: str) -> bool:
    """True when ``word`` (or its singular) is a word of a CAMEO relation's name ("territory",
    "proposal", "demands"): a noun the action is named with, whose possessor is its patient
    ("occupied **his** territory"; SCoP's and TCC-RAG's readings of ``POSSESSIVE_PATIENT_RE``)."""
    w = word.lower()
    names = _action_words(names_only=True)
    return w in names or (w.endswith("s") and w[:-1] in names)


# religion words English capitalises inside a common noun phrase ("Muslim militants", "Christian
# clergy"): a sector form still, though not in lower case (refs18)
_PROPER_ADJECTIVES = {"muslim", "christian", "hindu", "buddhist", "jewish", "catholic", "sunni", "shiite", "shia", "sikh"}


def _sector_at(g: Any, toks: list, norms: list[str], free: list[bool], j: int) -> tuple[int, list] | None:
    """(end token, sector values) of the longest lower-case sector form at token ``j`` whose
    noun phrase ends after it; None when there is none."""
    if j >= len(toks) or not free[j]:
        return None
    best = None
    for send, svals in g._sectors(norms, j):
        if not all(free[x] and (toks[x].text == toks[x].norm or norms[x] in _PROPER_ADJECTIVES) for x in range(j, send)):
            continue
        if send - j == 1 and norms[j] in _GENERIC_SECTOR_WORDS:
            continue
        if best is None or send > best[0]:
            best = (send, svals)
    if best is None:
        return None
    nxt = toks[best[0]] if best[0] < len(toks) else None
    # (after an inverted auxiliary the noun phrase is the subject and a bare verb follows it:
    # "whom did those police arrest")
    start = j - 1 if j and norms[j - 1] in _CONTEXT_DETS else j
    inverted = start > 0 and norms[start - 1] in _INVERTED_AUX
    if nxt is not None and nxt.norm.isalpha() and not inverted and not (
            nxt.norm in _NP_END_WORDS or nxt.norm.endswith("ed") or nxt.norm in _PAST_FORMS or nxt.norm == "there"):
        return None  # a modifier of the noun after it ("an official complaint", "police power")
    return best


def _question_places(a: QuestionAnalysis, g: Any) -> list[tuple[int, int]]:
    """(grammar place id, character offset) of each country the question's names name: an
    actor's place ("Australian citizens": Australia) or a place itself."""
    ids = _grammar_place_ids(g)
    lex = place_lexicon()
    out: list[tuple[int, int]] = []
    for m in a.mentions:
        if not m.names:
            continue
        actor = decompose(m.names[0])
        place = actor.place if actor is not None else m.names[0].replace("_", " ")
        key = lex.resolve(place)
        pid = ids.get(key) if key is not None else None
        if pid is not None and all(pid != p for p, _ in out):
            out.append((pid, m.start))
    return out


@functools.lru_cache(maxsize=4)
def _grammar_place_ids(g: Any) -> dict[str, int]:
    """Place lexicon key -> the actor grammar's place id."""
    lex = place_lexicon()
    out: dict[str, int] = {}
    for pid, p in enumerate(g.place_names):
        key = lex.resolve(p)
        if key is not None:
            out.setdefault(key, pid)
    return out


def _place_candidates(g: Any, svals: list, places: list[tuple[int, int]], at: int) -> list[tuple[int, float]]:
    """The KG actors of a sector in the question's countries, nearest country first (a small
    decay per rank keeps every one a candidate)."""
    order = sorted(places, key=lambda p: abs(p[1] - at))
    out: dict[int, float] = {}
    for rank, (pid, _) in enumerate(order):
        for eid, sc in g._combine(svals, [(pid, "name", False)]).items():
            out.setdefault(eid, sc * CONTEXT_WEIGHT * (1.0 - 0.01 * rank))
    return sorted(out.items(), key=lambda kv: -kv[1])


CONTEXT_WEIGHT = 0.9  # a country taken from the context: a little less sure than a written one
# "his / her": a person's. A question that names a person and no country ("After Roh Moo-hyun
# spoke about **his cabinet**, ...") still means that person's country's cabinet, which the
# names do not tell (a person's KG name has no country): the sector of every country is a
# candidate, all alike, and the KG's facts of the clause decide (SCoP's alignment enumerates
# the person's own facts and keeps those whose other name is a candidate; refs24)
_PERSON_POSSESSIVES = {"his", "her"}
ANY_PLACE_WEIGHT = 0.8


def _any_place_candidates(g: Any, svals: list, places: list[tuple[int, int]]) -> list[tuple[int, float]]:
    """The KG actors of a sector in every country (:data:`_PERSON_POSSESSIVES`), one score."""
    out: dict[int, float] = {}
    for pid, _ in places:
        for eid, sc in g._combine(svals, [(pid, "name", False)]).items():
            out.setdefault(eid, sc * CONTEXT_WEIGHT * ANY_PLACE_WEIGHT)
    return sorted(out.items(), key=lambda kv: (-kv[1], kv[0]))


def _analyze(question: str, matcher: EntityMatcher, embeddings: Any = None, extra: tuple | list = (),
             replace: tuple | list = ()) -> QuestionAnalysis:
    wspans = list(wrapper_spans(question))
    # "Someone visited X on the day Y ... . Who was it?": the bare question at the end only
    # asks who "someone" is; it is blanked like a wrapper and "someone" is the wh-phrase
    tail = _BARE_WH_TAIL_RE.search(question)
    some = _SOMEONE_RE.search(question, 0, tail.start()) if tail else None
    if some:
        wspans.append(tail.span())
    unwrapped = mask_spans(question, wspans) if wspans else question
    mentions = _with_name_prefixes(unwrapped, find_entity_mentions(unwrapped, matcher, embeddings))
    mentions = _with_possessed_names(unwrapped, mentions, matcher)
    mentions = _with_reflexives(unwrapped, mentions)
    mentions = _without_offset_numbers(unwrapped, mentions)
    if replace:  # the same span read again (context_institutions)
        by_span = {(r.start, r.end): r for r in replace}
        mentions = [by_span.get((m.start, m.end), m) for m in mentions]
    if extra:
        mentions = sorted(mentions + [x for x in extra if not any(m.start < x.end and x.start < m.end for m in mentions)],
                          key=lambda m: m.start)
    mentions = _without_anaphoric_descriptions(mentions)
    # "Apart from / other than X, who ...": X is excluded from the answer, no role of the
    # asked event; the phrase is blanked like a wrapper (X usually recurs in the reference)
    excluded = [(e.start(), m.end) for m in mentions for e in [_EXCLUDE_RE.search(unwrapped[: m.start])] if e]
    out_ms = tuple(m for m in mentions if any(a <= m.start < b for a, b in excluded))
    if excluded:
        mentions = [m for m in mentions if m not in out_ms]
        wspans += excluded
        unwrapped = mask_spans(question, wspans)
    spans = [(m.start, m.end) for m in mentions]
    masked = mask_spans(unwrapped, spans)
    cues = [c for c in parse_temporal_cues(masked) if not _asked_time_relative(masked, c)]
    answer_type = infer_answer_type(masked)
    time_level = infer_time_level(masked, cues)
    wh = some.span() if some else _wh_span(masked, _cue_leads(masked, cues))
    scope: list[str] = []
    if wh and answer_type == "entity" and _ACTOR_NOUN_END_RE.search(masked, wh[0], wh[1]):
        # "Which party from Syria ...", "List the last parties from Syria to ...": a place after a
        # generic actor noun of the wh-phrase restricts the answer; it is no slot of the event
        gap = _SCOPE_GAP_RE.match(unwrapped, wh[1])
        if gap:
            m = next((m for m in mentions if m.start == gap.end()), None)
            run = _CAP_RUN_RE.match(question, gap.end()) if m is None else None
            text, end = (m.text, m.end) if m is not None else ((run.group(0), run.end()) if run else ("", 0))
            key = place_lexicon().resolve(text) if text else None
            if key is not None:
                scope = [key]
                mentions = [x for x in mentions if x is not m]
                spans = [(x.start, x.end) for x in mentions]
                masked = mask_spans(unwrapped, spans)
                wh = (wh[0], end)

    head: tuple[int, int] | None = None
    if answer_type == "entity" and not scope:
        # "Which Tanzanian actor ...", "Of all the Ethiopian actors X consulted ..., which ...": a
        # place adjective before the actor noun of the asked phrase restricts the answer
        for m in _ADJ_SCOPE_RE.finditer(unwrapped):
            inside = wh is not None and wh[0] <= m.start("adj") < wh[1]
            if not (inside or re.match(r"\s*(?:of|among|out\s+of)\s+(?:all\s+)?the\s*$", unwrapped[: m.start("adj")], re.I)):
                continue
            key = _place_of_adjective(m.group("adj"))
            if key is None:
                continue
            scope = [key]
            a, b = m.span("adj")
            if not inside:
                head = (0, m.end())  # "Of all the Ethiopian actors": no part of the relation phrase
            mentions = [x for x in mentions if not (x.start < b and a < x.end)]
            masked = mask_spans(unwrapped, [(x.start, x.end) for x in mentions])
            break

    # reference clauses: an event cue followed (within its clause) by at least one name
    refs: list[Clause] = []
    ref_spans: list[tuple[int, int]] = []
    for c in cues:
        if c.kind != "event":
            continue
        a, b = _ref_region(masked, c, [x for x in cues if x is not c], spans)
        inside = [m for m in mentions if a <= m.start < b]
        if not inside:
            continue
        # the relative words that open the clause ("after the occasion when X ...") are no part
        # of its action
        lead = _REF_LEAD_RE.match(masked, c.end)
        skip = lead.end() if lead and not re.search(r"\s{3,}", masked[c.end : lead.end()]) else c.end
        title = _apposition_head(masked, skip, next((m for m in inside if m.start >= skip), inside[0]), inside)
        if title:  # a name the apposition renames is that same participant: the appositive stays
            inside = [m for m in inside if not title[0][0] <= m.start < title[0][1]]
        text = mask_spans(question[:b], spans + wspans + [(x.start, x.end) for x in cues] + title)[skip:]
        refs.append(Clause(inside, relation_phrase(text, keep_particle=True), cue=c, span=(a, b)))
        ref_spans.append((a, b))

    if answer_type == "time":
        _gerund_refs(question, masked, mentions, spans + wspans, cues, refs, ref_spans)
        _pronoun_refs(question, masked, mentions, spans + wspans, cues, refs, ref_spans)
    cues = _statement_ref(question, masked, mentions, spans + wspans, cues, refs, ref_spans)
    # "after X's visit to Y on 11 November 2008", "after X visited Y in May 2010": a date right
    # after a full reference event dates that event (its names already find it), not the asked one
    dated = [c for c in cues if c.kind == "time" and c.op == "equal" and any(
        len(r.mentions) >= 2 and r.cue is not None and r.span[0] < c.start and not masked[r.span[1] : c.start].strip()
        for r in refs)]
    if dated:
        cues = [c for c in cues if c not in dated]
        ref_spans += [(c.start, c.end) for c in dated]  # blanked with the reference

    main_mentions = [m for m in mentions if not any(a <= m.start < b for a, b in ref_spans)]
    blank = spans + wspans + [(c.start, c.end) for c in cues] + ref_spans + ([head] if head else [])
    if wh:  # a preposition before the wh-word stays with the verb ("called on whom")
        p = re.match(r"(?:with|to|for|from|against|by|of|on|at|in|about)\s+", masked[wh[0] : wh[1]], re.I)
        blank.append((wh[0] + p.end(), wh[1]) if p else wh)
    if answer_type == "time" and (th := _OPEN_TIME_HEAD_RE.match(masked)):
        blank.append(th.span())  # "List all the days (when ...)": the asked phrase, no action word
    main_text = mask_spans(question, blank)
    phrase = relation_phrase(main_text, keep_particle=True)
    if refs and SAME_ACTION_RE.search(main_text):
        # "whom had they last threatened that way?", "with whom did X next express such a
        # wish?": the main clause names the reference's action by an anaphor; its action is the
        # reference's own phrase (nlu10)
        own = next((r.phrase for r in refs if r.phrase and not SAME_ACTION_RE.search(r.phrase)
                    and len(r.phrase.split()) > len(phrase.split())), None)
        if own:
            phrase = own
    main = Clause(main_mentions, phrase, span=(0, len(question)))
    if answer_type == "entity" and main_mentions:
        # the reference clauses are no part of the main clause's word order ("Who was the
        # first, after Iran, that X praised?": "was the first ... that X" asks the object)
        # (a fronted head "Of all the Ethiopian actors (that) ..." plays the wh-phrase's part)
        main.open_slot = _open_slot(mask_spans(masked, ref_spans), (head[1] - 1, head[1]) if head else wh, main_mentions[0])
    elif answer_type == "entity" and refs:
        pro = _main_pronoun(masked, blank)
        if pro is None:
            pro = _role_possessive(masked, blank)
        desc = _main_description(masked, blank) if pro is None else None
        if desc is not None:
            # "..., who did **the paper** first make a statement about?": the description is
            # the main clause's subject, a pronoun's part, and no word of its action (refs21)
            pro, main.phrase = desc, relation_phrase(mask_spans(question, blank + [desc]), keep_particle=True)
        if pro is not None and _action_noun_pronoun(question, pro, refs[0]):
            # "..., who was the last to demand **them**?": the talks; the main clause is a
            # pro-form of the reference's own action (its verb and noun)
            pro, main.phrase = None, refs[0].phrase
        if pro is not None:
            main.pronoun = pro
            main.open_slot = _open_slot(mask_spans(masked, ref_spans), wh, Mention(masked[pro[0] : pro[1]], pro[0], pro[1], (), ()))
            main.antecedent = _main_antecedent(question, question[pro[0] : pro[1]], main.open_slot, refs[0])
    elif answer_type == "time" and refs and len(main_mentions) == 1 and len(refs[0].mentions) >= 2 and (
            rep := _repeated_head(question, masked, blank, main_mentions[0], refs[0].mentions)) is not None:
        # "In the year X made a statement about protesters in India, in which months did Y
        # fight **protesters** with small arms?": the bare repeat of a reference name's head
        # noun is that name, the asked event's second participant and no word of its action
        main.mentions = sorted(main_mentions + [rep], key=lambda m: m.start)
        main.phrase = relation_phrase(mask_spans(question, blank + [(rep.start, rep.end)]), keep_particle=True)
    elif answer_type == "time" and refs and len(main_mentions) < 2 and len(refs[0].mentions) >= 2:
        words = frozenset().union(*(features(m.text, m.name).words for m in refs[0].mentions))
        main.pronouns = tuple(_main_pronouns(masked, blank, pro_verb=True, words=words)[: 2 - len(main_mentions)])
        descs = [p for p in main.pronouns if _MAIN_DESC_ANY_RE.fullmatch(question[p[0] : p[1]])]
        if descs:  # the description is a name's part, no word of the asked action (refs22)
            main.phrase = relation_phrase(mask_spans(question, blank + descs), keep_particle=True)
    if answer_type == "entity" and refs and (own := _pro_object_action(question, main, refs[0])):
        main.phrase = own
    if answer_type == "entity":
        _stated_pro_form(question, masked, wh, main, refs)
    return QuestionAnalysis(question, mentions, cues, answer_type, time_level, main, refs, wh, tuple(wspans),
                            answer_scope=scope, excluded=out_ms)


# a reference clause of a gerund with an object pronoun and no name: "(after) demanding
# material cooperation from **it**", "(before) quietly rejecting them"
_GERUND_HEAD_RE = re.compile(r"\s*(?:[a-z]+ly\s+)?[a-z]{2,}ing\b", re.I)
_GERUND_PRONOUN_RE = re.compile(r"\b(?:it|them|him|her)\b", re.I)


_REFLEXIVE_RE = re.compile(r"\b(?:himself|herself|itself|themselves)\b", re.I)
_REFLEXIVE_GAP_STOP_RE = re.compile(r"[,;:]|\b(?:after|before|since|until|when|while|once|and|or|but|that|who|which)\b", re.I)


def _with_reflexives(text: str, mentions: list[Mention]) -> list[Mention]:
    """A reflexive object ("after José Dirceu accused himself", "when the ministry criticised
    itself") is the clause's own subject again (names35): the name written nearest before it in
    its clause gets a second mention over the reflexive word, so the clause has its two
    participants. Not right after the name (emphatic: "Sall himself visited"), nor after "by"
    ("by himself" is alone) or a pro-verb's "so" / "too" ("before X did so themselves": emphatic
    again), nor across a comma, a clause cue or a relative or conjunction."""
    if not mentions:
        return mentions
    extra: list[Mention] = []
    for r in _REFLEXIVE_RE.finditer(text):
        if any(m.start < r.end() and r.start() < m.end for m in mentions):
            continue
        before = [m for m in mentions if m.end <= r.start()]
        if not before:
            continue
        m = before[-1]
        gap = text[m.end:r.start()]
        words = gap.split()
        if not words or _REFLEXIVE_GAP_STOP_RE.search(gap) or words[-1].lower() in ("by", "so", "too", "likewise"):
            continue
        extra.append(Mention(r.group(0), r.start(), r.end(), m.entity_ids, m.names, m.score, m.source, m.scores))
    return sorted(mentions + extra, key=lambda m: m.start) if extra else mentions


def _without_offset_numbers(text: str, mentions: list[Mention]) -> list[Mention]:
    """The mentions without a number word that counts an offset's unit ("One day after X ...",
    "Two weeks before ..."): a capitalised number opening the question is no name (Radio_One),
    the offset cue reads it (refs31)."""
    nums = [m.span("n") for m in _OFFSET_RE.finditer(text) if not m.group("n").isdigit()]
    if not nums:
        return mentions
    return [m for m in mentions if not any(a <= m.start and m.end <= b for a, b in nums)]


def _without_anaphoric_descriptions(mentions: list[Mention]) -> list[Mention]:
    """The mentions without a sector-actor reading of a bare definite description ("the
    paper", "the party") that agrees by a word of its own (nlu's agreement, 2) with a plain KG
    name written before it: "Whom did the Daily Trust consult in the year that X made an appeal
    to **the paper**?" -- the paper is the Daily Trust, not some country's Newspaper actor; the
    methods read the description as that name's anaphor (refs31)."""
    out = []
    for k, m in enumerate(mentions):
        d = DESCRIPTION_RE.fullmatch(m.text.strip())
        if d and m.source == "actor" and m.text[:1].islower() and any(
                n.names and not features(n.text, n.names[0]).actor
                and agreement(m.text.strip(), features(n.text, n.names[0])) >= 2 for n in mentions[:k]):
            continue
        out.append(m)
    return out


def _free_event_cues(masked: str, mentions: list[Mention], cues: list[Cue], refs: list, taken: list[Mention]):
    """(cue, region start, region end) of each event cue after the main clause's two names
    ``taken`` that has no reference clause yet: the candidates of a name-less reference
    clause (:func:`_gerund_refs`, :func:`_pronoun_refs`)."""
    for c in cues:
        if c.kind != "event" or any(r.cue is c for r in refs) or c.start < taken[1].end:
            continue
        a, b = _ref_region(masked, c, [x for x in cues if x is not c], [(m.start, m.end) for m in mentions])
        yield c, a, b


def _gerund_refs(question: str, masked: str, mentions: list[Mention], blanks: list[tuple[int, int]], cues: list[Cue],
                 refs: list[Clause], ref_spans: list[tuple[int, int]]) -> None:
    """Add a time question's reference clause made of an event cue, a gerund and an object
    pronoun, with no name ("In which month did South Korea first say it wanted to meet China
    after demanding material cooperation from **it**?"). English gives a subjectless gerund
    adjunct the main clause's subject (South Korea), and the pronoun, which is no reflexive,
    stands for the main clause's other name when it agrees with it (China); the clause is
    then a full event of those two names with its own verb, and no part of the asked
    action's phrase (before, the two clauses merged into one phrase). refs22."""
    taken = [m for m in mentions if not any(a <= m.start < b for a, b in ref_spans)]
    if len(taken) != 2:
        return
    for c, a, b in _free_event_cues(masked, mentions, cues, refs, taken):
        pro = _GERUND_PRONOUN_RE.search(masked, c.end, b)
        if any(a <= m.start < b for m in mentions) or not _GERUND_HEAD_RE.match(masked, c.end) or pro is None:
            continue
        if antecedent(pro.group(0), [(taken[1].text, taken[1].name)]) is None:
            continue
        text = mask_spans(question[:b], blanks + [(x.start, x.end) for x in cues] + [pro.span()])[c.end :]
        refs.append(Clause(list(taken), relation_phrase(text, keep_particle=True), cue=c, span=(a, b)))
        ref_spans.append((a, b))
        return


# the asked phrase of an embedded time question in the plural, "(Tell me) the months / all the
# days / which years", "List the days", opening the (unwrapped) question
# the opening of an asked time noun phrase: an imperative and a determiner ("List all (of) the",
# "which", "every"), shared by the three patterns below
_TIME_HEAD_LEAD = (r"^\s*(?:(?:list|name|give|show|state|find)\s+(?:me\s+)?)?"
                   r"(?:(?:the|which|what|all(?:\s+(?:of\s+)?the)?|every|each)\s+)?")
_PLURAL_TIME_HEAD_RE = re.compile(
    _TIME_HEAD_LEAD + r"(?:(?:exact|specific|precise|particular|calendar)\s+)?"
    r"(?:years|months|days|dates|times)\s*$", re.I)


# the asked time noun phrase opening a time question, with its imperative and its determiners
# ("List all the days", "all of the months", "every year", "the exact date"): it asks, it names no
# part of the action (before, "all the" of "List all the days when ..." entered the relation
# phrase, refs26)
_OPEN_TIME_HEAD_RE = re.compile(
    _TIME_HEAD_LEAD +
    r"(?:(?:exact|specific|precise|particular|calendar)\s+)*(?:years?|months?|days?|dates?)\b", re.I)
# ... or a singular or plural time noun with a same-unit reference between commas before the
# "when" ("(Could you give me) the exact day, in the year X commented on Y, when Z ...", refs26)
_INTERPOSED_HEAD_RE = re.compile(
    _TIME_HEAD_LEAD +
    r"(?:(?:exact|specific|precise|particular|calendar|first|last|earliest|latest)\s+)*(?:years?|months?|days?|dates?)"
    rf"{INTERPOSED_REF}\s*$", re.I)


def _asked_time_relative(masked: str, c: Cue) -> bool:
    """True for a "when" right after the plural time noun that opens the question ("Tell me the
    months **when** X did Y, in the year Z did W"): the relative of the asked phrase, which
    heads the asked clause as in "the month when X ..." (a singular noun is no cue already),
    not a reference clause of its own (before, the main clause was left empty). refs25."""
    return c.kind == "event" and c.text.casefold() == "when" and bool(
        _PLURAL_TIME_HEAD_RE.match(masked[: c.start]) or _INTERPOSED_HEAD_RE.match(masked[: c.start]))


def _repeated_head(question: str, masked: str, blank: list[tuple[int, int]], own: Mention,
                   ref_names: list[Mention]) -> Mention | None:
    """A reference name repeated in the main clause by its bare plural head noun ("protesters
    in India" ... "fight **protesters**"; "Kenyan activists" ... "activists"), as a copy of
    that name placed at the noun (so word order gives its slot); None when there is no such
    word, or it repeats the main clause's own name, or more than one reference name has that
    head. English repeats a bare plural for a group named before; the restrictor ("in India",
    "Kenyan") is not said again. refs25."""
    heads: dict[str, list[Mention]] = {}
    for m in ref_names:
        words = re.findall(r"[a-z]+", m.text)  # lower-case words only: no name's own words
        head = next((w for w in words if w.endswith("s") and len(w) > 3), None)
        if head is not None and len(m.text.split()) > 1:
            heads.setdefault(head, []).append(m)
    own_words = set(re.findall(r"[a-z]+", own.text))
    for w, ms in heads.items():
        if len(ms) != 1 or w in own_words:
            continue
        for hit in re.finditer(rf"(?<![\w'’-]){w}\b(?!\s*['’])", masked):
            if not any(a <= hit.start() < b for a, b in blank) and not re.search(r"\b(?:the|a|an|these|those|its|their)\s+$", masked[: hit.start()], re.I):
                return dc_replace(ms[0], start=hit.start(), end=hit.end())
    return None


def _pronoun_refs(question: str, masked: str, mentions: list[Mention], blanks: list[tuple[int, int]], cues: list[Cue],
                  refs: list[Clause], ref_spans: list[tuple[int, int]]) -> None:
    """Add a time question's reference clause made of an event cue, a subject pronoun, a verb
    and an object pronoun, with no name ("In which year did X's citizens first appeal to their
    government after **it** imposed sanctions on **them**?"). Each pronoun stands for one of
    the main clause's two names, the one it agrees with (nlu's agreement: "it" is no group of
    people, "them" no country); the clause is then a full event of those names with its own
    verb, and no part of the asked action's phrase. Two pronouns of one form ("they ...
    them") are left alone: agreement cannot tell them apart. A plural demonym may open the
    clause instead of the subject pronoun ("the same day **the Italians** hosted them"): the
    name of that country (:func:`_demonym_antecedent`). refs25."""
    taken = [m for m in mentions if not any(a <= m.start < b for a, b in ref_spans)]
    if len(taken) != 2:
        return
    for c, a, b in _free_event_cues(masked, mentions, cues, refs, taken):
        if any(a <= m.start < b for m in mentions):
            continue
        subj = SUBJECT_PRONOUN_RE.match(masked, c.end, b)
        dem = _LEAD_DEMONYM_RE.match(masked, c.end, b) if subj is None else None
        if subj is None and dem is None or subj is not None and not re.fullmatch(r"he|she|it|they", subj.group(1), re.I):
            continue
        lead = subj or dem
        obj = OBJECT_PRONOUN_RE.search(masked, lead.end(), b)
        if obj is None or not re.fullmatch(r"it|them|him|her", obj.group(1), re.I):
            continue
        if subj is not None and _PRONOUN_FORM.get(subj.group(1).casefold()) == _PRONOUN_FORM.get(obj.group(1).casefold()):
            continue
        k = antecedent(subj.group(1), [(m.text, m.name) for m in taken]) if subj else _demonym_antecedent(dem.group(1), taken)
        if k is None or antecedent(obj.group(1), [(taken[1 - k].text, taken[1 - k].name)]) is None:
            continue
        text = mask_spans(question[:b], blanks + [(x.start, x.end) for x in cues] + [lead.span(1), obj.span(1)])[c.end :]
        refs.append(Clause([taken[k], taken[1 - k]], relation_phrase(text, keep_particle=True), cue=c, span=(a, b)))
        ref_spans.append((a, b))
        return


# a plural demonym opening a clause, "(the same day) the Italians (hosted them)": a description of
# one of the main clause's names by its country (the KG has no Italy, only Italy's actors)
_LEAD_DEMONYM_RE = re.compile(r"\s*(?:(?:that|when|in\s+which|on\s+which)\s+)?the\s+((?-i:[A-Z][a-z]+))\b", re.I)


def _demonym_antecedent(word: str, taken: list[Mention]) -> int | None:
    """The index of the one name in ``taken`` whose country the demonym ``word`` names
    ("Italians" / "the French": an actor ``Sector_(Italy)``); None when no name or more than
    one is of that country, or the word is no demonym."""
    key = _place_of_adjective(word) or (_place_of_adjective(word[:-1]) if word.endswith("s") else None)
    if key is None:
        return None
    lex = place_lexicon()
    hits = [k for k, m in enumerate(taken) if m.names and (a := decompose(m.names[0])) is not None and lex.resolve(a.place) == key]
    return hits[0] if len(hits) == 1 else None


# a pronoun's referent form: "they" and "them" are one (the same referent class)
_PRONOUN_FORM = {"he": "m", "him": "m", "she": "f", "her": "f", "it": "it", "they": "they", "them": "they"}


_NAME_WORD_RE = re.compile(r"[^\W_]+")


def _with_name_prefixes(text: str, mentions: list[Mention]) -> list[Mention]:
    """Mentions widened over the leading words of their own KG name written right before them
    ("the **Office of the** UN High Commissioner for Human Rights" is
    Office_of_the_United_Nations_High_Commissioner_for_Human_Rights, matched from "UN ...").
    Left outside, those words read as the clause's subject ("who did the Office of the X
    comment about" asked the subject) and as words of its action. Only a plain KG name's
    prefix of up to four words, the longest written, and only when the surface lacks it
    (refs22)."""
    out = []
    for m in mentions:
        words = _NAME_WORD_RE.findall(m.name) if m.name and "(" not in m.name else []
        for k in range(min(4, len(words) - 1), 0, -1):
            lead = r"\s+".join(map(re.escape, words[:k]))
            w = re.search(rf"\b{lead}\s+$", text[: m.start], re.I)
            if w and not re.match(lead, m.text, re.I) and text[w.start()].isupper():
                m = dc_replace(m, text=text[w.start() : m.end], start=w.start())
                break
        out.append(m)
    return out


# a possessive pronoun + a capitalised run no mention covers: "Japan offered aid to **its
# Self-Defense Forces**" (refs23)
_POSSESSED_RUN_RE = re.compile(r"\b(?P<pro>its|their|his|her)\s+(?P<run>[A-Z][\w'’-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'’-]*)*)")


def _with_possessed_names(text: str, mentions: list[Mention], matcher: EntityMatcher) -> list[Mention]:
    """Mentions plus the KG name of a possessive pronoun's capitalised noun phrase that the KG
    writes with its possessor's name in front ("its Self-Defense Forces" after Japan is
    Japan_Self-Defense_Forces; the KG names an institution of a country or group
    "<Possessor>_<Name>": Japan_Red_Army, Kuwait_Investment_Authority). The possessor is a name
    written earlier that the pronoun agrees with (nlu.anaphora), the nearest first, and only
    a plain KG name with that exact composed name counts; the mention covers the pronoun,
    which would otherwise be read as another slot of the event (refs23)."""
    out = list(mentions)
    for r in _POSSESSED_RUN_RE.finditer(text):
        if any(m.start < r.end() and r.start() < m.end for m in out):
            continue
        before = [m for m in reversed(mentions) if m.end <= r.start() and m.name and "(" not in m.name]
        found = [(m, tuple(matcher.by_norm.get(norm_tokens(f"{m.name} {r.group('run')}"), ()))) for m in before]
        found = [(m, ids) for m, ids in found if len(ids) == 1]
        k = antecedent(r.group("pro"), [(m.text, m.name) for m, _ in found]) if found else None
        if k is not None:
            ids = found[k][1]
            out.append(Mention(text=r.group(0), start=r.start(), end=r.end(), entity_ids=ids,
                               names=(matcher.names[ids[0]],)))
    return sorted(out, key=lambda m: m.start)


_SENTENCE_END_RE = re.compile(r"[.;:!?](?=\s+\S)")
# an anaphor of manner or an event noun of the same kind standing for the reference's action:
# "(in) that way", "the same way", "such a wish", "that intention" (nlu10); "that intent",
# "such aid": the kind of act the reference names (refs30)
SAME_ACTION_RE = re.compile(
    r"\b(?:(?:in\s+)?(?:that|this|the\s+same|a\s+similar)\s+(?:way|manner|fashion)"
    r"|such\s+(?:an?\s+)?(?:wish|intention|intent|desire|willingness|readiness|offer|request|appeal|threat|demand|promise|pledge|visit|statement|criticism|accusation|praise"
    r"|aid|assistance|support|cooperation)"
    r"|(?:that|this|the\s+same)\s+(?:wish|intention|intent|desire|willingness|readiness|offer|request|appeal|promise|pledge|aid|assistance)"
    r"(?!\s+(?:to|of|for|with)\b))\b",
    re.I,
)
_PRO_VERB_RE = re.compile(r"\b(?:do|does|did|done|doing)\s+(?:so|the\s+same|likewise|it)\b|\bfollow(?:ed)?\s+suit\b", re.I)


def _stated_pro_form(question: str, masked: str, wh: tuple[int, int] | None, main: Clause, refs: list[Clause]) -> None:
    """"X rejected Y. Who was the first to do so after X?": the question sentence repeats the
    stated event with a pro-form and names only its reference, a bare actor that is the
    statement's doer (or patient). The statement's other name stays the asked event's, and the
    wh-phrase asks the reference's role (the parallel reading of the bare reference)."""
    if len(refs) != 1 or len(refs[0].mentions) != 1 or len(main.mentions) != 2 or wh is None:
        return
    end = _SENTENCE_END_RE.search(masked, 0, wh[0] + 1)
    if end is None or not all(m.end <= end.start() for m in main.mentions):
        return
    if not _PRO_VERB_RE.search(masked, end.end()):
        return
    ref = refs[0].mentions[0]
    same = [k for k, m in enumerate(main.mentions) if fold(m.text) == fold(ref.text) or (m.entity_ids and m.entity_ids[:1] == ref.entity_ids[:1])]
    if len(same) != 1:
        return
    agent_first = not passive_agent_first(question[: end.start()], main.mentions)
    k = same[0]
    main.open_slot = "subject" if (k == 0) == agent_first else "object"
    main.mentions = [m for j, m in enumerate(main.mentions) if j != k]
    if not agent_first:  # the roles are read here: the passive's "by" is no part of the action
        main.phrase = re.sub(r"\s+by$", "", main.phrase)


# a personal pronoun of the main clause; not the dummy "it" of a cleft ("was it (the one) that")
_PRONOUN_RE = re.compile(r"\b(?:they|he|she|it|them|him|her)\b(?!\s+(?:that|who|which)\b)", re.I)
# a place adverb ending the asked clause stands for a country of the reference ("Before X
# visited Colombia, when had Z last gone **there**?": Colombia), as in a reference clause
# (nlu's COUNTRY_ANAPHOR_RE, refs18); a time question's pro-form (refs21)
_THERE_RE = PLACE_ADVERB_RE


def _main_pronoun(masked: str, blank: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The first personal pronoun outside names, cues, reference clauses and the wh-phrase.
    In a main clause without names it stands for a name of the reference clause: as the
    subject ("whom did they visit first") it is the reference's doer and the wh-phrase asks the
    object; as the object ("the first to visit it") the wh-phrase asks the subject."""
    found = _main_pronouns(masked, blank)
    return found[0] if found else None


# what follows the object "it" of a pro-verb: the clause ends, or a cue / adverb does
_PRO_VERB_END_RE = re.compile(
    r"\s*(?:(?:first|last|again|too|also|ever|once|so)\s+)*(?:[?.,;!]|$|(?:before|after|in|on|during|since|until|prior|following|when)\b)", re.I)


# a definite description anywhere in a time question's asked clause ("did Egyptian officials
# negotiate with **the Fund**?"), in either case: a capitalised head is taken only where it is
# a word of a reference name's own (the IMF's "fund"), so no name of its own slips in (refs22)
_MAIN_DESC_ANY_RE = re.compile(r"\b(?:the|that|this)\s+(?P<noun>[A-Za-z][a-z]{2,})\b(?!\s*['’]s?\b|\s+of\b)", re.I)


# an adjective predicate with its preposition stranded at the clause's end after an inverted
# "was it": "(whom else) was it **pessimistic about**?"; "it" is then the subject, no cleft's
# dummy ("who was it that ...", "who was it X visited") (refs30)
_STRANDED_PREDICATE_RE = re.compile(
    r"\s+(?:(?:most|more|very|so|also|again|first|last|next|ever)\s+)?(?!that\b|who\b|which\b)[a-z]{3,}\s+"
    r"(?:about|of|with|to|toward|towards|at|on|for|against)\s*(?:[?.!,;]|$)")


def _main_pronouns(masked: str, blank: list[tuple[int, int]], pro_verb: bool = False,
                   words: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """The personal pronouns outside names, cues, reference clauses and the wh-phrase, in
    order; not a cleft's dummy "it" ("who was it ..."), nor with ``pro_verb`` the "it" of a
    pro-verb ("when did X last do it": the action, no name). With ``pro_verb``, also a
    clause-final "there" and a definite description whose noun is one of ``words`` (the
    reference names' own words: "the Fund" for the IMF, :data:`_MAIN_DESC_ANY_RE`)."""
    out = []
    for m in _PRONOUN_RE.finditer(masked):
        if any(a <= m.start() < b for a, b in blank):
            continue
        if m.group(0).lower() == "it" and re.search(r"\b(?:was|is|were|are)\s+$", masked[: m.start()], re.I) \
                and not _STRANDED_PREDICATE_RE.match(masked, m.end()):
            continue  # "who was it ...": a cleft's dummy subject (not "whom was it pessimistic about?")
        if pro_verb and m.group(0).lower() == "it" and re.search(r"\b(?:do|does|did|done|doing)\s+$", masked[: m.start()], re.I) \
                and _PRO_VERB_END_RE.match(masked, m.end()):
            continue  # "when did X last do it (before ...)?": the action (not "did it first visit")
        out.append(m.span())
    if pro_verb:  # (a time question's asked event: "when had Z last gone there?")
        out += [m.span() for m in _THERE_RE.finditer(masked) if not any(a <= m.start() < b for a, b in blank)]
        out += [m.span() for m in _MAIN_DESC_ANY_RE.finditer(masked) if m.group("noun").casefold() in words
                and not any(a < m.end() and m.start() < b for a, b in blank)]
        out.sort()
    return out


# a definite description as the subject of an inverted main clause ("who did **the paper**
# first make a statement about?", "whom had the ministry last ..."): lower case, so no name,
# and no possessor or head of a longer noun phrase (nlu's DESCRIPTION_RE)
_MAIN_DESCRIPTION_RE = re.compile(rf"\b(?:did|does|do|had|has|have|would|will|could)\s+(?P<desc>{DESCRIPTION_RE.pattern})", re.I)


# words after "did the" that are no description of a name: a pro-form ("did the same"), a
# rank or pronoun-like word ("the latter", "the first", "the one")
_NO_DESCRIPTION = _AUX | {"same", "latter", "former", "other", "one", "ones", "next", "previous", "rest"}


def _main_description(masked: str, blank: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The span of a main clause's definite-description subject outside names, cues and
    reference clauses, or None. In a main clause without names it stands for a name of the
    reference as a subject pronoun would (refs21: English refers back to "Haaretz" as "the
    paper", to the IMF as "the fund"); :func:`_main_antecedent` picks the name, one with the
    noun among its own words first (nlu's agreement), else the reference's doer."""
    for m in _MAIN_DESCRIPTION_RE.finditer(masked):
        if not any(a < m.end() and m.start() < b for a, b in blank) and m.group("noun").lower() not in _NO_DESCRIPTION:
            return m.span("desc")
    return None


def _action_noun_pronoun(question: str, pro: tuple[int, int], ref: Clause) -> bool:
    """True when a main-clause "them" after a verb stands for the plural noun that verb has in
    the reference's own phrase, not for a name ("Before a US envoy demanded talks with Iran,
    who was the last to demand **them**?": the talks; refs18): the main clause then repeats
    the reference's action on its object."""
    if question[pro[0] : pro[1]].lower() != "them":
        return False
    verb = re.search(r"([a-z]+)\s+$", question[: pro[0]].lower())
    words = (ref.phrase or "").lower().split()
    return verb is not None and any(
        stem(w) == stem(verb.group(1)) and plural_surface(n) for w, n in zip(words, words[1:]))


# the asked clause closing on its verb and a pro-form object, with at most a preposition after
# it: "... had X last pledged **it**?", "... the next person he said **that** about?" (next29)
_PRO_OBJECT_END_RE = re.compile(r"\b(?P<v>[a-z]+)\s+(?P<p>it|that|this)(?:\s+(?:to|with|for|from|about|on|against|of|at))?\s*[?.!]?\s*$", re.I)
_NO_PRO_OBJECT_VERB = frozenset({"was", "were", "is", "are", "be", "been", "did", "do", "does", "has", "have", "had",
                                 "after", "before", "following", "like", "than", "about", "of", "to", "with", "in", "on"})
# a reporting verb whose demonstrative object is the reference's statement ("said that about")
_REPORT_VERBS = frozenset({"say", "said", "says", "state", "stated", "express", "expressed", "voice", "voiced",
                           "announce", "announced", "declare", "declared"})


def _pro_object_action(question: str, main: Clause, ref: Clause) -> str | None:
    """The reference's own phrase when the asked clause's object is a pro-form of the
    reference's action rather than a name: the main clause has its doer already (a name or a
    subject pronoun) and the wh-phrase asks the other role, so a closing "it / that / this"
    after the verb is the thing the reference did ("Before pledging humanitarian aid to X, to
    whom had Y last pledged **it**?": the same verb, the aid) or, after a reporting verb, what
    it said ("After X expressed his intent to work with Y, who was the next person he **said
    that** about?"). None otherwise (next29)."""
    if not ref.phrase or not (main.mentions or main.pronoun is not None) or main.open_slot != "object":
        return None
    m = _PRO_OBJECT_END_RE.search(question)
    if m is None or m.start() < ref.span[1] or (main.pronoun is not None and main.pronoun[0] == m.start("p")):
        return None
    if any(x.start < m.end("p") and m.start("p") < x.end for x in main.mentions):
        return None
    verb = m.group("v").lower()
    if verb in _NO_PRO_OBJECT_VERB:
        return None
    words = ref.phrase.lower().split()
    if any(stem(w) == stem(verb) for w in words) or (verb in _REPORT_VERBS and m.group("p").lower() != "it"):
        return ref.phrase
    return None


# the ordinal of a series: "next" / "previous" rank the asked event within the reference's own
# series of events ("whom did X negotiate with next, following his talks with Y"); "first after"
# orders any action after it (next29; shared by SCoP's alignment and TCC-RAG, tccrag23)
SERIES_RE = re.compile(r"\b(?:next|previous)\b", re.I)
SERIES_REL_MIN = 0.5  # a reference phrase's best relation score at or above this (SCoP's SHARE_REL_MIN)
SERIES_MARGIN = 0.25  # a near reading: within this of the phrase's best (SCoP's SHARE_MARGIN)


def ranked_series(a: "QuestionAnalysis") -> bool:
    """True when an entity question ranks the asked events with "next" / "previous" after /
    before a reference event (a series: after_first / before_last). "First after" orders any
    action after the reference, so it keeps the reference's own reading (d13-0002, d17-0070;
    next29, moved here from SCoP's alignment by tccrag23)."""
    o = a.ordinal
    return (o is not None and bool(SERIES_RE.search(o.text)) and a.answer_type == "entity"
            and any(c.kind == "event" for c in a.cues) and bool(a.refs))


def near_series_reading(readings: Any, top: tuple[int, bool] | None, margin: float = SERIES_MARGIN,
                        floor: float = SERIES_REL_MIN) -> bool:
    """True when reading ``top`` (relation id, swap) is one of ``readings`` ((relation id,
    score, swap), best first) within ``margin`` of the best, the best at or above ``floor``:
    the reference phrase's near reading is the asked relation, so in a ranked series
    (:func:`ranked_series`) "talks" after "negotiated" are the negotiation (next29)."""
    rows = [(int(i), float(sc), bool(w)) for i, sc, w in readings]
    if top is None or not rows or rows[0][1] < floor:
        return False
    best = rows[0][1]
    return any((i, w) == top for i, sc, w in rows if sc >= best - margin)


def _main_antecedent(question: str, pronoun: str, open_slot: str | None, ref: Clause) -> Mention | None:
    """The name of a full reference event a main-clause pronoun stands for: the one that
    agrees with it (:func:`.anaphora.antecedent`), the name in the pronoun's own slot first
    (parallel clauses: "After X visited Y, who visited it?" is Y; "who did they appeal to?"
    the reference's doer). "Before Mikulas Dzurinda offered support to Lucia Zitnanska, who had
    **she** last made a statement about?" is Zitnanska, the object, by gender. None for a
    reference with fewer than two names; the same-slot name when none agrees."""
    if len(ref.mentions) < 2:
        return None
    r0, r1 = ref.mentions[0], ref.mentions[1]
    if passive_agent_first(question[: ref.span[1]], ref.mentions):
        r0, r1 = r1, r0
    order = [r0, r1] if open_slot == "object" else [r1, r0]  # a subject pronoun asks the object
    k = antecedent(pronoun, [(m.text, m.name) for m in order])
    return order[k if k is not None else 0]


_RANKED_HEAD_RE = re.compile(
    r"\bthe\s+(?:very\s+)?(?:first|last|earliest|latest|final|initial|most\s+recent|next|previous)\b"
    r"(?:\s+(?!to\b|that\b|who\b|whom\b|which\b)[a-z]+)?(?:\s+(?:that|who|whom|which)\b)?",
    re.I,
)


_BARE_WH_TAIL_RE = re.compile(
    r"[.;:?!]\s+(?:if\s+so,?\s+)?(?:(?:who|which\s+(?:one|party|actor|country))(?:\s+(?:was|is|were|are)\s+(?:it|that|they|this))?"
    r"|(?:please\s+)?(?:name|identify)\s+(?:them|it|him|her|that\s+party|the\s+party))\s*[?.!]*\s*$",
    re.I,
)
_SOMEONE_RE = re.compile(r"\b(?:someone|somebody|anyone|anybody|some\s+(?:party|actor|country))\b", re.I)
_EXCLUDE_RE = re.compile(
    r"\b(?:apart\s+from|other\s+than|aside\s+from|besides|except(?:\s+for)?|excluding|not\s+counting)\s+(?:the\s+)?$", re.I
)
_AND_CUE_RE = re.compile(r",\s*and\s*$", re.I)
_WH_ANY_RE = re.compile(r"\b(?:who|whom|whose|which|what|when)\b", re.I)


def _statement_ref(question: str, masked: str, mentions: list[Mention], blanks: list[tuple[int, int]], cues: list[Cue],
                   refs: list[Clause], ref_spans: list[tuple[int, int]]) -> list[Cue]:
    """A reference stated before the question ("X met Y. Who did the same thereafter?",
    :mod:`.statement`): its event becomes the first reference clause, of the anaphor's cue;
    a stated date instead takes the anaphor's operator. Returns the cues (with the anaphor)."""
    # "X praised Y, and in the same month Z ...": the cue right after "and" opens the main
    # clause (its names are the asked event's), it is the statement's anaphor
    joined = [k for k, r in enumerate(refs) if r.cue is not None and _AND_CUE_RE.search(masked, 0, r.cue.start)
              and not _WH_ANY_RE.search(masked, 0, r.cue.start)]
    empty_extra = []
    if joined:
        k = joined[0]
        empty_extra.append(refs[k].cue)
        del refs[k], ref_spans[k]
    used = {id(r.cue) for r in refs}
    empty = [c for c in cues if c.kind == "event" and id(c) not in used]
    st = statement_reference(masked, [m.start for m in mentions], cues, empty)
    if st is None and not joined:
        # "X appealed to Y; in what year after that did Z first urge Y ...?", "..., could you
        # work out in what year after that Z first urged Y": an operator with a demonstrative
        # ("after that", "before this") points back to the stated event; the names after it are
        # the asked clause's, no reference of their own (refs31)
        for k, r in enumerate(refs):
            if r.cue is None or r.cue.op not in ("before", "after") or not _DEMONSTRATIVE_OBJ_RE.match(masked, r.cue.end):
                continue
            st = statement_reference(masked, [m.start for m in mentions], cues, empty + [r.cue])
            if st is not None and st.cue is r.cue:
                del refs[k], ref_spans[k]
                break
            st = None
    if st is None:
        if joined:  # undo: no statement after all
            return cues if refs is None else _restore(question, masked, mentions, blanks, cues, refs, ref_spans, empty_extra[0])
        return cues
    cue = st.cue
    inside = [m for m in mentions if st.start <= m.start < st.end]
    if len(inside) >= 2:
        lead = LEAD_RE.match(masked)
        text = mask_spans(question[: st.end], blanks)[lead.end() if lead else 0 :]
        refs.insert(0, Clause(inside, relation_phrase(text, keep_particle=True), cue=cue, span=(st.start, st.end)))
        ref_spans.insert(0, (st.start, st.end))
        ana = _ANAPHOR_OBJ_RE.match(masked, cue.end)
        if ana:  # "after that", "earlier than it": the anaphor is no word of the main clause
            ref_spans.append((cue.end, ana.end()))
        # a date inside the statement dates the reference, not the asked event: dropped
        out = [c for c in cues if not (c.kind in ("time", "interval") and c.end <= st.end)]
        return out if any(c is cue for c in out) else sorted(out + [cue], key=lambda c: c.start)
    # "Take 7 August 2010 as the reference point: whom did X ask earlier?" (the frame's words
    # are no part of the asked relation)
    ref_spans += [(st.start, st.end), (cue.start, cue.end)]
    return [
        dc_replace(c, op=cue.op, offset=cue.offset) if c.kind == "time" and c.end <= st.end and c.op == "equal" else c
        for c in cues
    ]


def _restore(question, masked, mentions, blanks, cues, refs, ref_spans, cue) -> list[Cue]:
    """Put back a reference clause taken out for the "X V Y, and in the same month ..."
    reading when no statement was found after all."""
    a, b = _ref_region(masked, cue, [x for x in cues if x is not cue])
    inside = [m for m in mentions if a <= m.start < b]
    text = mask_spans(question[:b], blanks + [(x.start, x.end) for x in cues])[cue.end :]
    refs.append(Clause(inside, relation_phrase(text, keep_particle=True), cue=cue, span=(a, b)))
    ref_spans.append((a, b))
    order = sorted(range(len(refs)), key=lambda k: refs[k].span[0])
    refs[:] = [refs[k] for k in order]
    ref_spans[:] = [ref_spans[k] for k in order]
    return cues


def _open_slot(masked: str, wh: tuple[int, int] | None, x: Mention) -> str:
    """Which role of the main event the wh-phrase asks for, relative to the name ``x``."""
    if wh is None:
        return "subject"
    if wh[0] > x.start and re.search(r"(?:\b(?:was|is|were|are)|[:,;])\s*$", masked[: wh[0]], re.I):
        # "The last party to visit X before Y was who?", "The final accuser of X ... was who?",
        # "The last country X visited before Y: which was it?": the wh-word is the predicate of
        # a ranked head noun phrase before the name, which plays the wh-phrase's part
        heads = [h for h in _RANKED_HEAD_RE.finditer(masked, 0, x.start)]
        if heads:
            return _open_slot(masked, heads[-1].span(), x)
    if wh[0] > x.start:  # "X visited whom" / "X was visited by whom"
        between = masked[x.end : wh[0]]
        by_wh = re.match(r"by\b", masked[wh[0] : wh[1]], re.I)  # the wh-phrase took the "by"
        # the agent of a passive: a form of "be"/"get" ("X was visited by whom") or a reduced
        # passive, the participle alone ("X criticised by whom?"). An active verb with its own
        # object before "by" ("X hosted / welcomed a visit by whom", "X hosted visits by
        # whom"): "by" belongs to the noun, the object is asked. (nlu5's be/get rule and nlu6's
        # reduced passive, one rule)
        passive = (by_wh or _BY_END_RE.search(between)) and (
            _BE_RE.search(between) or len([w for w in re.findall(r"[a-z']+", between.lower()) if w != "by"]) <= 1)
        return "subject" if passive else "object"
    if re.match(r"\s*by\b", masked[wh[0] : wh[1]], re.I):  # "by whom was X visited": asks the agent
        return "subject"
    between = masked[wh[1] : x.start]
    if re.match(r"\s*from\b", masked[wh[0] : wh[1]], re.I) and re.fullmatch(r"\s*(?:was|were|is|are|has\s+been|have\s+been)\s*", between, re.I):
        # "from whom was X the target of an offer / sent a request": a passive or a role noun
        # ("the target / recipient of"); "from" names the source, the doer, like "by". (The
        # lexicon swaps a role noun only when "from" ends the phrase; here it is not in it.)
        return "subject"
    if _ROLE_OF_RE.search(between) and (re.match(r"\s*['’]s?\b", masked[x.end :]) or _adjunct_action(masked, x.end)):
        # "which country was the target of X's criticism": the possessor is the doer, the
        # wh-phrase the role noun's patient (the object); the same with the doer as a noun
        # adjunct of the action noun ("who were the subjects of Kenyan police investigations", refs29)
        return "object"
    if _whose_relative(between):
        # "what was the last party whose norms Iran defied": the head noun of the wh-phrase owns
        # the relative clause's object ("whose norms"), the name after it that clause's subject;
        # the head is asked as the object's possessor, the object of the action (refs29)
        return "object"
    if (_PASSIVE_END_RE.search(between) and not _ACTIVE_INFINITIVE_RE.search(between)) or _REDUCED_PASSIVE_RE.fullmatch(between):
        return "object"  # "who was visited by X", "which was the last country visited by X"
    if _CAUSATIVE_PASSIVE_RE.fullmatch(between) or _FROM_AGENT_RE.fullmatch(between):
        # "who had property confiscated by X", "who saw troops mobilized by X": the haver
        # underwent X's act, as in "whose property was confiscated by X"; "who was targeted by
        # violence from X": a passive whose agent comes with "from" (refs25)
        return "object"
    sb = _STRANDED_BY_RE.match(masked, x.end)
    if sb and _BE_RE.search(masked[wh[1] : x.start] + " " + sb.group(0)):
        # "who was X criticised by (in 2010)?": a passive (a form of be/get) with a stranded
        # "by" asks the agent; "whom did X host a visit by" is active and asks the object
        return "subject"
    if _EMBEDDED_HEAD_RE.fullmatch(between) and _CLOSING_COPULA_RE.search(masked, x.end):
        # the same embedded, the copula moved to the end: "(Do you remember) who the first
        # visitor Romania hosted was?" (refs26)
        return "object"
    if _CONTACT_HEAD_RE.fullmatch(between):
        # "who was the next visitor Oman received", "who was the last guest X hosted": a head
        # noun directly followed by the name, the subject of its (contact) relative clause; the
        # wh-phrase is the head, the clause's object; the same with a relative pronoun before
        # the name ("who were the first people that the Indonesian police arrested": refs24)
        return "object"
    # (an honorific before the name is part of it: "where King Juan Carlos I paid visits")
    words = [w for w in re.findall(r"[\w']+", between.lower()) if w not in _HONORIFICS]
    if all(w in ("was", "is", "were", "are") for w in words) and _possessed_agent_noun(masked, x.end):
        # "who was Vietnam's first visitor", "(I wonder) who X's last accuser was": a possessed
        # agent noun names the doer of an act on the possessor; the wh-phrase asks the doer (refs30)
        return "subject"
    # (a relative pronoun may stand between: "the latest party from Australia that X praised",
    # when an answer scope closed the wh-phrase before it)
    if not words or all(w in ("the", "a", "an", "that", "which", "whom") for w in words):
        # embedded order, wh directly before the name (an article may start it, outside the
        # mention): "(I wonder) which country X visited", "the last one (that) the UN asked"
        return "object"
    if words and all(w in _AUX for w in words) and any(w not in ("the", "a", "an", "first", "last", "it", "that") for w in words):
        return "object"  # "who did X visit": X is the subject, the wh asks for the object
    if re.fullmatch(r"whose", masked[wh[0] : wh[1]].strip(), re.I) and words and (
            all(w in _AUX for w in words[1:]) or (words[-1] in _FINITE_AUX and len(words) <= 10 and not any(w in _FINITE_AUX for w in words[:-1]))):
        # "whose property did X seize": the possessive wh-word's noun is the object, X the
        # subject; the possessor asked is the object's owner (Confiscate_property's object, refs18);
        # embedded, with no auxiliary, the same ("I'd like to know whose visit Sudan hosted",
        # "whose property the police confiscated": the noun, then the name, then its verb; refs21);
        # the noun phrase may be long, up to the auxiliary before the name ("whose plans or
        # agreements to settle a dispute did X reject", refs25)
        return "object"
    if re.fullmatch(r"whose", masked[wh[0] : wh[1]].strip(), re.I) and 0 < len(words) <= 6 and not any(
            w in _FINITE_AUX or w in _PAST_FORMS or w.endswith("ed") for w in words) and words[-1] not in _NOUN_PREPOSITIONS:
        # embedded with a longer noun phrase, no verb in it: "(Could you tell me) whose
        # settlement proposals Thai protesters had rejected": the phrase is the object, the
        # name after it the subject (refs26); not a nominal event whose preposition takes the
        # name ("whose remarks about X came last": the possessor is the remarks' doer)
        return "object"
    return "subject"


# a possessive pronoun between a role noun and an action noun: "(who was the last) subject of
# **his** statements", "(which country was the) target of **their** criticism" (refs30)
_ROLE_POSSESSIVE_RE = re.compile(r"\b(?:his|her|its|their)\b", re.I)


def _role_possessive(masked: str, blank: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The span of a possessive pronoun outside names, cues and reference clauses that owns an
    action noun after a role noun (:data:`_ROLE_OF_RE`), or None. In a main clause without
    names it stands for a reference name as a subject pronoun does: the action's doer, the
    role noun asking for its object, as with a name ("the target of X's criticism")."""
    for m in _ROLE_POSSESSIVE_RE.finditer(masked):
        if any(a <= m.start() < b for a, b in blank):
            continue
        if _ROLE_OF_RE.search(masked[: m.start()]) and _adjunct_action(masked, m.end()):
            return m.span()
    return None


# a possessive and an agent noun after a name, a rank word between: "Vietnam's first visitor",
# "X's last accusers"; no preposition after the noun ("X's visitor from ...": a longer phrase)
_POSSESSED_AGENT_RE = re.compile(
    r"['’]s?\s+(?:(?:first|last|earliest|latest|final|initial|next|previous|most\s+recent)\s+)?(?P<n>[a-z]{5,})\b"
    r"(?!\s+(?:of|to|for|from|with|on|about|against|in)\b|['’])", re.I)


def _possessed_agent_noun(masked: str, end: int) -> bool:
    """True when a name ending at ``end`` is followed by a possessive and an agent noun: "-er" /
    "-or" on the stem of a word of the relation lexicon ("visitor": visit, "accuser": accuse,
    "supporter": support) that is no lexicon word itself (refs30)."""
    m = _POSSESSED_AGENT_RE.match(masked, end)
    if not m:
        return False
    w = m.group("n").lower()
    if w.endswith("s"):
        w = w[:-1]
    if not w.endswith(("er", "or")):
        return False
    words = _action_words()
    return w not in words and (w[:-2] in words or w[:-1] in words)


# an action noun right after a name that ends the clause: "(the subjects of) Kenyan police
# **investigations**", the name a noun adjunct naming the doer (refs29)
_ADJUNCT_ACTION_RE = re.compile(
    r"\s+(?P<w>[a-z]{4,})\s*(?:[?.!,;]|$|\b(?:before|after|in|on|during|prior|since|until|between|from|that|when)\b)")


def _adjunct_action(masked: str, end: int) -> bool:
    """True when the word right after a name ending at ``end`` is an action noun of the relation
    lexicon ("investigations", "criticism") that closes the noun phrase."""
    m = _ADJUNCT_ACTION_RE.match(masked, end)
    if not m:
        return False
    w = m.group("w")
    words = _action_words()
    return w not in _NOUN_PREPOSITIONS and (w in words or (w.endswith("s") and w[:-1] in words))


# a relative clause of a wh-phrase's head opened by "whose" and its noun, before the name (the
# clause's subject): " whose norms ", " whose proposals did " (refs29)
_WHOSE_RELATIVE_RE = re.compile(r"\s*whose\s+(?P<np>(?:[a-z'-]+\s+){1,4}?)(?:(?:did|does|do|had|has|have)\s+)?(?:the\s+)?$", re.I)


def _whose_relative(between: str) -> bool:
    m = _WHOSE_RELATIVE_RE.match(between)
    if not m:
        return False
    words = m.group("np").lower().split()
    return not any(w in _FINITE_AUX or w in _PAST_FORMS or w.endswith("ed") or w in _NOUN_PREPOSITIONS for w in words)


_NOUN_PREPOSITIONS = {"of", "about", "to", "with", "against", "for", "on", "upon", "from", "by", "toward", "towards", "at",
                      "into", "over", "regarding", "concerning", "in"}
_FINITE_AUX = {"did", "does", "do", "has", "have", "had", "will", "would", "could", "can", "was", "were", "is", "are"}
_HONORIFICS = {"king", "queen", "prince", "princess", "sheikh", "emir", "sultan", "mr", "mrs", "ms", "dr"}
# a ranked head noun right before the name, no copula before it, and a closing copula: the
# embedded order of _CONTACT_HEAD_RE's "who was the next visitor X received" (refs26)
_EMBEDDED_HEAD_RE = re.compile(
    r"\s*the\s+(?:(?:very|first|last|earliest|latest|final|initial|next|previous|most\s+recent)\s+)+"
    r"(?!to\b)[a-z]+(?:\s+(?:that|who|whom|which)\b)?\s*", re.I)
_CLOSING_COPULA_RE = re.compile(r"\b(?:was|were|is|are)\s*[?.!]*\s*$", re.I)
_CONTACT_HEAD_RE = re.compile(
    r"(?:\s*(?:was|is|were|are)|['’]s)\s+(?:it\s+)?the\s+(?:(?:very|first|last|earliest|latest|final|initial|next|previous|most\s+recent)\s+)*"
    r"(?!to\b)[a-z]+(?:\s+(?:that|who|whom|which)\b)?\s*",
    re.I,
)


# a nominal event whose object is the first name: "the condemnation of X", "the hosting of X",
# "an offer to negotiate with X", "the visit to X" (a noun phrase ending in a preposition)
_NOMINAL_OBJECT_RE = re.compile(
    r"\b(?:the|a|an|this|that|its|their|any)\s+(?:[\w'-]+\s+){0,6}?"
    r"(?:of|with|to|toward|towards|against|on|upon|for|into|about|at|from|over)\s+(?:the\s+)?$",
    re.I,
)
_BY_ONLY_RE = re.compile(r"^\s*by\s+(?:the\s+)?$", re.I)


def passive_agent_first(question: str, mentions: list[Mention]) -> bool:
    """True when the second name is the agent of a passive (``was X visited by Y``) or of a
    nominal event (``the condemnation of X by Y``, ``the offer to negotiate with X by Y``: a
    noun phrase with X as its object, then "by Y" directly; no form of "be" is needed)."""
    if len(mentions) < 2:
        return False
    between = question[mentions[0].end : mentions[1].start]
    if _BY_ONLY_RE.match(between) and _NOMINAL_OBJECT_RE.search(question[: mentions[0].start][-80:]):
        return True
    return bool(re.search(r"\bby\s*(?:the\s+)?$", between, re.I)) and bool(
        re.search(r"\b(?:was|were|is|are|been|being|get|got)\b", question[: mentions[1].start], re.I)
    )


def _known_spans(a: QuestionAnalysis) -> list[tuple[int, int]]:
    spans = [(m.start, m.end) for m in a.mentions] + list(a.wrapper) + [(c.start, c.end) for c in a.cues]
    if a.wh_span:
        spans.append(a.wh_span)
    return spans


_CAP_RUN_RE = re.compile(r"[A-Z][\w'’.-]*(?:\s+(?:(?:of|and|for|the|de|la|du|al|el)\s+)*[A-Z][\w'’.-]*)*")
_NOT_NAME = {
    "Who", "Whom", "Whose", "Which", "What", "When", "Where", "Why", "How", "In", "On", "At", "After",
    "Before", "During", "Since", "Until", "By", "Between", "From", "The", "A", "An", "Did", "Does",
    "Do", "Was", "Were", "Is", "Are", "Has", "Have", "Had", "Will", "Would", "I", "Prior", "Following",
    "First", "Last", "Please", "Tell", "Name", "Could", "Can", "Also",
}


def leftover_names(a: QuestionAnalysis) -> list[str]:
    """Capitalised runs the mention grammar did not recognise (outside names, cues, the
    wrapper and the wh-phrase): what a relaxed parse may use as names."""
    masked = mask_spans(a.question, _known_spans(a))
    masked = re.sub(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b",
                    lambda m: " " * len(m.group(0)), masked)
    out = []
    for m in _CAP_RUN_RE.finditer(masked):
        words = m.group(0).split()
        while words and words[0] in _NOT_NAME:
            words.pop(0)
        if words and re.search(r"[A-Za-z]{2,}", " ".join(words)):
            out.append(" ".join(words))
    return out


def leftover_words(a: QuestionAnalysis, phrase: str) -> str:
    """Content words of the question outside names, cues, wrapper and the relation phrase."""
    used = set(phrase.lower().split())
    text = relation_phrase(mask_spans(a.question, _known_spans(a)))
    return " ".join(w for w in text.split() if w.lower() not in used)


__all__ = ["Clause", "QuestionAnalysis", "analyze", "leftover_names", "leftover_words", "passive_agent_first"]
