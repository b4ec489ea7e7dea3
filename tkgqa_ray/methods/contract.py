"""The stage contract every method's chain is checked against at construction.

A method keeps its per-question working state in one typed dataclass (SCoP's ``ScopState``,
TCC-RAG's ``TccragState``, PoK's ``PokState``); each stage declares the fields it ``reads``
(must be written earlier), ``reads_optional`` (used if present) and ``writes``.
:func:`check_stages` walks a chain and refuses one whose data flow does not hold — a stage
reading what no earlier stage writes (missing or reordered stage), a declared name the state
type does not have, a chain that never writes the method's result fields — naming the stage
and the field. So moving or replacing a stage is an error when the method is built, not a
``KeyError`` in the middle of a run.

A leaf module (imports nothing from the package) so every method can share it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Sequence


class StageContractError(TypeError, ValueError):
    """A chain of stages whose declared reads/writes do not line up (a TypeError: the chain
    is ill-typed; also a ValueError for callers that treat it as a bad configuration)."""


def stage_fields(stage: Any) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(reads, reads_optional, writes) a stage declares; a shared stage that declares none
    (e.g. the answerer, which talks through the state dict's result keys) touches no field."""
    return (tuple(getattr(stage, "reads", ())), tuple(getattr(stage, "reads_optional", ())),
            tuple(getattr(stage, "writes", ())))


def _name(stage: Any) -> str:
    return str(getattr(stage, "name", stage))


def check_stages(stages: Sequence[Any], state_cls: type, provided: Iterable[str] = (),
                 result: Iterable[str] = (), declared: type | None = None) -> None:
    """Refuse ``stages`` unless, in order, every field a stage ``reads`` is in ``provided`` or
    written by an earlier stage, every declared name is a field of ``state_cls``, and the
    fields in ``result`` are written by the end. ``declared``: when given, every stage must be
    an instance of it (a method whose stages all speak its state type)."""
    state = state_cls.__name__
    names = {f.name for f in dataclasses.fields(state_cls)}
    chain = " -> ".join(_name(s) for s in stages) or "(empty)"
    for s in stages:
        if declared is not None and not isinstance(s, declared):
            raise StageContractError(
                f"stage {_name(s)!r} ({type(s).__name__}) does not declare reads/writes (subclass {declared.__name__})")
        for f in (f for group in stage_fields(s) for f in group):
            if f not in names:
                raise StageContractError(f"stage {_name(s)!r} declares {f!r}, which is not a {state} field ({sorted(names)})")
    have = set(provided)
    for i, s in enumerate(stages):
        reads, _, writes = stage_fields(s)
        for f in reads:
            if f not in have:
                later = [_name(t) for t in stages[i + 1:] if f in stage_fields(t)[2]]
                why = (f"it is written only later, by {', '.join(map(repr, later))} (stages out of order)" if later
                       else "no stage in the chain writes it (a stage is missing)")
                raise StageContractError(f"stage {_name(s)!r} reads {state}.{f}, but {why}; chain: {chain}")
        have.update(writes)
    for f in result:
        if f not in have:
            raise StageContractError(f"the stage chain never writes {state}.{f}; chain: {chain}")


__all__ = ["StageContractError", "check_stages", "stage_fields"]
