"""Question wrappers: the polite or indirect frame around a question ("Could you tell me the
exact month when ...", "Do you know in which year ...", "I'd like to know the date on which
...", "I wonder which country ...", "..., please?").

A wrapper is a speech act (asking, telling, wondering, wanting to know) wrapped around an
*embedded* question. It carries no slot content: its words must never reach a relation
phrase or an entity slot, and the answer type / granularity are read from what it embeds.
The grammar is built from the parts of such frames, not from a list of sentences:

* an optional greeting / "please";
* a request for telling (``could|can|would|will you (please) tell|show|let me (know)``,
  ``tell me``, ``let me know``), for finding (``can you find out|check|look up|say|name``),
  a question about knowing (``do you (happen to) know|remember``, ``any idea``), or a
  statement of wanting to know / wondering (``I'd like to know``, ``I want to find out``,
  ``I wonder``, ``I'm curious (to know)``, ``I need to know``);
* optional "please", "if you can", a comma or colon.

A trailing frame (``..., please?``, ``..., do you know?``, ``..., if you can.``) is masked
the same way. :func:`wrapper_spans` returns the character spans; callers blank them with
:func:`~tkgqa_ray.nlu.text.mask_spans` (offsets are kept) before any other reading.
"""

from __future__ import annotations

import re
from functools import lru_cache

