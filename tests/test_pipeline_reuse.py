"""store.reuse: runs in one driver process share the KG store and embedding service when the
KG and the store / embedding settings match; anything else starts afresh and stops the kept set."""

from __future__ import annotations

import json
import time

import pytest

from test_pipeline_methods import compose_cfg, make_dataset, read_rows
from tkgqa_ray.pipeline.driver import run_pipeline
from tkgqa_ray.pipeline.resources import release_kept_actors

pytestmark = pytest.mark.ray


def _ours(ray) -> set[str]:
    """Names of the store / embedding-service actors alive now."""
    return {a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
            if a["name"].startswith(("tkgqa-store-", "tkgqa-embed-"))}


def _wait_gone(ray, names: set[str], timeout: float = 30) -> set[str]:
    deadline = time.time() + timeout
    left = names & _ours(ray)
    while left and time.time() < deadline:
        time.sleep(0.2)
        left = names & _ours(ray)
    return left


def _resources(out) -> dict:
    return json.loads((out / "run.json").read_text())["resources"]


def test_second_run_over_the_same_kg_reuses_the_store_and_embedding_service(ray_session, tmp_path):
    import ray

    release_kept_actors()
    root = tmp_path / "ds"
    gold = make_dataset(root, n_questions=12, seed=3)
    first, second = tmp_path / "a", tmp_path / "b"
    run_pipeline(compose_cfg(root, first))
    rid = _resources(first)["run_id"]
    assert _resources(first)["store_reused_from"] is None
    kept = {n for n in _ours(ray) if rid in n}
    # two shard actors, the table holder and the embedding service, still up after the run
    assert kept == {f"tkgqa-store-{rid}-kg-shard-0", f"tkgqa-store-{rid}-kg-shard-1",
                    f"tkgqa-store-{rid}-kg-table", f"tkgqa-embed-{rid}"}

    run_pipeline(compose_cfg(root, second, "run.batch_size=4"))  # run settings are not part of the key
    assert _resources(second)["store_reused_from"] == rid
    assert _resources(second)["run_id"] != rid
    assert not {n for n in _ours(ray) if _resources(second)["run_id"] in n}  # started none of its own
    for out in (first, second):
        rows = read_rows(out)
        assert [r["predictions"] for r in rows] == [gold[r["quid"]] for r in rows]  # = the scan oracle

    release_kept_actors()
    assert _wait_gone(ray, kept) == set()


def test_another_kg_or_other_settings_start_afresh_and_stop_the_kept_set(ray_session, tmp_path):
    import ray

    release_kept_actors()
    root_a, root_b = tmp_path / "a", tmp_path / "b"
    make_dataset(root_a, n_questions=8, seed=4)
    gold_b = make_dataset(root_b, n_questions=8, seed=5)  # other facts: another content hash
    run_pipeline(compose_cfg(root_a, tmp_path / "ra"))
    rid_a = _resources(tmp_path / "ra")["run_id"]
    kept_a = {n for n in _ours(ray) if rid_a in n}
    assert len(kept_a) == 4

    run_pipeline(compose_cfg(root_b, tmp_path / "rb"))
    info_b = _resources(tmp_path / "rb")
    assert info_b["store_reused_from"] is None
    assert _wait_gone(ray, kept_a) == set()  # one set is kept at a time
    rows = read_rows(tmp_path / "rb")
    assert [r["predictions"] for r in rows] == [gold_b[r["quid"]] for r in rows]

    run_pipeline(compose_cfg(root_b, tmp_path / "rb3", "store.num_shards=3"))  # a store setting: no reuse
    assert _resources(tmp_path / "rb3")["store_reused_from"] is None
    assert {n for n in _ours(ray) if _resources(tmp_path / "rb3")["run_id"] in n and "kg-shard-2" in n}

    run_pipeline(compose_cfg(root_b, tmp_path / "off", "store.num_shards=3", "store.reuse=false"))
    assert _resources(tmp_path / "off")["store_reused_from"] is None
    assert _wait_gone(ray, {n for n in _ours(ray) if n.startswith(("tkgqa-store-", "tkgqa-embed-"))}) == set()


def test_a_kept_set_that_died_is_replaced(ray_session, tmp_path):
    import ray

    release_kept_actors()
    root = tmp_path / "ds"
    gold = make_dataset(root, n_questions=8, seed=6)
    run_pipeline(compose_cfg(root, tmp_path / "a", "store.max_restarts=0"))
    rid = _resources(tmp_path / "a")["run_id"]
    (entry,) = [a for a in ray.util.list_named_actors(all_namespaces=True) if a["name"] == f"tkgqa-store-{rid}-kg-shard-0"]
    shard = ray.get_actor(entry["name"], namespace=entry["namespace"])
    ray.kill(shard, no_restart=True)  # gone for good (no restarts left)
    run_pipeline(compose_cfg(root, tmp_path / "b", "store.max_restarts=0"))
    assert _resources(tmp_path / "b")["store_reused_from"] is None  # checked alive first: rebuilt
    rows = read_rows(tmp_path / "b")
    assert [r["predictions"] for r in rows] == [gold[r["quid"]] for r in rows]
    release_kept_actors()
