"""MultiTQ-style question generator over any temporal KG (``tkgqa-ray generate``).

Each question is drawn as a logical form (:class:`~tkgqa_ray.data.oracle_answers.QSpec`)
proposed from the KG's own facts, answered by the brute-force :class:`Oracle` (full column
scans, independent of the posting-list store), kept only when answerable and unambiguous
(1..20 answers, a unique anchor), and rendered through one of several templates.

Point KGs get MultiTQ's six types (``QTYPES``); interval KGs additionally get Allen-relation
and ordinal questions (``INTERVAL_QTYPES``, with ``question_level``). The exact semantics of
every variant are in docs/data.md. Everything is deterministic given (KG, seed, arguments).
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from tkgqa_ray.data import (
    phrasings, phrasings_dev, phrasings_dev2, phrasings_dev3, phrasings_fresh, phrasings_heldout,
    phrasings_surface_blind,
)
from tkgqa_ray.data import phrasings_dev4
from tkgqa_ray.data import phrasings_dev5
from tkgqa_ray.data import phrasings_dev6
from tkgqa_ray.data import phrasings_dev7
from tkgqa_ray.data import phrasings_blind3
from tkgqa_ray.data import phrasings_blind4
from tkgqa_ray.data import surface_actors, surface_relations
from tkgqa_ray.data.lexicon import ORDINALS, in_time, relation_phrase, render_time
from tkgqa_ray.data.oracle_answers import MAX_ANSWERS, QLABEL, QTYPES, Oracle, OracleResult, QSpec
from tkgqa_ray.data.phrasings import Template
from tkgqa_ray.kg.factkey import encode_fact_key
from tkgqa_ray.time import allen, coarsen, format_day

log = logging.getLogger(__name__)

INTERVAL_QTYPES = ("time_lookup", "entity_at_time", "allen", "ordinal", "anchor_ordinal")
ALL_QTYPES = QTYPES + INTERVAL_QTYPES
QUESTION_LEVEL = {"time_lookup": "simple", "entity_at_time": "simple", "allen": "medium",
                  "ordinal": "medium", "anchor_ordinal": "complex"}
# variants per type, cycled for balance (entity vs time answers, subject vs object asked)
VARIANTS: dict[str, tuple[str, ...]] = {
    "equal": ("eq_obj_time", "eq_subj_time", "eq_time"),
    "before_after": ("ba_subj_event", "ba_obj_event", "ba_obj_time", "ba_subj_time"),
    "first_last": ("fl_subj", "fl_obj", "fl_time"),
    "equal_multi": ("em_obj_event", "em_subj_event", "em_obj_offset"),
    "after_first": ("xr_subj", "xr_obj", "xr_time"),
    "before_last": ("xr_subj", "xr_obj", "xr_time"),
    "time_lookup": ("iv_time",),
    "entity_at_time": ("iv_in_time",),
    "allen": ("iv_allen_subj",),
    "ordinal": ("iv_ordinal",),
    "anchor_ordinal": ("iv_anchor_ordinal",),
}
ALLEN_ASKED = ("before", "after", "during", "contains", "meets", "met_by")
# "all" stays train + heldout (what it meant before "fresh" existed), so earlier results that
# used it remain reproducible; "fresh" (a blind set, see docs/data.md) is only used on its own.
# "people" = the train templates plus question wrappers, with actors and relations written the
# way people write them (issue #10); "surface_blind" is a second blind set (see docs/data.md).
PHRASING_SETS = ("train", "heldout", "fresh", "people", "surface_blind", "dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7",
                 "blind3", "blind4", "all")
GRANS = ("day", "month", "year")


# A surface renderer turns a KG name into how a person would write it in one question:
# ``entity(name, pick) -> str`` gets the display name ("Police (Kenya)"), ``relation(name,
# pick) -> RelPhrase | None`` the KG relation ("Make_a_visit"; None = the set's default
# phrase). ``pick(seq)`` draws one element with the generator's seeded RNG, so output stays
# deterministic given (KG, seed, arguments). Surfaces must keep the meaning exact: gold comes
# from the oracle over the KG names, never from the rendered text.
EntitySurface = Callable[[str, Callable[[Sequence[Any]], Any]], str]
RelationSurface = Callable[[str, Callable[[Sequence[Any]], Any]], Any]


@dataclass(frozen=True)
class _PhraseSet:
    name: str
    words: dict[str, tuple[str, ...]]
    time_styles: tuple[str, ...]
    templates: list[Template]
    entity_surface: EntitySurface | None = None
    relation_surface: RelationSurface | None = None
    # slots computed from the gold answers (dev4's head nouns, true of every answer); None = none
    answer_slots: Callable[[Sequence[str], Callable[[Sequence[Any]], Any]], dict[str, Any]] | None = None


def _module_set(name: str, module: Any) -> _PhraseSet:
    """A phrasing set whose module holds all of it: ``WORDS``, ``TIME_STYLES``, ``TEMPLATES``,
    ``entity_surface`` and ``relation_surface``, and optionally ``answer_slots``."""
    return _PhraseSet(
        name, module.WORDS, module.TIME_STYLES, module.TEMPLATES,
        entity_surface=module.entity_surface, relation_surface=module.relation_surface,
        answer_slots=getattr(module, "answer_slots", None),
    )


_SETS = {
    "train": _PhraseSet("train", phrasings.WORDS, phrasings.TIME_STYLES, phrasings.TEMPLATES),
    "heldout": _PhraseSet(
        "heldout", phrasings_heldout.WORDS, phrasings_heldout.TIME_STYLES, phrasings_heldout.TEMPLATES
    ),
    "fresh": _PhraseSet("fresh", phrasings_fresh.WORDS, phrasings_fresh.TIME_STYLES, phrasings_fresh.TEMPLATES),
    "people": _PhraseSet(
        "people", phrasings.WORDS, phrasings.TIME_STYLES,
        phrasings.TEMPLATES + surface_relations.WRAPPER_TEMPLATES,
        entity_surface=surface_actors.actor_surface,
        relation_surface=surface_relations.relation_surface,
    ),
    "surface_blind": _module_set("surface_blind", phrasings_surface_blind),
    # "dev": the nlu authors' development set (issue #10; not blind, see phrasings_dev.py)
    "dev": _module_set("dev", phrasings_dev),
    # "dev2": the same, focused on the multi-event types' reference clauses (phrasings_dev2.py)
    "dev2": _module_set("dev2", phrasings_dev2),
    # "dev3": a third one on the multi-event types, written blind to nlu/parsers (phrasings_dev3.py)
    "dev3": _module_set("dev3", phrasings_dev3),
    # "dev4": after_first / before_last shapes no earlier dev set wrote (phrasings_dev4.py)
    "dev4": _module_set("dev4", phrasings_dev4),
    # "dev5": before_after / equal_multi reference styles, written blind to nlu/parsers (phrasings_dev5.py)
    "dev5": _module_set("dev5", phrasings_dev5),
    # "dev6": after_first / before_last (and first_last) in people's and journalists' shapes,
    # written blind to nlu/parsers and to the other sets' templates (phrasings_dev6.py)
    "dev6": _module_set("dev6", phrasings_dev6),
    # "dev7": relation paraphrases and assistant-style wrappers, weighted to first_last /
    # equal_multi / time answers, written blind to nlu/parsers (phrasings_dev7.py)
    "dev7": _module_set("dev7", phrasings_dev7),
    # "blind3": a third BLIND set (all six types); parser authors must not read it (phrasings_blind3.py)
    "blind3": _module_set("blind3", phrasings_blind3),
    # "blind4": a fourth BLIND set (all six types, weighted to Multiple); parser authors must not read it (phrasings_blind4.py)
    "blind4": _module_set("blind4", phrasings_blind4),
}


def templates_for(phrasing_set: str) -> list[tuple[_PhraseSet, Template]]:
    if phrasing_set not in PHRASING_SETS:
        raise ValueError(f"phrasing_set must be one of {PHRASING_SETS}, got {phrasing_set!r}")
    # "all" = train + heldout only (not fresh): unchanged so earlier "all" runs reproduce
    names = ("train", "heldout") if phrasing_set == "all" else (phrasing_set,)
    return [(_SETS[n], t) for n in names for t in _SETS[n].templates]


@dataclass
class GenerationStats:
    requested: dict[str, int] = field(default_factory=dict)
    produced: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)  # (qtype, reason)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "produced": dict(self.produced),
            "rejected": {f"{k[0]}:{k[1]}": v for k, v in sorted(self.rejected.items())},
            "seconds": round(self.seconds, 2),
        }


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class QuestionGenerator:
    """Seeded sampler of (spec → oracle gold → phrasing) over one fact table."""

    def __init__(
        self,
        table: Any,
        seed: int = 0,
        phrasing_set: str = "train",
        max_answers: int = MAX_ANSWERS,
    ) -> None:
        self.table = table
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.oracle = Oracle(table, max_answers)
        self.n = int(table.num_facts)
        if self.n == 0:
            raise ValueError("cannot generate questions from an empty KG")
        self.s = self.oracle.s
        self.r = self.oracle.r
        self.o = self.oracle.o
        self.start = self.oracle.start
        self.end = self.oracle.end
        self.names = [e.replace("_", " ") for e in table.entities]
        self.rel_names = list(table.relations)
        self._phr: dict[int, Any] = {}
        self.interval = bool(np.any(self.end != self.start))
        by_variant: dict[str, list[tuple[_PhraseSet, Template]]] = {}
        for ps, t in templates_for(phrasing_set):
            by_variant.setdefault(t.variant, []).append((ps, t))
        self.by_variant = by_variant
        self._tpl_counter: Counter = Counter()
        # Anchor pool: facts whose (s, r, o) occurs exactly once — a proposal heuristic only;
        # the oracle re-checks uniqueness by scanning.
        key = (self.s.astype(np.int64) * (int(self.r.max()) + 1) + self.r) * (int(self.o.max()) + 1) + self.o
        _, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
        self.single = np.flatnonzero(counts[inv] == 1)
        if len(self.single) == 0:
            self.single = np.arange(self.n)
        self.is_single = np.zeros(self.n, dtype=bool)
        self.is_single[self.single] = True
        # month/year ids for equal_multi proposals (vectorised, once)
        d64 = (self.start - 719163).astype("datetime64[D]")
        self.month_id = d64.astype("datetime64[M]").astype(np.int64)
        self.year_id = d64.astype("datetime64[Y]").astype(np.int64)

    # -- helpers ---------------------------------------------------------------------------

    def phrase(self, rid: int):
        p = self._phr.get(rid)
        if p is None:
            p = self._phr[rid] = relation_phrase(self.rel_names[rid])
        return p

    def _pick(self, seq: Sequence[Any]) -> Any:
        return seq[int(self.rng.integers(len(seq)))]

    def _ent(self, eid: int, ps: _PhraseSet) -> str:
        """Entity ``eid`` as this phrasing set writes it (the display name by default)."""
        name = self.names[eid]
        return ps.entity_surface(name, self._pick) if ps.entity_surface else name

    def _rel(self, rid: int, ps: _PhraseSet):
        """Relation ``rid`` as this phrasing set writes it (the lexicon phrase by default)."""
        if ps.relation_surface is not None:
            p = ps.relation_surface(self.rel_names[rid], self._pick)
            if p is not None:
                return p
        return self.phrase(rid)

    def _rand_fact(self, pool: np.ndarray | None = None) -> int:
        if pool is None:
            return int(self.rng.integers(self.n))
        return int(pool[int(self.rng.integers(len(pool)))])

    def _period_ids(self, f: int, g: str) -> np.ndarray:
        col = {"day": self.start, "month": self.month_id, "year": self.year_id}[g]
        return np.flatnonzero(col == col[f])

    # -- proposals: each returns (variant, spec, extra slots) or None ------------------------

    def _propose(self, qtype: str, variant: str) -> tuple[QSpec, dict[str, Any]] | None:
        fn: Callable[[str, str], tuple[QSpec, dict[str, Any]] | None] = getattr(self, f"_p_{variant[:2]}")
        return fn(qtype, variant)

    def _p_eq(self, qtype: str, variant: str):
        f = self._rand_fact()
        g = self._pick(GRANS)
        s, r, o, t = int(self.s[f]), int(self.r[f]), int(self.o[f]), int(self.start[f])
        if variant == "eq_time":
            return QSpec(qtype, "time", (s, r, o), time_level=g), {}
        span = coarsen(t, t, g)
        target = (s, r, None) if variant == "eq_obj_time" else (None, r, o)
        spec = QSpec(qtype, "entity", target, anchor_time=span, op="equal", granularity=g, time_level=g)
        return spec, {"t": t, "g": g}

    def _p_ba(self, qtype: str, variant: str):
        op = self._pick(("before", "after"))
        if variant in ("ba_subj_event", "ba_obj_event"):
            a = self._rand_fact(self.single)
            s, r, o = int(self.s[a]), int(self.r[a]), int(self.o[a])
            target = (None, r, o) if variant == "ba_subj_event" else (s, r, None)
            return QSpec(qtype, "entity", target, anchor_event=(s, r, o), op=op), {}
        f = self._rand_fact()
        g = self._pick(("month", "year", "day"))
        s, r, o, t = int(self.s[f]), int(self.r[f]), int(self.o[f]), int(self.start[f])
        target = (s, r, None) if variant == "ba_obj_time" else (None, r, o)
        spec = QSpec(qtype, "entity", target, anchor_time=coarsen(t, t, g), op=op, time_level=g)
        return spec, {"t": t, "g": g}

    def _p_fl(self, qtype: str, variant: str):
        f = self._rand_fact()
        rank = self._pick(("asc", "desc"))
        s, r, o = int(self.s[f]), int(self.r[f]), int(self.o[f])
        if variant == "fl_time":
            g = self._pick(GRANS)
            return QSpec(qtype, "time", (s, r, o), rank=rank, time_level=g), {}
        target = (None, r, o) if variant == "fl_subj" else (s, r, None)
        return QSpec(qtype, "entity", target, rank=rank), {}

    def _p_em(self, qtype: str, variant: str):
        b = self._rand_fact()
        s, r, o = int(self.s[b]), int(self.r[b]), int(self.o[b])
        target = (None, r, o) if variant == "em_subj_event" else (s, r, None)
        if variant == "em_obj_offset":
            op = self._pick(("after", "before"))
            nd = int(self.rng.integers(1, 31))
            anchor_day = int(self.start[b]) - nd if op == "after" else int(self.start[b]) + nd
            ids = np.flatnonzero(self.start == anchor_day)
        else:
            g = self._pick(GRANS)
            ids = self._period_ids(b, g)
        # the anchor uses another relation (so it never matches the target pattern and is not
        # the mirror of a symmetric target fact); prefer anchors sharing an entity
        cs, cr, co = self.s[ids], self.r[ids], self.o[ids]
        bad = cr == r
        ids, cs, co = ids[~bad], cs[~bad], co[~bad]
        near = (cs == s) | (co == s) | (cs == o) | (co == o)
        uniq = self.is_single[ids]
        for keep in (near & uniq, uniq, near, None):  # most natural first
            cands = ids if keep is None else ids[keep]
            if len(cands):
                break
        if len(cands) == 0:
            return None
        a = self._rand_fact(cands)
        anchor = (int(self.s[a]), int(self.r[a]), int(self.o[a]))
        if variant == "em_obj_offset":
            spec = QSpec(qtype, "entity", target, anchor_event=anchor, op=op, offset=nd)
            return spec, {"N": nd}
        spec = QSpec(qtype, "entity", target, anchor_event=anchor, op="equal", granularity=g, time_level=g)
        return spec, {"g": g}

    def _p_xr(self, qtype: str, variant: str):
        op, rank = ("after", "asc") if qtype == "after_first" else ("before", "desc")
        if variant in ("xr_subj", "xr_obj"):
            a = self._rand_fact(self.single)
            s, r, o = int(self.s[a]), int(self.r[a]), int(self.o[a])
            target = (None, r, o) if variant == "xr_subj" else (s, r, None)
            return QSpec(qtype, "entity", target, anchor_event=(s, r, o), op=op, rank=rank), {}
        b = self._rand_fact()
        s, r, o = int(self.s[b]), int(self.r[b]), int(self.o[b])
        ent = (self.s == s) | (self.o == s) | (self.s == o) | (self.o == o)
        side = self.start < self.start[b] if op == "after" else self.start > self.start[b]
        pool = np.flatnonzero(ent & side & self.is_single)
        pool = pool[~((self.s[pool] == s) & (self.r[pool] == r) & (self.o[pool] == o))]
        if len(pool) == 0:
            return None
        a = self._rand_fact(pool)
        g = self._pick(GRANS)
        anchor = (int(self.s[a]), int(self.r[a]), int(self.o[a]))
        return QSpec(qtype, "time", (s, r, o), anchor_event=anchor, op=op, rank=rank, time_level=g), {}

    def _p_iv(self, qtype: str, variant: str):
        if variant == "iv_time":
            f = self._rand_fact()
            g = self._pick(("year", "year", "month", "day"))
            spec = QSpec(qtype, "time", (int(self.s[f]), int(self.r[f]), int(self.o[f])), rank="asc", time_level=g)
            return spec, {}
        if variant == "iv_in_time":
            f = self._rand_fact()
            g = self._pick(("year", "year", "month"))
            t = int(self.rng.integers(int(self.start[f]), int(self.end[f]) + 1))
            spec = QSpec(qtype, "entity", (None, int(self.r[f]), int(self.o[f])),
                         anchor_time=coarsen(t, t, g), op="equal", granularity=g, time_level=g)
            return spec, {"t": t, "g": g}
        if variant == "iv_ordinal":
            f = self._rand_fact()
            k = int(self.rng.integers(1, 6))
            return QSpec(qtype, "entity", (None, int(self.r[f]), int(self.o[f])), rank="asc", k=k), {"k": k}
        a = self._rand_fact(self.single)
        la, ua = int(self.start[a]), int(self.end[a])
        anchor = (int(self.s[a]), int(self.r[a]), int(self.o[a]))
        if variant == "iv_anchor_ordinal":
            pool = np.flatnonzero(self.start > ua)
            if len(pool) == 0:
                return None
            b = self._rand_fact(pool)
            k = int(self.rng.integers(1, 4))
            spec = QSpec(qtype, "entity", (None, int(self.r[b]), int(self.o[b])), anchor_event=anchor,
                         op="after", rank="asc", k=k)
            return spec, {"k": k}
        # allen: a target fact near the anchor in time, asked about its relation to the anchor
        width = max(ua - la, 365) * 3
        pool = np.flatnonzero((self.start <= ua + width) & (self.end >= la - width) & (self.r != self.r[a]))
        if len(pool) == 0:
            return None
        b = self._rand_fact(pool)
        rel = allen((int(self.start[b]), int(self.end[b])), (la, ua)).value
        if rel not in ALLEN_ASKED:
            return None
        spec = QSpec(qtype, "entity", (None, int(self.r[b]), int(self.o[b])), anchor_event=anchor,
                     op="allen", allen_rel=rel)
        return spec, {}

    # -- rendering -------------------------------------------------------------------------

    def _choose_template(self, variant: str) -> tuple[_PhraseSet, Template]:
        cands = self.by_variant.get(variant)
        if not cands:
            raise ValueError(f"no template for variant {variant!r} in this phrasing set")
        i = self._tpl_counter[variant]
        self._tpl_counter[variant] += 1
        return cands[i % len(cands)]

    def render_template(self, template_id: str, spec: QSpec, extra: dict[str, Any] | None = None,
                        answers: Sequence[str] = ()) -> str:
        """One named template (``set/variant/k``) rendered for ``spec``: how a phrasing set's
        tests check a rendering by hand."""
        variant = template_id.split("/")[1]
        ps, tpl = next((ps, t) for ps, t in self.by_variant[variant] if t.id == template_id)
        return self.render(spec, extra or {}, ps, tpl, answers)

    def render(self, spec: QSpec, extra: dict[str, Any], ps: _PhraseSet, tpl: Template,
               answers: Sequence[str] = ()) -> str:
        w = ps.words
        slots: dict[str, Any] = ps.answer_slots(answers, self._pick) if ps.answer_slots else {}
        ts, tr, to = spec.target
        if ts is not None:
            slots["S"] = self._ent(ts, ps)
        if to is not None:
            slots["O"] = self._ent(to, ps)
        p = self._rel(tr, ps)
        slots["rb"], slots["rp"] = p.base, p.past
        if spec.anchor_event is not None:
            a_s, a_r, a_o = spec.anchor_event
            slots["AS"], slots["AO"] = self._ent(a_s, ps), self._ent(a_o, ps)
            ap = self._rel(a_r, ps)
            slots["arb"], slots["arp"] = ap.base, ap.past
            slots["A"] = slots["AS"] if ts is None else slots["AO"]
        g = extra.get("g") or spec.time_level
        if "t" in extra:
            style = self._pick(ps.time_styles)
            slots["T"] = render_time(extra["t"], g, style)
            slots["inT"] = in_time(extra["t"], g, style)
            slots["InT"] = _cap(slots["inT"])
        slots["When"] = self._pick(w[f"when_{spec.time_level}"])
        slots["when_lc"] = slots["When"][0].lower() + slots["When"][1:]
        slots["unit"] = {"day": "date", "month": "month", "year": "year"}[spec.time_level]
        if spec.op in ("before", "after"):
            slots["bw"] = self._pick(w[spec.op])
            slots["Bw"] = _cap(slots["bw"])
            slots["bwc"] = self._pick(w[f"{spec.op}_clause"])
            slots["Bwc"] = _cap(slots["bwc"])
        if spec.rank is not None:
            slots["fadj"] = self._pick(w[f"fadj_{spec.rank}"])
            slots["fadv"] = self._pick(w[f"fadv_{spec.rank}"])
            slots["k"] = ORDINALS[spec.k] if spec.k < len(ORDINALS) else f"{spec.k}th"
        if spec.op == "equal" and spec.anchor_event is not None:
            slots["same"] = self._pick(w[f"same_{spec.granularity}"])
            slots["Same"] = _cap(slots["same"])
        if spec.op == "allen":
            slots["allen"] = self._pick(w[f"allen_{spec.allen_rel}"])
            slots["Allen"] = _cap(slots["allen"])
        if "N" in extra:
            slots["Nd"] = f"{extra['N']} day" + ("" if extra["N"] == 1 else "s")
        text = tpl.text.format_map(slots)
        if text.startswith("~"):  # a template that keeps its lower-case start (dev4)
            return " ".join(text[1:].split()).replace(" ?", "?")
        return " ".join(_cap(text).split()).replace(" ?", "?")

    # -- main loop -------------------------------------------------------------------------

    def default_types(self) -> tuple[str, ...]:
        return INTERVAL_QTYPES if self.interval else QTYPES

    @staticmethod
    def default_types_of(table: Any) -> tuple[str, ...]:
        return INTERVAL_QTYPES if bool(np.any(np.asarray(table.end) != np.asarray(table.start))) else QTYPES

    def generate(
        self,
        n: int,
        types: Iterable[str] | None = None,
        max_tries_per_question: int = 200,
        start_quid: int = 1,
        stats: GenerationStats | None = None,
    ) -> list[dict[str, Any]]:
        """``n`` records balanced over ``types`` (round-robin; a type that cannot be filled
        within ``max_tries_per_question`` proposals per question is logged and left short)."""
        types = tuple(types) if types else self.default_types()
        for t in types:
            if t not in VARIANTS:
                raise ValueError(f"unknown question type {t!r} (known: {', '.join(ALL_QTYPES)})")
            for v in VARIANTS[t]:
                if v not in self.by_variant:
                    raise ValueError(f"type {t!r} has no template for variant {v!r}")
        stats = stats or GenerationStats()
        t0 = time.perf_counter()
        quota = {t: n // len(types) + (1 if i < n % len(types) else 0) for i, t in enumerate(types)}
        stats.requested = dict(quota)
        seen: set[str] = set()
        seen_specs: set[tuple] = set()
        per_type: dict[str, list[dict[str, Any]]] = {t: [] for t in types}
        for t in types:
            variants = VARIANTS[t]
            tries = 0
            vi = 0
            fails = 0  # consecutive failures of the current variant; skip it after 50
            while len(per_type[t]) < quota[t] and tries < max_tries_per_question * max(quota[t], 1):
                tries += 1
                if fails >= 50:
                    vi, fails = vi + 1, 0
                variant = variants[vi % len(variants)]
                fails += 1
                prop = self._propose(t, variant)
                if prop is None:
                    stats.rejected[(t, "no_proposal")] += 1
                    continue
                spec, extra = prop
                key = (spec.target, spec.anchor_event, spec.anchor_time, spec.op, spec.rank, spec.k,
                       spec.answer_type, spec.time_level, spec.offset)
                if key in seen_specs:
                    stats.rejected[(t, "duplicate")] += 1
                    continue
                res = self.oracle.answer(spec)
                if not res.ok:
                    stats.rejected[(t, res.status)] += 1
                    continue
                seen_specs.add(key)
                ps, tpl = self._choose_template(variant)
                text = self.render(spec, extra, ps, tpl, res.answers)
                if text in seen:
                    stats.rejected[(t, "duplicate")] += 1
                    continue
                seen.add(text)
                per_type[t].append(self._record(spec, res, text, ps, tpl))
                stats.produced[t] += 1
                vi, fails = vi + 1, 0
            if len(per_type[t]) < quota[t]:
                log.warning("type %s: produced %d of %d questions", t, len(per_type[t]), quota[t])
        # interleave types so a prefix (limit=) stays balanced
        records: list[dict[str, Any]] = []
        for i in range(max(quota.values(), default=0)):
            for t in types:
                if i < len(per_type[t]):
                    records.append(per_type[t][i])
        for j, rec in enumerate(records):
            rec["quid"] = start_quid + j
        stats.seconds = time.perf_counter() - t0
        return records

    def _record(self, spec: QSpec, res: OracleResult, text: str, ps: _PhraseSet, tpl: Template) -> dict[str, Any]:
        keys = [self._key(i) for i in res.answer_facts[:50]] + [self._key(i) for i in res.anchor_facts[:10]]
        rec: dict[str, Any] = {
            "quid": 0,
            "question": text,
            "answers": res.answers,
            "answer_type": spec.answer_type,
            "time_level": spec.time_level,
            "qtype": spec.qtype,
            "qlabel": QLABEL.get(spec.qtype),
        }
        if spec.qtype in QUESTION_LEVEL:
            rec["question_level"] = QUESTION_LEVEL[spec.qtype]
        rec["events"] = keys
        rec["template"] = tpl.id
        rec["phrasing_set"] = ps.name
        rec["spec"] = spec.to_json()
        return rec

    def _key(self, i: int) -> str:
        i = int(i)
        t = self.table
        return encode_fact_key(t.entities[self.s[i]], t.relations[self.r[i]], t.entities[self.o[i]],
                               format_day(int(self.start[i])), format_day(int(self.end[i])))


def generate(
    table: Any,
    n: int,
    seed: int = 0,
    types: Iterable[str] | None = None,
    phrasing_set: str = "train",
    stats: GenerationStats | None = None,
) -> list[dict[str, Any]]:
    """Generate ``n`` MultiTQ-format question records from a :class:`FactTable`."""
    return QuestionGenerator(table, seed=seed, phrasing_set=phrasing_set).generate(n, types, stats=stats)


def write_questions(records: list[dict[str, Any]], path: Path) -> None:
    """Write a MultiTQ question file atomically (tmp + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{time.monotonic_ns()}")
    tmp.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)


