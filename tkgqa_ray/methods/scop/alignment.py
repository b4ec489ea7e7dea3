"""Stage III: conservative graph alignment.

Retrieval (deterministic): for every slot of every extracted triple, candidates from an exact
/ normalised-name lookup, else the entity or relation embedding index (top-64, cosine >= 0.4,
falling back to >= 0.2 when nothing passes). Candidate facts are distinct KG triples
enumerated from a CSR index of triples by subject and by object, scored
sim(s)+sim(r)+sim(o) (the ``?`` slot counts 1); the search triple is also enumerated reversed
so the aligner can repair its orientation. The top-10 go to the ``aligner`` role.

Rules (enforced in :func:`enforce_rules` on whatever the role returns): never fill or drop
``?``; keep anchor count and order; only the search triple may be reversed; a slot without a
reliable grounding keeps its surface form. A violating triple falls back to its raw form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tkgqa_ray.nlu import EntityMatcher
from tkgqa_ray.nlu.analysis import near_series_reading, ranked_series  # shared with TCC-RAG (tccrag23)
from tkgqa_ray.nlu.actors import GROUP_MEMBER_WEIGHT, group_members as _group_members  # shared with TCC-RAG (tccrag19)
from tkgqa_ray.nlu.coreadings import REL_TIE, coreadings as _coreadings  # shared with TCC-RAG (tccrag21)
from tkgqa_ray.nlu.relations import combine_arrays, embedding_text, same_action

from .roles import call_role
from .schemas import AlignerOutput
from .state import ScopStage, scop_state
from .triple_index import TripleIndex  # also imported from here by tests and bench
from .types import SHARE_MARGIN, UNKNOWN, AltReading, Reading, Triple

TOP_SLOT = 64
THRESH = 0.4
THRESH_FALLBACK = 0.2
TOP_FACTS = 10
_NO_IDS = np.zeros(0, np.int64)
ENUM_ENTITIES = 5  # entity candidates per slot used to enumerate facts


@dataclass
class SlotCands:
    ids: np.ndarray  # candidate ids, best first
    scores: np.ndarray
    exact: bool = False
    swap: np.ndarray | None = None  # relations: True = the phrase's subject is the KG object
    members: int = 0  # trailing ids that are a group's own sector actors (:func:`mention_candidates`)

    def direct(self) -> "SlotCands":
        """The candidates read in the phrase's own direction."""
        if self.swap is None or not self.swap.any():
            return self
        k = ~self.swap
        return SlotCands(self.ids[k], self.scores[k], self.exact)

    def swapped(self) -> "SlotCands | None":
        """Relation candidates whose reading swaps subject and object (lexicon), or None."""
        if self.swap is None or not self.swap.any():
            return None
        return SlotCands(self.ids[self.swap], self.scores[self.swap], self.exact)

    def best(self) -> tuple[int, float] | None:
        return (int(self.ids[0]), float(self.scores[0])) if len(self.ids) else None

    def to_json(self, names: list[str], n: int = 5) -> list[list]:
        return [[names[int(i)], round(float(s), 4)] for i, s in zip(self.ids[:n], self.scores[:n])]


def _norm(name: str) -> str:
    return " ".join(name.replace("_", " ").split()).casefold()