_YOU = r"(?:you|someone|anyone|somebody|anybody)"
_TELL = r"(?:tell|show|let|inform|remind)\s+(?:me|us)(?:\s+know)?(?:\s+about)?"
_FIND = (
    r"(?:find\s+out|figure\s+out|work\s+out|check|look\s+up|say|name|identify|determine|confirm|recall|"
    r"remember|share|give\s+me|provide|point\s+out|pin\s+down|clarify|explain|list|find(?:\s+me)?)"
)
_KNOW = r"(?:know|find\s+out|learn|understand|figure\s+out|check|ask|hear|see)"
# the words of a definite time noun phrase after "the": "(the) last date", "(the) exact months"
_TIME_NP = r"(?:(?:exact|precise|specific|first|last|earliest|latest|final|most\s+recent)\s+)*(?:years?|months?|days?|dates?)\b"
_LEAD = (
    r"(?:(?:hi|hello|hey|excuse\s+me|sorry)[,!.]?\s+)?"
    r"(?:(?:please|kindly|so|ok(?:ay)?|well|quick\s+question)[,:]?\s+)?"
)
_FRAME = (
    # could you (please) tell me / can you find out / would you mind telling me
    rf"(?:could|can|would|will|might)\s+{_YOU}\s+(?:please\s+|kindly\s+|possibly\s+|maybe\s+)?"
    rf"(?:(?:help\s+me\s+)?{_TELL}|{_FIND}|help\s+me\s+{_KNOW})"
    rf"|would\s+you\s+mind\s+(?:telling|showing|letting)\s+(?:me|us)(?:\s+know)?"
    # refs31: asking whether it is possible to tell / find: "Would it be possible to tell me the
    # last date ...", "Is it possible for you to find out who ..."
    rf"|(?:would|will|is|might)\s+it\s+be\s+possible\s+(?:for\s+{_YOU}\s+)?to\s+(?:{_TELL}|{_FIND})"
    rf"|is\s+it\s+possible\s+(?:for\s+{_YOU}\s+)?to\s+(?:{_TELL}|{_FIND})"
    # refs31: a pseudo-cleft of wanting to know: "What I'd like to know is the month in which
    # ...", "What I want to find out is who ...", "What we need to know is when ..."
    rf"|what\s+(?:i|we)(?:'d|\s+would|\s+should)?\s+(?:like|love|want|need|wish|hope)\s+to\s+{_KNOW}\s+is"
    rf"|what\s+(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:asking|wondering|curious\s+about|trying\s+to\s+{_KNOW})\s+is"
    # do you (happen to) know / does anyone remember / have you any idea
    rf"|(?:do|does|did)\s+{_YOU}\s+(?:happen\s+to\s+|possibly\s+|by\s+any\s+chance\s+)?(?:know|remember|recall|have\s+any\s+idea)"
    # ... and its modal form: "would you (happen to) know", "might anyone remember" (refs29)
    rf"|(?:would|could|might|will)\s+{_YOU}\s+(?:happen\s+to\s+|possibly\s+|by\s+any\s+chance\s+)?(?:know|remember|recall|have\s+any\s+idea)"
    rf"|(?:have\s+you\s+(?:got\s+)?|do\s+you\s+have\s+)?any\s+idea"
    # I'd like to know / I want to find out / we need to know / I'm trying to figure out
    rf"|(?:i|we)(?:'d|\s+would|\s+should)\s+(?:like|love|want)\s+to\s+{_KNOW}"
    rf"|(?:i|we)\s+(?:want|wish|need|hope|would\s+like)\s+to\s+{_KNOW}"
    # refs31: "I'd appreciate knowing in which year ...", "I would appreciate it if you told me who ..."
    rf"|(?:i|we)(?:'d|\s+would)\s+(?:really\s+)?appreciate\s+(?:knowing|learning|finding\s+out|hearing"
    rf"|(?:it\s+)?if\s+{_YOU}\s+(?:could\s+|would\s+)?(?:{_TELL}|told\s+(?:me|us)|{_FIND}))"
    # "I need the date X ...", "We want the month of the last time ...": a statement of
    # needing what a definite time noun names (the noun itself stays: it is the question).
    # refs26: a rank word may stand in the noun phrase ("I need the last date on which ..."),
    # and the same holds for a question of having it ("Do you have the days on which ...",
    # "Could I get the month ...") and for looking for it ("I'm looking for the date when
    # ..."); before the "I'm looking" below, which would leave "for the date" in the clause
    rf"|(?:(?:i|we)(?:\s+(?:really|just|only))?(?:\s+need|\s+want|'d\s+like|\s+would\s+like|(?:'m|'re|\s+am|\s+are)\s+(?:looking\s+for|after|searching\s+for))"
    rf"|(?:do|does|did)\s+{_YOU}\s+(?:happen\s+to\s+)?have|(?:could|can|may)\s+(?:i|we)\s+(?:please\s+)?(?:have|get|ask\s+(?:you\s+)?for))"
    rf"(?=\s+the\s+{_TIME_NP})"
    # (a finding verb after "trying to" asks for the time noun it names: "I'm trying to find the
    # last year in which ..."; the noun phrase stays, as for a bare "find the year", refs29)
    rf"|(?:i|we)(?:'m|'re|\s+am|\s+are|\s+was|\s+were)\s+(?:trying|hoping|looking|keen|eager|interested|curious)(?:\s+(?:to|in))?"
    rf"(?:\s+{_KNOW}|\s+knowing|\s+finding\s+out|\s+(?:find|look\s+up|determine|identify|pin\s+down)(?=\s+the\s+{_TIME_NP}))?"
    # I wonder / I was wondering / I'm curious about
    rf"|(?:i|we)(?:'m|'re|\s+am|\s+are|\s+was|\s+were)?\s+(?:wondering|wonder|curious)\b(?:\s+(?:about|to\s+know))?"
    # help me find out; tell me; let me know; please tell me
    rf"|help\s+me\s+{_KNOW}"
    rf"|{_TELL}"
    # asking for a list: "I'd like a list of (whom ...)", "Give me a list of ..."
    r"|(?:(?:i|we)(?:'d|\s+would)\s+(?:like|love|want)|(?:give|show|send)\s+(?:me|us))\s+(?:a|the)\s+(?:full\s+|complete\s+)?list\s+of(?=\s+(?:who|whom|which|what|all|every|the))"
    # a bare imperative of finding before a wh-clause: "Find out who ...", "Work out when ..."
    r"|(?:find\s+out|figure\s+out|work\s+out|look\s+up|determine|check)(?=\s+(?:who|whom|whose|which|what|when|in\s+which|on\s+which)\b)"
    # ... or before the time noun it asks for: "Please find the first date when ...", "Give me
    # the exact year in which ..." (the noun phrase stays: it carries the cue and the level)
    r"|(?:find(?:\s+out)?|look\s+up|determine|check|give\s+me|tell\s+me)(?=\s+the\s+(?:(?:first|last|earliest|latest|exact|precise)\s+)*(?:years?|months?|days?|dates?)\b)"
)
# a frame with its closing words ("..., please", "if you can") and punctuation
# (refs31: an adverb of knowing without looking it up may follow: "Do you know offhand who ...")
_FRAMED = rf"{_LEAD}(?:{_FRAME})(?:\s+(?:offhand|off\s+the\s+top\s+of\s+your\s+head))?(?:\s*,?\s*please)?(?:\s+if\s+you\s+(?:can|could|know|may))?\s*[,:;\-–—]?\s*"
# a preface closed by a colon or dash before the question (or its frame): an aside of the
# asker's ("Quick question: in which month ...", "I'm researching Gabonese politics: who did
# X consult ...", "One more thing - who ..."). It says why or how one asks, never what: no name,
# cue or action word of the question comes from it (refs26). A short run of words, no digit
# or date in it, followed by a question word or a frame.
_WH_AHEAD = r"(?=(?:who|whom|whose|which|what|when|where|how|in\s+which|on\s+which|during\s+which|at\s+which)\b)"
_PREFACE = (
    r"(?:(?:a\s+|one\s+)?(?:quick|short|simple|small|last|final|another)\s+question|(?:a\s+|one\s+)?question"
    r"|one\s+more\s+(?:thing|question)|(?:just\s+)?(?:out\s+of\s+)?curiosity|(?:just\s+)?curious"
    r"|(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:researching|studying|writing\s+(?:about|on)|working\s+on|reading\s+(?:up\s+)?(?:about|on)|looking\s+into)"
    r"(?:\s+[A-Za-z'’-]+){1,6})"
    r"\s*[:\-–—]\s*"
)
# refs31: the purpose of asking as a prepositional phrase before a frame, with or without a
# comma: "For a piece on Korean diplomacy I'd like to know who ...", "For my thesis, could you
# tell me ..."; a few words, then the frame (never a bare question word: "For which ..." asks)
_PURPOSE = (
    r"(?:for|in)\s+(?:a|an|my|our|the)\s+(?:(?:short|new|school|university|class|news)\s+)?"
    r"(?:piece|article|story|report|paper|project|essay|thesis|dissertation|study|class|course|book|blog(?:\s+post)?|post|talk|presentation|timeline|brief(?:ing)?)"
    r"(?:\s+(?:on|about|covering|into)(?:\s+[A-Za-z'’-]+){1,5}?)?\s*[,:\-–—]?\s+"
)

