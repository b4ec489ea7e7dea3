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

import re
from dataclasses import dataclass, field
from typing import Any

from .entities import EntityMatcher, Mention, find_entity_mentions
from .relations import relation_phrase
from .temporal import Cue, infer_answer_type, infer_time_level, parse_temporal_cues
from .text import mask_spans
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
    r"(?P<wh>who(?:m|se)?(?:\s+else)?|which|what)"
    r"(?: (?:other )?(?P<noun>[a-z]+(?: (?:leader|official|body|group|party|actor|entity|organi[sz]ation|country|person|institution)s?)?"
    r"(?: (?:or|and|/) [a-z]+)?))?\b",
    re.I,
)
# "Name / identify / list the (first) one (that) ...", "Give me the country ...": asks for an
# entity without a wh-word; the noun phrase plays the wh-phrase's part (embedded word order).
_NAME_THE_RE = re.compile(
    r"\b(?:name|identify|list|give(?:\s+me)?|find|mention|state)\s+the\s+(?:[a-z]+\s+)?"
    r"(?:one|ones|entity|entities|party|parties|actor|actors|country|countries|person|people|"
    r"organi[sz]ations?|groups?|side)\b(?:\s+(?:that|who|whom|which))?",
    re.I,
)
# "(I'd like to know) the last party X criticised (before Y)": an embedded question whose head is
# a ranked or bare noun phrase with no wh-word; it plays the wh-phrase's part (a name right
# after it is the subject, so the phrase asks the object; "the last party to visit X" or "that
# visited X" ask the subject). Only at the start of the (unwrapped) question.
_HEAD_NP_RE = re.compile(
    r"^\s*the\s+(?:(?:very|first|last|earliest|latest|final|initial|most\s+recent|second|third|next|previous)\s+)*"
    r"(?:one|ones|party|parties|actor|actors|country|countries|entity|entities|person|organi[sz]ations?|groups?|side)\b"
    r"(?:\s+(?:that|who|whom|which))?",
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
# up to two words may follow the participle: "commented on by", "offered talks by")
_STRANDED_BY_RE = re.compile(
    r"(?:(?!\b(?:before|after|prior|following|once|since|until|when|while|earlier|later|subsequent|ahead|during|same)\b)[\w\s'])*?"
    r"\b\w+(?:ed|en|t)(?:\s+(?!(?:before|after|prior|following|once|since|until|when|while|earlier|later|subsequent|ahead|during|same)\b)[a-z]+){0,2}"
    r"\s+by\s*(?=$|[?.,;!]|(?:in|on|during|at|for|before|after|prior|since|until|"
    r"following|ahead|subsequent|earlier|later|first|last|initially|most|the\s+(?:first|last|same))\b)",
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


# "who was the (very) last one (that) X visited", "which was the first country to ...": the
# copula + noun phrase belongs to the wh-phrase, so what follows decides the asked role
# ("one that X visited" asks the object, "one to visit X" the subject)
_WH_COPULA_RE = re.compile(
    r"\s+(?:was|is|were|are)\s+(?:it\s+)?the\s+(?:[a-z]+\s+){0,2}?"
    r"(?:one|ones|party|parties|country|countries|entity|entities|actor|person|side|organi[sz]ation)\b"
    r"(?:\s+(?:that|who|whom|which))?",
    re.I,
)


def _wh_span(masked: str) -> tuple[int, int] | None:
    for m in _WH_PHRASE_RE.finditer(masked):
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
    r"\s*(?:(?:than|to)\s+)?(?:the\s+(?:time|day|moment|date)\s+)?(?:when|that|which|(?:on|in|at|during)\s+which)\b", re.I
)


# blanked name(s) (and "and" / "the"), then "to" + a lower-case word that is not a name
_INFINITIVE_RE = re.compile(r"(?:\s|\band\b|\bthe\b|'s\b)*\s(?P<to>to)\s+(?!the\b)[a-z]+\b")


def _ref_region(masked: str, cue: Cue, other_cues: list[Cue]) -> tuple[int, int]:
    end = len(masked)
    lead = _REF_LEAD_RE.match(masked, cue.end)  # "after the time when X ..." / "earlier than when X"
    m = _BOUNDARY_RE.search(masked, lead.end() if lead else cue.end)
    if m:
        end = m.start()
    # "the first after X to visit Y": with only a name between the cue and "to <verb>", the
    # infinitive belongs to the main clause's head ("the first ... to visit Y"), not to X
    inf = _INFINITIVE_RE.match(masked, lead.end() if lead else cue.end)
    if inf and inf.start("to") < end:
        end = inf.start("to")
    for c in other_cues:
        if cue.end <= c.start < end:
            end = c.start
    return (cue.start, end)


def analyze(question: str, matcher: EntityMatcher, embeddings: Any = None) -> QuestionAnalysis:
    """Mentions, cues, answer type/granularity and the clause structure of ``question``.

    A wrapper ("Could you tell me ...", "..., please?") is blanked first (offsets kept): its
    words never become a name, a cue or part of a relation phrase."""
    wspans = list(wrapper_spans(question))
    unwrapped = mask_spans(question, wspans) if wspans else question
    mentions = find_entity_mentions(unwrapped, matcher, embeddings)
    spans = [(m.start, m.end) for m in mentions]
    masked = mask_spans(unwrapped, spans)
    cues = parse_temporal_cues(masked)
    answer_type = infer_answer_type(masked)
    time_level = infer_time_level(masked, cues)
    wh = _wh_span(masked)

    # reference clauses: an event cue followed (within its clause) by at least one name
    refs: list[Clause] = []
    ref_spans: list[tuple[int, int]] = []
    for c in cues:
        if c.kind != "event":
            continue
        a, b = _ref_region(masked, c, [x for x in cues if x is not c])
        inside = [m for m in mentions if a <= m.start < b]
        if not inside:
            continue
        text = mask_spans(question[:b], spans + wspans + [(x.start, x.end) for x in cues])[c.end:]
        refs.append(Clause(inside, relation_phrase(text, keep_particle=True), cue=c, span=(a, b)))
        ref_spans.append((a, b))

    main_mentions = [m for m in mentions if not any(a <= m.start < b for a, b in ref_spans)]
    blank = spans + wspans + [(c.start, c.end) for c in cues] + ref_spans
    if wh:  # a preposition before the wh-word stays with the verb ("called on whom")
        p = re.match(r"(?:with|to|for|from|against|by|of|on|at|in|about)\s+", masked[wh[0] : wh[1]], re.I)
        blank.append((wh[0] + p.end(), wh[1]) if p else wh)
    phrase = relation_phrase(mask_spans(question, blank), keep_particle=True)
    main = Clause(main_mentions, phrase, span=(0, len(question)))
    if answer_type == "entity" and main_mentions:
        main.open_slot = _open_slot(masked, wh, main_mentions[0])
    return QuestionAnalysis(question, mentions, cues, answer_type, time_level, main, refs, wh, tuple(wspans))


def _open_slot(masked: str, wh: tuple[int, int] | None, x: Mention) -> str:
    """Which role of the main event the wh-phrase asks for, relative to the name ``x``."""
    if wh is None:
        return "subject"
    if wh[0] > x.start:  # "X visited whom" / "X was visited by whom"
        between = masked[x.end : wh[0]]
        by_wh = re.match(r"by\b", masked[wh[0] : wh[1]], re.I)  # the wh-phrase took the "by"
        return "subject" if by_wh or _BY_END_RE.search(between) else "object"
    if re.match(r"\s*by\b", masked[wh[0] : wh[1]], re.I):  # "by whom was X visited": asks the agent
        return "subject"
    between = masked[wh[1] : x.start]
    if re.match(r"\s*from\b", masked[wh[0] : wh[1]], re.I) and re.fullmatch(r"\s*(?:was|were|is|are|has\s+been|have\s+been)\s*", between, re.I):
        # "from whom was X the target of an offer / sent a request": a passive or a role noun
        # ("the target / recipient of"); "from" names the source, the doer, like "by". (The
        # lexicon swaps a role noun only when "from" ends the phrase; here it is not in it.)
        return "subject"
    if _PASSIVE_END_RE.search(between) or _REDUCED_PASSIVE_RE.fullmatch(between):
        return "object"  # "who was visited by X", "which was the last country visited by X"
    sb = _STRANDED_BY_RE.match(masked, x.end)
    if sb and _BE_RE.search(masked[wh[1] : x.start] + " " + sb.group(0)):
        # "who was X criticised by (in 2010)?": a passive (a form of be/get) with a stranded
        # "by" asks the agent; "whom did X host a visit by" is active and asks the object
        return "subject"
    words = re.findall(r"[\w']+", between.lower())
    if not words or all(w in ("the", "a", "an") for w in words):
        # embedded order, wh directly before the name (an article may start it, outside the
        # mention): "(I wonder) which country X visited", "the last one (that) the UN asked"
        return "object"
    if words and all(w in _AUX for w in words) and any(w not in ("the", "a", "an", "first", "last", "it", "that") for w in words):
        return "object"  # "who did X visit": X is the subject, the wh asks for the object
    return "subject"


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
