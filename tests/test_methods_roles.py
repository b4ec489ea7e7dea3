"""The one role-call helper (methods/roles.py): validation, ledger and failure record, the same
for SCoP's ``call_role`` and the retrieval methods' ``run_roles``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pydantic import BaseModel, Field

from tkgqa_ray.backbones.base import Backbone, RoleRequest, RoleResult
from tkgqa_ray.methods.roles import call_roles, run_roles
from tkgqa_ray.methods.scop.roles import call_role


class Out(BaseModel):
    answers: list[str] = Field(default_factory=list)
    n: int = 0


class Scripted(Backbone):
    """Hands back, per request, what ``script[question]`` says (no validation of its own, like
    a careless third-party backbone)."""

    def __init__(self, script, short: bool = False) -> None:
        self.script, self.short, self.seen = script, short, []

    def run(self, requests):
        self.seen.extend(requests)
        out = [self.script[r.inputs["question"]](r) for r in requests]
        return out[:-1] if self.short else out


SCRIPT = {
    "good": lambda r: RoleResult(r.role, output={"answers": ["Iran"], "n": 2}, attempts=1),
    "unvalidated": lambda r: RoleResult(r.role, output={"answers": "Iran", "n": "two"}),
    "failed": lambda r: RoleResult(r.role, ok=False, raw="not json" * 100, attempts=3,
                                   error="parse_failure: no JSON object in the output"),
    "transport": lambda r: RoleResult(r.role, ok=False, error="transport: timeout"),
}


def _ctx(**kw):
    return SimpleNamespace(backbone=Scripted(SCRIPT, **kw))


def _states(*qs):
    return [{"quid": i, "question": q, "trace": {}} for i, q in enumerate(qs)]


def test_outputs_ledger_and_failures_per_state():
    ctx, states = _ctx(), _states("good", "unvalidated", "failed", "transport")
    outs = run_roles(ctx, states, [RoleRequest("rag", "answerer", {"question": s["question"]}, Out, s["quid"])
                                   for s in states])
    assert outs == [{"answers": ["Iran"], "n": 2}, None, None, None]
    # every call is in its question's ledger, the re-validation failure as a parse failure
    (g,), (u,), (f,), (t,) = (s["roles"] for s in states)
    assert g["ok"] and g["error"] is None
    assert not u["ok"] and u["error"].startswith("parse_failure: Out: answers")
    assert u["raw"] == repr({"answers": "Iran", "n": "two"})
    assert f["attempts"] == 3 and f["error"].startswith("parse_failure")
    assert t["error"] == "transport: timeout"
    # and every failure in its trace, with at most 500 characters of the raw output
    assert "failures" not in states[0]["trace"]
    assert [s["trace"]["failures"][0]["role"] for s in states[1:]] == ["answerer"] * 3
    assert states[2]["trace"]["failures"][0]["raw"] == ("not json" * 100)[:500]
    assert states[3]["trace"]["failures"][0] == {"role": "answerer", "error": "transport: timeout", "raw": ""}


def test_a_model_instance_output_becomes_its_json_dict():
    ctx = SimpleNamespace(backbone=Scripted({"m": lambda r: RoleResult(r.role, output=Out(answers=["x"]))}))
    (st,) = _states("m")
    assert call_roles(ctx, [st], "pok", "reasoner", [{"question": "m"}], Out) == [{"answers": ["x"], "n": 0}]


def test_scop_call_role_is_the_shared_helper_with_scops_prompts():
    ctx, states = _ctx(), _states("good", "unvalidated")
    outs = call_role(ctx, states, "answerer", [{"question": s["question"]} for s in states], Out)
    assert outs == [{"answers": ["Iran"], "n": 2}, None]
    assert [(r.method, r.role, r.quid) for r in ctx.backbone.seen] == [("scop", "answerer", "0"), ("scop", "answerer", "1")]
    # before the helper was shared, SCoP's re-validation failure missed the ledger's error
    assert states[1]["roles"][0]["error"].startswith("parse_failure") and states[1]["trace"]["failures"]


def test_wiring_errors_raise():
    ctx, states = _ctx(), _states("good", "good")
    with pytest.raises(ValueError, match="1 role requests for 2 states"):
        run_roles(ctx, states, [RoleRequest("rag", "answerer", {"question": "good"}, Out)])
    with pytest.raises(ValueError, match="1 answerer inputs for 2 states"):
        call_roles(ctx, states, "rag", "answerer", [{"question": "good"}], Out)
    with pytest.raises(RuntimeError, match="backbone returned 1 results for 2 answerer requests"):
        call_roles(_ctx(short=True), states, "rag", "answerer", [{"question": "good"}] * 2, Out)
    assert run_roles(ctx, [], []) == []
