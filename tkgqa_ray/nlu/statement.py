"""A reference event stated before the question and pointed back to by an anaphor.

People often state the reference first and then ask about it: "Sylvia Masebo condemned
Rupiah Banda. Who did the same thereafter?", "X signed an agreement with Y; 6 days earlier, who
did Z arrest?", "Consider X's appeal to Ireland: who else urged it earlier on?", "Counting
from the day X met Y, whom did Z visit 10 days earlier?", "Take 7 August 2010 as the reference
point: whom did X ask earlier?". The statement is a clause of its own (ended by ``. ; :`` or,
after a framing lead such as "Counting from the day", by a comma); the question refers back
with a temporal anaphor: an adverb ("thereafter", "earlier on", "beforehand", "afterwards"),
an operator + "that" ("after that", "12 days before that"), or a same-unit phrase with no
event of its own ("that same day", "on the very day", "during that same month").

:func:`statement_reference` finds the statement and the anaphor; the analysis then reads the
statement as the reference clause of that cue (or, for a statement that is only a date, gives
the date the anaphor's operator).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .temporal import _NUM_WORDS, Cue

# a framing lead of the statement (dropped from its relation phrase)
LEAD_RE = re.compile(
    r"^\s*(?:(?:we|i)\s+know\s+that|it\s+is\s+known\s+that|(?:note|given|recall|remember|suppose)\s+that|given|"
    r"consider(?:ing)?|take|taking|with|using|counting\s+from|starting\s+from|(?:as|from)\s+of|"
    r"(?:counting|starting|measured)\s+from)\b(?:\s+the\s+(?:day|date|time|moment|month|year)(?:\s+(?:that|when|on\s+which))?)?",
    re.I,
)
# the end of the statement: a sentence end, a semicolon or colon (a comma only after a lead,
# or before "and" + a same-unit anaphor: "X praised Y, and in the same month Z ...")
_END_RE = re.compile(r"[.;:!?](?=\s+\S)")
_COMMA_RE = re.compile(r",")
_AND_RE = re.compile(r",?\s+and\s+(?=(?:in|on|during|within|that|the)\b)", re.I)
# "X visited Y, (and) then / after which / and after that who ...?": a comma (and "and") before
# an anaphor of sequence that opens the question also ends the statement
_SEQ_COMMA_RE = re.compile(
    r",\s*(?:and\s+)?(?=(?:then|after\s+(?:that|this|which)|afterwards?|thereafter|subsequently|later(?:\s+on)?|"
    r"before\s+(?:that|this|which)|earlier(?:\s+on)?|previously|beforehand)\b\s*,?\s*(?:who|whom|whose|which|what|when)\b)",
    re.I,
)
_WH_RE = re.compile(r"\b(?:who|whom|whose|which|what|when)\b", re.I)

# adverbs and operator phrases that point back to the statement
_ANAPHOR_RE = re.compile(
    r"\b(?:"
    r"(?P<before>before\s+(?:that|this|then|it|which)|prior\s+to\s+(?:that|this|it|then)|earlier\s+on|earlier(?!\s+than)|beforehand|"
    r"previously|ahead\s+of\s+(?:that|this|it)|in\s+advance\s+of\s+(?:that|this))"
    r"|(?P<after>after\s+(?:that|this|then|it|which)|then(?=\s*,|\s+(?:who|whom|whose|which|what|when)\b)|following\s+(?:that|this)|subsequent\s+to\s+(?:that|this)|later\s+on|"
    r"later(?!\s+than)|afterwards?|thereafter|subsequently|since\s+then|in\s+the\s+wake\s+of\s+(?:that|this|it))"
    r")\b",
    re.I,
)
# "N days later / earlier / afterwards / beforehand" (an offset with no event after it)
_OFFSET_ANAPHOR_RE = re.compile(
    r"\b(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|a)\s+(?P<unit>days?|weeks?)\s+"
    r"(?P<op>later|earlier|afterwards?|beforehand|before|after)\b(?!\s+(?:than|the|a|an)\b)",
    re.I,
)
_SAME_ANAPHOR_RE = re.compile(
    r"\b(?:(?:on|in|during|within)\s+)?(?:that|the)\s+(?:(?:very|same|exact)\s+)+(?P<g>day|date|month|year)\b"
    r"|\b(?:on|in|during)\s+that\s+(?P<g2>day|month|year)\b",
    re.I,
)


@dataclass(frozen=True)
class Statement:
    """The stated reference: its char span and the anaphoric cue of the question."""

    start: int
    end: int
    cue: Cue


def _statement_end(masked: str, cues: list[Cue]) -> int | None:
    lead = LEAD_RE.match(masked)
    ends = [m.start() for m in _END_RE.finditer(masked)]
    if lead:  # the first comma after the lead that is not inside a date ("July 25, 2005")
        dates = [(c.start, c.end) for c in cues if c.kind in ("time", "interval")]
        c = next((m for m in _COMMA_RE.finditer(masked, lead.end()) if not any(a <= m.start() < b for a, b in dates)), None)
        if c:
            ends.append(c.start())
    for rx in (_AND_RE, _SEQ_COMMA_RE):
        a = rx.search(masked)
        if a:
            ends.append(a.start())
    ends = [e for e in ends if masked[:e].strip()]
    return min(ends) if ends else None


def anaphoric_cue(masked: str, start: int, cues: list[Cue], empty: list[Cue]) -> Cue | None:
    """The first temporal anaphor at or after ``start``: an event cue of ``empty`` (the
    analysis found no name in its clause: "after that", "that same day", "17 days after
    that"), else an adverb or an offset with no event ("earlier on", "6 days later")."""
    found: list[Cue] = [c for c in empty if c.start >= start]
    def free(a: int, b: int) -> bool:
        return not any(a < c.end and c.start < b for c in cues)
    for m in _OFFSET_ANAPHOR_RE.finditer(masked, start):
        if free(*m.span()):
            n = _NUM_WORDS.get(m.group("n").lower()) or int(m.group("n"))  # the cue parser's number words
            days = n * (7 if m.group("unit").lower().startswith("week") else 1)
            op = "before" if m.group("op").lower() in ("earlier", "beforehand", "before") else "after"
            found.append(Cue("event", m.start(), m.end(), m.group(0), op=op, offset=days))
    for m in _SAME_ANAPHOR_RE.finditer(masked, start):
        if free(*m.span()) and not any(f.start <= m.start() < f.end for f in found):
            g = (m.group("g") or m.group("g2")).lower()
            found.append(Cue("event", m.start(), m.end(), m.group(0), op="equal", granularity="day" if g == "date" else g))
    for m in _ANAPHOR_RE.finditer(masked, start):
        if free(*m.span()) and not any(f.start <= m.start() < f.end for f in found):
            found.append(Cue("event", m.start(), m.end(), m.group(0), op="before" if m.group("before") else "after"))
    if not found and not any(c.kind == "event" and c.start >= start for c in cues):
        # "X visited Y. Who was next?", "...; who was the previous visitor?": with no other
        # anaphor, the order word itself points back (next = after the statement, previous =
        # before it); its rank stays the ordinal cue that already covers it. (Not when the
        # question names its own reference: "X did Y. Who did so next, after Z?")
        for m in _ORDER_ANAPHOR_RE.finditer(masked, start):
            if not any(m.start() < c.end and c.start < m.end() for c in cues if c.kind != "ordinal"):
                found.append(Cue("event", m.start(), m.end(), m.group(0), op="before" if m.group("before") else "after"))
                break
    if not found and not any(c.kind == "event" and c.start >= start for c in cues):
        # "Niger visited Mauritania. Who had it visited last?": a past perfect question is
        # anterior to the stated (simple past) event -- before it (the tense is the cue: an empty
        # span before the auxiliary, which stays a word of the question's clause)
        m = _PERFECT_AUX_RE.search(masked, start)
        if m:
            found.append(Cue("event", m.start(), m.start(), "", op="before"))
    return min(found, key=lambda c: c.start) if found else None


_PERFECT_AUX_RE = re.compile(r"\bhad(?=\s+(?:\S+\s+){0,3}?(?:been|gone|done|met|made|\w+(?:ed|en|t|wn))\b)", re.I)


_ORDER_ANAPHOR_RE = re.compile(
    r"\b(?:(?P<after>next)(?!\s+(?:day|week|month|year|time)s?\b)|(?P<before>previous)(?!\s+to\b))\b", re.I
)


def statement_reference(masked: str, mention_starts: list[int], cues: list[Cue], empty: list[Cue]) -> Statement | None:
    """The statement before the question and its anaphor, or None. ``masked``: the question
    with names and wrapper blanked; ``empty``: event cues whose clause holds no name. A
    statement has no wh-word and at least two names (one event), or a date ("Take 7 August
    2010 as the reference point: ...")."""
    end = _statement_end(masked, cues)
    if end is None:
        return None
    head = masked[:end]
    if _WH_RE.search(head) or not masked[end + 1 :].strip(" ?.!"):
        return None
    names = sum(1 for s in mention_starts if s < end)
    times = [c for c in cues if c.kind == "time" and c.end <= end]
    if names < 2 and not times:
        return None
    if any(c.kind == "event" and c.end <= end for c in cues):
        return None  # the statement carries its own temporal reference: not this form
    cue = anaphoric_cue(masked, end, cues, empty)
    if cue is None:
        return None
    return Statement(0, end, cue)


__all__ = ["LEAD_RE", "Statement", "anaphoric_cue", "statement_reference"]
