"""PoK as stages: Plan (planner role + validation) → Execute (Retrieve / Rank / Reason steps).

Execution runs in waves: step i of every question in the batch together, so dense searches and
reasoner calls are batched. Retrieve = dense search over the fact index (distinct triples
expanded to dated facts; a fact's cosine is its triple's, the date being handled by the time
score) + time-aware re-ranking (μ = 0.2) → top-20; its boundary may come from an earlier
answer (``[answer i]``). Rank orders facts chronologically; Reason calls the ``reasoner`` role
on the (top-20, chronological) facts. Ablations: ``wo_plan`` (retrieve with the raw question),
``wo_rank`` (no time re-ranking, facts shuffled with a per-question seed).

Roles vs deterministic by design (the same with an LLM backbone): the **planner** (the steps
and their sub-objective texts) and the **reasoner** (answers from the facts) are backbone
roles (symbolic stand-ins below). The Retrieve step's time operator (before/after/in/same)
and its explicit time are read from the step's text by ``nlu.question_signals``, and the
boundary t_q comes from the ``[answer i]`` the step refers to: the paper applies its
time-filtering function "for questions with time constraints" without a model output for
the constraint, and reading it with the cue grammar every method shares keeps re-ranking a
deterministic function of the plan (an unparseable date in an answer leaves the step
without a time operator rather than guessing). Rank is chronological (descending when the
step text asks for latest first).
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import Field

from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.methods.base import Method, Stage, State, register_method
from tkgqa_ray.kg.factkey import decode_fact_key
from tkgqa_ray.methods.contract import check_stages
from tkgqa_ray.methods.roles import register_symbolic, run_roles
from tkgqa_ray.methods.pok.plan import REF, PlanError, PlanOutput, PlanStep, direct_plan, validate_plan
from tkgqa_ray.methods.pok.rerank import MU, rerank
from tkgqa_ray.methods.pok.state import KEY, PokState
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.nlu.text import EVENT_CLAUSE_GAP_RE
from tkgqa_ray.retrieval.answers import candidate_answers, clean_answers
from tkgqa_ray.retrieval.dense import dense_fact_ids
from tkgqa_ray.retrieval.render import fact_keys, render_facts
from tkgqa_ray.retrieval.schemas import AnswerOutput
from tkgqa_ray.schema import StrictModel

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

METHOD = "pok"
# the reference event after an order cue: nlu's one clause-gap pattern, then the clause itself
_REF_CLAUSE = re.compile(EVENT_CLAUSE_GAP_RE.pattern + r"(.+?)\s*(?:,|\?|$|\s+did\b)", re.I)


# ----------------------------------------------------------------------------- symbolic roles
def symbolic_planner(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Deterministic plans in the paper's shape. A cue with a reference ("after X", "same month
    as X visited Y") becomes: Retrieve the reference event, Reason its time, Retrieve relative
    to [answer 2], Rank, Reason; any other question: Retrieve, Rank, Reason."""
    q = inputs["question"]
    sig = question_signals(q)
    ref = None
    if sig.order in ("before", "after", "same") and sig.explicit is None and sig.order_span:
        tail = q[sig.order_span[1]:]
        m = _REF_CLAUSE.match(tail)
        ref = m.group(1).strip() if m else None
    if not ref:
        return {"steps": [s.model_dump() for s in direct_plan(q)]}
    full_event = False
    if ctx is not None:
        from tkgqa_ray.nlu.entities import EntityMatcher

        full_event = len(EntityMatcher.for_table(ctx.table).match(ref)) >= 2
    # the main clause without the cue clause, the wh-phrase and first/last words
    a, b = sig.order_span
    rest = q[:a] + " " + q[b:].replace(ref, " ", 1)
    rest = re.sub(r"\b(?:the\s+)?(?:first|last|earliest|latest)\b", " ", rest, flags=re.I)
    rest = re.sub(r"\b(?:who|whom|which\s+\w+|what\s+\w+)\s+(?:was|were|did|does)?\s*(?:the\s+)?(?:to\s+)?", " ", rest, flags=re.I)
    rest = re.sub(r"\b(?:in|on|during)\s+the\s*(?=[,?]|$)", " ", rest, flags=re.I)
    rest = re.sub(r"\s*([,?])\s*", " ", rest)
    rest = re.sub(r"\b(?:the|did)\b", " ", rest, flags=re.I)
    rest = re.sub(r"\s+", " ", rest).strip(" ,?")
    event = ref if full_event else f"{ref} {rest}"
    sel = {"after": " first", "before": " last"}.get(sig.order or "", "")
    steps = [
        {"op": "Retrieve", "text": event},
        {"op": "Reason", "text": f"When did {event}{sel}?"},
        {"op": "Retrieve", "text": q.replace(ref, "[answer 2]", 1)},
        {"op": "Rank", "text": "Rank these facts by time"},
        {"op": "Reason", "text": q},
    ]
    return {"steps": steps}


