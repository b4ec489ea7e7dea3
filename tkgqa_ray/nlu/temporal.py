"""Temporal cues of a question by patterns, designed from the semantics of temporal questions.

A question's temporal intent decomposes into a few primitives (SCoP's constraint schema):

* an **explicit time** with an operator: ``in/on/during April 2005`` (equal at the time's own
  granularity), ``before 2008`` / ``after 2010-05-17`` / ``since`` / ``until`` ...;
* an **explicit interval**: ``between 2006 and 2008``, ``from May 2010 to June 2011``;
* an **event reference** with an operator: ``before/after <event>``, ``prior to``,
  ``following``; ``in the same day/month/year as <event>`` (equal at that granularity);
  ``N days/weeks before/after <event>`` (an offset);
* an **ordinal**: ``first/earliest/initially`` (asc), ``last/latest/most recently`` (desc),
  ``the k-th`` (asc, k), ``second to last`` (desc, 2).

Each primitive is recognised by the meaning of its cue words, not by a whole-question
template, so word order and surrounding wording are free. Call :func:`parse_temporal_cues`
on the question with entity-mention spans masked (names such as ``First Minister`` or years
inside names must not become cues).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import Literal

from .wrappers import strip_wrapper, trailing_unit

CueKind = Literal["time", "interval", "event", "ordinal"]

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_NUM_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "a": 1, "an": 1, "a couple of": 2, "a few": 3,
}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}

_Y = r"(?P<y>(?:1[5-9]|2[0-2])\d\d)"
# Explicit date expressions, most specific first. Each sets y, and optionally mo (name or
# number) and d.
_DATE_PATTERNS = [
    re.compile(rf"\b{_Y}[-/](?P<mo>\d{{1,2}})[-/](?P<d>\d{{1,2}})\b"),
    re.compile(rf"\b(?P<mo>{_MONTH_RE})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?:of\s+)?{_Y}\b", re.I),
    re.compile(rf"\b(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mo>{_MONTH_RE})\.?,?\s+(?:of\s+)?{_Y}\b", re.I),
    re.compile(rf"\b(?P<a>\d{{1,2}})[./](?P<b>\d{{1,2}})[./]{_Y}\b"),
    re.compile(rf"\b{_Y}[-/](?P<mo>\d{{1,2}})\b(?![-/]\d)"),
    re.compile(rf"\b(?P<mo>{_MONTH_RE})\.?,?\s+(?:of\s+|in\s+)?(?:the\s+year\s+)?{_Y}\b", re.I),
    re.compile(rf"(?<![/\d])(?<!\d-){_Y}(?:'?s)?\b(?![-/]\d)"),  # "mid-2010" has a year
]

# Operator words that may precede a date or an event (longest first in the alternations).
# multi-word cues first: "by the time X ..." / "in the run-up to X" (before), "in the wake of X",
# "in the aftermath of", "on the heels of", "as soon as X ..." (after); each names the reference's
# side in English, whatever follows it (a name, a clause, a noun phrase, a date)
# "at an earlier date / a later point than X": a comparative of time with its noun
_CMP_TIME = r"at\s+an?\s+(?:{})\s+(?:date|time|point(?:\s+in\s+time)?|stage|moment)\s+than"
# ("as of X" = by the time of X; not "as of the day X ...", a statement's framing lead, nlu.statement)
_BEFORE_MW = r"by\s+the\s+time|as\s+of(?!\s+the\s+(?:day|date|time|moment|month|year)\b)|in\s+the\s+(?:run|lead)[-\s]up\s+to|leading\s+up\s+to|" + _CMP_TIME.format("earlier|sooner|prior")
# ("in succession to X" = after X, its successor; "upon X's visit" opening the question or a
# clause = on its completion, after it -- not the particle of "called upon", "agreed upon")
_AFTER_MW = (r"in\s+the\s+(?:wake|aftermath)\s+of|on\s+the\s+heels\s+of|as\s+soon\s+as|in\s+succession\s+to|(?<!\w\s)(?<!\w)upon|"
             + _CMP_TIME.format("later|subsequent"))
# "once" as a subordinator ("Once X had visited Y, who ...") = after; not the adverb of count
# ("at once", "more than once", "once again", "once a year", "visited Y once?")
# (a blanked name may be followed by its possessive: "once X's visit was over")
_ONCE = r"(?<!\bat\s)(?<!\bthan\s)(?<!\bonly\s)(?<!\bjust\s)once(?!\s+(?:again|more|or|and|a|an|every|per|in|before)\b)(?=\s+[\w'’])"
_BEFORE = rf"{_BEFORE_MW}|before|prior\s+to|earlier\s+than|sooner\s+than|in\s+advance\s+of|preceding|ahead\s+of|previous(?:ly)?\s+to|(?:up\s+)?(?:until|till)|up\s+to|by|preceded"
_AFTER = rf"{_AFTER_MW}|after|following|later\s+than|subsequent\s+to|since|from|post|followed"
_EQUAL = r"in|on|during|at|within|throughout|over|of|for|around"
# words between an operator and its date; a part of the period ("early / mid- / late 2010",
# "the first half of 2010") keeps the operator and the date's own unit
_FILLER = (
    r"(?:\s+(?:the|a|an|year|years|month|months|day|date|of|course|beginning|start|end|early|late|mid|middle|"
    r"part|spring|summer|autumn|fall|winter|(?:first|second|third|fourth|last|latter)\s+(?:half|quarter))\b)*(?:\s+mid-|-)?"
)
_PREP_BEFORE_DATE = re.compile(
    rf"\b(?P<op>{_BEFORE}|{_AFTER}|{_EQUAL}){_FILLER}\s*$", re.I
)

_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_UNITS = {k: v for k, v in _NUM_WORDS.items() if 1 <= v <= 9 and k not in ("a", "an", "a couple of", "a few")}
_NUM = (
    r"(?P<n>\d+|(?:" + "|".join(_TENS) + r")[\s-](?:" + "|".join(_UNITS) + r")|"
    + "|".join(sorted(set(_NUM_WORDS) | set(_TENS), key=len, reverse=True)) + r")"
)


def _offset_days(m: re.Match) -> int:
    """Days of an offset match with groups ``n`` (number) and ``unit`` (day/week)."""
    u = m.group("unit").lower()
    return _num_value(m.group("n")) * (14 if u.startswith("fortnight") else 7 if u.startswith("week") else 1)


def _num_value(n: str) -> int:
    n = n.lower()
    if n.isdigit():
        return int(n)
    parts = re.split(r"[\s-]", n)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS:
        return _TENS[parts[0]] + _UNITS[parts[1]]
    return _TENS.get(n) or _NUM_WORDS[n]
_OFFSET_RE = re.compile(
    rf"\b{_NUM}\s+(?P<unit>days?|weeks?|fortnights?)\s+(?P<op>before|after|prior\s+to|earlier\s+than|sooner\s+than|later\s+than|"
    rf"following|subsequent\s+to|ahead\s+of|in\s+advance\s+of|preceding|previous\s+to|since)\b",
    re.I,
)
_OFFSET_PRE_RE = re.compile(rf"\b{_NUM}\s+(?P<unit>days?|weeks?|fortnights?)\s+$", re.I)
# "on the third day after X": the N-th day counted from X is an offset of N days
_NTH_DAY_RE = re.compile(
    r"\b(?:on\s+)?the\s+(?P<w>second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\s+day\s+"
    r"(?P<op>after|before|following|prior\s+to)\b",
    re.I,
)
_DAY_AFTER_RE = re.compile(r"\b(?:on\s+)?the\s+(?:day|next\s+day)\s+(?P<op>after|before|following)\b", re.I)
_SAME_RE = re.compile(
    r"\b(?:(?:in|on|during|at|within)\s+)?(?:the\s+|that\s+)?(?:very\s+|exact\s+|identical\s+)?(?:same|identical)\s+(?:calendar\s+)?"
    r"(?P<g>day|date|month|year|time|week)\b(?:\s+(?:as|that|when|in\s+which|on\s+which|during\s+which|which))?"
    # "in the month when X ...", "on the day that X ...": the same unit without "same"
    r"|\b(?:in|on|during|within)\s+(?:the|a)\s+(?:very\s+|exact\s+)?(?P<g2>day|date|month|year)\s+(?:that|when|in\s+which|on\s+which|during\s+which)\b"
    # ... or directly followed by a (masked) name: "in the month   visited  "
    r"|\b(?:in|on|during|within)\s+the\s+(?:very\s+|exact\s+)?(?P<g3>day|date|month|year)(?:\s+of)?(?=(?:\s+the)?\s{2,}\S"
    # ... or by a subject pronoun and its verb: "in the year he rallied support for X" (nlu10)
    r"|\s+(?:he|she|it|they)\s+[a-z]+)"
    # ... or "of" + an event noun phrase: "in the month of its threat against X", "in the year
    # of the visit to X by Y" (a date after "of" is taken by the time cue first)
    r"|\b(?:in|on|during|within)\s+the\s+(?:very\s+|exact\s+)?(?P<g5>day|date|month|year)\s+of(?=\s+(?:its|their|his|her|the|an?)\b)"
    # a fronted noun phrase without a preposition, its clause closed by a comma before the
    # question word: "The day (that) X visited Y, who ...?"; or opened by an imperative of
    # bringing to mind and closed by a colon: "Think of the year when X visited Y: who ... then?"
    r"|^\s*(?:(?:think\s+(?:of|about|back\s+to)|consider|take|recall|remember|picture)\s+)?"
    r"the\s+(?:very\s+|exact\s+)?(?P<g4>day|date|month|year)(?:\s+(?:that|when|in\s+which|on\s+which))?"
    r"(?=[^,:;?]*[,:;]\s*(?:who|whom|whose|which|what)\b)"
    # "of the year / month" + a clause after a smaller time noun: "In which month of the year (that /
    # when) X used force in Y did they ...?" asks a month within X's year (names20). Not "which
    # month of the year did X ...?" (an auxiliary: no clause of its own) nor "of the year 2010"
    r"|(?:(?<=\bday\s)|(?<=\bdate\s)|(?<=\bweek\s)|(?<=\bmonth\s)|(?<=\bdays\s)|(?<=\bmonths\s))of\s+the\s+(?:very\s+|exact\s+|same\s+)?(?P<g6>year|month)"
    r"(?:\s+(?:that|when|in\s+which|during\s+which))?"
    r"(?!\s+(?:\d|did|does|do|was|were|is|are|has|had|have|will|would|could|can)\b)(?=\s+\S)",
    re.I,
)
_SIMUL_RE = re.compile(
    r"\b(?:simultaneously\s+with|at\s+the\s+same\s+time\s+as|concurrently\s+with|(?P<conn>while|"
    # "at the time (that / when / of) X ...", "at a time when X ...": a connective like "when"
    r"(?:at|during)\s+the\s+(?:very\s+)?time(?:\s+(?:that|when|of))?|at\s+a\s+time\s+(?:that|when)))\b",
    re.I,
)
_DEGREE = r"(?:right|just|shortly|soon|immediately|directly|long|well|not\s+long|sometime)"
_EVENT_OP_RE = re.compile(
    # a degree adverb belongs to the cue ("right / shortly / soon / just / long after X")
    rf"\b(?:{_DEGREE}\s+)?"
    rf"(?P<op>{_BEFORE_MW}|before|prior\s+to|earlier\s+than|sooner\s+than|in\s+advance\s+of|preceding|ahead\s+of|"
    rf"previous(?:ly)?\s+to|{_AFTER_MW}|after|following|later\s+than|subsequent\s+to|since|(?:up\s+)?(?:until|till)|{_ONCE}|"
    # the verbs of order: "(the visit) that directly followed X's ...", "who preceded X in visiting Y"
    # (not the passive "followed by", which names the later event's doer)
    rf"(?:followed|preceded)(?!\s+by\b))\b",
    re.I,
)
_REL_BEFORE_RE = re.compile(r"\b(?:that|which)\s+$", re.I)
# the verbs of sequence in any form ("followed", "to follow", "precedes", "came / come after")
SEQ_VERBS = r"(?:follow(?:ed|s)?|precede[ds]?|c[ao]mes?\s+(?:after|before)|went\s+before|go(?:es)?\s+before)"
_SEQ_VERB_RE = re.compile(
    # the degree adverb is the cue's ("directly followed X in V-ing": the first after X)
    rf"\b(?:{_DEGREE}\s+)?(?P<v>{SEQ_VERBS})\b"
    r"(?=[^,?;]*?\s(?:in|by)\s+[a-z]+ing\b)",
    re.I,
)
# the "in <gerund>" that closes the reference of a sequence verb (nlu.analysis)
SEQ_GERUND_RE = re.compile(r"\s(?:in|by)\s+[a-z]+ing\b", re.I)
_ORD_DESC_K = re.compile(r"\b(?P<w>second|third|2nd|3rd)[\s-]+(?:to[\s-]+)?(?:last|latest)\b|\bpenultimate\b", re.I)
# "<op> anyone else", "<op> all the others", "<op> everybody else": compared with every other
_ALL_OTHERS = (
    r"{op}\s+(?:(?:anyone|anybody|everyone|everybody|any\s+one)\s+else|all\s+(?:the\s+)?others|"
    r"(?:all|any|every)\s+(?:the\s+)?other\s+(?:actors?|part(?:y|ies)|countr(?:y|ies)|ones?))\b"
)
# "who visited X before anyone else / ahead of all others": before every other doer = the
# first; "after everyone else" = the last. Read before the operator cues (no event follows).
_ALL_OTHERS_ORD = (
    (re.compile(_ALL_OTHERS.format(op=r"\b(?:before|ahead\s+of|sooner\s+than|earlier\s+than)"), re.I), "asc"),
    (re.compile(_ALL_OTHERS.format(op=r"\b(?:after|later\s+than)"), re.I), "desc"),
)
_ORD_ASC_RE = re.compile(
    # "next (to V) after X" = the first after X; not "the next day/month ..." (a relative time)
    r"\b(?:for\s+the\s+first\s+time|at\s+first|first\s+of\s+all|the\s+earliest|earliest|initial(?:ly)?|first(?:ly)?|"
    r"(?:the\s+)?next(?!\s+(?:day|week|month|year|time)s?\b)|"
    r"originally|the\s+soonest|soonest|(?:the\s+)?(?:quickest|fastest)(?=\s+to\b))\b",
    re.I,
)
_ORD_DESC_RE = re.compile(
    # "the previous (one / time / country)", "X's previous visit": the one before = the last
    # before ("previous to" is a before cue; the adverb "previously" is no rank)
    r"\b(?:for\s+the\s+last\s+time|most\s+recently|most\s+recent|the\s+latest|latest|lastly|last|previous(?!\s+to\b)|"
    r"finally|final|the\s+most\s+recent)\b",
    re.I,
)
_ORD_K_RE = re.compile(
    r"\b(?P<w>second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Cue:
    """One temporal cue. ``start``/``end`` are char offsets of the cue words in the question."""

    kind: CueKind
    start: int
    end: int
    text: str
    op: str | None = None  # before|after|equal|inside|overlap (time, interval, event)
    time: str | None = None  # "2010", "2010-05", "2010-05-17" or "A..B" (interval)
    granularity: str | None = None  # of an explicit time, or same-day/month/year
    offset: int = 0  # days, direction from op
    order: str | None = None  # asc|desc (ordinal)
    k: int | None = None  # ordinal rank


def _op_word(w: str) -> str:
    w = re.sub(r"\s+", " ", w.lower())
    if re.fullmatch(_BEFORE, w):
        return "before"
    if re.fullmatch(_AFTER, w):
        return "after"
    return "equal"


def _negated(q: str, start: int, word: str, op: str) -> tuple[str, int]:
    """"no / not earlier than X" is after X, "no / not later than X" before it (the
    comparative negated; the boundary itself is not told apart from strict order). Returns
    the operator and the cue's start (the negation belongs to the cue)."""
    neg = re.search(r"\b(?:no|not)\s+$", q[:start], re.I)
    if neg and re.match(r"(?:earlier|sooner|later)\s+than", word.strip(), re.I):
        return ("after" if op == "before" else "before"), neg.start()
    return op, start


