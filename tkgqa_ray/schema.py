"""The base of every config schema, and the one wording of a config error.

A leaf module (pydantic only), so the run config, each backbone kind's schema, each method's
``Options`` and the vLLM engine pool all refuse an unknown key the same way: naming the key,
with a did-you-mean, whichever way it arrived (YAML file, override, ``+key=`` append).
"""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt, MinLen
from pydantic import BaseModel, ConfigDict, ValidationError


class StrictModel(BaseModel):
    """``extra="forbid"`` (a typo is an error, never ignored) and ``strict`` (``"5"`` is not an int:
    YAML and Hydra overrides already give typed values, so a string there is a mistake)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ConfigError(ValueError):
    """A config value is invalid; the message starts with the key."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"config error: {key} {message}")


def did_you_mean(name: str, known: typing.Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known name, or ``""``."""
    hint = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean {hint[0]!r}?" if hint else ""


def _unwrap(ann: Any) -> tuple[list[Any], bool]:
    """(the non-None members of an annotation, whether None is allowed)."""
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        args = typing.get_args(ann)
        return [a for a in args if a is not type(None)], type(None) in args
    return [ann], False


def _model_of(ann: Any) -> type[BaseModel] | None:
    for a in _unwrap(ann)[0]:
        if isinstance(a, type) and issubclass(a, BaseModel):
            return a
    return None


def _word(ann: Any) -> str:
    origin = typing.get_origin(ann)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(ann))
    if origin in (dict, typing.Mapping) or ann is dict:
        return "a mapping"
    if origin in (list, tuple) or ann in (list, tuple):
        return "a list"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return "a mapping"
    return {int: "an integer", float: "a number", bool: "true or false", str: "a string"}.get(ann, str(ann))


def expectation(field: Any) -> str:
    """What a field accepts, in words: ``an integer >= 1 or null``."""
    members, optional = _unwrap(field.annotation)
    text = " or ".join(_word(m) for m in members)
    low = high = None
    for m in field.metadata:
        if isinstance(m, MinLen) and m.min_length == 1 and "a string" in text:
            text = text.replace("a string", "a non-empty string")
        if isinstance(m, (Ge, Gt)):
            low = (">=", m.ge) if isinstance(m, Ge) else (">", m.gt)
        if isinstance(m, (Le, Lt)):
            high = ("<=", m.le) if isinstance(m, Le) else ("<", m.lt)
    if low and high:
        text += f" in {'[' if low[0] == '>=' else '('}{low[1]}, {high[1]}{']' if high[0] == '<=' else ')'}"
    elif low or high:
        text += f" {(low or high)[0]} {(low or high)[1]}"
    return text + (" or null" if optional else "")


def _walk(model: type[BaseModel], loc: tuple) -> tuple[type[BaseModel] | None, Any]:
    """(the model holding the last element of ``loc``, that element's FieldInfo or None)."""
    holder: type[BaseModel] | None = model
    field = None
    for part in loc:
        if holder is None or not isinstance(part, str) or part not in holder.model_fields:
            return (holder if part == loc[-1] else None), None
        field = holder.model_fields[part]
        if part != loc[-1]:
            holder = _model_of(field.annotation)
    return holder, field


def config_error(model: type[BaseModel], exc: ValidationError, prefix: str = "") -> ConfigError:
    """The first error of ``exc`` as a :class:`ConfigError` naming its dotted key (after
    ``prefix``), e.g. ``method.options.fallbak_k is not a known key; did you mean 'fallback_k'?``."""
    # a misspelt key also makes its real key "missing": report the misspelling, it is the cause
    err = sorted(exc.errors(include_url=False), key=lambda e: e["type"] != "extra_forbidden")[0]
    loc = tuple(str(p) for p in err["loc"])
    key = ".".join(p for p in (prefix, *loc) if p)
    more = f" (and {exc.error_count() - 1} more error(s))" if exc.error_count() > 1 else ""
    kind = err["type"]
    holder, field = _walk(model, loc)
    if kind == "extra_forbidden":
        known = sorted(holder.model_fields) if holder is not None else []
        allowed = f"known: {', '.join(known)}" if known else "no keys are allowed here"
        return ConfigError(key, f"is not a known key{did_you_mean(loc[-1], known)} ({allowed}){more}")
    if kind == "missing":
        return ConfigError(key, f"is required but not set{more}")
    if kind in ("value_error", "assertion_error"):
        return ConfigError(key, f"{err.get('ctx', {}).get('error', err['msg'])}{more}")
    if field is not None:
        return ConfigError(key, f"must be {expectation(field)} (got {err.get('input')!r}){more}")
    return ConfigError(key, f"is invalid: {err['msg']} (got {err.get('input')!r}){more}")


def check(model: type[BaseModel], data: Any, prefix: str = "") -> BaseModel:
    """``model.model_validate(data)``, a :class:`ConfigError` naming the key on failure."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise config_error(model, exc, prefix) from None