def symbolic_reasoner(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Candidates from the facts (names the sub-question does not mention / dates at its
    granularity), earliest or latest first when it asks for first/last."""
    from tkgqa_ray.retrieval.answers import question_entities

    q = inputs["question"]
    return {"answers": candidate_answers(q, inputs.get("fact_keys", []), select=question_signals(q).select,
                                         mentioned_names=question_entities(q, ctx))}


register_symbolic("pok.planner", symbolic_planner)
register_symbolic("pok.reasoner", symbolic_reasoner)


# ----------------------------------------------------------------------------- stages
class Plan(Stage):
    name = "pok_plan"
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ("plan",)

    def __init__(self, ctx: "RunContext", use_planner: bool = True) -> None:
        super().__init__(ctx)
        self.use_planner = use_planner

    def __call__(self, states: list[State]) -> list[State]:
        if not self.use_planner:
            for s in states:
                plan = PokState.of(s).plan = direct_plan(s["question"])
                s["trace"]["plan"] = [st.model_dump() for st in plan]
            return states
        outs = run_roles(self.ctx, states, [
            RoleRequest(METHOD, "planner", {"question": s["question"]}, PlanOutput, s["quid"]) for s in states])
        for s, out in zip(states, outs):
            try:
                if out is None:
                    raise PlanError("planner output failed schema validation")
                steps = validate_plan(out)
            except PlanError as exc:
                s["trace"]["plan_error"] = str(exc)
                steps = direct_plan(s["question"])
            PokState.of(s).plan = list(steps)
            s["trace"]["plan"] = [st.model_dump() for st in steps]
        return states


def _span_of(answer: str) -> tuple[int, int] | None:
    from tkgqa_ray.kg.table import parse_time_span

    try:
        return parse_time_span(answer.strip()[:10])
    except ValueError:
        return None


class Execute(Stage):
    name = "pok_execute"
    reads: tuple[str, ...] = ("plan",)
    writes: tuple[str, ...] = ("outs", "pool", "reason_facts")  # then consumed into the result keys

    def __init__(self, ctx: "RunContext", k: int = 20, pool: int = 200, mu: float = MU,
                 time_rerank: bool = True, shuffle: bool = False) -> None:
        super().__init__(ctx)
        self.k, self.pool, self.mu = k, pool, mu
        self.time_rerank, self.shuffle = time_rerank, shuffle

    # outputs per step: {"facts": [fid...]} or {"answers": [...]}
    def _ref_text(self, text: str, outs: list[dict]) -> str:
        def sub(m):
            j = int(m.group(1)) - 1
            o = outs[j] if j < len(outs) else {}
            if o.get("answers"):
                return str(o["answers"][0])
            if o.get("facts"):
                return decode_fact_key(self.ctx.table.fact(o["facts"][0]).key).start
            return ""
        return REF.sub(sub, text)

    def _boundary(self, text: str, resolved: str, outs: list[dict]) -> tuple[str | None, tuple[int, int] | None]:
        """(time operator, boundary span) of a Retrieve step; ``resolved`` = ``text`` with its
        ``[answer i]`` references filled in (the cue is read there, the references here)."""
        from tkgqa_ray.time import coarsen

        sig = question_signals(resolved)  # the time constraint: deterministic by design (module doc)
        op = sig.order
        if op is None:
            return None, None
        refs = [int(m.group(1)) - 1 for m in REF.finditer(text)]
        span = None
        for j in refs:
            o = outs[j] if j < len(outs) else {}
            if o.get("answers"):
                span = _span_of(str(o["answers"][0]))
            elif o.get("facts"):
                f = self.ctx.table.fact(o["facts"][0])
                span = (f.start, f.end)
            if span:
                break
        if span is None and sig.explicit is not None:
            span = (sig.explicit.lo, sig.explicit.hi)
        if span is None:
            return None, None
        if op == "same":
            span = coarsen(span[0], span[1], sig.same_granularity or "day")
        return op, span

    def __call__(self, states: list[State]) -> list[State]:
        table = self.ctx.table
        sts = {id(s): PokState.of(s) for s in states}
        for st in sts.values():
            st.outs, st.pool, st.reason_facts = [], set(), []

        def step(s: State, i: int) -> PlanStep:
            return sts[id(s)].plan[i]

        n_steps = max(len(st.plan) for st in sts.values())
        for i in range(n_steps):
            live = [s for s in states if i < len(sts[id(s)].plan)]
            retr = [s for s in live if step(s, i).op == "Retrieve"]
            if retr:
                texts = [self._ref_text(step(s, i).text, sts[id(s)].outs) for s in retr]
                bounds = [self._boundary(step(s, i).text, t, sts[id(s)].outs) for s, t in zip(retr, texts)]
                hints = [b[1] if b[0] in ("in", "same") else None for b in bounds]
                hits = dense_fact_ids(self.ctx, texts, self.pool, time_hints=hints, triple_pool=max(self.k * 2, 50))
                for s, text, (op, tq), (fids, cos) in zip(retr, texts, bounds, hits):
                    sts[id(s)].pool.update(int(x) for x in fids)
                    # wo_rank: no time operator, so the cosine alone orders the pool
                    pos, _ = rerank(cos, table.start[fids], op if self.time_rerank else None, tq, mu=self.mu, k=self.k)
                    chosen = [int(fids[p]) for p in pos]
                    sts[id(s)].outs.append({"facts": chosen})
                    s["trace"].setdefault("steps", []).append(
                        {"op": "Retrieve", "text": text, "time_op": op, "t_q": list(tq) if tq else None,
                         "facts": len(chosen)})
            for s in live:
                st = step(s, i)
                if st.op == "Rank":
                    facts = self._last_facts(s)
                    sts[id(s)].outs.append({"facts": self._order(s, facts, st.text)})
                    s["trace"].setdefault("steps", []).append({"op": "Rank", "facts": len(facts)})
            reas = [s for s in live if step(s, i).op == "Reason"]
            if reas:
                reqs = []
                for s in reas:
                    facts = self._order(s, self._last_facts(s)[: self.k], "")
                    keys = fact_keys(table, facts)
                    sts[id(s)].reason_facts = keys
                    text = self._ref_text(step(s, i).text, sts[id(s)].outs)
                    reqs.append(RoleRequest(METHOD, "reasoner",
                                            {"question": text, "facts": render_facts(keys), "fact_keys": keys},
                                            AnswerOutput, s["quid"]))
                outs = run_roles(self.ctx, reas, reqs)
                for s, out in zip(reas, outs):
                    answers = clean_answers(out.get("answers", []) if out else [])
                    sts[id(s)].outs.append({"answers": answers})
                    s["trace"].setdefault("steps", []).append({"op": "Reason", "answers": answers[:5]})
        for s in states:
            st = s.pop(KEY)  # the last stage: the working state becomes the result keys
            last = st.outs[-1] if st.outs else {}
            s["predictions"] = list(last.get("answers", []))
            s["evidence"] = st.reason_facts
            s["initial_evidence_count"] = len(st.pool)
            s["final_evidence_count"] = len(st.reason_facts)
            s["answered_by"] = "plan" if "plan_error" not in s["trace"] else "fallback_plan"
        return states

    def _last_facts(self, s: State) -> list[int]:
        for o in reversed(PokState.of(s).outs):
            if "facts" in o:
                return list(o["facts"])
        return []

    def _order(self, s: State, facts: list[int], text: str) -> list[int]:
        if self.shuffle:  # wo_rank: a per-question seeded shuffle instead of temporal order
            seed = int.from_bytes(hashlib.sha256(str(s["quid"]).encode()).digest()[:8], "little")
            facts = list(facts)
            np.random.default_rng(seed).shuffle(facts)
            return facts
        st = self.ctx.table.start
        desc = bool(re.search(r"\b(?:desc|descending|latest first|reverse)\b", text, re.I))
        return sorted(facts, key=lambda f: (int(st[f]), f), reverse=desc)


class PoKOptions(StrictModel):
    k: int = Field(20, ge=1, description="facts per Retrieve step after re-ranking (and to the reasoner)")
    pool: int = Field(200, ge=1, description="dense candidates re-ranked per Retrieve step")
    mu: float = Field(MU, ge=0, le=1, description="score = mu * cosine + (1 - mu) * time score")


@register_method
class PoK(Method):
    """Plan of Knowledge (paper 002) without retriever fine-tuning."""

    name = "pok"
    ablations = ("none", "wo_plan", "wo_rank")
    Options = PoKOptions
    state_key = KEY  # PokState, dropped after the chain (failed rows too)

    def build_stages(self) -> list[Stage]:
        o = self.options
        stages: list[Stage] = [
            Plan(self.ctx, use_planner=self.ablation != "wo_plan"),
            Execute(self.ctx, k=o["k"], pool=o["pool"], mu=o["mu"],
                    time_rerank=self.ablation != "wo_rank", shuffle=self.ablation == "wo_rank"),
        ]
        check_stages(stages, PokState)  # a missing or reordered stage is refused here, naming the field
        return stages