def _date_iso(m: re.Match) -> tuple[str, str] | None:
    g = m.groupdict()
    y = int(g["y"])
    mo = g.get("mo")
    d = g.get("d")
    if g.get("a") is not None:  # numeric d/m/y or m/d/y: day-first unless impossible
        a, b = int(g["a"]), int(g["b"])
        d, mo = (str(b), str(a)) if b > 12 else (str(a), str(b))
    month = None
    if mo is not None:
        month = int(mo) if mo.isdigit() else _MONTHS.get(mo.lower().rstrip("."))
        if not month or not 1 <= month <= 12:
            return None
    try:
        if d is not None and month:
            date(y, month, int(d))
            return f"{y:04d}-{month:02d}-{int(d):02d}", "day"
    except ValueError:
        return None
    if month:
        return f"{y:04d}-{month:02d}", "month"
    return f"{y:04d}", "year"


def find_dates(text: str) -> list[tuple[int, int, str, str]]:
    """Explicit dates in ``text`` as (start, end, iso, granularity), non-overlapping."""
    found: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for pat in _DATE_PATTERNS:
        for m in pat.finditer(text):
            a, b = m.span()
            if any(a < tb and ta < b for ta, tb in taken):
                continue
            iso = _date_iso(m)
            if iso is None:
                continue
            found.append((a, b, iso[0], iso[1]))
            taken.append((a, b))
    found.sort()
    return found


