"""The symbolic backbone: every role by deterministic Python code, no language model.

Dispatches ``"<method>.<role>"`` to the implementation registered in ``SYMBOLIC_ROLES`` with
``(inputs, ctx)``. Outputs go through the same schema validation as LLM text, so symbolic roles
obey the same invariants; tokens are zero and latency is measured. A role that raises becomes
an error result for that request (``error="symbolic: ..."``), never a dead batch. Tables report
this backbone as ``symbolic`` (``is_llm = False``), never as an LLM.
"""

from __future__ import annotations

import logging
import time

from tkgqa_ray.backbones.base import SYMBOLIC_ROLES, Backbone, RoleRequest, RoleResult
from tkgqa_ray.backbones.validation import validate_output

log = logging.getLogger(__name__)


class SymbolicBackbone(Backbone):
    name = "symbolic"
    is_llm = False

    def __init__(self, name: str = "symbolic") -> None:
        self.name = name
        self.ctx = None

    def run(self, requests: list[RoleRequest]) -> list[RoleResult]:
        return [self._one(req) for req in requests]

    def _one(self, req: RoleRequest) -> RoleResult:
        # An unknown role is a wiring bug that affects every question: raise (KeyError with a
        # "did you mean" hint) rather than quietly record it on each row.
        fn = SYMBOLIC_ROLES.get(f"{req.method}.{req.role}")
        t0 = time.perf_counter()
        try:
            value = fn(req.inputs, self.ctx)
        except Exception as exc:  # noqa: BLE001 - recorded on the question's row
            log.debug("symbolic role %s.%s failed on %s", req.method, req.role, req.quid, exc_info=True)
            return RoleResult(
                role=req.role, ok=False, latency_s=time.perf_counter() - t0,
                error=f"symbolic: {type(exc).__name__}: {exc}",
            )  # fmt: skip
        output, err = validate_output(req.schema, value)
        return RoleResult(
            role=req.role,
            output=output,
            ok=err is None,
            raw=None if err is None else repr(value)[:2000],
            attempts=1,
            latency_s=time.perf_counter() - t0,
            error=err,
        )
