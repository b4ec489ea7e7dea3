"""Retrieval baselines (``rag``, ``rag_filter``, ``llm_only``) and the pieces TCC-RAG and PoK share.

Shared pieces: rendering facts as evidence strings, dense fact retrieval over the distinct-triple
FAISS index expanded to dated facts, batched role calls with ledger records, and the symbolic
answerer (frequency of candidate entities/times in the evidence). Everything here sees only
``quid`` + ``question``; answer type and granularity come from :mod:`tkgqa_ray.nlu.signals`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from pydantic import BaseModel, Field

from tkgqa_ray.backbones.base import SYMBOLIC_ROLES, RoleLedger, RoleRequest
from tkgqa_ray.methods.base import Method, Stage, State, register_method
from tkgqa_ray.schema import StrictModel
from tkgqa_ray.nlu.signals import question_signals

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

MAX_PREDICTIONS = 10


# ----------------------------------------------------------------------------- schemas
class AnswerOutput(BaseModel):
    """Answerer / reasoner output: every plausible answer, best first."""

    answers: list[str] = Field(default_factory=list, description="answers, best first")


class FilterOutput(BaseModel):
    """``rag_filter`` filter role: 1-based numbers of the facts to keep, most useful first."""

    keep: list[int] = Field(default_factory=list, description="1-based fact numbers to keep")


# ----------------------------------------------------------------------------- facts
def fact_keys(table, fids: Sequence[int] | np.ndarray) -> list[str]:
    """Evidence strings ``s|r|o|YYYY-MM-DD|YYYY-MM-DD`` (KG-form names) for fact ids."""
    return [f.key for f in table.facts([int(i) for i in fids])]


def split_key(key: str) -> tuple[str, str, str, str, str]:
    parts = key.split("|")
    if len(parts) < 5:
        raise ValueError(f"evidence {key!r} is not 's|r|o|start|end'")
    if len(parts) > 5:  # a name containing '|': keep the date columns, join the rest
        s, r = parts[0], parts[1]
        o = "|".join(parts[2:-2])
        return s, r, o, parts[-2], parts[-1]
    return parts[0], parts[1], parts[2], parts[3], parts[4]


def fact_line(key: str) -> str:
    """Prompt form of one fact: ``Barack Obama | Make a visit | Ireland | 2012-08-07``."""
    s, r, o, t0, t1 = split_key(key)
    when = t0 if t0 == t1 else f"{t0} to {t1}"
    return " | ".join(x.replace("_", " ") for x in (s, r, o)) + f" | {when}"


def render_facts(keys: Sequence[str]) -> str:
    return "\n".join(f"{i}. {fact_line(k)}" for i, k in enumerate(keys, 1)) or "(no facts)"


# ----------------------------------------------------------------------------- dense retrieval
def dense_fact_ids(
    ctx: "RunContext",
    queries: Sequence[str],
    k: int,
    *,
    time_hints: Sequence[tuple[int, int] | None] | None = None,
    triple_pool: int | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Dense top-``k`` dated facts per query: (fact ids, cosine of their triple).

    The FAISS "fact" index holds distinct (s, r, o) triples (dates would only add near-duplicate
    vectors). A fact-level index ranks the dated copies of one triple by how well their date
    text matches the question, so we expand each retrieved triple to its dated facts and order
    them: facts inside the question's explicit time first, then round-robin over triples by
    rank (each triple's best-dated fact before any triple's second), nearest date first.
    """
    if not queries:
        return []
    table = ctx.table
    pool = triple_pool or k
    scores, tids = ctx.embeddings.search("fact", list(queries), pool)
    hints = list(time_hints) if time_hints is not None else [None] * len(queries)
    out = []
    for qi in range(len(queries)):
        valid = tids[qi] >= 0
        t = np.asarray(tids[qi][valid], dtype=np.int64)
        sc = np.asarray(scores[qi][valid], dtype=np.float32)
        if t.size == 0:
            out.append((np.empty(0, np.int64), np.empty(0, np.float32)))
            continue
        fids = table.facts_of_triples(t)
        ft = table.fact_triple[fids]
        rank_of = {int(x): i for i, x in enumerate(t.tolist())}
        trank = np.array([rank_of[int(x)] for x in ft], dtype=np.int64)
        start = table.start[fids].astype(np.int64)
        end = table.end[fids].astype(np.int64)
        hint = hints[qi]
        if hint is not None:
            lo, hi = hint
            miss = ~((start <= hi) & (end >= lo))
            dist = np.where(miss, np.minimum(np.abs(start - lo), np.abs(start - hi)), 0)
        else:
            miss = np.zeros(len(fids), bool)
            dist = start - start.min()
        # position of each fact within its triple, by (mismatch, distance, start)
        order = np.lexsort((start, dist, miss, trank))
        within = np.empty(len(fids), np.int64)
        prev, pos = -1, 0
        for idx in order:
            if trank[idx] != prev:
                prev, pos = trank[idx], 0
            within[idx] = pos
            pos += 1
        final = np.lexsort((trank, within, miss))[:k]
        out.append((fids[final].astype(np.int64), sc[trank[final]]))
    return out


