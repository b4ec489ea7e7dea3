"""PoK plans: the planner's JSON schema and the validation the executor relies on.

A plan is a list of steps, each one of the three operators Retrieve / Rank / Reason, with
``[answer i]`` (1-based) referring to the output of an *earlier* step. Validation rejects other
operators, references to the current or a later step, a Rank or Reason with no facts before it,
and a plan that does not end in Reason.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator

OPS = ("Retrieve", "Rank", "Reason")
REF = re.compile(r"\[answer\s*(\d+)\]", re.I)
MAX_STEPS = 8


class PlanStep(BaseModel):
    op: Literal["Retrieve", "Rank", "Reason"] = Field(description="Retrieve | Rank | Reason")
    text: str = Field(description="the sub-objective; [answer i] refers to step i's output")

    @field_validator("op", mode="before")
    @classmethod
    def _norm_op(cls, v):  # "retrieve" / "Rerank" are the same operators
        if isinstance(v, str):
            t = v.strip().rstrip(":").capitalize()
            return {"Rerank": "Rank", "Re-rank": "Rank", "Reasoning": "Reason"}.get(t, t)
        return v


class PlanOutput(BaseModel):
    steps: list[PlanStep] = Field(min_length=1, max_length=MAX_STEPS)


class PlanError(ValueError):
    pass


def references(text: str) -> list[int]:
    return [int(m.group(1)) for m in REF.finditer(text)]


def validate_plan(plan: dict | PlanOutput) -> list[PlanStep]:
    """The checked list of steps, or :class:`PlanError` saying which step is wrong."""
    try:
        p = plan if isinstance(plan, PlanOutput) else PlanOutput.model_validate(plan)
    except Exception as exc:  # pydantic ValidationError: bad op, missing text, too many steps
        raise PlanError(f"invalid plan: {exc}") from None
    have_facts = False
    for i, step in enumerate(p.steps, 1):
        for j in references(step.text):
            if not 1 <= j < i:
                raise PlanError(f"step {i} refers to [answer {j}], which is not an earlier step")
        if step.op in ("Rank", "Reason") and not have_facts:
            raise PlanError(f"step {i} ({step.op}) has no retrieved facts before it")
        if step.op == "Retrieve":
            have_facts = True
    if p.steps[-1].op != "Reason":
        raise PlanError("the plan must end with a Reason step")
    return list(p.steps)


def direct_plan(question: str) -> list[PlanStep]:
    """wo_plan and the fallback for an invalid plan: retrieve with the raw question."""
    return [PlanStep(op="Retrieve", text=question), PlanStep(op="Rank", text="Rank these facts by time"),
            PlanStep(op="Reason", text=question)]
