"""Typed values that flow between SCoP's stages (the trace gets their ``to_json`` forms).

A triple's slots are strings: a KG name once aligned, else the question's surface form, or
``"?"`` for the asked slot of the search triple. Constraint κ = (ref_type, operator,
reference, granularity, offset) and ranking ρ = (order, k) follow the paper's Table 1.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

UNKNOWN = "?"
RefType = Literal["event", "explicit_time", "explicit_interval"]
Operator = Literal["before", "after", "equal", "inside", "overlap"]


@dataclass(frozen=True, slots=True)
class Triple:
    s: str
    r: str
    o: str

    @classmethod
    def of(cls, x: Any) -> "Triple":
        if isinstance(x, Triple):
            return x
        if isinstance(x, dict):
            return cls(str(x["s"]), str(x["r"]), str(x["o"]))
        s, r, o = x
        return cls(str(s), str(r), str(o))

    def as_list(self) -> list[str]:
        return [self.s, self.r, self.o]

    @property
    def open_slot(self) -> str | None:
        if self.s == UNKNOWN:
            return "subject"
        if self.o == UNKNOWN:
            return "object"
        return None

    def reversed(self) -> "Triple":
        return Triple(self.o, self.r, self.s)


@dataclass(frozen=True, slots=True)
class Reading:
    """One grounding of a question's triples: complete anchors (in order; event constraints
    refer to them by index) and at most one search triple with exactly one ``?``. Stage I/II
    produce the raw reading, Stage III the aligned one and its alternatives."""

    anchors: tuple[Triple, ...] = ()
    search: Triple | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Reading":
        """From a role output ``{"anchors": [[s, r, o], ...], "search": [s, r, o] | None}``."""
        search = d.get("search")
        return cls(tuple(Triple.of(t) for t in d.get("anchors") or []), Triple.of(search) if search else None)

    @property
    def empty(self) -> bool:
        return not self.anchors and self.search is None

    def to_json(self) -> dict[str, Any]:
        return {"anchors": [t.as_list() for t in self.anchors], "search": None if self.search is None else self.search.as_list()}


@dataclass(frozen=True, slots=True)
class AltReading:
    """An alternative grounding from alignment's candidates: ``changed`` says which triple it
    varies (``"search"`` or ``"anchor:i"``), ``swap`` whether a lexicon reading swapped
    subject and object, ``score`` the sum of its slot similarities."""

    reading: Reading
    changed: str
    swap: bool
    score: float


@dataclass(frozen=True, slots=True)
class Constraint:
    """κ: reference is an anchor index (event), a time string (explicit_time) or a pair of
    time strings (explicit_interval). granularity only for ``equal``; offset in days >= 0."""

    ref_type: RefType
    operator: Operator
    reference: int | str | tuple[str, str]
    granularity: str | None = None
    offset: int = 0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        if isinstance(self.reference, tuple):
            d["reference"] = list(self.reference)
        return d


@dataclass(frozen=True, slots=True)
class Ranking:
    """ρ: sort admissible candidates by start day, ``asc`` (first) or ``desc`` (last)."""

    order: Literal["asc", "desc"]
    k: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "k": self.k}


@dataclass(frozen=True)
class Evidence:
    """What Stage IV hands to the answerer (fact ids), plus the counts the evidence metrics
    and the trace report."""

    mode: Literal["search", "anchor_only", "none"]
    target_facts: list[int]  # RankSelect order, at most the evidence cap
    anchor_facts: list[list[int]]  # per anchor, the first few facts (answerer context)
    anchor_counts: list[int]  # per anchor, how many facts resolve it
    initial: int  # structural candidates before the constraints
    admissible: int  # after the constraints
    final: int  # len(target_facts)


# Shared-action alignment (alignment.py and the symbolic aligner, symbolic.py): a relation shared by
# the asked event and a reference that repeats its action must read each clause's phrase within
# this of that clause's best reading. Here, in the leaf module, so the two need not import each other.
SHARE_MARGIN = 0.25
