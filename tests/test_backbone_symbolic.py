"""Symbolic backbone: dispatch to SYMBOLIC_ROLES, the same schema validation, zero tokens."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from tkgqa_ray.backbones.base import SYMBOLIC_ROLES, RoleRequest
from tkgqa_ray.backbones.factory import build_backbone
from tkgqa_ray.backbones.validation import extract_json_object, validate_output


class Out(BaseModel):
    entities: list[str]
    k: int = 1


def _echo(inputs, ctx):
    if inputs.get("boom"):
        raise ValueError("no anchor entity")
    if inputs.get("bad"):
        return {"entities": "not a list"}
    return {"entities": [inputs["question"].split()[0]], "k": len(ctx["seen"])}


def _text(inputs, ctx):
    return "  plain  "


if "_test.echo" not in SYMBOLIC_ROLES:
    SYMBOLIC_ROLES.register("_test.echo", _echo)
    SYMBOLIC_ROLES.register("_test.text", _text)


def test_dispatch_validate_and_isolate_failures():
    bb = build_backbone({"name": "symbolic", "kind": "symbolic"})
    assert bb.name == "symbolic" and bb.is_llm is False
    bb.bind({"seen": [1, 2]})  # any context object: passed through to the role
    out = bb.run([
        RoleRequest("_test", "echo", {"question": "Obama met whom?"}, Out, "q1"),
        RoleRequest("_test", "echo", {"question": "x", "boom": True}, Out, "q2"),
        RoleRequest("_test", "echo", {"question": "x", "bad": True}, Out, "q3"),
        RoleRequest("_test", "text", {"question": "x"}, None, "q4"),
    ])  # fmt: skip
    assert out[0].ok and out[0].output == {"entities": ["Obama"], "k": 2}
    assert (out[0].prompt_tokens, out[0].completion_tokens, out[0].attempts) == (0, 0, 1)
    assert out[1].error == "symbolic: ValueError: no anchor entity" and not out[1].parse_failure
    assert out[2].parse_failure and "entities: Input should be a valid list" in out[2].error
    assert out[3].output == "plain"


def test_unknown_role_raises_with_hint():
    bb = build_backbone({"name": "symbolic", "kind": "symbolic"})
    with pytest.raises(KeyError, match="did you mean '_test.echo'"):
        bb.run([RoleRequest("_test", "ech0", {"question": "q"}, Out)])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('Answer: {"a": {"b": [1, 2]}} and more {"c": 3}', {"a": {"b": [1, 2]}}),
        ('```json\n{"a": "}"}\n```', {"a": "}"}),
        ('{broken {"a": 2}', {"a": 2}),
        ("[1, 2]", None),
        ("no json here", None),
        ('{"a": 1', None),
    ],
)
def test_extract_json_object(text, expected):
    assert extract_json_object(text) == expected


def test_validate_output_forms():
    assert validate_output(Out, Out(entities=["a"])) == ({"entities": ["a"], "k": 1}, None)
    assert validate_output(Out, '{"entities": ["a"], "k": "2"}') == ({"entities": ["a"], "k": 2}, None)
    out, err = validate_output(Out, '{"k": 2}')
    assert out is None and err == "parse_failure: Out: entities: Field required"
    assert validate_output(None, 3)[1].startswith("parse_failure: free-text role returned int")