# the end of a named period as a clause of its own: "Once April 2014 was over", "after 2010 had
# ended", "when March 2009 had passed": the asked event comes after the whole period (the
# operator "after" on its date); the clause's verb names no action of the question (refs29)
_PERIOD_OVER_LEAD_RE = re.compile(r"\b(?:once|after|when|as\s+soon\s+as)\s+(?:the\s+(?:month|year)\s+(?:of\s+)?)?$", re.I)
_PERIOD_OVER_RE = re.compile(
    r"\s+(?:(?:was|were|is|had\s+been|has\s+been)\s+(?:over|past|done|finished|complete|out)"
    r"|(?:had\s+|has\s+)?(?:ended|passed|finished|elapsed|concluded|closed|run\s+out|come\s+to\s+an\s+end|drawn\s+to\s+a\s+close)"
    r"|came\s+to\s+an\s+end|drew\s+to\s+a\s+close|ran\s+out)\b",
    re.I,
)


def _period_over(q: str, a: int, b: int) -> tuple[int, int] | None:
    """The span "once <date> was over" around the date at ``a:b``, or None."""
    lead = _PERIOD_OVER_LEAD_RE.search(q, max(0, a - 30), a)
    end = _PERIOD_OVER_RE.match(q, b)
    return (lead.start(), end.end()) if lead and end else None


