"""Tokenisation shared by the entity matcher, cue parser and relation-phrase extraction.

One tokenizer everywhere so that a KG name and its mention in a question split the same way:
words, numbers and single punctuation marks (so ``Citizen (North Korea)`` matches whether or
not the question spaces the parentheses). Tokens carry character offsets into the original
string, which lets callers mask spans (entity mentions, dates) before further parsing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterator

_TOKEN_RE = re.compile(r"\w+|['’]s\b|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # original surface
    norm: str  # casefolded, accents stripped
    start: int  # char offset (inclusive)
    end: int  # char offset (exclusive)


def fold(text: str) -> str:
    """Case- and accent-insensitive form used for matching (``Côte`` == ``cote``)."""
    if text.isascii():  # the common case: no accents to strip (profiled: NFKD dominated tokenize)
        return text.casefold()
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    return t.casefold().replace("’", "'")


def tokenize(text: str) -> list[Token]:
    return [Token(m.group(0), fold(m.group(0)), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def norms(text: str) -> list[str]:
    """The folded tokens of ``text`` without their offsets: ``[t.norm for t in tokenize(text)]``,
    ~3x faster (no Token objects; the relation lexicon and the name indices fold ~190k
    strings at start-up on the real KG, where tokenize dominated the profile)."""
    return [fold(w) for w in _TOKEN_RE.findall(text)]  # the pattern has no groups: whole matches


def norm_tokens(text: str) -> tuple[str, ...]:
    """Folded token tuple of a name (``_`` counts as a space, KG form == display form)."""
    return tuple(norms(text.replace("_", " ")))


def drop_article(mention: str) -> str:
    """A mention without its leading article ("the IMF" -> "IMF"): the bare form that name
    lookups and acronym tables are keyed by."""
    return re.sub(r"^(?:the|a|an)\s+", "", mention.strip(), flags=re.I)


def mask_spans(text: str, spans: list[tuple[int, int]], fill: str = " ") -> str:
    """Blank out ``spans`` keeping offsets (so later regexes cannot match inside them)."""
    chars = list(text)
    for a, b in spans:
        for i in range(max(a, 0), min(b, len(chars))):
            chars[i] = fill
    return "".join(chars)


@lru_cache(maxsize=65536)
def name_pattern(name: str) -> re.Pattern[str]:
    """The one name-boundary pattern: ``name`` casefolded, not inside a longer word (``Iran``
    does not match in ``Iranian``; punctuation inside a name is literal). Search it in a
    casefolded text (:func:`name_spans`)."""
    return re.compile(r"(?<!\w)" + re.escape(name.casefold()) + r"(?!\w)")


def name_spans(text: str, name: str) -> list[tuple[int, int]]:
    """Character spans where ``name`` occurs in ``text`` as a whole name (case-insensitive)."""
    return [m.span() for m in name_pattern(name).finditer(text.casefold())]


# The one definition of the words that introduce an event clause after an order cue
# ("after *the time that* X visited Y", "before *the moment when* ..."). Composed below into the
# two forms readers need; method parsers use these instead of their own copies.
# "the time/moment/point (that|when)": nouns of a point in time that take a relative clause
TIME_CLAUSE = r"the\s+(?:time|moment|point|instant|occasion)(?:\s+(?:that|when|at\s+which))?"
# right after a cue's own words (nlu.signals: an order cue's span includes these words)
CUE_TIME_CLAUSE_RE = re.compile(rf"(?:\s+{TIME_CLAUSE})?", re.I)
# the whole gap between an order cue and its reference's first name: "after, as the time
# that the ...", "same month in which ...": match or fullmatch it on the text after the cue
EVENT_CLAUSE_GAP_RE = re.compile(
    rf"[\s,]*(?:as\s+|that\s+|when\s+|in\s+which\s+|on\s+which\s+)?(?:{TIME_CLAUSE}\s+)?(?:the\s+)?", re.I
)


# words a KG name's initials skip (entities: acronyms; actors: an organisation place by its initials)
# a reading is the one the KG usually means when it has this many times the facts of the next
# (a name word's bearer: nlu.names; a sector form's actor: nlu.actors._dominant_reading)
DOMINANCE = 5.0

INITIAL_SKIP = {"of", "the", "and", "for", "in", "on", "to", "a", "an", "s", "de", "la", "du", "-", "'", "’", ",", ".", "–", "&", "/"}


def initials(name: str) -> str:
    """Upper-case initials of a KG name's content words (``International_Monetary_Fund`` ->
    ``IMF``; ``Japan_Self-Defense_Forces`` -> ``JSDF``); "" for actors (a parenthesised place)
    and names of fewer than three content words."""
    if "(" in name:
        return ""
    words = [t for t in norm_tokens(name) if t not in INITIAL_SKIP and t[:1].isalpha()]
    return "".join(w[0] for w in words).upper() if len(words) >= 3 else ""


def data_lines(fname: str) -> Iterator[list[str]]:
    """The tab-separated fields of each row of ``nlu/data/<fname>`` (blank lines and ``#``
    comments skipped): the one reader of the package's word lists (sectors, places,
    agreement, person names, spellings)."""
    text = resources.files("tkgqa_ray.nlu").joinpath("data", fname).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            yield line.split("\t")
