"""The one codec of the fact key ``s|r|o|start|end`` (evidence strings, gold ``events``).

Names are written in KG form (underscores) and times as ISO strings. A name may contain ``|``
(the KG loader accepts any name without a line break), so the encoder escapes ``\\`` as ``\\\\``
and ``|`` as ``\\|`` inside every field, and the decoder splits on unescaped ``|`` only: five
fields, always, whatever the names hold. Keys whose names contain neither character (all of
MultiTQ: 0 of its 461,329 facts has a ``|`` or ``\\`` in any column) are byte-for-byte the plain
``s|r|o|start|end`` join, the form datasets write their gold ``events`` in.

Decoding rules, for strings the encoder did not write (gold events of other datasets):
- a ``\\`` not followed by ``|`` or ``\\`` is kept as a literal backslash;
- an unescaped ``|`` inside a name cannot be told from a separator (``a|b|r|o|t|t`` could be
  ``(a|b, r, o)`` or ``(a, b|r, o)``…), so a key with more or fewer than five fields is an
  error (:class:`FactKeyError`), never a guess.
"""

from __future__ import annotations

from typing import NamedTuple

SEP = "|"
ESC = "\\"


class FactKeyError(ValueError):
    """A string is not an ``s|r|o|start|end`` fact key."""


class FactKey(NamedTuple):
    """The five fields of a fact key: KG-form names and the two time strings as written."""

    subject: str
    relation: str
    object: str
    start: str
    end: str


def _escape(field: str) -> str:
    if ESC in field:
        field = field.replace(ESC, ESC + ESC)
    if SEP in field:
        field = field.replace(SEP, ESC + SEP)
    return field


def encode_fact_key(subject: str, relation: str, obj: str, start: str, end: str) -> str:
    """``s|r|o|start|end`` with ``|`` and ``\\`` escaped inside the fields."""
    return SEP.join(_escape(str(f)) for f in (subject, relation, obj, start, end))


def _split_escaped(key: str) -> list[str]:
    fields, cur, i, n = [], [], 0, len(key)
    while i < n:
        ch = key[i]
        if ch == ESC and i + 1 < n and key[i + 1] in (ESC, SEP):
            cur.append(key[i + 1])
            i += 2
            continue
        if ch == SEP:
            fields.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    fields.append("".join(cur))
    return fields


def decode_fact_key(key: str) -> FactKey:
    """The five fields of ``key`` (unescaped); :class:`FactKeyError` unless there are exactly five."""
    if not isinstance(key, str):
        raise FactKeyError(f"fact key must be a string, got {type(key).__name__}")
    # fast path: no escapes (every MultiTQ key) is a plain split
    parts = key.split(SEP) if ESC not in key else _split_escaped(key)
    if len(parts) != 5:
        hint = " (a name containing '|' must be written '\\|')" if len(parts) > 5 else ""
        raise FactKeyError(f"{key!r:.200} is not 's|r|o|start|end': {len(parts)} fields{hint}")
    return FactKey(*parts)
