"""Typed values that flow between SCoP's stages (kept JSON-friendly for the trace).

A triple's slots are strings: a KG name once aligned, else the question's surface form, or
``"?"`` for the asked slot of the search triple. Constraint κ = (ref_type, operator,
reference, granularity, offset) and ranking ρ = (order, k) follow the paper's Table 1.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
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
class AlignedTriple:
    """A triple after Stage III plus how each slot was grounded ("kg" or "surface")."""

    triple: Triple
    raw: Triple
    grounding: tuple[str, str, str] = ("surface", "surface", "surface")
    fact_level: bool = False  # anchor grounded as one complete KG triple
    reversed: bool = False  # search triple orientation repaired

    def to_json(self) -> dict[str, Any]:
        return {
            "triple": self.triple.as_list(),
            "raw": self.raw.as_list(),
            "grounding": list(self.grounding),
            "fact_level": self.fact_level,
            "reversed": self.reversed,
        }


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


@dataclass
class Evidence:
    """What Stage IV hands to the answerer, plus the counts the evidence metrics need."""

    search_facts: list[int] = field(default_factory=list)  # ranked / filtered fact ids
    anchor_facts: list[list[int]] = field(default_factory=list)  # per anchor
    initial_count: int = 0
    final_count: int = 0
    mode: str = "search"  # "search" | "anchor_only" | "none"
    notes: list[str] = field(default_factory=list)
