"""Stage V: answer inference (role ``answerer``) over the compact evidence.

The role sees the question, the aligned search triple (which slot is asked), the ranking
requirement and the final facts (display names, ISO days, in RankSelect order) plus a few
facts of each anchor. It returns a ranked answer list: entity display names, or times at the
question's granularity. A failed answer role leaves the question with no prediction.
"""

from __future__ import annotations

from tkgqa_ray.methods.base import Stage

from .evidence import fact_dict
from .roles import call_role, scop_trace
from .schemas import AnswerOutput
from .types import Triple


def answer_inputs(table, st: dict) -> dict:
    sc = st["_scop"]
    ev = sc.get("evidence") or {}
    search = sc.get("search")
    return {
        "question": st["question"],
        "search": search,
        "open_slot": Triple.of(search).open_slot if search else None,
        "mode": ev.get("mode", "none"),
        "ranking": sc.get("ranking"),
        "facts": [fact_dict(table, i) for i in ev.get("target_facts", [])],
        "anchor_facts": [[fact_dict(table, i) for i in ids] for ids in ev.get("anchor_facts", [])],
    }


class AnswerStage(Stage):
    name = "scop.answerer"

    def __call__(self, states: list[dict]) -> list[dict]:
        table = self.ctx.table
        live = [st for st in states if st["_scop"].get("evidence", {}).get("final", 0) > 0]
        outs = call_role(self.ctx, live, "answerer", [answer_inputs(table, st) for st in live], AnswerOutput)
        got = {id(st): out for st, out in zip(live, outs)}
        for st in states:
            tr = scop_trace(st)
            if id(st) in got:
                out = got[id(st)]
                st["predictions"] = list(out["answers"]) if out else []
                st["answered_by"] = "structured" if out else "parse_failure"
            else:
                st["predictions"] = []
                st["answered_by"] = "no_evidence" if st["_scop"].get("raw") is not None else "parse_failure"
            tr["answer"] = st["predictions"]
            st.pop("_scop", None)
        return states