_LEAD_RE = re.compile(rf"^\s*(?:{_PREFACE}(?:{_FRAMED}|{_WH_AHEAD})|{_PURPOSE}{_FRAMED}|{_FRAMED})", re.I)
# the same frame opening a later sentence or following a fronted adjunct closed by a dash,
# colon or semicolon: "X criticised Y. Any idea who ... that same year?", "In 2012 — do you
# happen to know who ...?"
_INNER_LEAD_RE = re.compile(rf"(?<=[.?!;:\-–—])\s+{_FRAMED}", re.I)
_TRAIL_RE = re.compile(
    rf"(?:[,;\-–—]\s*|\s+)(?:please|if\s+you\s+(?:happen\s+to\s+)?(?:have|know|remember|recall)\s+(?:it|that|them|this)|if\s+you\s+(?:can|could|know|may)|(?:do|would|did)\s+{_YOU}\s+(?:happen\s+to\s+)?know|"
    rf"(?:could|can)\s+you\s+(?:please\s+)?tell\s+me|any\s+idea|thanks?(?:\s+you)?|thx|by\s+any\s+chance)"
    r"(?:\s*,?\s*(?:please|thanks?(?:\s+you)?))?\s*[?.!]*\s*$",
    re.I,
)


# A closing sentence (or clause after a semicolon) that only names the unit wanted: "... ? I
# need the year.", "Give me the month.", "Just the month, please.", "The year is enough.", "Only
# the day, thanks.", "...; give the year.", "Answer with the month." It carries
# the answer's granularity and no slot content.
_UNIT_TRAIL_RE = re.compile(
    r"(?<=[?.!;])\s*(?:(?:just|only)\s+)?(?:please\s+)?"
    r"(?:(?:i|we)(?:\s+(?:just|only))?(?:\s+need|\s+want|'d\s+like|\s+would\s+like)\s+"
    r"|(?:give|tell|send|state|provide|show)(?:\s+(?:me|us))?\s+|(?:answer|reply|respond)\s+(?:with|in)\s+)?"
    # "the month", or a bare list of units, finest first or last: "Month and year, please.",
    # "Day, month and year." (nlu12: the finest unit named is the one wanted)
    r"(?:(?:just|only)\s+)?(?:the\s+(?:exact\s+|precise\s+)?(?P<unit>year|month|day|date)"
    r"|(?P<units>(?:exact\s+|precise\s+)?(?:year|month|day|date)(?:\s*(?:,|and|&|/|,\s*and)\s*(?:year|month|day|date))+))"
    r"(?:\s+(?:is\s+(?:enough|fine|sufficient|plenty)|will\s+do|suffices|only|alone|please))?"
    r"(?:\s*,?\s*(?:please|thanks?(?:\s+you)?))?\s*[.!?]*\s*$",
    re.I,
)


