"""SCoP as a :class:`~tkgqa_ray.methods.base.Method`: five stages, three ablations.

| ablation | Stage I/II | Stage III | Stage IV | Stage V |
| --- | --- | --- | --- | --- |
| none | event_parser role | alignment + aligner role | constraint_parser role + execution | answerer role |
| wo_triple | pseudo triples retrieved from the raw question | same | same | same |
| wo_alignment | same | raw triples used directly | same | same |
| wo_constraint | same | same | no constraints; structural matches, top-10 | same |

The stages share one typed :class:`~.state.ScopState` per question; ``__init__`` checks the
chain's declared reads/writes (:func:`~.state.check_chain`, so a subclass that reorders or
drops a stage fails at construction), and ``__call__`` turns the typed state into the row's
result keys once, after the chain.
"""

from __future__ import annotations

from typing import Any

from tkgqa_ray.methods.base import Method, Stage, register_method, run_chain

from . import symbolic as _symbolic  # noqa: F401 - registers the symbolic roles
from .alignment import AlignmentStage, RawAlignmentStage
from .answerer import AnswerStage
from .constraints import ConstraintParseStage, NoConstraintStage
from .event_parser import EventParserStage, PseudoTripleStage
from .evidence import EvidenceStage
from .state import KEY, check_chain


@register_method
class SCoP(Method):
    name = "scop"
    ablations = ("none", "wo_triple", "wo_alignment", "wo_constraint")

    def __init__(self, ctx: Any, ablation: str = "none", **options: Any) -> None:
        super().__init__(ctx, ablation, **options)
        check_chain(self.stages)  # a stage reading what no earlier stage writes: TypeError here

    def build_stages(self) -> list[Stage]:
        ctx = self.ctx
        ab = self.ablation
        return [
            PseudoTripleStage(ctx) if ab == "wo_triple" else EventParserStage(ctx),
            RawAlignmentStage(ctx) if ab == "wo_alignment" else AlignmentStage(ctx),
            NoConstraintStage(ctx) if ab == "wo_constraint" else ConstraintParseStage(ctx),
            EvidenceStage(ctx),
            AnswerStage(ctx),
        ]

    def __call__(self, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for st in states:
            st.setdefault("trace", {})["ablation"] = self.ablation
        out = run_chain(self.stages, states)
        for st in out:
            s = st.pop(KEY, None)  # the typed state never reaches the output row ...
            if s is not None:
                s.write_result(st, self.ctx.table)  # ... its results do, once
            st.setdefault("initial_evidence_count", 0)
            st.setdefault("final_evidence_count", 0)
            st.setdefault("evidence", [])
            st.setdefault("answered_by", "error" if st.get("error") else "none")
        return out
