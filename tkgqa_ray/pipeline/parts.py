"""Per-batch part files: the crash-safe record of a run, and what resume reads.

The driver appends every finished batch as ``<run>/parts/part-<seq>.parquet``, written to a
temporary name and renamed (atomic on POSIX), so a killed driver leaves only whole parts and
loses at most the batches in flight. Resume reads all parts and keeps the *last* row per quid
(parts are numbered in write order, so a retried question's new row wins). At the end the
parts are consolidated into ``predictions.parquet`` with exactly one row per question.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from tkgqa_ray.pipeline.rows import ROW_SCHEMA

PART_RE = re.compile(r"^part-(\d{6,})\.parquet$")


def atomic_write_parquet(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` so readers see either nothing or the whole file."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    pq.write_table(table, tmp)
    with open(tmp, "rb") as fh:  # make the bytes durable before the rename publishes them
        os.fsync(fh.fileno())
    os.replace(tmp, path)


@dataclass
class PartStore:
    """The ``parts/`` folder of one run dir."""

    run_dir: Path

    @property
    def dir(self) -> Path:
        return Path(self.run_dir) / "parts"

    def part_files(self) -> list[Path]:
        if not self.dir.is_dir():
            return []
        found = [(int(m.group(1)), p) for p in self.dir.iterdir() if (m := PART_RE.match(p.name))]
        return [p for _, p in sorted(found)]

    def next_seq(self) -> int:
        files = self.part_files()
        return int(PART_RE.match(files[-1].name).group(1)) + 1 if files else 0  # type: ignore[union-attr]

    def clear(self) -> None:
        for p in self.part_files():
            p.unlink()
        for p in self.dir.glob(".part-*.tmp-*") if self.dir.is_dir() else []:
            p.unlink()

    def append(self, table: pa.Table, seq: int) -> Path:
        self.dir.mkdir(parents=True, exist_ok=True)
        path = self.dir / f"part-{seq:06d}.parquet"
        atomic_write_parquet(table.select(ROW_SCHEMA.names).cast(ROW_SCHEMA), path)
        return path

    def read_latest(self) -> pa.Table:
        """All rows written so far, one per quid (the latest part wins)."""
        files = self.part_files()
        if not files:
            return ROW_SCHEMA.empty_table()
        tables = []
        for i, p in enumerate(files):
            t = pq.read_table(p, schema=ROW_SCHEMA)
            tables.append(t.append_column("_seq", pa.array([i] * t.num_rows, pa.int64())))
        return dedup_latest(pa.concat_tables(tables))


def dedup_latest(table: pa.Table) -> pa.Table:
    """Keep the row with the highest ``_seq`` (then the later position) for every quid."""
    if table.num_rows == 0:
        return table.drop_columns(["_seq"]) if "_seq" in table.column_names else table
    pos = pa.array(range(table.num_rows), pa.int64())
    t = table.append_column("_pos", pos)
    order = pc.sort_indices(t, sort_keys=[("quid", "ascending"), ("_seq", "descending"), ("_pos", "descending")])
    t = t.take(order)
    quids = t.column("quid").to_pylist()
    keep = [i for i in range(len(quids)) if i == 0 or quids[i] != quids[i - 1]]
    return t.take(pa.array(keep, pa.int64())).drop_columns(["_seq", "_pos"])


def consolidate(rows: pa.Table, quid_order: list[str], path: Path) -> pa.Table:
    """Write ``predictions.parquet``: exactly the questions of ``quid_order``, in that order.

    Rows of questions outside ``quid_order`` (e.g. from a run with a larger ``limit``) are not
    part of this run's result and are left out; a missing question is an error, never a
    silent gap.
    """
    index = {q: i for i, q in enumerate(rows.column("quid").to_pylist())}
    missing = [q for q in quid_order if q not in index]
    if missing:
        raise RuntimeError(f"{len(missing)} question(s) have no row (e.g. {missing[:5]}); rerun to resume")
    final = rows.take(pa.array([index[q] for q in quid_order], pa.int64()))
    atomic_write_parquet(final, path)
    return final