def parse_temporal_cues(question: str) -> list[Cue]:
    """All temporal cues of ``question`` in order of appearance (see module docstring).

    Mask entity mentions first (:func:`tkgqa_ray.nlu.text.mask_spans`) so names are not read
    as cues.
    """
    q = question
    cues: list[Cue] = []
    used: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return not any(a < ub and ua < b for ua, ub in used)

    for rx, order in _ALL_OTHERS_ORD:
        for m in rx.finditer(q):
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order=order, k=1))
            used.append(m.span())
    dates = find_dates(q)
    # explicit intervals: between A and B / from A to|until|through B
    consumed: set[int] = set()
    for i in range(len(dates) - 1):
        a1, b1, iso1, g1 = dates[i]
        a2, b2, iso2, g2 = dates[i + 1]
        mid = q[b1:a2].strip().lower()
        pre = q[:a1]
        mb = re.search(r"\b(between|from)\s*(?:the\s+)?$", pre, re.I)
        if mb and mid in ("and", "to", "until", "till", "through", "-", "–", "and the", "to the"):
            start = mb.start()
            fine = g1 if ("day", "month", "year").index(g1) <= ("day", "month", "year").index(g2) else g2
            cues.append(Cue("interval", start, b2, q[start:b2], op="inside", time=f"{iso1}..{iso2}", granularity=fine))
            used.append((start, b2))
            consumed.update((i, i + 1))
    for i, (a, b, iso, g) in enumerate(dates):
        if i in consumed:
            continue
        ov = _period_over(q, a, b)
        if ov:
            cues.append(Cue("time", ov[0], ov[1], q[ov[0] : ov[1]], op="after", time=iso, granularity=g))
            used.append(ov)
            continue
        pre = q[max(0, a - 60):a]
        m = _PREP_BEFORE_DATE.search(pre)
        op = "equal"
        start = a
        offset = 0
        if m:
            op = _op_word(m.group("op"))
            start = a - (len(pre) - m.start())
            op, start = _negated(q, start, m.group("op"), op)
            # "back in 2008", "(way) back on 28 July 2012": the adverb of past time is the cue's
            mb = re.search(r"\b(?:way\s+)?back\s+$", q[:start], re.I) if op == "equal" else None
            if mb:
                start = mb.start()
            # "3 days before 2010-05-01": an offset from an explicit date
            lead = max(0, start - 40)
            mo = _OFFSET_PRE_RE.search(q[lead:start]) if op in ("before", "after") else None
            if mo:
                offset = _offset_days(mo)
                start = lead + mo.start()
        cues.append(Cue("time", start, b, q[start:b], op=op, time=iso, granularity=g, offset=offset))
        used.append((start, b))
    # offsets: "3 days after", "two weeks before", "the day after"
    for m in _OFFSET_RE.finditer(q):
        if not free(*m.span()):
            continue
        days = _offset_days(m)
        op = "before" if re.fullmatch(_BEFORE, re.sub(r"\s+", " ", m.group("op").lower())) else "after"
        cues.append(Cue("event", m.start(), m.end(), m.group(0), op=op, offset=days))
        used.append(m.span())
    for m in _NTH_DAY_RE.finditer(q):
        if not free(*m.span()):
            continue
        w = m.group("w").lower()
        days = _ORDINALS.get(w) or int(re.match(r"\d+", w).group(0))
        op = "before" if m.group("op").lower().startswith(("before", "prior")) else "after"
        cues.append(Cue("event", m.start(), m.end(), m.group(0), op=op, offset=days))
        used.append(m.span())
    for m in _DAY_AFTER_RE.finditer(q):
        if not free(*m.span()):
            continue
        op = "before" if m.group("op").lower() == "before" else "after"
        cues.append(Cue("event", m.start(), m.end(), m.group(0), op=op, offset=1))
        used.append(m.span())
    # same day/month/year as <event>
    for m in _SAME_RE.finditer(q):
        if not free(*m.span()):
            continue
        g = next(m.group(k) for k in ("g", "g2", "g3", "g4", "g5", "g6") if m.group(k)).lower()
        g = {"date": "day", "time": "day", "week": "day"}.get(g, g)
        cues.append(Cue("event", m.start(), m.end(), m.group(0), op="equal", granularity=g))
        used.append(m.span())
    # "when" joining two clauses ("Who visited X when Y visited Z?"): same day. Not a
    # question word: something precedes it and a clause follows it.
    for m in re.finditer(r"\bwhen\b", q, re.I):
        before, after = q[: m.start()].strip(), q[m.end():].strip(" ?.!")
        if not before and _FRONTED_CLAUSE_RE.match(q, m.end()) and free(*m.span()):
            # "When X had visited Y, who was the first to visit it later?": a fronted clause
            # closed by a comma before an entity wh-word is the reference, not a time question
            cues.append(Cue("event", m.start(), m.end(), m.group(0), **_clause_op(q, m.start(), m.end())))
            used.append(m.span())
            continue
        # ... nor the cleft "Which day was it when X ...?" (it asks for X's own time), nor the
        # question word of a main clause after a fronted clause ("Prior to when X met Y, when
        # did Z visit W?": comma, then an auxiliary right after "when"; a blanked name between
        # them would be wider than two spaces)
        if _AUX_NEXT_RE.match(q, m.end()):
            # (with or without the comma: "after X met Y when did Z visit W"; a conjunction
            # "when" is followed by its clause's subject, never directly by an auxiliary)
            continue
        if _NOUN_ADJUNCT_END_RE.search(before):
            continue  # the relative of a restricted time noun: "the day in 2005 when X ..."
        if before and after and free(*m.span()) and not re.search(
            r"\b(?:in|on|at|during|time|occasion|instance|moment|date|day|year|month|than|before|after|to|since|until|as|following|"
            r"(?:was|is)\s+it)\s*$", before, re.I
        ):
            # "Which country had (most recently) criticised Japan when X criticised it?": a past
            # perfect main clause is anterior to the "when" clause -- before it, not on its day;
            # "who was the first to visit Y when X had visited it?" -- after it (_clause_op)
            cues.append(Cue("event", m.start(), m.end(), m.group(0), **_clause_op(q, m.start(), m.end())))
            used.append(m.span())
    # "As X had visited Y, who ... afterwards?": a fronted "as" clause, read like "when"
    m = _FRONTED_AS_RE.match(q)
    if m and _FRONTED_CLAUSE_RE.match(q, m.end()) and free(*m.span("w")):
        cues.append(Cue("event", m.start("w"), m.end("w"), m.group("w"), **_clause_op(q, m.start("w"), m.end("w"))))
        used.append(m.span("w"))
    # "Having visited X, where did Y travel next?": a fronted perfect participle clause is
    # anterior to the main clause (its subject is the main clause's), so it is an "after" cue
    m = _FRONTED_HAVING_RE.match(q)
    if m and _HAVING_CLAUSE_RE.match(q, m.end()) and free(*m.span("w")):
        cues.append(Cue("event", m.start("w"), m.end("w"), m.group("w"), op="after"))
        used.append(m.span("w"))
    for m in _SIMUL_RE.finditer(q):
        if free(*m.span()):
            kw = _clause_op(q, m.start(), m.end()) if m.group("conn") else {"op": "equal", "granularity": "day"}
            cues.append(Cue("event", m.start(), m.end(), m.group(0), **kw))
            used.append(m.span())
    # an absolute clause ordering its (blanked) name against the asked event: "..., X having
    # visited it", "with X already having done so" (a perfect participle: anterior, after X);
    # "with X coming next", "X being next / later" (X comes after: before X)
    for m in _ABSOLUTE_RE.finditer(q):
        if free(*m.span("c")):
            op = "before" if m.group("later") else "after"
            cues.append(Cue("event", m.start("c"), m.end("c"), m.group("c"), op=op))
            used.append(m.span("c"))
            if m.group("later"):
                used.append(m.span("later"))  # "next" here is no rank of the asked event
    # "Who followed / preceded X in criticising Y?": a verb of sequence whose object is the
    # reference (the same action, X its doer); the gerund after "in" is the asked action
    for m in _SEQ_VERB_RE.finditer(q):
        if free(*m.span()):
            op = "before" if re.search(r"prec|before", m.group("v"), re.I) else "after"
            cues.append(Cue("event", m.start(), m.end(), m.group(0), op=op))
            used.append(m.span())
    # before/after <event> (operator words not attached to a date)
    for m in _EVENT_OP_RE.finditer(q):
        if not free(*m.span()):
            continue
        if m.group("op").lower() in ("followed", "preceded") and m.start("op") == m.start() and not _REL_BEFORE_RE.search(q, 0, m.start()):
            # "Who followed Japan?" asks who followed (the relation); "the visit that followed X's
            # ...", "who directly followed X" (a degree adverb) order by X ("... in V-ing" above)
            continue
        w = m.group("op").lower()
        op = "before" if re.fullmatch(_BEFORE, re.sub(r"\s+", " ", w)) else "after"
        if re.fullmatch(r"by\s+the\s+time", w) and _main_adverb_op(q, m.start(), m.end()) == "after":
            # "By the time X had visited Y, who was the first to visit it next?": the main
            # clause's adverb of sequence (with no past perfect of its own) puts it after X
            op = "after"
        op, a = _negated(q, m.start(), w, op)
        cues.append(Cue("event", a, m.end(), q[a : m.end()], op=op))
        used.append(m.span())
    # ordinals
    for m in _ORD_DESC_K.finditer(q):
        if free(*m.span()):
            w = (m.groupdict().get("w") or "second").lower()
            k = {"second": 2, "2nd": 2, "third": 3, "3rd": 3}.get(w, 2)
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order="desc", k=k))
            used.append(m.span())
    for m in _ORD_ASC_RE.finditer(q):
        if free(*m.span()):
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order="asc", k=1))
            used.append(m.span())
    for m in _ORD_DESC_RE.finditer(q):
        if free(*m.span()):
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order="desc", k=1))
            used.append(m.span())
    for m in _ORD_K_RE.finditer(q):
        if not free(*m.span()):
            continue
        w = m.group("w").lower()
        # a rank takes the definite article; "a third location / country / party" is "another"
        # (CAMEO's "meet at a 'third' location"), while "for a second time" stays a rank
        if re.search(r"\ban?\s+$", q[: m.start()], re.I) and not re.match(r"\s+times?\b", q[m.end():], re.I):
            continue
        k = _ORDINALS.get(w) or int(re.match(r"\d+", w).group(0))
        if k == 1:  # "the 1st to visit X" ("first" itself is read above)
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order="asc", k=1))
            used.append(m.span())
            continue
        # "the second/3rd <noun>" as a rank needs a following actor/event noun or "to"
        if k >= 2:
            cues.append(Cue("ordinal", m.start(), m.end(), m.group(0), order="asc", k=k))
            used.append(m.span())
    # "immediately / just / right / directly before X" names the event next to X: the last one
    # before it, the first one after it (an ordinal inside the cue's degree adverb), unless the
    # question ranks otherwise. "shortly / soon / long after" say nothing about rank. So does a
    # verb of sequence with a doer ("Who came after / followed X in V-ing Y?" asks X's successor,
    # "who preceded X in V-ing Y" its predecessor).
    if not any(c.kind == "ordinal" for c in cues):
        for c in cues:
            if c.kind != "event" or c.op not in ("before", "after") or c.offset:
                continue
            m = _IMMEDIATE_RE.match(c.text)
            seq = None if m else _SEQ_WORDS_RE.fullmatch(c.text)
            if m or (seq and not re.match(r"(?:shortly|soon|long|well|not\s+long|sometime)\b", c.text, re.I)):
                order = "asc" if c.op == "after" else "desc"
                end = c.start + m.end(1) if m else c.end
                cues.append(Cue("ordinal", c.start, end, c.text[: end - c.start], order=order, k=1))
                break
    cues.sort(key=lambda c: c.start)
    return cues


