"""Aggregate failure modes of after_first / before_last questions: which part of SCoP's reading
(search triple, anchor, operator, rank) differs from the generator's spec, as counts only — no
question text is printed, so a blind set can be diagnosed without being read.

Usage: python bench/bench_scop.py accuracy --phrasing P --ablations none --dump --out DIR;
       python bench/diag_ordinal_aggregates.py DIR

Reads bench_scop's --dump rows and cached questions; prints counts only."""
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

out = Path(sys.argv[1])
recs = json.loads(next(out.glob("questions_*.json")).read_text())
rows = [json.loads(l) for l in open(out / "rows_none.jsonl")]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tkgqa_ray.kg import load_kg
table = load_kg(Path(__file__).resolve().parents[2] / "shared" / "data" / "multitq" / "kg" / "full.txt.gz")
E, R = table.entities, table.relations
byq = {str(r["quid"]): r for r in recs}
cnt = defaultdict(Counter)
def name(i): return None if i is None else E[i]
for row in rows:
    rec = byq[row["quid"]]
    if rec["qtype"] not in ("after_first", "before_last"):
        continue
    sp = rec["spec"]
    var = ("time" if rec["answer_type"] == "time" else "ent")
    key = (rec["qtype"], var)
    c = cnt[key]
    c["n"] += 1
    gold = set(map(str, rec["answers"]))
    pred = [str(p) for p in row["pred"]]
    ok = bool(pred) and (pred[0] in gold or any(pred[0][:len(g)] == g for g in gold))
    c["correct"] += ok
    tr = row["trace"] or {}
    al = tr.get("triples_aligned") or {}
    if isinstance(al, str):
        try: al = json.loads(al)
        except Exception: al = {}
    s_t, r_t, o_t = sp["target"]
    a_s, a_r, a_o = sp["anchor_event"]
    srch = al.get("search") if isinstance(al, dict) else None
    anchors = al.get("anchors") if isinstance(al, dict) else None
    tgt = [name(s_t), R[r_t], name(o_t)]
    anc = [E[a_s], R[a_r], E[a_o]]
    if srch is None:
        c["no_search"] += 1
    else:
        c["search_rel_ok"] += srch[1] == tgt[1]
        fixed_ok = all(srch[i] == tgt[i] for i in (0, 2) if tgt[i] is not None)
        c["search_fixed_ok"] += fixed_ok
        slot_ok = (srch[0] == "?") == (tgt[0] is None) and (srch[2] == "?") == (tgt[2] is None)
        c["search_slot_ok"] += slot_ok
        c["search_all_ok"] += (srch[1] == tgt[1]) and fixed_ok and slot_ok
        c["search_is_anchor_event"] += srch[1] == anc[1] and (srch[0] in (anc[0], "?")) and (srch[2] in (anc[2], "?"))
    if not anchors:
        c["no_anchor"] += 1
    else:
        c["anchor_exact"] += any(list(a) == anc for a in anchors)
        c["anchor_rel_ok"] += any(a[1] == anc[1] for a in anchors)
        c["anchor_ents_ok"] += any({a[0], a[2]} == {anc[0], anc[2]} for a in anchors)
        c["anchor_is_target_rel"] += any(a[1] == tgt[1] for a in anchors) and tgt[1] != anc[1]
    cons = tr.get("constraints") or []
    if isinstance(cons, str):
        try: cons = json.loads(cons)
        except Exception: cons = []
    ops = [x.get("operator") for x in cons if isinstance(x, dict)]
    if not ops: c["no_constraint"] += 1
    c["op_ok"] += sp["op"] in ops
    c["op_opposite"] += ({"after": "before", "before": "after"}[sp["op"]] in ops)
    c["op_equal"] += "equal" in ops
    c["ev_ref"] += any(isinstance(x, dict) and x.get("ref_type") == "event" for x in cons)
    rk = tr.get("ranking") or {}
    if isinstance(rk, str):
        try: rk = json.loads(rk)
        except Exception: rk = {}
    order = rk.get("order") if isinstance(rk, dict) else None
    c["rank_ok"] += order == sp["rank"]
    c["rank_none"] += order is None
    c["rank_opposite"] += order is not None and order != sp["rank"]
    if not ok:
        c["wrong"] += 1
        c["wrong&search_all_ok"] += bool(srch) and (srch[1] == tgt[1]) and all(srch[i] == tgt[i] for i in (0, 2) if tgt[i] is not None)
        c["wrong&anchor_exact"] += bool(anchors) and any(list(a) == anc for a in anchors)
        c["wrong&op_ok"] += sp["op"] in ops
        c["wrong&rank_ok"] += order == sp["rank"]
        c["wrong&by=" + str(row.get("by"))] += 1
for k in sorted(cnt):
    c = cnt[k]
    n = c.pop("n")
    print(k, "n=%d" % n)
    for kk in sorted(c):
        print("   %-26s %4d  %.2f" % (kk, c[kk], c[kk] / n))