class SlotRetriever:
    """Exact/normalised lookup first, then the embedding index with the SCoP thresholds."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        table = ctx.table
        self.matcher = EntityMatcher.for_table(table)
        self.rel_by_norm = {_norm(r): i for i, r in enumerate(table.relations)}
        self._rel_cache: dict[str, SlotCands] = {}  # phrase -> candidates: phrases repeat across batches

    def _rel_hit(self, phrase: str, res: list, i: int) -> bool:
        hit = self._rel_cache.get(phrase)
        if hit is not None:
            res[i] = hit
        return hit is not None

    def _search(self, index: str, texts: list[str]) -> list[SlotCands]:
        if not texts:
            return []
        scores, ids = self.ctx.embeddings.search(index, texts, TOP_SLOT)
        out = []
        for sc, ix in zip(np.asarray(scores), np.asarray(ids)):
            keep = ix >= 0
            sc, ix = sc[keep], ix[keep]
            m = sc >= THRESH
            if not m.any():
                m = sc >= THRESH_FALLBACK
            out.append(SlotCands(ix[m].astype(np.int64), sc[m].astype(np.float64)))
        return out

    def entities(self, surfaces: list[str]) -> list[SlotCands]:
        res: list[SlotCands | None] = []
        todo: list[int] = []
        for i, s in enumerate(surfaces):
            hit = self.matcher.lookup(s)
            if hit:
                res.append(SlotCands(np.array(hit, np.int64), np.ones(len(hit)), True))
            else:
                res.append(None)
                todo.append(i)
        for i, c in zip(todo, self._search("entity", [surfaces[i] for i in todo])):
            res[i] = c
        return res  # type: ignore[return-value]

    def relations(self, phrases: list[str]) -> list[SlotCands]:
        """Exact relation names first; else one batched index search for all phrases, each
        merged with the relation lexicon (``nlu.relations.combine``: lexicon evidence + cosine,
        swap readings marked), then the SCoP thresholds."""
        res: list[SlotCands | None] = []
        todo: list[int] = []
        for i, p in enumerate(phrases):
            rid = self.rel_by_norm.get(_norm(p))
            if rid is not None:
                res.append(SlotCands(np.array([rid], np.int64), np.ones(1), True))
            else:
                res.append(None)
                todo.append(i)
        todo = [i for i in todo if not self._rel_hit(phrases[i], res, i)]
        if todo:
            scores, ids = self.ctx.embeddings.search("relation", [embedding_text(phrases[i]) for i in todo], TOP_SLOT)
            names = self.ctx.table.relations
            for i, sc, ix in zip(todo, np.asarray(scores), np.asarray(ids)):
                c_id, c_sc, c_sw, _ = combine_arrays(phrases[i], ix, sc, names)
                m = c_sc >= THRESH
                if not m.any():
                    m = c_sc >= THRESH_FALLBACK
                res[i] = SlotCands(c_id[m], c_sc[m], swap=c_sw[m])
                if len(self._rel_cache) >= 65536:
                    self._rel_cache.clear()
                self._rel_cache[phrases[i]] = res[i]
        return res  # type: ignore[return-value]


def _lookup(n: int, c: SlotCands) -> np.ndarray:
    a = np.full(n, -np.inf)
    a[c.ids] = np.maximum(a[c.ids], c.scores)
    return a


def _slot_sim(col: np.ndarray, c: SlotCands | None, n: int) -> np.ndarray | float:
    """Similarity of each triple's slot value to the slot candidates (1.0 for ``?``).
    A single candidate (the usual exact-name case) needs no lookup table."""
    if c is None:
        return 1.0
    if len(c.ids) == 1:
        return np.where(col == c.ids[0], float(c.scores[0]), -np.inf)
    return _lookup(n, c)[col]


def candidate_facts(
    tindex: TripleIndex, table: Any, t: Triple, cs: SlotCands | None, cr: SlotCands, co: SlotCands | None,
    reversed_: bool = False, also_rels: "set[int] | None" = None,
) -> list[dict]:
    """Top-10 distinct KG triples compatible with ``t`` (``?`` slots open), best first.
    ``also_rels``: relation ids whose best compatible triple is added when the top-10 lack it
    (a triple that repeats another clause's action needs that clause's relations compared,
    :func:`shared_actions`); the list stays sorted, so its head is unchanged."""
    E, R = len(table.entities), len(table.relations)
    if not len(cr.ids):
        return []
    parts = []
    if cs is not None and len(cs.ids):
        parts = [tindex.with_subject(int(e)) for e in cs.ids[:ENUM_ENTITIES]]
    elif co is not None and len(co.ids):
        parts = [tindex.with_object(int(e)) for e in co.ids[:ENUM_ENTITIES]]
    if not parts:
        return []
    tids = parts[0] if len(parts) == 1 else np.concatenate(parts)
    rsim = tindex.rsim_buffer(R)
    rsim[cr.ids] = np.maximum(rsim[cr.ids], cr.scores)
    try:
        r_all = rsim[tindex.r[tids]]
    finally:
        rsim[cr.ids] = -np.inf  # reset the shared buffer
    keep = np.isfinite(r_all)  # relation must be a candidate: cheap first cut
    tids, r_all = tids[keep], r_all[keep]
    if not len(tids):
        return []
    ssim = _slot_sim(tindex.s[tids], cs, E)
    osim = _slot_sim(tindex.o[tids], co, E)
    score = r_all + ssim + osim
    ok = np.isfinite(score)
    if not ok.all():
        tids, score, r_all = tids[ok], score[ok], r_all[ok]
        ssim = ssim[ok] if isinstance(ssim, np.ndarray) else ssim
        osim = osim[ok] if isinstance(osim, np.ndarray) else osim
    if not len(tids):
        return []
    if len(tids) > TOP_FACTS:
        part = np.argpartition(-score, TOP_FACTS - 1)[:TOP_FACTS]
        order = part[np.lexsort((tids[part], -score[part]))]
    else:
        order = np.lexsort((tids, -score))
    missing = np.setdiff1d(np.fromiter(also_rels, np.int64), tindex.r[tids[order]]) if also_rels else _NO_IDS
    if len(missing):
        rr = tindex.r[tids]
        k = np.flatnonzero(np.isin(rr, missing))
        if len(k):  # the best triple of each missing relation: one sort of the few matches
            k = k[np.lexsort((tids[k], -score[k], rr[k]))]
            first = np.r_[True, rr[k][1:] != rr[k][:-1]]
            order = np.concatenate([order, k[first]])
            order = order[np.lexsort((tids[order], -score[order]))]
    ents, rels = table.entities, table.relations
    top = tids[order]
    sc_l = np.round(score[order], 4).tolist()
    r_l = np.round(r_all[order], 4).tolist()
    s_l = [1.0] * len(order) if cs is None else np.round(ssim[order], 4).tolist()
    o_l = [1.0] * len(order) if co is None else np.round(osim[order], 4).tolist()
    S, Rr, O = tindex.s[top].tolist(), tindex.r[top].tolist(), tindex.o[top].tolist()
    out = [
        {
            "s": UNKNOWN if cs is None else ents[S[j]],
            "r": rels[Rr[j]],
            "o": UNKNOWN if co is None else ents[O[j]],
            "score": sc_l[j],
            "sims": [s_l[j], r_l[j], o_l[j]],
            "reversed": reversed_,
        }
        for j in range(len(top))
    ]
    return out


def slot_candidates(
    retriever: SlotRetriever, questions: list[tuple[list[Triple], Triple | None]],
    mentions: dict[str, SlotCands] | None = None,
) -> tuple[dict, dict]:
    """Slot candidates for every distinct surface form of a batch of questions: one index
    search per kind for the whole batch (the encoder is the expensive part). ``mentions``:
    candidates the question's own entity mentions already carry (the actor grammar's scored
    entity ids), used for surfaces the name lookup does not know."""
    ent_surf: set[str] = set()
    rel_surf: set[str] = set()
    for anchors, search in questions:
        for t in list(anchors) + ([search] if search is not None else []):
            ent_surf.update(x for x in (t.s, t.o) if x != UNKNOWN)
            rel_surf.add(t.r)
    mentions = mentions or {}
    # The question's own mentions ground their surfaces first: a mention read in context keeps
    # the actor grammar's whole scored candidate set, which the KG decides between later.
    pre = {x: mentions[x] for x in ent_surf if x in mentions}
    es, rs = sorted(ent_surf - set(pre)), sorted(rel_surf)
    ents = dict(zip(es, retriever.entities(es)))
    ents.update(pre)
    return ents, dict(zip(rs, retriever.relations(rs)))


MEMBER_WEIGHT = GROUP_MEMBER_WEIGHT  # a group's own "<Sector>_(Group)" actor (nlu.actors, shared with TCC-RAG)


def mention_candidates(mentions: list, table: Any = None) -> dict[str, SlotCands]:
    """Surface -> entity candidates of the question's mentions (exact-grammar mentions only;
    the embedding fallback is alignment's own job). A mention may carry several scored ids
    (``scores`` when the grammar provides them, else its score in id order). With ``table``,
    an exact name of a group also keeps the group's own sector actors (:func:`tkgqa_ray.nlu.actors.group_members`)
    as lower-scored candidates: the name's own facts still come first, and the KG decides
    when it has none for the clause (refs24); they vary no alternative reading
    (:func:`alternative_readings`)."""
    out: dict[str, SlotCands] = {}
    members = _group_members(table) if table is not None else {}
    for m in mentions:
        if getattr(m, "source", "exact") == "embedding" or not m.entity_ids:
            continue
        sc = getattr(m, "scores", None)
        ids = list(m.entity_ids)
        if getattr(m, "source", "exact") == "exact":
            sc = [1.0] * len(ids)  # exactly what the name lookup gives the same surface
            extra = [x for e in ids for x in members.get(int(e), ()) if x not in ids]
            ids, sc = ids + extra, sc + [MEMBER_WEIGHT] * len(extra)
        elif sc is None or len(sc) != len(ids):
            sc = [float(m.score) - 1e-3 * j for j in range(len(ids))]
        out.setdefault(m.text, SlotCands(np.asarray(ids, np.int64), np.asarray(sc, np.float64), True,
                                         members=len(ids) - len(m.entity_ids)))
    return out


# ------------------------------------------------------------------------------ readings
MAX_READINGS = 6  # primary + alternatives per question
ALT_ENT_MIN = 0.6  # an alternative's entity candidates (as the aligner's ENT_OK)
ALT_REL_MIN = 0.5  # ... and relation candidates (as the aligner's REL_OK)
ALT_PER_SLOT = 3
REVERSED_READINGS = 2  # the search's exchanged direction: its aligned relation, then the next reading


def alternative_readings(
    anchors: list[Triple], search: Triple | None, raw_anchors: list[Triple], raw_search: Triple | None,
    ec: dict, rc: dict, table: Any, ranked: bool = False,
) -> list[AltReading]:
    """Other groundings of the question's triples, best first, for the evidence stage to try
    when the aligned reading yields no admissible evidence (the KG decides between near
    ties): first the *shared* readings (when anchors repeat the asked action,
    :func:`shared_actions`: all of them take each reliable relation candidate of the asked
    phrase together), then each varies one triple (the search triple first, then each anchor)
    over its reliable entity candidates x relation candidates (lexicon swap readings swap
    subject and object)."""
    ents, rels = table.entities, table.relations
    out: list[dict] = []
    seen: set[tuple] = set()
    cur_anchors = [t.as_list() for t in anchors]
    cur_search = search.as_list() if search is not None else None
    seen.add((tuple(map(tuple, cur_anchors)), tuple(cur_search) if cur_search else None))
    # a shared action first: the asked triple and the anchors repeating its action vary
    # together over the asked phrase's relation candidates (both events read as one action)
    shared = shared_actions(list(raw_anchors), raw_search, rc, ranked)
    lead = raw_search if raw_search is not None else (raw_anchors[0] if raw_anchors else None)
    cr_lead = rc.get(lead.r) if shared and lead is not None else None
    if cr_lead is not None:
        sw = cr_lead.swap if cr_lead.swap is not None else np.zeros(len(cr_lead.ids), bool)
        opts = [(rels[int(i)], float(sc)) for i, sc, w in zip(cr_lead.ids, cr_lead.scores, sw) if sc >= ALT_REL_MIN and not w]
        for r_name, r_sc in opts[: ALT_PER_SLOT + 1]:
            new_a = [list(t) for t in cur_anchors]
            new_s = list(cur_search) if cur_search is not None else None
            for j in shared:
                new_a[j][1] = r_name
            if new_s is not None:
                new_s[1] = r_name
            else:
                new_a[0][1] = r_name
            key = (tuple(map(tuple, new_a)), tuple(new_s) if new_s else None)
            if key in seen:
                continue
            seen.add(key)
            out.append((new_a, new_s, "shared", False, round(r_sc, 4)))
    slots = ([("search", raw_search)] if raw_search is not None else []) + [(f"anchor:{i}", t) for i, t in enumerate(raw_anchors)]
    for where, t in slots:
        def ent_opts(x: str) -> list[tuple[str, float]]:
            if x == UNKNOWN:
                return [(UNKNOWN, 1.0)]
            c = ec.get(x)
            if c is None:
                return []
            # (a group's sector actors ground a clause only through the aligner's fact choice,
            # never as another reading: they would crowd out the name's own readings)
            k = min(ALT_PER_SLOT, len(c.ids) - c.members)
            return [(ents[int(i)], float(s)) for i, s in zip(c.ids[:k], c.scores[:k]) if s >= ALT_ENT_MIN]
        cr = rc.get(t.r)
        if cr is None:
            continue
        sw = cr.swap if cr.swap is not None else np.zeros(len(cr.ids), bool)
        ropts = [(rels[int(i)], float(s), bool(w)) for i, s, w in zip(cr.ids, cr.scores, sw) if s >= ALT_REL_MIN][: ALT_PER_SLOT + 1]
        for s_name, s_sc in ent_opts(t.s):
            for o_name, o_sc in ent_opts(t.o):
                for r_name, r_sc, swap in ropts:
                    tri = [o_name, r_name, s_name] if swap else [s_name, r_name, o_name]
                    new_a, new_s = list(cur_anchors), cur_search
                    if where == "search":
                        new_s = tri
                    else:
                        new_a = list(cur_anchors)
                        new_a[int(where.split(":")[1])] = tri
                    key = (tuple(map(tuple, new_a)), tuple(new_s) if new_s else None)
                    if key in seen:
                        continue
                    seen.add(key)
                    out.append((new_a, new_s, where, swap, round(s_sc + r_sc + o_sc, 4)))
    out.sort(key=lambda r: ({"shared": 0, "search": 1}.get(r[2], 2), -r[4]))
    out = out[: MAX_READINGS - 1]
    # the asked direction last (scopev rule 1): the parse's subject/object order of the
    # search triple is a reading too ("whom did those police arrest" parsed as "? arrest
    # police"); when nothing above admits evidence, the aligned search with subject and
    # object exchanged (the open slot moves) is tried, each of its reliable relation readings
    if cur_search is not None and raw_search is not None:
        cr = rc.get(raw_search.r)
        r_first = [cur_search[1]]
        if cr is not None:
            sw = cr.swap if cr.swap is not None else np.zeros(len(cr.ids), bool)
            r_first += [rels[int(i)] for i, sc, w in zip(cr.ids, cr.scores, sw) if sc >= ALT_REL_MIN and not w][:ALT_PER_SLOT]
        n_rev = 0
        for r_name in dict.fromkeys(r_first):
            tri = [cur_search[2], r_name, cur_search[0]]
            key = (tuple(map(tuple, cur_anchors)), tuple(tri))
            if key in seen:
                continue
            seen.add(key)
            out.append((cur_anchors, tri, "search:reversed", True, 0.0))
            n_rev += 1
            if n_rev >= REVERSED_READINGS:
                break
    return [
        AltReading(Reading.from_json({"anchors": a, "search": s}), where, swap, score)
        for a, s, where, swap, score in out
    ]


# ------------------------------------------------------------------------------ co-readings
def relation_coreadings(phrase: str, cands: SlotCands | None, rel_names: Any) -> dict[str, tuple[str, ...]]:
    """Relation name -> the other near-tied readings of the same asked ``phrase`` (refs27).

    The predicate is :func:`tkgqa_ray.nlu.coreadings.coreadings` (shared with TCC-RAG,
    tccrag21) over this slot's candidates, reliable at >= ALT_REL_MIN. A ranked question
    ranks over their union (:func:`tkgqa_ray.methods.scop.evidence.build_evidence`): "the
    last one Obama eased sanctions against" is the last easing of any sanctions, not of the
    better-scored kind."""
    if cands is None or not len(cands.ids):
        return {}
    sw = cands.swap if cands.swap is not None else np.zeros(len(cands.ids), bool)
    return _coreadings(phrase, zip(cands.ids, cands.scores, sw), rel_names, ALT_REL_MIN)


SHARE_REL_MIN = 0.5  # a paraphrase is told by both phrases' best relation at or above this (REL_OK)


def _top_relation(c: SlotCands | None) -> tuple[int, bool] | None:
    if c is None or not len(c.ids) or float(c.scores[0]) < SHARE_REL_MIN:
        return None
    return int(c.ids[0]), bool(c.swap[0]) if c.swap is not None else False


def _close_reading(c: SlotCands | None, top: tuple[int, bool] | None) -> bool:
    """True when relation ``top`` is one of ``c``'s readings within :data:`SHARE_MARGIN` of
    its best (a near reading of the phrase, not its first)."""
    if c is None or top is None or not len(c.ids):
        return False
    sw = c.swap if c.swap is not None else np.zeros(len(c.ids), bool)
    return near_series_reading(zip(c.ids, c.scores, sw), top, SHARE_MARGIN, SHARE_REL_MIN)


def shared_actions(anchors: list[Triple], search: Triple | None, rc: dict, ranked: bool = False) -> dict[int, str]:
    """Anchor index -> the triple whose action it repeats: ``"search"`` (entity questions)
    or ``"anchor:0"`` (time questions: anchor 0 is the asked event).

    A reference clause repeats the asked action when its relation phrase is the main one
    (elided: "before Japan did", copied by the event parser), the same words inflected
    otherwise ("after China *held* talks with Y" / "who *holds* talks with Y",
    :func:`~tkgqa_ray.nlu.relations.same_action`), or a paraphrase whose best relation
    candidate is the main phrase's ("criticised" / "condemned": both Criticize_or_denounce).
    Such triples are aligned to one relation (the aligner prefers a relation with KG support
    for every one of them, and :func:`alternative_readings` varies them together).

    ``ranked`` (an entity question ranks the asked events with "next" / "previous" against the
    reference: "whom did X negotiate with **next**, following his talks with Y?") also counts a reference whose
    phrase has the asked phrase's best relation among its near readings (within
    :data:`SHARE_MARGIN` of its own best): the rank runs over one series of events, so "talks"
    after "negotiated" are the negotiation, and the aligner takes the reading both clauses
    have KG facts for (next29)."""
    if search is not None:
        lead, key, first = search, "search", 0
    elif anchors:
        lead, key, first = anchors[0], "anchor:0", 1
    else:
        return {}
    top_lead = _top_relation(rc.get(lead.r))
    out: dict[int, str] = {}
    for j in range(first, len(anchors)):
        r = anchors[j].r
        if same_action(r, lead.r) or (top_lead is not None and _top_relation(rc.get(r)) == top_lead):
            out[j] = key
        elif ranked and _close_reading(rc.get(r), top_lead):
            out[j] = key
    return out


def retrieve(
    ctx: Any, retriever: SlotRetriever, tindex: TripleIndex, anchors: list[Triple], search: Triple | None,
    cands: tuple[dict, dict] | None = None, ranked: bool = False,
) -> dict:
    """Slot candidates and top candidate facts for every triple of one question. An anchor
    that repeats the asked action (:func:`shared_actions`) is marked ``shares_action_with``;
    the search triple's facts then also hold its best fact for each relation of those
    anchors' facts, so the aligner can compare the readings both clauses share."""
    table = ctx.table
    triples = list(anchors) + ([search] if search is not None else [])
    ec, rc = cands if cands is not None else slot_candidates(retriever, [(anchors, search)])
    shared = shared_actions(list(anchors), search, rc, ranked)
    share_rels: set[int] = set()
    share_best: set[str] = set()  # the shared anchors' own best relations
    per: list[dict] = []
    for k, t in enumerate(triples):
        is_search = search is not None and k == len(triples) - 1
        cs = None if t.s == UNKNOWN else ec[t.s]
        co = None if t.o == UNKNOWN else ec[t.o]
        cr_all = rc[t.r]
        cr = cr_all.direct()
        facts = candidate_facts(tindex, table, t, cs, cr, co)
        also = None
        if is_search and share_rels and (not facts or share_best != {facts[0]["r"]}):
            # the clauses' own best readings differ: the aligner compares the shared ones, so
            # the search also needs its best fact of each of the anchors' readings
            also = share_rels
            facts = candidate_facts(tindex, table, t, cs, cr, co, also_rels=also)
        if is_search:
            rev = candidate_facts(tindex, table, t.reversed(), co, cr, cs, reversed_=True, also_rels=also)
            swp = cr_all.swapped()
            if swp is not None:  # lexicon swap ("X received a visit from Y" = Make_a_visit(Y, X)):
                # the reversed enumeration *is* the question's direction for these relations
                for f in candidate_facts(tindex, table, t.reversed(), co, swp, cs):
                    f["swap"] = True
                    rev.append(f)
            merged = sorted(facts + rev, key=lambda f: -f["score"])
            head = merged[:TOP_FACTS]
            if facts and head and all(f["reversed"] for f in head):
                # refs27: the search is reversed only when its own direction has no KG support
                # (the aligner prefers that direction); when the reversed facts crowd a
                # near-tied reading of its own direction out of the top-10 ("who the Taliban
                # attacked": ? Use_conventional_military_force Taliban outscores Taliban
                # Use_unconventional_violence ?), that reading's best fact stays in the list
                own = facts[0]
                ents = lambda f: f["sims"][0] + f["sims"][2]  # noqa: E731 - same names, either order
                if ents(own) >= ents(head[0]) - 1e-9 and own["sims"][1] >= head[0]["sims"][1] - REL_TIE:
                    head.append(own)
            if also:  # keep the added per-relation facts beyond the top-10
                have = {(f["r"], f["reversed"]) for f in head}
                for f in merged[TOP_FACTS:]:
                    key = (f["r"], f["reversed"])
                    if table.relation_id.get(f["r"]) in also and key not in have:
                        have.add(key)
                        head.append(f)
            facts = head
        elif shared.get(k) == "search" and facts:
            # the anchor's readings the aligner may share (within SHARE_MARGIN of its best)
            top = max(f["sims"][1] for f in facts)
            share_best.add(facts[0]["r"])
            share_rels.update(table.relation_id[f["r"]] for f in facts
                              if f["r"] in table.relation_id and f["sims"][1] >= top - SHARE_MARGIN)
        per.append({
            "kind": "search" if is_search else "anchor",
            "triple": t.as_list(),
            "slots": {
                "s": None if cs is None else cs.to_json(table.entities),
                "r": cr.to_json(table.relations),
                "o": None if co is None else co.to_json(table.entities),
            },
            "facts": facts,
            **({"shares_action_with": shared[k]} if k in shared and not is_search else {}),
        })
    return {"triples": per}