_PAST_PERFECT_RE = re.compile(
    r"\bhad\s+(?:(?:\w+ly|recently|last|just|already|first|ever|never)\s+)*"
    r"(?:been|gone|done|met|made|said|paid|held|led|fled|come|become|run|won|begun|\w+(?:ed|en|t|wn))\b",
    re.I,
)
# A clause joined by a connective of simultaneity ("when", "as", "at the time (that)") states
# one time, but the tenses may order the two events (the sequence of tenses):
# * the reference clause is completed before the asked event -- a past perfect, "already", a
#   predicate of completion ("X's visit was over", "X was done visiting"): the asked event is
#   AFTER it ("who was the first to visit Y when X had visited it?");
# * "not yet" / "had yet to" in the reference: the asked event is BEFORE it;
# * a past perfect main clause is anterior: BEFORE ("whom had X visited last when it visited Y");
# * an adverb of sequence in the main clause ("next", "later", "afterwards", "then";
#   "earlier", "previously", "beforehand") orders the asked event itself.
# Otherwise the clauses are simultaneous (equal, same day).
_NOT_YET_RE = re.compile(r"\b(?:not|n't|never)\s+(?:\w+\s+)?yet\b|\b(?:had|has|was|were)\s+yet\s+to\b|\byet\s+to\b", re.I)
_ANTERIOR_RE = re.compile(
    r"\balready\b|\bhaving\s+(?:\w+ly\s+)?(?:been|\w+)\b|"
    r"\b(?:was|were|had\s+been|is|are)\s+(?:(?:all|well|just|long|finally)\s+)?(?:over|done|finished|complete[d]?|concluded|through|ended)\b",
    re.I,
)
_SEQ_AFTER_ADV_RE = re.compile(
    r"\b(?:(?:the\s+)?next(?!\s+(?:day|week|month|year|time)s?\b)|later|afterwards?|subsequently|thereafter|after\s+(?:that|this))\b",
    re.I,
)
# (the relational ranks too: "the next / previous (one) to V Y when X V-ed it", "its most recent
# visitor at the time of X's visit")
_SEQ_BEFORE_ADV_RE = re.compile(
    r"\b(?:earlier|previously|beforehand|before\s+(?:that|this|then)|previous(?!\s+to\b)|most\s+recent(?:ly)?)\b", re.I
)
# the clause of a connective ends at a comma, semicolon or the question's end
_CLAUSE_END_RE = re.compile(r"[,;?.!]")
# a fronted clause: its words, a comma, then an entity wh-word ("When X had visited Y, who ...");
# no auxiliary right after the connective ("When did X ...?" asks a time)
_FRONTED_CLAUSE_RE = re.compile(
    r"(?![ ]{1,2}(?:did|does|do|was|were|is|are|has|had|have|will|would|could|can)\b)[^,;?]+,\s*(?:and\s+)?(?:who|whom|whose|which|what)\b",
    re.I,
)
# a fronted perfect participle opening the question ("Having (first) visited X, ..."; next29)
_FRONTED_HAVING_RE = re.compile(r"^\s*(?P<w>having)\b(?=\s+(?:[a-z]+ly\s+)?[a-z]+)", re.I)
# ... closed by a comma before the main clause's wh-phrase (any wh-word: "where did", "to whom")
_HAVING_CLAUSE_RE = re.compile(r"[^,;?]+,\s*(?:(?:to|with|for|from|by|of|on|against|about)\s+)?"
                               r"(?:who|whom|whose|which|what|where|when|how)\b", re.I)
