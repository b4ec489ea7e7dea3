"""Hand-written questions with their logical forms: gold from the brute-force oracle.

Templates repeat their own shapes; a question written one at a time by a person does not. A
hand-written set is a JSON Lines file, one question per line, each with the *logical form*
the writer meant, in KG names (``docs/data.md``, "Hand-written sets"):

    {"id": "hw-0001", "question": "Who did the Kenyan police want to talk to in May 2012?",
     "qtype": "equal", "answer_type": "entity", "time_level": "month",
     "target": ["Police_(Kenya)", "Express_intent_to_meet_or_negotiate", null],
     "anchor_time": "2012-05", "op": "equal", "granularity": "month"}

Keys are :class:`QSpec`'s fields, with names instead of ids: ``target`` is ``[subject,
relation, object]`` with ``null`` for the asked entity (both given: a time question);
``anchor_event`` a complete triple; ``anchor_time`` a ``YYYY[-MM[-DD]]`` string or an ``A..B``
interval. Missing keys take QSpec's defaults. The gold is never written by hand: the oracle
answers the logical form over the loaded KG, and a line whose form does not resolve (unknown
name, no anchor, ambiguous anchor, no or too many answers) is an error naming file and line.
``tkgqa-ray generate --specs FILE`` writes such a set as a MultiTQ dataset root.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from tkgqa_ray.data.loaders import DatasetError
from tkgqa_ray.data.oracle_answers import QLABEL, QTYPES, Oracle, QSpec
from tkgqa_ray.kg.factkey import encode_fact_key
from tkgqa_ray.kg.table import display
from tkgqa_ray.time import format_day

_QSPEC_KEYS = {f.name for f in fields(QSpec)}
_KEYS = _QSPEC_KEYS | {"id", "question", "note"}


class SpecError(DatasetError):
    """A hand-written line that cannot become a question (names file and line); the CLI
    prints it as an input error (exit 3)."""


@dataclass(frozen=True)
class HandQuestion:
    """One hand-written question and its logical form in KG names (as written)."""

    id: str
    question: str
    form: dict[str, Any]
    where: str  # "file:line", for errors


SETS_DIR = Path(__file__).with_name("handsets")


def packaged_sets() -> list[str]:
    """Names of the hand-written sets shipped in ``tkgqa_ray/data/handsets/``."""
    return sorted(p.stem for p in SETS_DIR.glob("*.jsonl"))


def resolve_specs(path_or_name: str | Path) -> Path:
    """A file path, or the name of a packaged set (``dev8``)."""
    p = Path(path_or_name)
    if p.exists():
        return p
    packaged = SETS_DIR / f"{path_or_name}.jsonl"
    if packaged.exists():
        return packaged
    known = ", ".join(packaged_sets()) or "none"
    raise SpecError(f"{path_or_name}: no such file, and no packaged hand-written set of that name (packaged: {known})")


def read_specs(path: str | Path) -> list[HandQuestion]:
    """Parse a JSON Lines file of hand-written questions (blank lines and ``//`` lines skipped),
    given by path or by a packaged set's name."""
    path = resolve_specs(path)
    out: list[HandQuestion] = []
    seen: dict[str, str] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        where = f"{path}:{n}"
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise SpecError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(obj, dict):
            raise SpecError(f"{where}: expected an object")
        unknown = sorted(set(obj) - _KEYS)
        if unknown:
            raise SpecError(f"{where}: unknown key(s) {', '.join(unknown)}")
        for key in ("id", "question", "qtype", "answer_type", "target"):
            if not obj.get(key):
                raise SpecError(f"{where}: missing {key!r}")
        qid = str(obj["id"])
        if qid in seen:
            raise SpecError(f"{where}: id {qid!r} already used at {seen[qid]}")
        seen[qid] = where
        form = {k: v for k, v in obj.items() if k in _QSPEC_KEYS}
        out.append(HandQuestion(qid, str(obj["question"]).strip(), form, where))
    return out


class SpecResolver:
    """KG names → a :class:`QSpec` of the table's ids. Names may be written as in the KG file
    (``Police_(Kenya)``) or as displayed (``Police (Kenya)``)."""

    def __init__(self, table: Any) -> None:
        self.ent = table.display_entity_id  # display form -> id, cached on the table
        self.rel = table.display_relation_id

    def spec(self, q: HandQuestion) -> QSpec:
        from tkgqa_ray.time import parse_time

        f = dict(q.form)
        target = f.get("target")
        if not (isinstance(target, list) and len(target) == 3):
            raise SpecError(f"{q.where}: target must be [subject, relation, object]")
        s, r, o = target
        if (s is None) == (o is None) and f.get("answer_type") == "entity":
            raise SpecError(f"{q.where}: an entity question leaves exactly one of subject/object null")
        if f.get("answer_type") == "time" and (s is None or o is None):
            raise SpecError(f"{q.where}: a time question gives both subject and object")
        f["target"] = (self._e(s, q) if s is not None else None, self._r(r, q),
                       self._e(o, q) if o is not None else None)
        if f.get("anchor_event") is not None:
            a = f["anchor_event"]
            if not (isinstance(a, list) and len(a) == 3 and None not in a):
                raise SpecError(f"{q.where}: anchor_event must be a complete [subject, relation, object]")
            f["anchor_event"] = (self._e(a[0], q), self._r(a[1], q), self._e(a[2], q))
        if f.get("anchor_time") is not None:
            a = f["anchor_time"]
            try:
                span = parse_time(a) if isinstance(a, str) else None
            except ValueError as e:
                raise SpecError(f"{q.where}: anchor_time: {e}") from None
            if span is None:
                raise SpecError(f"{q.where}: anchor_time must be a string such as 2012-05 or 2012-05-01..2012-06-30")
            f["anchor_time"] = (span.lo, span.hi)
        try:
            return QSpec(**f)
        except TypeError as e:
            raise SpecError(f"{q.where}: {e}") from None

    def _e(self, name: Any, q: HandQuestion) -> int:
        i = self.ent.get(_norm(name))
        if i is None:
            raise SpecError(f"{q.where}: unknown entity {name!r}")
        return i

    def _r(self, name: Any, q: HandQuestion) -> int:
        i = self.rel.get(_norm(name))
        if i is None:
            raise SpecError(f"{q.where}: unknown relation {name!r}")
        return i


def _norm(name: Any) -> str:
    return display(str(name).strip())


def answer_specs(table: Any, items: list[HandQuestion], start_quid: int = 1) -> list[dict[str, Any]]:
    """MultiTQ-format records for hand-written questions, gold from the oracle. Raises
    :class:`SpecError` naming every line whose logical form does not resolve to 1..20 answers."""
    resolver = SpecResolver(table)
    oracle = Oracle(table)

    def key(i: int) -> str:
        return encode_fact_key(table.entities[oracle.s[i]], table.relations[oracle.r[i]],
                               table.entities[oracle.o[i]], format_day(int(oracle.start[i])),
                               format_day(int(oracle.end[i])))

    records: list[dict[str, Any]] = []
    errors: list[str] = []
    for j, q in enumerate(items):
        if q.form.get("qtype") not in QTYPES:
            errors.append(f"{q.where}: qtype must be one of {', '.join(QTYPES)}")
            continue
        try:
            spec = resolver.spec(q)
        except SpecError as e:
            errors.append(str(e))
            continue
        res = oracle.answer(spec)
        if not res.ok:
            errors.append(f"{q.where}: the oracle finds {res.status} for this logical form")
            continue
        rec: dict[str, Any] = {
            "quid": start_quid + j,
            "question": q.question,
            "answers": res.answers,
            "answer_type": spec.answer_type,
            "time_level": spec.time_level,
            "qtype": spec.qtype,
            "qlabel": QLABEL[spec.qtype],
            "events": [key(i) for i in np.concatenate([res.answer_facts[:50], res.anchor_facts[:10]])],
            "template": f"hand/{q.id}",
            "phrasing_set": "handwritten",
            "spec": spec.to_json(),
        }
        records.append(rec)
    if errors:
        raise SpecError(f"{len(errors)} of {len(items)} hand-written questions do not resolve:\n" + "\n".join(errors))
    return records