def trailing_unit(question: str) -> str | None:
    """The unit ("year" / "month" / "day") named by a closing unit sentence, else None."""
    m = _UNIT_TRAIL_RE.search(question)
    if not m:
        m = _BY_UNIT_RE.search(question)
        return None if m is None else _finest(m.group("unit"))
    return _finest(m.group("unit") or m.group("units"))


# "When, by month, did X ...?", "When by year did X ...?": a parenthetical "by <unit>" right
# after "when" (or between commas) names the granularity of the answer (nlu12)
_BY_UNIT_RE = re.compile(r"(?:(?<=\bwhen)|,)\s*by\s+(?:the\s+)?(?P<unit>year|month|day|date)\s*(?=,|\?|$)", re.I)


def _finest(units: str) -> str:
    """The finest unit named in ``units`` ("month and year" -> "month"; "date" -> "day")."""
    words = re.findall(r"year|month|day|date", units.lower())
    return "day" if any(w in ("day", "date") for w in words) else ("month" if "month" in words else "year")


# "Who or what did X praise?", "whom or what": a doubled question word asks one thing; the
# second ("or what") is blanked like a wrapper (nlu11)
_WH_OR_RE = re.compile(r"\b(?:who|whom|what|which)(\s+or\s+(?:who|whom|what|which))\b", re.I)


@lru_cache(maxsize=16384)
def wrapper_spans(question: str) -> tuple[tuple[int, int], ...]:
    """Character spans of the question's wrapper words (leading frame, trailing frame).

    Empty when the question is asked directly. The embedded question is what remains; it
    may use statement word order ("in which year China visited Japan")."""
    spans: list[tuple[int, int]] = []
    u = _UNIT_TRAIL_RE.search(question)
    if u:
        spans.append(u.span())
        question = question[: u.start()] + " " * (len(question) - u.start())
    b = _BY_UNIT_RE.search(question)
    if b:
        spans.append(b.span())
    m = _LEAD_RE.match(question)
    lead_end = 0
    if m and m.end() > m.start() and question[m.end():].strip(" ?.!"):
        spans.append((m.start(), m.end()))
        lead_end = m.end()
    for i in _INNER_LEAD_RE.finditer(question, lead_end):
        if question[i.end():].strip(" ?.!"):
            spans.append((i.start() + len(i.group(0)) - len(i.group(0).lstrip()), i.end()))
    t = _TRAIL_RE.search(question, lead_end)
    if t and question[lead_end : t.start()].strip():
        spans.append(t.span())
    for w in _WH_OR_RE.finditer(question):
        spans.append(w.span(1))
    return tuple(sorted(spans))


def strip_wrapper(question: str) -> str:
    """The question with its wrapper words blanked (same length, offsets kept)."""
    sp = wrapper_spans(question)
    if not sp:
        return question
    chars = list(question)
    for a, b in sp:
        for i in range(a, b):
            chars[i] = " "
    return "".join(chars)


__all__ = ["strip_wrapper", "trailing_unit", "wrapper_spans"]
