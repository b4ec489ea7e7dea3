"""CPU of the test suite per test, daemons included: a pytest plugin and its summary.

``/usr/bin/time`` and ``RUSAGE_CHILDREN`` miss what a test's Ray cluster, vLLM server or
``tkgqa-ray`` subprocess spent in processes that were never waited for (raylet, GCS, Ray
workers, the engine core), and wall times on a shared box measure the neighbours. This plugin
puts each pytest process (each xdist worker) in its own cgroup-v1 ``cpuacct`` group, which every
process it starts inherits, and records the group's CPU seconds per test::

    PYTHONPATH=bench python -m pytest -q -n 3 --dist loadgroup -p suite_cpu   # writes /tmp/suite-cpu/*.tsv
    python bench/suite_cpu.py [DIR] [--top 30]                               # the table

(root, and ``/sys/fs/cgroup/cpuacct`` writable; elsewhere the plugin does nothing). CPU that a
background process of one test spends while the next test runs (the session's vLLM server
booting) is counted to the tests running then. The figures are in ``docs/testing.md``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
OUT = Path(os.environ.get("SUITE_CPU_DIR", "/tmp/suite-cpu"))
_group: Path | None = None
_out = None


def pytest_configure(config) -> None:
    global _group, _out
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None and config.getoption("numprocesses", default=None):
        return  # the xdist controller runs no test
    try:
        _group = CPUACCT / f"pytest-{worker or 'main'}-{os.getpid()}"
        _group.mkdir(exist_ok=True)
        (_group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError as e:
        print(f"suite_cpu: no cpuacct group ({e}); not measuring", file=sys.stderr)
        _group = None
        return
    OUT.mkdir(parents=True, exist_ok=True)
    _out = open(OUT / f"{worker or 'main'}.tsv", "w")


def _usage() -> float:
    assert _group is not None
    return int((_group / "cpuacct.usage").read_text()) / 1e9


import pytest  # noqa: E402  (a pytest plugin; the summary below does not need it at import)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _group is None:
        yield
        return
    c0, t0 = _usage(), time.monotonic()
    yield
    _out.write(f"{item.nodeid}\t{_usage() - c0:.2f}\t{time.monotonic() - t0:.2f}\n")
    _out.flush()


def pytest_unconfigure(config) -> None:
    if _out is not None:
        _out.write(f"__total__\t{_usage():.2f}\t0\n")
        _out.close()


def main() -> None:
    import argparse
    from collections import defaultdict

    ap = argparse.ArgumentParser(description="Summarise a suite_cpu run.")
    ap.add_argument("dir", nargs="?", default=str(OUT))
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    rows, totals = [], {}
    for f in sorted(Path(a.dir).glob("*.tsv")):
        for line in f.read_text().splitlines():
            node, cpu, wall = line.split("\t")
            if node == "__total__":
                totals[f.stem] = float(cpu)
            else:
                rows.append((float(cpu), float(wall), f.stem, node))
    if not rows:
        sys.exit(f"no suite_cpu data in {a.dir}")
    print(f"CPU of each worker's process tree: {', '.join(f'{k} {v:.0f} s' for k, v in sorted(totals.items()))}; "
          f"all {sum(totals.values()):.0f} s (the floor on two cores is half of it)")
    print(f"\n| CPU s | wall s | worker | test |\n| ---: | ---: | --- | --- |")
    for cpu, wall, w, node in sorted(rows, reverse=True)[: a.top]:
        print(f"| {cpu:.1f} | {wall:.1f} | {w} | `{node.split('@')[0]}` |")
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for cpu, wall, _, node in rows:
        acc = by_file[node.split("::")[0]]
        acc[0] += cpu
        acc[1] += wall
        acc[2] += 1
    print(f"\n| CPU s | wall s | tests | file |\n| ---: | ---: | ---: | --- |")
    for name, (cpu, wall, n) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[: a.top]:
        print(f"| {cpu:.1f} | {wall:.1f} | {n} | `{name}` |")


if __name__ == "__main__":
    main()
