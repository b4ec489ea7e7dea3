"""TCC-RAG's typed per-question state and the stage contract check.

A question's working state between the stages is one :class:`TccragState` kept under the
state dict's ``"_tccrag"`` key (the dict itself stays the pipeline's row: ``quid``,
``question``, ``trace`` and the result keys). Each stage declares the fields it ``reads`` and
``writes``; :func:`check_stages` walks a chain at construction and refuses one where a stage
reads a field no earlier stage writes (a missing or reordered stage), naming the field — so
moving or replacing a stage is an error at ``TCCRAG(...)``, not a ``KeyError`` mid-run.

The contract is deliberately small (two tuples of field names and one check) so the SCoP and
PoK states can share it; PoK imports :func:`check_stages` from here until it moves to a
common module.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Sequence

Slot = Literal["subject", "object", "time"]
KEY = "_tccrag"  # where a state dict keeps its TccragState


class StageContractError(ValueError):
    """A chain of stages whose declared reads/writes do not line up."""


def stage_fields(stage: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(reads, writes) a stage declares; a stage that declares neither (a shared stage such
    as the answerer, which talks through the state dict's result keys) touches no field."""
    return tuple(getattr(stage, "reads", ())), tuple(getattr(stage, "writes", ()))


def check_stages(stages: Sequence[Any], state_cls: type, provided: Iterable[str] = ()) -> None:
    """Refuse a chain where a stage reads a field of ``state_cls`` that no earlier stage
    writes (``provided``: fields set before the first stage), or declares a field the state
    type does not have. The error names the stage and the field, and says when a later stage
    writes it (the stages are out of order)."""
    names = {f.name for f in dataclasses.fields(state_cls)}
    have = set(provided)
    for i, st in enumerate(stages):
        reads, writes = stage_fields(st)
        for f in reads + writes:
            if f not in names:
                raise StageContractError(
                    f"stage {getattr(st, 'name', st)!r} declares field {f!r}, which {state_cls.__name__} does not have")
        for f in reads:
            if f not in have:
                later = [getattr(x, "name", x) for x in stages[i + 1:] if f in stage_fields(x)[1]]
                why = f"; stage {later[0]!r} writes it later (stages out of order)" if later else "; no stage writes it (a stage is missing)"
                raise StageContractError(
                    f"stage {getattr(st, 'name', st)!r} reads {state_cls.__name__}.{f}, which no earlier stage writes{why}")
        have.update(writes)


# ----------------------------------------------------------------------------- TCC-RAG


@dataclass(frozen=True)
class EntityReading:
    """One grounding of the parse's entity slots (ids; ``reference``: the order cue's
    reference entities). ``changed``: the slot that differs from the primary reading (None
    for the primary), ``score``: that slot's candidate score."""

    subject: int | None
    object: int | None
    reference: tuple[int, ...] = ()
    changed: str | None = None
    score: float = 1.0


@dataclass(frozen=True)
class TccParse:
    """Progressive parsing's result: grounded slots, the asked slot, the order cue's
    reference, and the candidate readings (relation readings in score order with their
    direction; entity readings, primary first)."""

    subject: int | None
    object: int | None
    asked: Slot
    reference: tuple[int, ...] = ()
    reference_relations: tuple[int, ...] = ()
    relations: tuple[int, ...] = ()
    swaps: tuple[bool, ...] = ()
    entity_readings: tuple[EntityReading, ...] = ()
    changed: str | None = None  # set on the parse seen through an alternative entity reading

    def relation_readings(self) -> list[tuple[int, bool]]:
        """(relation id, swap) in score order."""
        return list(zip(self.relations, self.swaps or (False,) * len(self.relations)))

    def under(self, r: EntityReading) -> "TccParse":
        """This parse with its entity slots taken from reading ``r``."""
        return dataclasses.replace(self, subject=r.subject, object=r.object, reference=tuple(r.reference),
                                   changed=r.changed)

    def entity_parses(self) -> list["TccParse"]:
        """The parse under each entity reading (itself when it has none)."""
        return [self.under(r) for r in self.entity_readings] or [self]

    def oriented(self, swap: bool) -> "TccParse":
        """The parse read through a relation whose direction is swapped ("X received a visit
        from Y" = Make_a_visit(Y, X)): subject and object exchange, and so does the asked slot."""
        if not swap:
            return self
        flip = {"subject": "object", "object": "subject"}
        return dataclasses.replace(self, subject=self.object, object=self.subject, asked=flip.get(self.asked, self.asked))


@dataclass
class TccragState:
    """Per-question working state of TCC-RAG (see docs/state-tccrag-pok.md).

    ``parse`` — tccrag_parse. ``cands``, ``structured``, ``asked``, ``relations``,
    ``boundary`` — tccrag_retrieve: the candidate fact ids (the causal chain, or the semantic
    fallback's facts), whether the chain answered, and what the causal filter conditions on
    (the answering reading's asked slot and relation, its resolved boundary; for fallback
    facts the parse's asked slot and relation readings)."""

    parse: TccParse | None = None
    cands: list[int] = field(default_factory=list)
    structured: bool = False
    asked: Slot | None = None
    relations: list[int] | None = None
    boundary: list[tuple[int, int]] | None = None

    @staticmethod
    def of(state: dict) -> "TccragState":
        """The typed state of a state dict (created empty on first use)."""
        st = state.get(KEY)
        if st is None:
            st = state[KEY] = TccragState()
        return st
