"""The one way a stage calls roles: batch → backbone → validate → ledger → failure record.

Every method's role calls go through :func:`run_roles` so that every question gets the same
bookkeeping whatever the method:

- **retry** is the backbone's: an LLM backbone re-prompts an output that fails its schema
  (``attempts`` in the ledger) before giving up; the symbolic backbone is deterministic and
  tries once. Calling again here would only repeat the same answer.
- **validation**: an output is held to its request's schema once more here
  (:func:`~tkgqa_ray.backbones.validation.validate_output`, the validator the backbones use),
  so a backbone that hands back an unvalidated dict cannot break a stage's invariants; a
  mismatch becomes a ``parse_failure`` like any other.
- **ledger**: each call appends its record (tokens, latency, attempts, error) to the state's
  ``roles`` list — after validation, so a failure found here is counted as a parse failure.
- **failure record**: a failed call appends ``{"role", "error", "raw"}`` to
  ``trace["failures"]`` and yields ``None``; the stage continues on its fallback path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from pydantic import BaseModel

from tkgqa_ray.backbones.base import SYMBOLIC_ROLES, RoleLedger, RoleRequest
from tkgqa_ray.backbones.validation import validate_output

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

RAW_KEPT = 500  # characters of a failed call's raw output kept in trace["failures"]


def run_roles(ctx: "RunContext", states: Sequence[dict], requests: Sequence[RoleRequest]) -> list[Any]:
    """Run one request per state as one backbone batch; the validated outputs, ``None`` for a
    failed call (ledgered in ``roles`` and recorded in ``trace["failures"]``)."""
    if len(states) != len(requests):
        raise ValueError(f"{len(requests)} role requests for {len(states)} states")
    if not requests:
        return []
    results = ctx.backbone.run(list(requests))
    if len(results) != len(requests):
        roles = sorted({r.role for r in requests})
        raise RuntimeError(f"backbone returned {len(results)} results for {len(requests)} {'/'.join(roles)} requests")
    outputs: list[Any] = []
    for state, req, res in zip(states, requests, results):
        out = res.output if res.ok else None
        if out is not None:
            given = out
            out, err = validate_output(req.schema, given)
            if err is not None:
                res.ok, res.output, res.error = False, None, err
                res.raw = res.raw or repr(given)[:2000]
        RoleLedger.add(state, res)
        if out is None:
            state.setdefault("trace", {}).setdefault("failures", []).append(
                {"role": req.role, "error": res.error or "no output", "raw": (res.raw or "")[:RAW_KEPT]})
        outputs.append(out)
    return outputs


def call_roles(ctx: "RunContext", states: Sequence[dict], method: str, role: str, inputs: Sequence[dict],
               schema: type[BaseModel] | None) -> list[Any]:
    """:func:`run_roles` for one ``method.role`` with per-state ``inputs`` (the quid from the state)."""
    if len(states) != len(inputs):
        raise ValueError(f"{len(inputs)} {role} inputs for {len(states)} states")
    reqs = [RoleRequest(method, role, inp, schema, str(st.get("quid"))) for st, inp in zip(states, inputs)]
    return run_roles(ctx, states, reqs)


def register_symbolic(name: str, fn: Callable[..., Any]) -> None:
    """Register ``fn`` as the symbolic implementation of role ``"method.role"`` (once: modules
    may be imported again by Ray workers)."""
    if name not in SYMBOLIC_ROLES:
        SYMBOLIC_ROLES.register(name, fn)
