"""Answers read off evidence: the symbolic answer ranking, answer cleaning, the ``Answer`` stage.

The symbolic answerers of every retrieval method rank candidates taken from the evidence facts
(frequency in the most relevant facts, or earliest/latest date when the question selects
first/last). The ``Answer`` stage calls a method's answerer role over the final evidence; what
differs between methods is passed in (``with_evidence``, ``extra_inputs``), so the stage names
no method.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Sequence

from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.kg.factkey import decode_fact_key
from tkgqa_ray.methods.base import Stage, State
from tkgqa_ray.methods.roles import run_roles
from tkgqa_ray.nlu.entities import EntityMatcher
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.nlu.text import name_pattern
from tkgqa_ray.retrieval.render import render_facts
from tkgqa_ray.retrieval.schemas import AnswerOutput

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

MAX_PREDICTIONS = 10


def mentioned(question: str, display_name: str) -> bool:
    """Whether the question names ``display_name`` as whole words (case-insensitive)."""
    return bool(name_pattern(display_name).search(question.casefold()))


def _time_at(day: str, granularity: str) -> str:
    return day[: {"year": 4, "month": 7}.get(granularity, 10)]


def candidate_answers(
    question: str,
    keys: Sequence[str],
    *,
    select: str | None = None,
    answer_type: str | None = None,
    granularity: str | None = None,
    limit: int = MAX_PREDICTIONS,
    mentioned_names: set[str] | None = None,
) -> list[str]:
    """Candidate answers read off evidence facts (symbolic answerer).

    Entity questions: the subject/object names of the facts that the question does not
    mention; time questions: the facts' start dates at the question's granularity. Only facts
    of the highest relevance tier count (most question entities named). Ranked by frequency
    (ties: order of appearance) or, with ``select``, by earliest/latest date.
    """
    sig = question_signals(question)
    atype = answer_type or sig.answer_type
    gran = granularity or sig.granularity
    # relevance tier of a fact = how many of its two entities the question names; candidates
    # come from the highest tier that yields any (a fact about the question's entities beats
    # an unrelated neighbour in the retrieved list)
    per_fact = []
    for i, key in enumerate(keys):
        s, _r, o, t0, _t1 = decode_fact_key(key)
        names = [n.replace("_", " ") for n in (s, o)]
        if mentioned_names is not None:
            named = [n.casefold() in mentioned_names for n in names]
        else:
            named = [mentioned(question, n) for n in names]
        if atype == "time":
            cands = [_time_at(t0, gran)]
        else:
            cands = [n for n, m in zip(names, named) if not m]
        if cands:
            per_fact.append((sum(named), i, t0, cands))
    if not per_fact:
        return []
    top = max(t for t, *_ in per_fact)
    count: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    when: dict[str, str] = {}
    for tier, i, t0, cands in per_fact:
        if tier != top:
            continue
        for c in cands:
            count[c] += 1
            first_seen.setdefault(c, i)
            if select == "first":
                when[c] = min(when.get(c, t0), t0)
            elif select == "last":
                when[c] = max(when.get(c, t0), t0)
    return _rank_names(count, when, first_seen, select, limit)


def _rank_names(count: Counter[str], when: dict[str, str], first_seen: dict[str, int], select: str | None,
                limit: int) -> list[str]:
    """Earliest (first) / latest (last) evidence time, then frequency, then evidence order."""
    names = list(count)
    if select == "first":
        names.sort(key=lambda c: (when[c], -count[c], first_seen[c]))
    elif select == "last":
        names.sort(key=lambda c: (_neg(when[c]), -count[c], first_seen[c]))
    else:
        names.sort(key=lambda c: (-count[c], first_seen[c]))
    return names[:limit]


def _neg(day: str) -> tuple[int, ...]:
    return tuple(-ord(ch) for ch in day)


def question_entities(question: str, ctx: "RunContext" | None) -> set[str] | None:
    """Casefolded display names the question mentions (longest-match gazetteer, so "Nigeria"
    inside "Opposition Party (Nigeria)" does not count); None without a table."""
    table = getattr(ctx, "table", None)
    if table is None:
        return None
    return {table.display(n).casefold() for m in EntityMatcher.for_table(table).match(question) for n in m.names}


def slot_answers(keys: Sequence[str], asked: str, granularity: str, select: str | None,
                 limit: int = MAX_PREDICTIONS) -> list[str]:
    """Answers read from a known asked slot of chain facts (subject / object / time)."""
    count: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    when: dict[str, str] = {}
    for i, key in enumerate(keys):
        s, _r, o, t0, _t1 = decode_fact_key(key)
        c = {"subject": s, "object": o}.get(asked)
        c = c.replace("_", " ") if c is not None else _time_at(t0, granularity)
        count[c] += 1
        first_seen.setdefault(c, i)
        when[c] = min(when.get(c, t0), t0) if select != "last" else max(when.get(c, t0), t0)
    return _rank_names(count, when, first_seen, select, limit)


class Answer(Stage):
    """Answerer role over the final evidence; sets predictions and the evidence counts.

    ``with_evidence=False``: the role sees the question alone (``llm_only``).
    ``extra_inputs(state) -> dict``: a method's additional role inputs read off its state (it
    may pop the private key it reads, e.g. TCC-RAG's parsed asked slot).
    """

    name = "answer"

    def __init__(self, ctx: "RunContext", method: str, answered_by: str = "dense", *,
                 with_evidence: bool = True, extra_inputs: Callable[[State], dict[str, Any]] | None = None) -> None:
        super().__init__(ctx)
        self.method = method
        self.answered_by = answered_by
        self.with_evidence = with_evidence
        self.extra_inputs = extra_inputs

    def __call__(self, states: list[State]) -> list[State]:
        reqs = []
        for s in states:
            ev = list(s.get("evidence", []))
            inputs = {"question": s["question"]}
            if self.with_evidence:
                inputs.update({"facts": render_facts(ev), "fact_keys": ev})
            if self.extra_inputs is not None:
                inputs.update(self.extra_inputs(s))
            reqs.append(RoleRequest(self.method, "answerer", inputs, AnswerOutput, s["quid"]))
        outs = run_roles(self.ctx, states, reqs)
        for state, out in zip(states, outs):
            ev = list(state.get("evidence", []))
            state["evidence"] = ev
            state.setdefault("initial_evidence_count", len(ev))
            state["final_evidence_count"] = len(ev)
            state["predictions"] = clean_answers(out.get("answers", []) if out else [])
            state.setdefault("answered_by", self.answered_by)
        return states


def clean_answers(answers: Sequence[Any]) -> list[str]:
    """Strings, stripped, de-duplicated in order, underscores shown as spaces."""
    seen, out = set(), []
    for a in answers:
        if a is None:
            continue
        t = str(a).strip().replace("_", " ")
        if t and t.casefold() not in seen:
            seen.add(t.casefold())
            out.append(t)
    return out