_FRONTED_AS_RE = re.compile(r"^\s*(?P<w>as)\b(?!\s+(?:of|for|to|well|such|far|soon|long|much|many)\b)", re.I)


def _clauses(q: str, start: int, end: int) -> tuple[str, str]:
    """(reference clause, main clause) of a connective at ``q[start:end]``: its clause runs to
    the next comma or the end; the rest of the question is the main clause."""
    e = _CLAUSE_END_RE.search(q, end)
    stop = e.start() if e else len(q)
    return q[end:stop], q[:start] + " " + q[stop:]


def _main_adverb_op(q: str, start: int, end: int) -> str | None:
    """"before" / "after" from an adverb of sequence in the main clause (none with a past
    perfect main clause, which is anterior by itself), else None."""
    main = _clauses(q, start, end)[1]
    if _PAST_PERFECT_RE.search(main):
        return None
    if _SEQ_AFTER_ADV_RE.search(main):
        return "after"
    if _SEQ_BEFORE_ADV_RE.search(main):
        return "before"
    return None


def _clause_op(q: str, start: int, end: int) -> dict:
    """Operator (and granularity) of a connective of simultaneity at ``q[start:end]`` from the
    tenses of its clause and of the main clause (see above)."""
    ref, main = _clauses(q, start, end)
    if _PAST_PERFECT_RE.search(main) or _NOT_YET_RE.search(ref):
        return {"op": "before"}
    if _ANTERIOR_RE.search(ref) or _PAST_PERFECT_RE.search(ref):
        return {"op": "after"}
    op = _main_adverb_op(q, start, end)
    return {"op": op} if op else {"op": "equal", "granularity": "day"}
_ABSOLUTE_RE = re.compile(
    r"(?P<c>,|\bwith)(?=\s*(?:the\s+)?\s{3,}(?:['’]s?\s+)?(?:(?:already|previously|just)\s+)?having\s+\w+"
    r"|\s*(?:the\s+)?\s{3,}(?:coming|being|going|following|[a-z]+ing(?:\s+(?:it|them|there|so))?)\s+"
    r"(?P<later>next|afterwards?|later|after(?:wards)?)\b)",
    re.I,
)
_IMMEDIATE_RE = re.compile(r"(immediately|directly|right|just)\s", re.I)
_SEQ_WORDS_RE = re.compile(rf"(?:{_DEGREE}\s+)?{SEQ_VERBS}", re.I)