# ------------------------------------------------------------------------------ rules
def enforce_rules(raw_anchors: list[Triple], raw_search: Triple | None, out: dict | None) -> tuple[list[Triple], Triple | None, list[str]]:
    """Apply the conservative-alignment rules to a role output; violations fall back to the
    raw triple (per triple) and are reported."""
    violations: list[str] = []
    if out is None:
        return list(raw_anchors), raw_search, ["no aligner output: raw triples kept"]
    anchors_out = [Triple.of(t) for t in out.get("anchors") or []]
    if len(anchors_out) != len(raw_anchors):
        violations.append(f"anchor count changed {len(raw_anchors)} -> {len(anchors_out)}: raw anchors kept")
        anchors = list(raw_anchors)
    else:
        anchors = []
        for i, (raw, new) in enumerate(zip(raw_anchors, anchors_out)):
            if UNKNOWN in new.as_list():
                violations.append(f"anchor {i}: '?' introduced")
                anchors.append(raw)
            elif raw.s != raw.o and _same(new.s, raw.o) and _same(new.o, raw.s):
                violations.append(f"anchor {i}: reversed (only the search triple may be)")
                anchors.append(raw)
            else:
                anchors.append(new)
    search = raw_search
    s_out = out.get("search")
    if raw_search is None:
        if s_out is not None:
            violations.append("search triple invented: dropped")
    elif s_out is None:
        violations.append("search triple dropped: raw kept")
    else:
        new = Triple.of(s_out)
        if new.as_list().count(UNKNOWN) != 1 or new.r == UNKNOWN:
            violations.append("search '?' filled or moved to the relation: raw kept")
        elif (new.o if new.s == UNKNOWN else new.s) == UNKNOWN:
            violations.append("search known slot lost: raw kept")
        else:
            search = new
    return anchors, search, violations


