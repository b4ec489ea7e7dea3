"""Calling a SCoP role through the run's backbone, with the ledger and failure bookkeeping.

Every role call goes through here so that each question's ``roles`` list records the call
(tokens, latency, attempts, error) and a failed/invalid output is recorded in the trace as a
parse failure while the question continues on its stage's fallback path.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tkgqa_ray.backbones.base import RoleLedger, RoleRequest

METHOD = "scop"


def call_role(ctx: Any, states: list[dict], role: str, inputs: list[dict], schema: type[BaseModel]) -> list[dict | None]:
    """Run ``role`` for each state; returns validated output dicts (None on failure)."""
    reqs = [
        RoleRequest(method=METHOD, role=role, inputs=inp, schema=schema, quid=str(st.get("quid")))
        for st, inp in zip(states, inputs)
    ]
    results = ctx.backbone.run(reqs) if reqs else []
    if len(results) != len(reqs):
        raise RuntimeError(f"backbone returned {len(results)} results for {len(reqs)} {role} requests")
    outs: list[dict | None] = []
    for st, res in zip(states, results):
        RoleLedger.add(st, res)
        out = res.output if res.ok else None
        if out is not None and schema is not None:
            # Re-validate: a backbone may hand back an unvalidated dict; invariants must hold.
            try:
                out = schema.model_validate(out).model_dump(mode="json")
            except Exception as exc:  # noqa: BLE001 - recorded as a parse failure
                res.error = f"parse_failure: {exc}"
                out = None
        if out is None:
            failures = scop_trace(st).setdefault("failures", [])
            failures.append({"role": role, "error": res.error or "no output", "raw": (res.raw or "")[:500]})
        outs.append(out)
    return outs


def scop_trace(state: dict) -> dict:
    """The question's trace dict (SCoP writes its fields at the top level)."""
    return state.setdefault("trace", {})


def as_plain(x: Any) -> Any:
    if isinstance(x, BaseModel):
        return x.model_dump(mode="json")
    return x
