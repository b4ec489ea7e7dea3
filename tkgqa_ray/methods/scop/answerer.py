"""Stage V: answer inference (role ``answerer``) over the compact evidence.

The role sees the question, the search triple of the chosen reading (which slot is asked), the
ranking requirement and the final facts (display names, ISO days, in RankSelect order) plus a
few facts of each anchor. It returns a ranked answer list: entity display names, or times at
the question's granularity. A failed answer role leaves the question with no prediction.
"""

from __future__ import annotations

from typing import Any

from .evidence import fact_dict
from .roles import call_role
from .schemas import AnswerOutput
from .state import ScopStage, ScopState, scop_state


def answer_inputs(table: Any, s: ScopState) -> dict:
    ev = s.evidence
    search = s.chosen.search
    return {
        "question": s.question,
        "search": None if search is None else search.as_list(),
        "open_slot": search.open_slot if search is not None else None,
        "mode": ev.mode if ev is not None else "none",
        "ranking": None if s.ranking is None else s.ranking.to_json(),
        "facts": [fact_dict(table, i) for i in (ev.target_facts if ev is not None else [])],
        "anchor_facts": [[fact_dict(table, i) for i in ids] for ids in (ev.anchor_facts if ev is not None else [])],
    }


class AnswerStage(ScopStage):
    name = "scop.answerer"
    reads = ("triples", "chosen", "ranking", "evidence")
    writes = ("answers", "answered_by")

    def __call__(self, states: list[dict]) -> list[dict]:
        table = self.ctx.table
        live = [st for st in states if (ev := scop_state(st).evidence) is not None and ev.final > 0]
        outs = call_role(self.ctx, live, "answerer", [answer_inputs(table, scop_state(st)) for st in live], AnswerOutput)
        got = {id(st): out for st, out in zip(live, outs)}
        for st in states:
            s = scop_state(st)
            if id(st) in got:
                out = got[id(st)]
                s.answers = list(out["answers"]) if out else []
                s.answered_by = "structured" if out else "parse_failure"
            else:
                s.answers = []
                s.answered_by = "no_evidence" if s.triples is not None else "parse_failure"
            s.trace["answer"] = list(s.answers)
        return states
