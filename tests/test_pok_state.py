"""PoK's typed per-question state: the Plan -> Execute contract is checked when the method is
built (a missing or reordered stage is refused naming the field), and the working state
never leaves the method."""

from __future__ import annotations

import pytest

from tkgqa_ray.methods.base import METHODS
from tkgqa_ray.methods.pok.method import Execute, Plan, PoK
from tkgqa_ray.methods.pok.state import KEY, PokState
from tkgqa_ray.methods.contract import StageContractError, check_stages

from test_pok_core import ROWS


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS)


@pytest.mark.parametrize("ablation", PoK.ablations)
def test_every_ablation_builds_a_consistent_chain(ctx, ablation):
    check_stages(METHODS.get("pok")(ctx, ablation=ablation).stages, PokState)


def test_missing_or_reordered_plan_stage_is_refused(ctx):
    with pytest.raises(StageContractError, match=r"'pok_execute' reads PokState\.plan.*a stage is missing"):
        check_stages([Execute(ctx)], PokState)
    with pytest.raises(StageContractError, match=r"'pok_execute' reads PokState\.plan.*written only later, by 'pok_plan'"):
        check_stages([Execute(ctx), Plan(ctx)], PokState)


def test_building_the_method_runs_the_check(ctx, monkeypatch):
    monkeypatch.setattr(Plan, "writes", ())
    with pytest.raises(StageContractError, match=r"PokState\.plan"):
        METHODS.get("pok")(ctx)


def test_the_working_state_never_leaves_the_method(ctx, monkeypatch):
    (row,) = METHODS.get("pok")(ctx)([{"quid": "a", "question": "Who signed a formal agreement with China in April 2005?"}])
    assert row["error"] is None and row["predictions"][:1] == ["Iran"] and KEY not in row

    def boom(self, states):
        raise RuntimeError("executor broke")

    monkeypatch.setattr(Execute, "__call__", boom)
    (row,) = METHODS.get("pok")(ctx)([{"quid": "b", "question": "Who visited Iraq?"}])
    assert row["error"].startswith("pok_execute: RuntimeError") and KEY not in row
    assert row["trace"]["plan"][0]["op"] == "Retrieve"  # the plan stage ran and traced its plan
