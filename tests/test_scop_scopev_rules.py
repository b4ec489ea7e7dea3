"""scopev rules: when the strict reading admits no evidence, the next readings are tried
in the same batched store call (the KG decides, the trace records which reading answered);
never a fact the constraints do not admit. Tiny hand-built KG, hand-checked answers."""

from __future__ import annotations


from tkgqa_ray.methods.scop.method import SCoP

ROWS = [
    ("UN_Security_Council", "Rally_support_on_behalf_of", "Burkina_Faso", "2015-09-10"),
    ("UN_Security_Council", "Rally_support_on_behalf_of", "Mali", "2014-03-02"),
    ("Kenya", "Criticize_or_denounce", "UN_Security_Council", "2015-09-11"),
]



def run(ctx, qs):
    return SCoP(ctx)([{"quid": str(i), "question": q} for i, q in enumerate(qs)])


def test_rule1_search_direction_is_a_reading():
    # "whom did those police arrest" parsed as "? arrest police" (the police in the object
    # slot): after the candidate readings, the aligned search with subject and object
    # exchanged (open slot moved), its aligned relation first, then the next reliable one
    import types

    import numpy as np

    from tkgqa_ray.methods.scop.alignment import SlotCands, alternative_readings
    from tkgqa_ray.methods.scop.types import Triple

    table = types.SimpleNamespace(entities=["Police_(Uganda)", "Rebel_(Uganda)"],
                                  relations=["Arrest", "Attempt_to_assassinate", "Obstruct"])
    raw = Triple.of(["?", "police arrest", "the police of Uganda"])
    ec = {"the police of Uganda": SlotCands(np.array([0]), np.array([1.0]), True)}
    rc = {"police arrest": SlotCands(np.array([0, 1, 2]), np.array([0.77, 0.55, 0.3]))}
    alts = alternative_readings([], Triple.of(["?", "Arrest", "Police_(Uganda)"]), [], raw, ec, rc, table)
    rev = [a for a in alts if a.changed == "search:reversed"]
    assert [a.reading.search.as_list() for a in rev] == [
        ["Police_(Uganda)", "Arrest", "?"], ["Police_(Uganda)", "Attempt_to_assassinate", "?"]]
    assert alts[-len(rev):] == rev  # tried last: the parse's own direction goes first
    assert all(a.reading.search.as_list()[2] == "Police_(Uganda)" for a in alts if a.changed == "search")


def test_rule1_end_to_end_constraint_still_decides(ctx):
    (row,) = run(ctx, ["On whose behalf did the UN Security Council rally support in September 2015?"])
    assert row["predictions"][:1] == ["Burkina Faso"], row["trace"]
    # no fact in that month in either direction: no answer
    (row,) = run(ctx, ["On whose behalf did the UN Security Council rally support in June 2013?"])
    assert row["predictions"] == [], row["trace"]
