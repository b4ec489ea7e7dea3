"""Calling a SCoP role: the shared role-call helper (:mod:`tkgqa_ray.methods.roles`) with
SCoP's prompt folder, and SCoP's view of the question's trace.

Every role call goes through the shared helper, so each question's ``roles`` list records the
call (tokens, latency, attempts, error) and a failed/invalid output is recorded in
``trace["failures"]`` as a parse failure while the question continues on its stage's fallback path.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tkgqa_ray.methods.roles import call_roles

METHOD = "scop"


def call_role(ctx: Any, states: list[dict], role: str, inputs: list[dict], schema: type[BaseModel]) -> list[dict | None]:
    """Run SCoP's ``role`` for each state; returns validated output dicts (None on failure)."""
    return call_roles(ctx, states, METHOD, role, inputs, schema)