def generate_main(
    kg_path: str | Path,
    out_dir: str | Path,
    n: int = 1000,
    seed: int = 0,
    types: Sequence[str] | None = None,
    phrasing_set: str = "train",
    split: str = "test",
    copy_kg: bool = True,
    specs: str | Path | None = None,
) -> dict[str, Any]:
    """Entry point of ``tkgqa-ray generate``: load the KG, generate ``n`` questions, write a
    dataset root in MultiTQ layout (``out_dir/kg/full.txt[.gz]`` copy of the KG,
    ``out_dir/questions/{split}.json``, ``out_dir/questions/{split}.meta.json``) and return the
    metadata (counts per type, rejections, timings). Run it on the result with
    ``dataset=multitq dataset.root=out_dir``. With ``specs`` (a hand-written JSON Lines file,
    :mod:`tkgqa_ray.data.handwritten`) its questions are answered instead of generated ones
    (``n``, ``seed``, ``types`` and ``phrasing_set`` are then unused)."""
    from tkgqa_ray.kg import load_kg

    kg_path = Path(kg_path)
    out = Path(out_dir)
    t0 = time.perf_counter()
    table = load_kg(kg_path)
    t_load = time.perf_counter() - t0
    stats = GenerationStats()
    if specs is not None:
        from tkgqa_ray.data.handwritten import answer_specs, read_specs

        t1 = time.perf_counter()
        records = answer_specs(table, read_specs(specs))
        stats.produced.update(Counter(r["qtype"] for r in records))
        stats.seconds = time.perf_counter() - t1
    else:
        records = generate(table, n, seed=seed, types=types, phrasing_set=phrasing_set, stats=stats)
    write_questions(records, out / "questions" / f"{split}.json")
    if copy_kg:
        dest = out / "kg" / ("full.txt.gz" if kg_path.name.endswith(".gz") else "full.txt")
        if not dest.exists() or dest.resolve() != kg_path.resolve():
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.tmp{time.monotonic_ns()}")
            shutil.copyfile(kg_path, tmp)
            tmp.replace(dest)
    meta = {
        "kg": str(kg_path),
        "kg_content_hash": getattr(table, "content_hash", None),
        "n_requested": n,
        "n_written": len(records),
        "seed": seed,
        "types": list(types) if types else list(QuestionGenerator.default_types_of(table)),
        "phrasing_set": "handwritten" if specs is not None else phrasing_set,
        **({"specs": str(specs)} if specs is not None else {}),
        "load_seconds": round(t_load, 2),
        **stats.to_json(),
    }
    (out / "questions" / f"{split}.meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return meta