# ---------------------------------------------------------------- answer type / granularity
_AUX_NEXT_RE = re.compile(r"[ ]{1,2}(?:did|does|do|was|were|is|are|has|had|have|will|would|could|can)\b", re.I)
_WH_RE = re.compile(r"\b(who|whom|whose|which|what|when)\b", re.I)
_WHEN_CONJ_RE = re.compile(
    r"\b(?:the\s+(?:(?:very|same|exact|identical)\s+)*(?:time|day|moment|date|month|year|week|period)|than|to|following|after|before|"
    r"since|until|till|as|from|prior\s+to|subsequent\s+to|ahead\s+of)\s*$",
    re.I,
)
_AUX_AFTER_RE = re.compile(
    r"\s+(?:did|does|do|was|were|is|are|has|had|have|will|would|could|can|might|may|shall|should)\b", re.I
)
_TIME_NOUN = r"(year|years|month|months|day|days|date|dates|time|period|point\s+in\s+time)"
_WH_TIME_RE = re.compile(
    rf"^\s*(?:(?:is|was|were|are)\s+|['’]s\s+)?(?:the\s+)?(?:(?:very|first|last|earliest|latest|final|initial|next|previous|most\s+recent|exact|specific|precise)\s+)*"
    rf"{_TIME_NOUN}\b",
    re.I,
)
# refs27: "all of the" is the distributive determiner "all the" ("List all of the days when ..."),
# here and in the time-noun heads (_DEF_TIME_RE; analysis' plural / interposed heads)
_IMPERATIVE_TIME_RE = re.compile(
    rf"^\s*(?:please\s+)?(?:give|name|state|tell\s+me|list|identify|provide|find)\s+(?:me\s+)?(?:(?:all|every|each)\s+(?:of\s+(?=the\b))?)?(?:the\s+)?{_TIME_NOUN}\b",
    re.I,
)


# A definite time noun that opens the (embedded) question: "the exact month when X ...",
# "the date on which X ...", "the year and month in which X ..." (after a wrapper such as
# "Could you tell me").
# nlu10: a rank adjective ("the last year in which X ...", "the most recent month when ...") or a
# distributive determiner ("every year in which X ...", "all the days on which ...") in that noun
# phrase; the rank word stays the ordinal cue.
# names19: an explicit-time adjunct may restrict the noun before its relative ("the day in 2005
# when X ...", "the months before October 2009 in which X ...", "the day in 2011 on which ..."):
# the noun phrase still asks a time at its unit, and the adjunct stays the question's time cue.
# names21: "of" restricts the noun the same way ("(Can you list) the months of 2015 in which X
# ...", "the days of March 2010 on which ..."): a part of a named period, still a time asked.
_NOUN_TIME_ADJUNCT = (
    rf"(?:\s+(?:in|of|during|before|after|since|until|prior\s+to)\s+"
    rf"(?:(?:early|late|mid)[\s-]+)?(?:(?:{_MONTH_RE}|the|of|\d{{1,2}}(?:st|nd|rd|th)?)\.?,?\s+)*(?:1[5-9]|2[0-2])\d\d)"
)
# ... so a "when" right after such an adjunct is that noun's relative, no event cue of its own
_NOUN_ADJUNCT_END_RE = re.compile(rf"\b(?:years?|months?|days?|dates?){_NOUN_TIME_ADJUNCT}\s*$", re.I)
# an event clause between commas after an asked time noun, before its relative (refs29; below)
_INTERPOSED_EVENT = (
    r"\s*,\s*(?:before|after|prior\s+to|following|since|until|ahead\s+of|subsequent\s+to)\s[^,?;]*,"
    r"(?=\s*(?:(?:on|in|during|at)\s+which\b|when\b|$))"
)
_INTERPOSED_EVENT_BARE = (
    r"\s+(?:before|after|prior\s+to|following|since|until|ahead\s+of|subsequent\s+to)\s"
    r"(?:(?!(?:the|a|that|which|what)\s+(?:years?|months?|days?|dates?|weeks?|times?)\b)[^,?;])*?"
    r"(?=\s+(?:on|in|during|at)\s+which\b)"
)
# refs26: a same-unit reference clause may stand between the noun and its relative ("the exact
# day, in the year X commented on Y, when Z ...", "the dates in the year X sought talks with Y on
# which Z ..."): the noun still heads the asked clause, which the relative opens; the clause
# between is a reference of its own ("in the year" its cue). Between commas any relative; without
# commas only "on / in / during which" (a "when" there may be the reference's own).
INTERPOSED_REF = (
    r"(?:\s*,\s*(?:in|on|during|at)\s+the\s+(?:same\s+)?(?:year|month|day|week|date)\b[^,?;]*,"
    r"|\s+(?:in|on|during)\s+the\s+(?:same\s+)?(?:year|month|day|week)\b[^,?;]*?(?=\s+(?:on|in|during|at)\s+which\b)"
    # ... or an event clause of its own between commas, opened by an operator of order ("the last
    # month, before X signed an agreement with Y, in which Z ..."): the relative after the second
    # comma is still the time noun's (refs29)
    rf"|{_INTERPOSED_EVENT}"
    # ... or, without commas, an event clause with no time noun of its own right before "on / in /
    # during which" ("the first date after X agreed with Y on which Z ..."; refs30)
    rf"|{_INTERPOSED_EVENT_BARE})"
)
_DEF_TIME_RE = re.compile(
    rf"^\s*(?:(?:the|which|what|every|each|all(?:\s+(?:of\s+)?the)?)\s+)?"
    rf"(?:(?:exact|specific|precise|particular|approximate|calendar|very|first|last|earliest|latest|final|initial|"
    rf"most\s+recent|(?:second|third)(?:\s+to\s+last)?)\s+)*"
    rf"(?P<noun>years?|months?|days?|dates?|time|period|point\s+in\s+time)"
    rf"(?P<more>(?:\s*(?:,|and)\s*(?:the\s+)?(?:year|month|day|date))*)"
    rf"{_NOUN_TIME_ADJUNCT}?(?P<between>{INTERPOSED_REF})?"
    rf"\s+(?:when|in\s+which|on\s+which|during\s+which|at\s+which|that|of\s+(?:the\s+)?(?:event|moment)\s+when"
    # "the year of the earliest time X ...", "the date of the most recent occasion (when) X ...":
    # the unit of a ranked occurrence is a time question; the rank word stays an ordinal cue
    rf"|of\s+the\s+(?:very\s+)?(?:first|earliest|initial|last|latest|final|most\s+recent|(?:second|third)(?:\s+to\s+last)?)"
    rf"\s+(?:time|occasion|instance|moment|day)\b)\b",
    re.I,
)


