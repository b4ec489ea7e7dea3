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
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
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

    # a kept set that died for good is checked before reuse and replaced
    (entry,) = [a for a in ray.util.list_named_actors(all_namespaces=True) if a["name"] == f"tkgqa-store-{rid}-kg-shard-0"]
    ray.kill(ray.get_actor(entry["name"], namespace=entry["namespace"]), no_restart=True)
    run_pipeline(compose_cfg(root, third))
    assert _resources(third)["store_reused_from"] is None
    assert _wait_gone(ray, kept) == set()  # the broken set was stopped, not left beside the new one
    for out in (first, second, third):
        rows = read_rows(out)
        assert [r["predictions"] for r in rows] == [gold[r["quid"]] for r in rows]  # = the scan oracle

    rid3 = _resources(third)["run_id"]
    release_kept_actors()
    assert _wait_gone(ray, {n for n in _ours(ray) if rid3 in n}) == set()


def test_another_kg_or_other_settings_start_afresh_and_stop_the_kept_set(ray_session, tmp_path):
    import ray

    from tkgqa_ray.kg import load_kg
    from tkgqa_ray.pipeline.resources import reuse_key

    release_kept_actors()
    root_a, root_b = tmp_path / "a", tmp_path / "b"
    make_dataset(root_a, n_questions=8, seed=4)
    gold_b = make_dataset(root_b, n_questions=8, seed=5)  # other facts: another content hash
    run_pipeline(compose_cfg(root_a, tmp_path / "ra"))
    rid_a = _resources(tmp_path / "ra")["run_id"]
    kept_a = {n for n in _ours(ray) if rid_a in n}
    assert len(kept_a) == 4

    run_pipeline(compose_cfg(root_b, tmp_path / "rb"))
    assert _resources(tmp_path / "rb")["store_reused_from"] is None
    assert _wait_gone(ray, kept_a) == set()  # one set is kept at a time
    rows = read_rows(tmp_path / "rb")
    assert [r["predictions"] for r in rows] == [gold_b[r["quid"]] for r in rows]

    # every store / embedding setting is part of the key; run, method and reuse itself are not
    table, kg = load_kg(root_b / "kg" / "full.txt"), str(root_b / "kg" / "full.txt")
    key = reuse_key(table, kg, compose_cfg(root_b, tmp_path / "x"))
    for other in ("store.num_shards=3", "store.max_restarts=1", "embeddings.backend=torch", "embeddings.warm=true"):
        assert reuse_key(table, kg, compose_cfg(root_b, tmp_path / "x", other)) != key, other
    for same in ("run.batch_size=3", "store.reuse=false", "run.num_workers=1"):
        assert reuse_key(table, kg, compose_cfg(root_b, tmp_path / "x", same)) == key, same

    run_pipeline(compose_cfg(root_b, tmp_path / "off", "store.reuse=false"))
    assert _resources(tmp_path / "off")["store_reused_from"] is None  # not even the matching kept set
    assert _wait_gone(ray, {n for n in _ours(ray) if n.startswith(("tkgqa-store-", "tkgqa-embed-"))}) == set()
