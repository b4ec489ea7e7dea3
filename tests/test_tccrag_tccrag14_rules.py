"""TCC-RAG round tccrag14: rules of TCC-RAG's own stages.

* a bare group name ("the Taliban") that grounds to one "<sector> (<group>)" name by
  similarity reads the group's other sector names too, the most frequent first: ICEWS has no
  entity of the group itself and files its facts under several sectors (Militant (Taliban),
  Combatant (Taliban)).

Tiny hand-built KGs, questions written for these tests, answers checked by hand."""

from __future__ import annotations


from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.tccrag.parsing import group_sectors

ROWS = [
    # the Taliban's militants are the more frequent sector; only its combatants wished for
    # diplomatic cooperation with Pakistan's government (2009-05-05)
    ("Militant_(Taliban)", "Use_conventional_military_force", "Police_(Pakistan)", "2009-01-01"),
    ("Militant_(Taliban)", "Use_conventional_military_force", "Police_(Pakistan)", "2009-02-01"),
    ("Combatant_(Taliban)", "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)",
     "Government_(Pakistan)", "2009-05-05"),
    ("Government_(Pakistan)", "Make_statement", "Police_(Pakistan)", "2009-04-01"),
    ("Pakistan", "Make_statement", "Police_(Pakistan)", "2009-04-02"),
]



def _id(ctx, name):
    return ctx.table.display_entity_id[name]


# ----------------------------------------------------------------------------- group sectors
def test_group_sectors_appends_the_groups_other_sectors(ctx):
    mil, com = _id(ctx, "Militant (Taliban)"), _id(ctx, "Combatant (Taliban)")
    assert group_sectors("the Taliban", [(mil, 0.9)], ctx.table) == [(mil, 0.9), (com, 0.9)]


def test_group_sectors_leaves_other_groundings(ctx):
    gov, mil = _id(ctx, "Government (Pakistan)"), _id(ctx, "Militant (Taliban)")
    # the mention is a KG name itself (a country), not a group without an entity: nothing added
    assert group_sectors("Pakistan", [(gov, 0.9)], ctx.table) == [(gov, 0.9)]
    # a lower-case sector noun is the actor grammar's, not a group name
    assert group_sectors("taliban", [(mil, 0.9)], ctx.table) == [(mil, 0.9)]


def test_the_taliban_reads_the_combatant_sector(ctx, monkeypatch):
    import tkgqa_ray.methods.tccrag.method as M

    mil = _id(ctx, "Militant (Taliban)")
    real = M.match_mention_candidates

    def embedding(mentions, c):  # the embedding tier's reading of the bare group name (real KG)
        return [(m, [(mil, 0.88)], "embedding") if m == "Taliban" else hit
                for m, hit in zip(mentions, [(m, cs, how) for m, cs, how in real(mentions, c)])]

    monkeypatch.setattr(M, "match_mention_candidates", embedding)
    pred, _ = top(ctx, "In which month did the Taliban express the intent for diplomatic cooperation with the "
                       "Pakistani government?")
    assert pred == ["2009-05"]
