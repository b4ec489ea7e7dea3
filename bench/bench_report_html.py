"""report.html at MultiTQ test-set scale: file size and build time of a 54,584-question page.

    python bench/bench_report_html.py RUN_DIR                  # replicate RUN_DIR's rows to 54,584
    python bench/bench_report_html.py RUN_DIR -n 10000 --browser   # + load time in headless chromium

RUN_DIR is a finished run (predictions.parquet + gold.parquet), e.g. a real SCoP run; its rows,
traces and role ledgers are repeated under new quids (with their gold) until there are ``-n``
questions, so the page carries traces of a real run at full scale. Baseline, same run: the
same rows embedded as they are (full traces and role ledgers, no budget), which is what a
page without the budget would weigh.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]


def replicate(run_dir: Path, n: int):
    from tkgqa_ray.eval import load_gold

    rows = pd.read_parquet(run_dir / "predictions.parquet")
    gold = load_gold(run_dir)
    reps = -(-n // len(rows))
    frames, golds = [], {}
    for k in range(reps):
        f = rows.copy()
        f["quid"] = [f"{q}#{k}" for q in rows.quid]
        frames.append(f)
        for q in rows.quid:
            g = gold[str(q)]
            golds[f"{q}#{k}"] = replace(g, quid=f"{q}#{k}")
    big = pd.concat(frames, ignore_index=True).iloc[:n]
    return big, {q: golds[q] for q in big.quid}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("-n", type=int, default=54_584, help="questions to simulate (MultiTQ test: 54,584)")
    ap.add_argument("--browser", action="store_true", help="also time opening the page in headless chromium")
    ap.add_argument("--keep", type=Path, default=None, help="write the page here instead of a temp dir")
    a = ap.parse_args()

    from tkgqa_ray.eval import compute_metrics
    from tkgqa_ray.eval.html_report import detail_budget, render_run_html

    t0 = time.perf_counter()
    rows, golds = replicate(a.run_dir, a.n)
    t_rep = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = compute_metrics(rows, golds, n_boot=200)
    t_score = time.perf_counter() - t0
    t0 = time.perf_counter()
    html = render_run_html(rows, res, golds, {"method": str(rows.method.iloc[0]), "backbone": str(rows.backbone.iloc[0])})
    t_html = time.perf_counter() - t0
    size = len(html.encode("utf-8"))

    # baseline: the same rows with their whole trace and role ledger, no budget
    def full(v):
        return json.loads(v) if isinstance(v, str) else v

    t0 = time.perf_counter()
    cols = ["quid", "question", "predictions", "evidence", "answered_by", "error", "prompt_tokens",
            "completion_tokens", "seconds", "trace", "roles"]
    naive = json.dumps({"columns": cols, "rows": [
        [r.quid, r.question, list(r.predictions), list(r.evidence), r.answered_by, r.error, r.prompt_tokens,
         r.completion_tokens, r.seconds, full(r.trace), full(r.roles)]
        for r in rows[cols].itertuples(index=False)]}, ensure_ascii=False, separators=(",", ":"), default=str)
    t_naive = time.perf_counter() - t0
    naive_size = len(naive.encode("utf-8"))

    print(f"source run: {a.run_dir} ({len(pd.read_parquet(a.run_dir / 'predictions.parquet', columns=['quid']))} rows) "
          f"replicated to {len(rows):,} questions in {t_rep:.1f} s; scored in {t_score:.1f} s")
    print(f"detail budget per question (trace + evidence + role calls): {detail_budget(len(rows))} chars")
    print(f"report.html: {size / 2**20:.1f} MiB ({size / len(rows):.0f} bytes/question), built in {t_html:.1f} s")
    print(f"baseline (rows with full traces + role ledgers, no budget): {naive_size / 2**20:.1f} MiB "
          f"({t_naive:.1f} s); page / baseline = {size / naive_size:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        out = a.keep or Path(tmp) / "report.html"
        out.write_text(html, encoding="utf-8")
        if a.browser:
            sys.path.insert(0, str(REPO / "tests"))
            from headless_chromium import Browser

            with Browser() as b:
                t0 = time.perf_counter()
                b.open(out.resolve().as_uri())
                b.wait_for("document.body.dataset.ready === '1'", timeout=300)
                t_load = time.perf_counter() - t0
                t0 = time.perf_counter()
                b.eval("(() => { const e = document.getElementById('f-outcome'); e.value = 'wrong';"
                       " e.dispatchEvent(new Event('change')); })()")
                n_wrong = b.eval("+document.getElementById('match-count').textContent")
                t_filter = time.perf_counter() - t0
                t0 = time.perf_counter()
                b.eval("(() => { const e = document.getElementById('f-search'); e.value = 'which country';"
                       " e.dispatchEvent(new Event('change')); })()")
                t_search = time.perf_counter() - t0
                errors = b.console_errors()
            print(f"chromium: loaded and first page rendered in {t_load:.1f} s; right/wrong filter {t_filter * 1000:.0f} ms "
                  f"({n_wrong:,} wrong); text search {t_search * 1000:.0f} ms; console errors: {len(errors)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