# ----------------------------------------------------------------------------- roles
def run_roles(ctx: "RunContext", states: list[State], requests: list[RoleRequest]) -> list[Any]:
    """Run one request per state through the backbone; ledger each; ``None`` for a failure."""
    if not requests:
        return []
    results = ctx.backbone.run(requests)
    if len(results) != len(requests):
        raise RuntimeError(f"backbone returned {len(results)} results for {len(requests)} requests")
    outputs = []
    for state, res in zip(states, results):
        RoleLedger.add(state, res)
        outputs.append(res.output if res.ok else None)
    return outputs


def register_symbolic(name: str, fn) -> None:
    if name not in SYMBOLIC_ROLES:
        SYMBOLIC_ROLES.register(name, fn)


@lru_cache(maxsize=65536)
def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(name.casefold()) + r"(?!\w)")


def mentioned(question: str, display_name: str) -> bool:
    return bool(_name_pattern(display_name).search(question.casefold()))


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
        s, _r, o, t0, _t1 = split_key(key)
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
    from tkgqa_ray.nlu.entities import EntityMatcher

    return {table.display(n).casefold() for m in EntityMatcher.for_table(table).match(question) for n in m.names}


def slot_answers(keys: Sequence[str], asked: str, granularity: str, select: str | None,
                 limit: int = MAX_PREDICTIONS) -> list[str]:
    """Answers read from a known asked slot of chain facts (subject / object / time)."""
    count: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    when: dict[str, str] = {}
    for i, key in enumerate(keys):
        s, _r, o, t0, _t1 = split_key(key)
        c = {"subject": s, "object": o}.get(asked)
        c = c.replace("_", " ") if c is not None else _time_at(t0, granularity)
        count[c] += 1
        first_seen.setdefault(c, i)
        when[c] = min(when.get(c, t0), t0) if select != "last" else max(when.get(c, t0), t0)
    return _rank_names(count, when, first_seen, select, limit)