def _same(a: str, b: str) -> bool:
    return _norm(a) == _norm(b)


class AlignmentStage(ScopStage):
    name = "scop.alignment"
    reads = ("triples",)
    writes = ("aligned", "readings", "relation_groups")

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.retriever = SlotRetriever(ctx)
        self.tindex = TripleIndex.for_table(ctx.table)

    def _mentions(self, question: str) -> list:
        """The question's entity mentions (the NLU analysis, shared with the symbolic roles'
        cache): their scored candidate ids ground surfaces the plain name lookup misses."""
        from .symbolic import analysis

        try:
            return list(analysis(question, self.ctx).mentions)
        except Exception:  # noqa: BLE001 - an analysis failure only loses the extra candidates
            return []

    def _ranked(self, question: str) -> bool:
        """True when an entity question ranks the asked events with "next" / "previous" after /
        before a reference event (a series: after_first / before_last), see
        :func:`shared_actions`. "First after" orders any action after the reference, so it
        keeps the reference's own reading (d13-0002, d17-0070 on dev13/dev17)."""
        from .symbolic import analysis

        try:
            a = analysis(question, self.ctx)
        except Exception:  # noqa: BLE001 - as _mentions
            return False
        return ranked_series(a)

    def __call__(self, states: list[dict]) -> list[dict]:
        live, inputs, parsed = [], [], []
        for st in states:
            s = scop_state(st)
            if s.triples is None:
                s.aligned, s.readings = Reading(), []
                continue
            parsed.append((st, list(s.triples.anchors), s.triples.search))
        ments: dict[str, SlotCands] = {}
        own: list[dict[str, SlotCands]] = []
        for st, _, _ in parsed:
            own.append(mention_candidates(self._mentions(st["question"]), self.ctx.table))
            for k, v in own[-1].items():
                ments.setdefault(k, v)
        batch = slot_candidates(self.retriever, [(a, s) for _, a, s in parsed], ments)
        for (st, anchors, search), mine in zip(parsed, own):
            # a surface means what the question's own mention says: "that ministry" or "the
            # police" refer back to a name of their own question (nlu back-references), so the
            # batch's first reading of the same words is not this question's
            diff = {k: v for k, v in mine.items() if k in batch[0] and batch[0][k] is not v}
            qbatch = ({**batch[0], **diff}, batch[1]) if diff else batch
            ranked = self._ranked(st["question"])
            cands = retrieve(self.ctx, self.retriever, self.tindex, anchors, search, qbatch, ranked)
            scop_state(st).trace["alignment_candidates"] = cands
            live.append((st, anchors, search))
            inputs.append({
                "question": st["question"],
                "anchors": [t.as_list() for t in anchors],
                "search": None if search is None else search.as_list(),
                "candidates": cands["triples"],
            })
        outs = call_role(self.ctx, [x[0] for x in live], "aligner", inputs, AlignerOutput)
        for (st, anchors, search), out in zip(live, outs):
            a2, s2, viol = enforce_rules(anchors, search, out)
            s = scop_state(st)
            s.aligned = Reading(tuple(a2), s2)
            s.readings = alternative_readings(a2, s2, anchors, search, batch[0], batch[1], self.ctx.table,
                                              self._ranked(st["question"]))
            asked = search if search is not None else (anchors[0] if anchors else None)
            s.relation_groups = relation_coreadings(asked.r, batch[1].get(asked.r), self.ctx.table.relations) if asked is not None else {}
            tr = s.trace
            tr["triples_aligned"] = s.aligned.to_json()
            tr["search_reversed"] = bool(search and s2 and s2.open_slot != search.open_slot)
            if viol:
                tr["alignment_violations"] = viol
            shared = {i: e["shares_action_with"] for i, e in enumerate(tr["alignment_candidates"]["triples"]) if "shares_action_with" in e}
            if shared:  # which anchors repeat the asked action, and the relation they were read as
                lead = s2 if search is not None else (a2[0] if a2 else None)
                tr["shared_action"] = {
                    "anchors": sorted(shared), "with": next(iter(shared.values())),
                    "relation": lead.r if lead is not None else None,
                    "aligned_together": lead is not None and all(a2[i].r == lead.r for i in shared),
                }
        return states


class RawAlignmentStage(ScopStage):
    """``wo_alignment``: the raw extracted triples go straight to constraint execution (no
    alternative readings)."""

    name = "scop.no_alignment"
    reads = ("triples",)
    writes = ("aligned", "readings")

    def __call__(self, states: list[dict]) -> list[dict]:
        for st in states:
            s = scop_state(st)
            s.aligned, s.readings = s.triples or Reading(), []
            s.trace["triples_aligned"] = {**s.aligned.to_json(), "unaligned": True}
        return states
