"""TCC-RAG's symbolic relation parser: which slot the question asks, relative to the anchor.

Statement order ("Kenya denounced whom") and relative clauses ("the last one that Peru
criticized") put the anchor in the SUBJECT slot; only "who <verb> X" asks the subject. The
role decides the view (SCCI vs OCCI) and, for an elliptic reference, where the reference
entity goes in the TEG lookup. Tiny hand-built KG; each answer checked by hand below."""

from __future__ import annotations

import pytest

from tkgqa_ray.methods.tccrag.method import TCCRAG
from tkgqa_ray.methods.tccrag.parsing import symbolic_relation_parser

ROWS = [
    ("Japan", "Criticize_or_denounce", "Kenya", "2011-01-01"),
    ("Peru", "Criticize_or_denounce", "Chile", "2012-05-01"),
    ("Peru", "Criticize_or_denounce", "Kenya", "2012-06-01"),
    ("Peru", "Criticize_or_denounce", "Japan", "2012-07-01"),
    ("Kenya", "Criticize_or_denounce", "Peru", "2012-07-04"),
]



def run(ctx, qs):
    return TCCRAG(ctx)([{"quid": str(i), "question": q, "trace": {}} for i, q in enumerate(qs)])


@pytest.mark.parametrize("q, subject, obj, asked", [
    # statement order: the anchor before the verb is the subject (old rule: object)
    ("Kenya denounced whom last?", "Kenya", None, "object"),
    # relative clause "the one (that) X verb": X is the subject (old rule: object)
    ("Who was the last one that Peru criticized?", "Peru", None, "object"),
    ("Who was the first one Peru criticized?", "Peru", None, "object"),
    # unchanged: "who did X verb" and "who verb X"
    ("Who did Peru criticize first?", "Peru", None, "object"),
    ("Who criticized Kenya first?", None, "Kenya", "subject"),
])
def test_open_slot_follows_nlu_clause_analysis(ctx, q, subject, obj, asked):
    ents = [{"name": n, "mention": n, "start": q.find(n), "end": q.find(n) + len(n)}
            for n in ("Kenya", "Peru") if n in q]
    out = symbolic_relation_parser({"question": q, "entities": ents}, ctx)
    assert (out["subject"], out["object"], out["asked"]) == (subject, obj, asked)


def test_without_context_the_word_order_fallback_stays():
    q = "Who did Peru criticize first?"
    out = symbolic_relation_parser({"question": q, "entities": [{"name": "Peru", "mention": "Peru", "start": 8, "end": 12}]})
    assert (out["subject"], out["asked"]) == ("Peru", "object")


def test_end_to_end_roles(ctx):
    rows = run(ctx, [
        "Kenya denounced whom first?",  # Kenya's only target: Peru (old reading, who first denounced Kenya: Japan)
        "Who was the last one that Peru criticized?",  # Peru's latest target: Japan (2012-07-01)
        "Who was the first one Peru criticized?",  # Chile (2012-05-01)
        # before-last with an elliptic reference: Peru criticized Japan on 2012-07-01; the latest
        # before it is Kenya (2012-06-01). The old parse read Peru as object: TEG(Japan, Peru)
        # is empty, the boundary unresolved, no chain.
        "Who was the last one that Peru criticized before Japan?",
        # passive time question: the agent after "by" is the subject: Kenya -> Peru, 2012-07-04
        # (not Peru -> Kenya, 2012-06-01)
        "When was Peru criticized by Kenya?",
    ])
    got = [r["predictions"][:1] for r in rows]
    assert got == [["Peru"], ["Japan"], ["Chile"], ["Kenya"], ["2012-07-04"]], [r["trace"] for r in rows]
    assert rows[0]["answered_by"] == "structured:scci" and rows[3]["answered_by"] == "structured:scci"
