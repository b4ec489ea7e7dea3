"""SCoP as a :class:`~tkgqa_ray.methods.base.Method`: five stages, three ablations.

| ablation | Stage I/II | Stage III | Stage IV | Stage V |
| --- | --- | --- | --- | --- |
| none | event_parser role | alignment + aligner role | constraint_parser role + execution | answerer role |
| wo_triple | pseudo triples retrieved from the raw question | same | same | same |
| wo_alignment | same | raw triples used directly | same | same |
| wo_constraint | same | same | no constraints; structural matches, top-10 | same |
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


@register_method
class SCoP(Method):
    name = "scop"
    ablations = ("none", "wo_triple", "wo_alignment", "wo_constraint")

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
            st.pop("_scop", None)  # stage scratch never reaches the output row
            st.setdefault("initial_evidence_count", 0)
            st.setdefault("final_evidence_count", 0)
            st.setdefault("evidence", [])
            st.setdefault("answered_by", "error" if st.get("error") else "none")
        return out
