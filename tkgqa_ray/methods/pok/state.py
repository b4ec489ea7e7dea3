"""PoK's typed per-question state (kept under a state dict's ``"_pok"`` key).

``plan`` is written by the Plan stage (a validated plan, or the direct plan when the
planner's was invalid); the Execute stage reads it and writes the step outputs, the pool of
every retrieved fact and the facts the last Reason step saw, then turns them into the result
keys. The stage contract (``reads``/``writes`` + ``check_stages``) is the one every method
shares, :mod:`tkgqa_ray.methods.contract`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from tkgqa_ray.methods.pok.plan import PlanStep

KEY = "_pok"


class StepOutput(TypedDict, total=False):
    """What one executed step produced: a Retrieve/Rank step ``facts`` (fact ids, in the
    step's order), a Reason step ``answers``; ``[answer i]`` in a later step refers to it."""

    facts: list[int]
    answers: list[str]


@dataclass
class PokState:
    plan: list[PlanStep] | None = None  # pok_plan
    outs: list[StepOutput] = field(default_factory=list)  # pok_execute: one per executed step
    pool: set[int] = field(default_factory=set)  # pok_execute: every fact any Retrieve returned
    reason_facts: list[str] = field(default_factory=list)  # pok_execute: fact keys of the last Reason step

    @staticmethod
    def of(state: dict) -> "PokState":
        """The typed state of a state dict (created empty on first use)."""
        st = state.get(KEY)
        if st is None:
            st = state[KEY] = PokState()
        return st
