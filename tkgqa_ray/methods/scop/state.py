"""SCoP's per-question state: one typed record the five stages read and write.

The pipeline's state is a dict (``quid``, ``question``, ``roles``, ``trace`` and the result
keys, see :mod:`tkgqa_ray.methods.base`); SCoP keeps its own typed :class:`ScopState` under
``state["_scop"]`` while the chain runs. Every stage is a :class:`ScopStage` that declares
the fields it ``reads`` and ``writes``; :func:`check_chain` (called when the method builds its
stages) refuses a chain where a stage reads a field no earlier stage writes, so reordering,
removing or replacing a stage fails at construction with the field named.

The whole chain runs inside one worker call, so the state never crosses a Ray boundary: the
typed values stay typed from stage to stage, and :meth:`ScopState.write_result` turns them
into the row's result keys once, at the method boundary (the trace is written by the stages
as they go; it is the explanation the row stores, JSON by design).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from tkgqa_ray.methods.base import Stage
from tkgqa_ray.methods.contract import check_stages

from .types import AltReading, Constraint, Evidence, Ranking, Reading

KEY = "_scop"  # where the typed state sits in the pipeline's state dict while the chain runs


@dataclass(eq=False)
class ScopState:
    """What SCoP knows about one question, stage by stage (a field is meaningful once a stage
    that writes it has run; :func:`check_chain` guarantees that for the fields a stage reads)."""

    quid: str
    question: str
    trace: dict[str, Any]  # the row's trace dict (the same object): JSON-friendly values only
    # Stage I/II: the extracted triples; None when the event parser failed (parse failure).
    triples: Reading | None = None
    # Stage III: the aligned reading, and alternative groundings for the evidence stage.
    aligned: Reading = field(default_factory=Reading)
    readings: list[AltReading] = field(default_factory=list)
    # ... and the asked phrase's near-tied relation readings (relation -> the others; refs27)
    relation_groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Stage IV (a): kappa and rho; evidence_cap None = the default cap (MAX_EVIDENCE).
    constraints: list[Constraint] = field(default_factory=list)
    ranking: Ranking | None = None
    evidence_cap: int | None = None
    # Stage IV (b): the reading the evidence was built on (aligned, or the alternative the KG
    # chose) and the evidence itself.
    chosen: Reading = field(default_factory=Reading)
    evidence: Evidence | None = None
    # Stage V.
    answers: list[str] | None = None
    answered_by: str | None = None

    def write_result(self, row: dict[str, Any], table: Any) -> None:
        """The result keys of the pipeline state (``RESULT_KEYS``) from the typed fields: once,
        when the chain is done. Fields no stage reached leave their keys to the defaults."""
        ev = self.evidence
        if ev is not None:
            row["initial_evidence_count"] = ev.initial
            row["final_evidence_count"] = ev.final
            row["evidence"] = [table.fact(i).key for i in ev.target_facts]
        if self.answers is not None:
            row["predictions"] = list(self.answers)
        if self.answered_by is not None:
            row["answered_by"] = self.answered_by


PROVIDED = ("quid", "question", "trace")  # set when the state is created
RESULT_FIELDS = ("answers", "answered_by")  # what a complete chain must write


def scop_state(state: dict[str, Any]) -> ScopState:
    """The question's :class:`ScopState`, created on first use (the first stage)."""
    s = state.get(KEY)
    if s is None:
        s = state[KEY] = ScopState(str(state.get("quid")), state["question"], state.setdefault("trace", {}))
    return s


class ScopStage(Stage):
    """A SCoP stage: batch-in/batch-out over pipeline state dicts (so the role ledger and
    ``run_chain``'s failure isolation work unchanged), reading and writing :class:`ScopState`
    fields it declares."""

    reads: ClassVar[tuple[str, ...]] = ()  # must be written by an earlier stage
    reads_optional: ClassVar[tuple[str, ...]] = ()  # read if an earlier stage wrote it, else its default
    writes: ClassVar[tuple[str, ...]] = ()


def check_chain(stages: Sequence[Stage], provided: Sequence[str] = PROVIDED, result: Sequence[str] = RESULT_FIELDS) -> None:
    """SCoP's chain under the shared stage contract (:func:`~tkgqa_ray.methods.contract.check_stages`):
    every stage a :class:`ScopStage`, reads written earlier, the answer fields written by the end."""
    check_stages(stages, ScopState, provided=provided, result=result, declared=ScopStage)


__all__ = ["KEY", "ScopStage", "ScopState", "check_chain", "scop_state"]
