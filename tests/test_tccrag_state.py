"""TCC-RAG's typed per-question state: the stage contract is checked when the method is
built (a missing or reordered stage is refused, naming the field), and the working state
never leaves the method (finished and failed rows alike)."""

from __future__ import annotations

import pytest

from tkgqa_ray.methods.tccrag.method import TCCRAG, CausalFilter, ChainRetrieve, ProgressiveParse
from tkgqa_ray.methods.tccrag.state import KEY, StageContractError, TccragState, check_stages

from test_scop_readings import ROWS as READINGS_ROWS

ROWS = READINGS_ROWS  # the same hand-made KG (conftest's `ctx` reads a module's ROWS)



@pytest.mark.parametrize("ablation", TCCRAG.ablations)
def test_every_ablation_builds_a_consistent_chain(ctx, ablation):
    m = TCCRAG(ctx, ablation=ablation)
    check_stages(m.stages, TccragState)
    names = [s.name for s in m.stages]
    assert ("tccrag_parse" in names) == (ablation != "wo_ccg")


def test_a_missing_parse_stage_is_refused_naming_the_field(ctx):
    with pytest.raises(StageContractError, match=r"'tccrag_retrieve' reads TccragState\.parse.*a stage is missing"):
        check_stages([ChainRetrieve(ctx), CausalFilter(ctx)], TccragState)
    # the wo_ccg retrieval reads no parse: the same chain without the parser is fine there
    check_stages([ChainRetrieve(ctx, semantic_only=True), CausalFilter(ctx)], TccragState)


def test_reordered_stages_are_refused(ctx):
    with pytest.raises(StageContractError, match=r"'tccrag_cef' reads TccragState\.cands.*written only later, by 'tccrag_retrieve'"):
        check_stages([ProgressiveParse(ctx), CausalFilter(ctx), ChainRetrieve(ctx)], TccragState)


def test_a_stage_declaring_an_unknown_field_is_refused(ctx):
    bad = CausalFilter(ctx)
    bad.reads = ("cands", "chain_rel")  # an old dict key, not a field
    with pytest.raises(StageContractError, match=r"'tccrag_cef' declares 'chain_rel'"):
        check_stages([ProgressiveParse(ctx), ChainRetrieve(ctx), bad], TccragState)


def test_building_the_method_runs_the_check(ctx, monkeypatch):
    monkeypatch.setattr(ChainRetrieve, "writes", ("cands", "structured", "asked", "relations"))
    with pytest.raises(StageContractError, match=r"TccragState\.boundary"):
        TCCRAG(ctx)


def test_the_working_state_never_leaves_the_method(ctx, monkeypatch):
    rows = TCCRAG(ctx)([{"quid": "1", "question": "Who did China meet with in 2010?"}])
    assert KEY not in rows[0] and rows[0]["predictions"][:1] == ["India"]

    def boom(self, states):
        raise RuntimeError("filter broke")

    monkeypatch.setattr(CausalFilter, "__call__", boom)
    rows = TCCRAG(ctx)([{"quid": "2", "question": "Who did China meet with in 2010?"}])
    assert rows[0]["error"].startswith("tccrag_cef: RuntimeError") and KEY not in rows[0]
