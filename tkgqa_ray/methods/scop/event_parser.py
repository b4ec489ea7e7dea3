"""Stage I/II: event triple identification (role ``event_parser``), and the ``wo_triple``
ablation's retrieval-based pseudo decomposition.

The role returns anchors (complete triples) and at most one search triple with exactly one
``?``; :mod:`.schemas` enforces those invariants, and this stage adds the question-level one
(a time-seeking question has no search triple). A violation is a parse failure: the question
keeps no triples and ends with no answer, the run goes on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tkgqa_ray.nlu import EntityMatcher, find_entity_mentions, infer_answer_type

from .roles import call_role
from .schemas import EventParserOutput
from .state import ScopStage, scop_state
from .types import UNKNOWN, Reading


class EventParserStage(ScopStage):
    name = "scop.event_parser"
    writes = ("triples",)

    def __call__(self, states: list[dict]) -> list[dict]:
        outs = call_role(self.ctx, states, "event_parser", [{"question": s["question"]} for s in states], EventParserOutput)
        for st, out in zip(states, outs):
            s = scop_state(st)
            tr = s.trace
            if out is not None and out.get("search") is not None and infer_answer_type(st["question"]) == "time":
                tr.setdefault("failures", []).append(
                    {"role": "event_parser", "error": "parse_failure: time-seeking question with a search triple", "raw": str(out)[:500]}
                )
                st["roles"][-1]["error"] = "parse_failure: time-seeking question with a search triple"
                st["roles"][-1]["ok"] = False
                out = None
            relaxed = out.pop("relaxed", None) if out is not None else None
            if relaxed:
                tr["relaxed"] = relaxed  # no strict reading: these triples are the best relaxed one
            s.triples = None if out is None else Reading.from_json(out)
            tr["triples_raw"] = out
        return states


class PseudoTripleStage(ScopStage):
    """``wo_triple``: no event parsing. The raw question retrieves KG triples (the names it
    contains, lexically, and relations by dense similarity to the whole question); the best
    triple becomes a pseudo search triple (the slot whose name is not in the question is
    opened) and the next ones pseudo anchors. No separation of answer and anchor events."""

    name = "scop.pseudo_triples"
    writes = ("triples",)
    n_anchors = 2

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.matcher = EntityMatcher.for_table(ctx.table)
        from .triple_index import TripleIndex

        self.tindex = TripleIndex.for_table(ctx.table)

    def __call__(self, states: list[dict]) -> list[dict]:
        table = self.ctx.table
        R = len(table.relations)
        # one batched encode of all questions: relation similarity to the whole question
        all_sims = np.asarray(self.ctx.embeddings.similarity("relation", [s["question"] for s in states], np.arange(R))) if states else None
        for n, st in enumerate(states):
            q = st["question"]
            ments = find_entity_mentions(q, self.matcher)
            ents = sorted({e for m in ments for e in m.entity_ids})
            out = None
            if ents:
                sims = all_sims[n]
                tids = self.tindex.triples_of_entities(ents)
                if len(tids):
                    tr = table.triples[tids]
                    in_q = np.isin(tr[:, 0], ents).astype(float) + np.isin(tr[:, 2], ents).astype(float)
                    score = in_q + sims[tr[:, 1]]
                    order = np.lexsort((tids, -score))[: 1 + self.n_anchors]
                    best = [tr[i] for i in order]
                    name = table.entities
                    rel = table.relations
                    time_q = infer_answer_type(q) == "time"
                    search = None
                    anchors = []
                    for j, (s, r, o) in enumerate(best):
                        t = [name[s], rel[r], name[o]]
                        if j == 0 and not time_q:
                            if s in ents and o not in ents:
                                t[2] = UNKNOWN
                            elif o in ents and s not in ents:
                                t[0] = UNKNOWN
                            else:
                                t[2] = UNKNOWN
                            search = t
                        else:
                            anchors.append(t)
                    out = {"anchors": anchors, "search": search}
            st.setdefault("roles", [])
            s = scop_state(st)
            s.triples = None if out is None else Reading.from_json(out)
            s.trace["triples_raw"] = out
            s.trace["pseudo_triples"] = True
        return states