# "(Tell me / I'd like to know) the date X made a statement about Y ...", "the month of the
# earliest request to Y by X ...", "the date of X's visit to Y": a definite time noun opening the
# embedded question, followed directly by its clause (a contact relative, no "when / in which")
# or by "of" + an event noun phrase. Not a time cue of a fronted clause ("The day after X visited
# Y, who ...") and not a fronted adjunct before an entity question ("The day X visited Y, who
# ...?": no entity wh-word may follow, see _wh_time_noun). (nlu5's _DEF_TIME_BARE_RE and nlu6's
# _CONTACT_TIME_RE, merged: the union of their excluded next words.)
# names19: a rank adjective may stand in that noun phrase as it does in _DEF_TIME_RE ("the first
# date X visited Y after ...", "the last date X spoke by phone with Y"): the unit is still asked
# and the rank word stays the ordinal cue.
_CONTACT_TIME_RE = re.compile(
    rf"^\s*the\s+(?:(?:exact|specific|precise|particular|approximate|calendar|very|first|last|earliest|latest|"
    rf"final|initial|most\s+recent)\s+)*"
    rf"(?P<noun>years?|months?|days?|dates?)"
    rf"(?P<more>(?:\s*(?:,|and)\s*(?:the\s+)?(?:year|month|day|date))*)"
    # ... or directly a blanked name (two spaces or more in the masked question)
    rf"(?:\s+(?:of\s+(?!the\s+same\b)|(?!(?:after|before|following|prior|later|earlier|ahead|preceding|since|until|"
    rf"of|in|on|at|during|for|to|from|by|as|when|that|which|where|who|whom|what|and|or|is|was|\d+)\b)[\w'])|\s{{2,}}\S)",
    re.I,
)
_ENTITY_WH_RE = re.compile(r"\b(?:who|whom|whose|which|what)\b", re.I)
# "The year that X V Y, which country ...?": the time noun phrase is a fronted adjunct and
# the question word after the comma asks (the wh-scan below decides what)
_FRONTED_RE = re.compile(r",\s*(?:who|whom|whose|which|what)\b", re.I)


def _contact_time(question: str) -> re.Match | None:
    m = _CONTACT_TIME_RE.match(question)
    return m if m and not _ENTITY_WH_RE.search(question, m.end()) else None


def _wh_time_noun(question: str) -> str | None:
    """The time unit asked for ("year"/"month"/"day"...) or None when the answer is no time.
    Reads through a wrapper ("Could you tell me the exact month when ..."); a closing unit
    sentence ("... ? Just the month, please.") names the unit of a time question."""
    unit = trailing_unit(question)
    question = strip_wrapper(question)
    if unit:
        return unit
    m = _IMPERATIVE_TIME_RE.search(question)
    if m:
        return m.group(1).lower()
    m = _DEF_TIME_RE.match(question)
    if m and not _FRONTED_RE.search(question, m.end()):
        return _unit_of(m.group("noun"), m.group("more"))
    m = _contact_time(question)
    if m:
        return _unit_of(m.group("noun"), m.group("more"))
    for m in _WH_RE.finditer(question):
        w = m.group(1).lower()
        if w == "when":
            # a question word at the start, the end or before an auxiliary ("when did ..."); else a
            # conjunction ("15 days earlier than when X met Y, whom did ..."). After a cue's
            # clause words it is always the conjunction, even when the name between it and the
            # verb was blanked ("following the time when ____ was upbeat about ...")
            if _WHEN_CONJ_RE.search(question, 0, m.start()):
                continue
            if not question[: m.start()].strip() and _FRONTED_CLAUSE_RE.match(question, m.end()):
                continue  # "When X had visited Y, who ...?": a fronted clause, not the question word
            if (not question[: m.start()].strip() or _AUX_AFTER_RE.match(question, m.end())
                    or not question[m.end():].strip(" ?.!")):  # "... visited Japan when?"
                return "when"
            continue
        if w in ("which", "what"):
            t = _WH_TIME_RE.match(question[m.end():])
            if t:
                return t.group(1).lower()
        # the first wh-word that is not followed by a time noun decides: entity
        if w in ("who", "whom", "whose"):
            return None
        if w in ("which", "what"):
            # "which country ... in what year": keep scanning only for an explicit time noun
            rest = question[m.end():]
            if re.search(rf"\b(?:in|on|during)\s+(?:which|what)\s+{_TIME_NOUN}\b", rest, re.I):
                continue
            return None
    return None


def _unit_of(noun: str, more: str | None = None) -> str:
    """"year" + ", month and day" -> "day"; the finest unit named wins."""
    words = re.findall(r"year|month|day|date", f"{noun} {more or ''}".lower())
    if any(w in ("day", "date") for w in words):
        return "day"
    if "month" in words:
        return "month"
    n = noun.lower()
    return n[:-1] if n in ("years", "months", "days", "dates") else n


def infer_answer_type(question: str) -> str:
    """``"time"`` when the question asks for a time (when / what year / which month / the
    date ...), else ``"entity"``. Reads the question text only, through any wrapper."""
    return "time" if _wh_time_noun(question) else "entity"


def infer_time_level(question: str, cues: list[Cue] | None = None) -> str:
    """Granularity of the question: the unit asked for in a time question (``when`` = day),
    else the granularity of its explicit time / same-unit cue, else ``"day"``."""
    w = _wh_time_noun(question)
    if w:
        unit = trailing_unit(question)
        if unit:
            return unit
        q = strip_wrapper(question)
        if (_DEF_TIME_RE.match(q) or _contact_time(q)) and not _IMPERATIVE_TIME_RE.search(q):  # unit already combined
            return {"year": "year", "month": "month"}.get(w, "day")
        m = _WH_RE.search(q) if w != "when" else None
        near = q[m.end() : m.end() + 30].lower() if m else ""
        if re.search(r"\b(?:day|date)\b", near):  # "what year, month and day"
            return "day"
        if w.startswith("year") and re.search(r"\bmonth\b", near):  # "what year and month"
            return "month"
        if w.startswith("year"):
            return "year"
        if w.startswith("month"):
            return "month"
        return "day"
    cues = parse_temporal_cues(question) if cues is None else cues
    for c in cues:
        if c.kind in ("time", "interval") and c.granularity:
            return c.granularity
    for c in cues:
        if c.kind == "event" and c.granularity:
            return c.granularity
    return "day"


__all__ = ["Cue", "INTERPOSED_REF", "find_dates", "infer_answer_type", "infer_time_level", "parse_temporal_cues"]
