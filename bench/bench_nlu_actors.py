"""Benchmark the entity matcher with the actor grammar (issue #10) on the real MultiTQ KG.

1. Build: the name trie and the actor grammar (fresh matcher, wall time of each).
2. Matching throughput: ``EntityMatcher.match`` (exact names + actor references) vs the old
   exact-name scan alone (``_match_exact``, the pre-#10 algorithm) on the same questions in
   one run; the ratio is old/new time.
3. Linking on generated questions: for the ``people`` set (actors written the way people
   write them) and the ``train`` set (KG names): the share of gold actor entities (target and
   anchor entities that are ``Sector_(Country)`` actors) found among some mention's
   candidates, and as a mention's best candidate, for both paths. On ``train`` it also counts
   questions whose mentions changed (new actor mentions over plain-name questions).

    python bench/bench_nlu_actors.py [--kg PATH] [--n 2000] [--seed 7] [--repeat 3]

Skips (exit 0, with a message) when the real KG is absent.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"


def _gold_actors(rec, actors) -> set[int]:
    from tkgqa_ray.data.oracle_answers import QSpec

    s = QSpec.from_json(rec["spec"])
    ids = [x for x in (s.target[0], s.target[2]) if x is not None]
    if s.anchor_event is not None:
        ids += [s.anchor_event[0], s.anchor_event[2]]
    return {e for e in ids if e in actors}


def _linking(questions, golds, match) -> tuple[int, int, int]:
    want = found = best = 0
    for q, gold in zip(questions, golds):
        ments = match(q)
        anywhere = {e for m in ments for e in m.entity_ids}
        top = {c[0] for m in ments for c in m.candidates if c[2] == m.score}
        want += len(gold)
        found += len(gold & anywhere)
        best += len(gold & top)
    return want, found, best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kg", type=Path, default=DEFAULT_KG)
    ap.add_argument("--n", type=int, default=2000, help="questions per phrasing set")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats (fastest kept)")
    a = ap.parse_args(argv)
    if not a.kg.exists():
        print(f"real KG not found at {a.kg}; skipping")
        return 0
    from tqdm import tqdm

    from tkgqa_ray.data.generator import generate
    from tkgqa_ray.kg.loader import load_kg
    from tkgqa_ray.nlu.entities import EntityMatcher
    from tkgqa_ray.nlu.text import tokenize

    table = load_kg(a.kg)
    names = list(table.entities)
    t0 = time.perf_counter()
    m = EntityMatcher(names)
    t1 = time.perf_counter()
    g = m.actors
    t2 = time.perf_counter()
    print(f"entities: {len(names):,}  actors understood: {len(g.actors):,}  (sector, place) pairs: {len(g.pairs):,}")
    print(f"build: name trie {t1 - t0:.2f} s, actor grammar {t2 - t1:.2f} s")

    sets = {}
    for ps in ("people", "train", "heldout"):
        recs = []
        for r in tqdm(generate(table, a.n, seed=a.seed, phrasing_set=ps), desc=f"generate {ps}", leave=False):
            recs.append(r)
        sets[ps] = recs

    def old(q):
        toks = tokenize(q)
        return [x for _, _, x in m._match_exact(q, toks, not any(c.isupper() for c in q))]

    print("\n| set | questions | gold actor mentions | old: linked / best | new: linked / best | old ms/q | new ms/q | old/new time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ps, recs in sets.items():
        qs = [r["question"] for r in recs]
        golds = [_gold_actors(r, g.actors) for r in recs]
        times = {}
        for label, fn in (("old", old), ("new", m.match)):
            best_t = float("inf")
            for _ in range(a.repeat):
                t = time.perf_counter()
                for q in qs:
                    fn(q)
                best_t = min(best_t, time.perf_counter() - t)
            times[label] = best_t
        w, fo, bo = _linking(qs, golds, old)
        _, fn_, bn = _linking(qs, golds, m.match)
        print(
            f"| {ps} | {len(qs):,} | {w:,} | {fo / max(w, 1):.3f} / {bo / max(w, 1):.3f} | "
            f"{fn_ / max(w, 1):.3f} / {bn / max(w, 1):.3f} | {1e3 * times['old'] / len(qs):.3f} | "
            f"{1e3 * times['new'] / len(qs):.3f} | {times['old'] / times['new']:.2f} |"
        )
        if ps in ("train", "heldout"):
            changed = [q for q in qs if [(x.start, x.end, x.entity_ids) for x in old(q)] != [(x.start, x.end, x.entity_ids) for x in m.match(q)]]
            print(f"\n{ps} questions whose mentions changed with the actor grammar: {len(changed)} / {len(qs)}")
            for q in changed[:10]:
                print("  ", q, "->", [(x.text, x.names[:2]) for x in m.match(q) if x.source == "actor"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
