"""TCC-RAG's answer stage: the shared answerer stage, plus the asked slot of the causal chain.

The chain stage stores the slot its parse reads as asked (``subject`` / ``object`` / ``time``,
never gold) under the private key ``_asked``; the answerer reads that slot of the chain facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tkgqa_ray.methods.base import State
from tkgqa_ray.retrieval.answers import Answer as _SharedAnswer

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext


def asked_slot(state: State) -> dict[str, Any]:
    """The answerer's ``asked`` input, taken off the state (the private key does not reach the row)."""
    return {"asked": state.pop("_asked")} if state.get("_asked") else {}


class Answer(_SharedAnswer):
    """The answerer role over the chain's evidence, told which slot the chain answers."""

    def __init__(self, ctx: "RunContext", method: str = "tccrag", answered_by: str = "dense") -> None:
        super().__init__(ctx, method, answered_by, extra_inputs=asked_slot)
