"""One validation path for every backbone: extract the JSON object, check it with the schema.

LLM text and symbolic outputs go through :func:`validate_output`, so symbolic roles are held to
the same invariants as model outputs. Returns the normalised dict (``model_dump(mode="json")``)
or an error message that starts with ``parse_failure:``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_DECODER = json.JSONDecoder()


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (inside a ```json fence if there is one), else None.

    Tries each ``{`` in order with ``raw_decode`` so prose before/after the object, trailing
    commentary or a second object do not matter.
    """
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for chunk in candidates:
        pos = chunk.find("{")
        while pos != -1:
            try:
                obj, _ = _DECODER.raw_decode(chunk, pos)
            except json.JSONDecodeError:
                pos = chunk.find("{", pos + 1)
                continue
            if isinstance(obj, dict):
                return obj
            pos = chunk.find("{", pos + 1)
    return None


def _errors(exc: ValidationError, limit: int = 5) -> str:
    parts = []
    for err in exc.errors()[:limit]:
        loc = ".".join(str(p) for p in err["loc"]) or "<root>"
        parts.append(f"{loc}: {err['msg']}")
    more = len(exc.errors()) - limit
    return "; ".join(parts) + (f"; +{more} more" if more > 0 else "")


def validate_output(schema: type[BaseModel] | None, value: Any) -> tuple[Any, str | None]:
    """(output, None) if ``value`` (text, dict or model instance) fits ``schema``; else (None, error)."""
    if schema is None:  # free-text role
        if isinstance(value, str):
            return value.strip(), None
        return None, f"parse_failure: free-text role returned {type(value).__name__}, not str"
    if isinstance(value, schema):
        return value.model_dump(mode="json"), None
    if isinstance(value, str):
        obj = extract_json_object(value)
        if obj is None:
            return None, "parse_failure: no JSON object in the output"
        value = obj
    if not isinstance(value, dict):
        return None, f"parse_failure: expected a JSON object, got {type(value).__name__}"
    try:
        return schema.model_validate(value).model_dump(mode="json"), None
    except ValidationError as exc:
        return None, f"parse_failure: {schema.__name__}: {_errors(exc)}"
