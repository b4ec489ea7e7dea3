"""Pydantic schemas of SCoP's four JSON roles, with the paper's invariants as validators.

A role output that violates an invariant (a ``?`` in an anchor, a search triple without
exactly one ``?`` in subject/object, temporal words inside a slot, an unknown operator) fails
validation, which the backbone records as a parse failure (and retries for LLMs).
"""

from __future__ import annotations

import re
from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from .types import UNKNOWN
# Temporal words/expressions that must never sit inside a triple slot (they are constraints).
_TEMPORAL_IN_SLOT = re.compile(
    r"\b(?:before|after|prior to|same (?:day|month|year)|(?:in|on|during) (?:1[5-9]|20)\d\d|"
    r"(?:1[5-9]|20)\d\d-\d\d(?:-\d\d)?)\b",
    re.I,
)
# (first/last and month names are not checked: KG names such as "First Lady" contain them.)


def _check_slot(x: str, where: str) -> str:
    if not isinstance(x, str) or not x.strip():
        raise ValueError(f"{where}: empty slot")
    if x != UNKNOWN and "?" in x:
        raise ValueError(f"{where}: '?' may only be a whole slot")
    if x != UNKNOWN and _TEMPORAL_IN_SLOT.search(x.replace("_", " ")):
        raise ValueError(f"{where}: temporal expression inside a triple slot: {x!r}")
    return x.strip()


def _check_anchor(t: list[str], i: int) -> list[str]:
    if len(t) != 3:
        raise ValueError(f"anchor {i}: a triple has 3 slots, got {len(t)}")
    t = [_check_slot(x, f"anchor {i}") for x in t]
    if UNKNOWN in t:
        raise ValueError(f"anchor {i}: anchors are complete events and never contain '?'")
    return t


def _check_search(t: list[str]) -> list[str]:
    if len(t) != 3:
        raise ValueError(f"search: a triple has 3 slots, got {len(t)}")
    t = [_check_slot(x, "search") for x in t]
    if t.count(UNKNOWN) != 1 or t[1] == UNKNOWN:
        raise ValueError("search: exactly one '?', in the subject or object slot")
    return t


class TriplesOutput(BaseModel):
    """Event parser and aligner output: anchors (complete) + optional search triple."""

    model_config = ConfigDict(extra="ignore")
    anchors: list[list[str]] = Field(default_factory=list)
    search: Optional[list[str]] = None

    @field_validator("anchors")
    @classmethod
    def _anchors(cls, v: list[list[str]]) -> list[list[str]]:
        return [_check_anchor(t, i) for i, t in enumerate(v)]

    @field_validator("search")
    @classmethod
    def _search(cls, v: Optional[list[str]]) -> Optional[list[str]]:
        return None if v is None else _check_search(v)

    @model_validator(mode="after")
    def _nonempty(self) -> "TriplesOutput":
        if not self.anchors and self.search is None:
            raise ValueError("no anchor and no search triple: nothing to retrieve")
        return self


class EventParserOutput(TriplesOutput):
    # Set only by the symbolic parser when no strict reading exists (the reason; the triples are
    # its best relaxed reading). Hidden from the JSON schema an LLM is shown: not its job.
    relaxed: SkipJsonSchema[Optional[str]] = None


class AlignerOutput(TriplesOutput):
    pass


class ConstraintModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    ref_type: Literal["event", "explicit_time", "explicit_interval"]
    operator: Literal["before", "after", "equal", "inside", "overlap"]
    reference: Union[int, str, list[str]]
    granularity: Optional[Literal["day", "month", "year"]] = None
    offset: Optional[int] = 0

    @model_validator(mode="after")
    def _shape(self) -> "ConstraintModel":
        if self.ref_type == "event" and not isinstance(self.reference, int):
            raise ValueError("event constraint: reference must be an anchor index (int)")
        if self.ref_type == "explicit_time" and not isinstance(self.reference, str):
            raise ValueError("explicit_time constraint: reference must be a time string")
        if self.ref_type == "explicit_interval" and not (isinstance(self.reference, list) and len(self.reference) == 2):
            raise ValueError("explicit_interval constraint: reference must be [start, end]")
        if self.offset is None:
            self.offset = 0
        if self.offset < 0:
            raise ValueError("offset must be a non-negative day count")
        if self.offset and self.operator not in ("before", "after"):
            raise ValueError("an offset needs operator before/after")
        if self.granularity is not None and self.operator != "equal":
            self.granularity = None  # granularity is only meaningful for equal
        return self


class RankingModel(BaseModel):
    model_config = ConfigDict(extra="ignore")
    order: Literal["asc", "desc"]
    k: int = Field(default=1, ge=1)


class ConstraintOutput(BaseModel):
    model_config = ConfigDict(extra="ignore")
    constraints: list[ConstraintModel] = Field(default_factory=list)
    ranking: Optional[RankingModel] = None


class AnswerOutput(BaseModel):
    model_config = ConfigDict(extra="ignore")
    answers: list[str] = Field(default_factory=list)

    @field_validator("answers")
    @classmethod
    def _clean(cls, v: list[str]) -> list[str]:
        out = []
        for a in v:
            a = str(a).strip()
            if a and a not in out:
                out.append(a)
        return out


__all__ = [
    "AlignerOutput",
    "AnswerOutput",
    "ConstraintModel",
    "ConstraintOutput",
    "EventParserOutput",
    "RankingModel",
    "TriplesOutput",
]