def symbolic_answerer(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Baseline answerer: the most frequent candidates in the evidence (no temporal reasoning)."""
    q = inputs["question"]
    return {"answers": candidate_answers(q, inputs.get("fact_keys", []), mentioned_names=question_entities(q, ctx))}


def symbolic_llm_only(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Without retrieval and without a language model there is nothing to answer from: the
    symbolic backbone honestly returns no answer (``llm_only`` is meaningful with an LLM)."""
    return {"answers": []}


def symbolic_filter(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Keep facts that name an entity of the question and fit its explicit time, in retrieval
    order, then pad with the rest in retrieval order up to ``keep_k``."""
    q = inputs["question"]
    keys = inputs.get("fact_keys", [])
    k = int(inputs.get("keep_k", 20))
    sig = question_signals(q)
    good, rest = [], []
    for i, key in enumerate(keys, 1):
        s, _r, o, t0, t1 = split_key(key)
        ent = mentioned(q, s.replace("_", " ")) or mentioned(q, o.replace("_", " "))
        ok_time = True
        if sig.explicit is not None and sig.order == "in":
            from tkgqa_ray.kg.table import parse_time_span

            lo, hi = parse_time_span(t0)[0], parse_time_span(t1)[1]
            ok_time = lo <= sig.explicit.hi and hi >= sig.explicit.lo
        (good if ent and ok_time else rest).append(i)
    return {"keep": (good + rest)[:k]}


register_symbolic("rag.answerer", symbolic_answerer)
register_symbolic("rag_filter.answerer", symbolic_answerer)
register_symbolic("rag_filter.filter", symbolic_filter)
register_symbolic("llm_only.answerer", symbolic_llm_only)


# ----------------------------------------------------------------------------- stages
class DenseRetrieve(Stage):
    """Dense top-k facts for the raw question (one FAISS call per batch)."""

    name = "dense_retrieve"

    def __init__(self, ctx: "RunContext", k: int = 20, triple_pool: int | None = None) -> None:
        super().__init__(ctx)
        self.k = k
        self.triple_pool = triple_pool or 2 * k

    def __call__(self, states: list[State]) -> list[State]:
        qs = [s["question"] for s in states]
        hints = []
        for q in qs:
            e = question_signals(q).explicit
            hints.append((e.lo, e.hi) if e else None)
        hits = dense_fact_ids(self.ctx, qs, self.k, time_hints=hints, triple_pool=self.triple_pool)
        for state, (fids, scores) in zip(states, hits):
            keys = fact_keys(self.ctx.table, fids)
            state["evidence"] = keys
            state["initial_evidence_count"] = len(keys)
            state["trace"]["retrieved"] = [
                {"fact": k, "score": round(float(s), 4)} for k, s in zip(keys, scores)
            ]
        return states


class FilterEvidence(Stage):
    """``rag_filter``: the backbone's filter role keeps at most ``keep_k`` of the retrieved facts."""

    name = "filter_evidence"

    def __init__(self, ctx: "RunContext", method: str = "rag_filter", keep_k: int = 20) -> None:
        super().__init__(ctx)
        self.method = method
        self.keep_k = keep_k

    def __call__(self, states: list[State]) -> list[State]:
        reqs = [
            RoleRequest(
                self.method,
                "filter",
                {
                    "question": s["question"],
                    "facts": render_facts(s["evidence"]),
                    "fact_keys": list(s["evidence"]),
                    "keep_k": self.keep_k,
                },
                FilterOutput,
                s["quid"],
            )
            for s in states
        ]
        outs = run_roles(self.ctx, states, reqs)
        for state, out in zip(states, outs):
            keys = state["evidence"]
            if out is None:  # filter failed: keep the retrieval order (recorded in roles)
                kept = keys[: self.keep_k]
            else:
                seen, kept = set(), []
                for n in out.get("keep", []):
                    if isinstance(n, int) and 1 <= n <= len(keys) and n not in seen:
                        seen.add(n)
                        kept.append(keys[n - 1])
                kept = kept[: self.keep_k]
            state["trace"]["filter_kept"] = len(kept)
            state["evidence"] = kept
        return states


class Answer(Stage):
    """Answerer role over the final evidence; sets predictions and the evidence counts."""

    name = "answer"

    def __init__(self, ctx: "RunContext", method: str, answered_by: str = "dense") -> None:
        super().__init__(ctx)
        self.method = method
        self.answered_by = answered_by

    def __call__(self, states: list[State]) -> list[State]:
        reqs = []
        for s in states:
            ev = list(s.get("evidence", []))
            inputs = {"question": s["question"]}
            if self.method != "llm_only":
                inputs.update({"facts": render_facts(ev), "fact_keys": ev})
            if s.get("_asked"):  # parse output (never gold): which slot the chain answers
                inputs["asked"] = s.pop("_asked")
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


# ----------------------------------------------------------------------------- methods
class DenseRAGOptions(StrictModel):
    k: int = Field(20, ge=1, description="facts given to the answerer")
    triple_pool: int | None = Field(None, ge=1, description="distinct triples fetched from FAISS before expanding to dated facts (null: the retriever's default)")


@register_method
class DenseRAG(Method):
    """Dense top-k (k=20) fact retrieval for the question, then the answerer role."""

    name = "rag"
    Options = DenseRAGOptions

    def build_stages(self) -> list[Stage]:
        o = self.options
        return [DenseRetrieve(self.ctx, k=o["k"], triple_pool=o["triple_pool"]), Answer(self.ctx, "rag")]


class RAGFilterOptions(StrictModel):
    k: int = Field(50, ge=1, description="dense candidates given to the filter role")
    keep_k: int = Field(20, ge=1, description="facts the filter role keeps for the answerer")
    triple_pool: int | None = Field(None, ge=1, description="distinct triples fetched from FAISS (null: the retriever's default)")


@register_method
class RAGFilter(Method):
    """Dense top-50, the backbone's filter role keeps 20, then the answerer role."""

    name = "rag_filter"
    Options = RAGFilterOptions

    def build_stages(self) -> list[Stage]:
        o = self.options
        return [
            DenseRetrieve(self.ctx, k=o["k"], triple_pool=o["triple_pool"]),
            FilterEvidence(self.ctx, "rag_filter", keep_k=o["keep_k"]),
            Answer(self.ctx, "rag_filter"),
        ]


@register_method
class LLMOnly(Method):
    """No retrieval: the answerer role on the question alone (evidence counts are 0)."""

    name = "llm_only"

    def build_stages(self) -> list[Stage]:
        return [Answer(self.ctx, "llm_only", answered_by="no_retrieval")]
