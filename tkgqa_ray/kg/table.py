"""Columnar fact table: integer ids for names, day ordinals for times.

Everything downstream (indexes, oracle, generator, methods) works on these int32 columns;
names are materialised only when a fact is shown. Entity and relation ids are ranks in the
sorted name lists, so the same KG file always yields the same ids in every process (shard
actors rebuild from the file and must agree with the client without exchanging data).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np
import pyarrow as pa

from tkgqa_ray.kg.columns import RowError, encode_string_columns
from tkgqa_ray.kg.factkey import encode_fact_key
from tkgqa_ray.time.spans import EPOCH_ORDINAL, format_day, parse_time_span  # noqa: F401 - re-exported (kg.parse_time_span)


class KGFormatError(ValueError):
    """A KG file or row does not have the expected shape; the message names file:line."""


def display(name: str) -> str:
    """KG form (``Barack_Obama``) → display form (``Barack Obama``) used by questions."""
    return name.replace("_", " ")


def table_cache_key(table: object) -> object:
    """Key for a module-level cache of something derived from a table: its content hash (the
    same facts share one entry), else the object itself. Never ``id(table)``: a freed table's id
    is handed to the next object, which then reads the old table's entry."""
    key = getattr(table, "content_hash", None)
    return key if key is not None else table


def iso_day(ordinal: int) -> str:
    """``YYYY-MM-DD`` of a day ordinal (:func:`tkgqa_ray.time.format_day` at day granularity)."""
    return format_day(ordinal)


def fact_key(subject: str, relation: str, obj: str, start: int, end: int) -> str:
    """Canonical fact string ``s|r|o|YYYY-MM-DD|YYYY-MM-DD`` (KG-form names, day dates);
    the same form as TimelineCronQ-R gold ``events`` so evidence can be matched by string.
    Written by the one codec (:mod:`tkgqa_ray.kg.factkey`: a ``|`` inside a name is escaped)."""
    return encode_fact_key(subject, relation, obj, iso_day(start), iso_day(end))


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact with names in KG form and inclusive day-ordinal start/end."""

    id: int
    subject: str
    relation: str
    object: str
    start: int
    end: int

    @property
    def key(self) -> str:
        return fact_key(self.subject, self.relation, self.object, self.start, self.end)

    @property
    def is_point(self) -> bool:
        return self.start == self.end

    def text(self) -> str:
        """Display sentence for dense retrieval: ``{s} {r} {o} at {t}`` or ``... from {t1} to {t2}``."""
        head = f"{display(self.subject)} {display(self.relation)} {display(self.object)}"
        if self.start == self.end:
            return f"{head} at {iso_day(self.start)}"
        return f"{head} from {iso_day(self.start)} to {iso_day(self.end)}"


def _frozen(a: np.ndarray, dtype) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=dtype)
    if a.flags.writeable and a.base is None:
        a.flags.writeable = False
    elif a.flags.writeable:
        a = a.copy()
        a.flags.writeable = False
    return a


class FactTable:
    """Facts as int32 columns ``s, r, o, start, end`` plus sorted name lists.

    Fact ids are row positions (file order). Columns are read-only so views can be handed
    out (and shared zero-copy through Ray's object store) without defensive copies.
    """

    def __init__(
        self,
        entities: Sequence[str],
        relations: Sequence[str],
        s: np.ndarray,
        r: np.ndarray,
        o: np.ndarray,
        start: np.ndarray,
        end: np.ndarray,
        source: str | None = None,
    ) -> None:
        self.entities: list[str] = list(entities)
        self.relations: list[str] = list(relations)
        self.s = _frozen(s, np.int32)
        self.r = _frozen(r, np.int32)
        self.o = _frozen(o, np.int32)
        self.start = _frozen(start, np.int32)
        self.end = _frozen(end, np.int32)
        self.source = source
        n = len(self.s)
        if not (len(self.r) == len(self.o) == len(self.start) == len(self.end) == n):
            raise ValueError("FactTable columns must have equal length")
        if n:
            ne, nr = len(self.entities), len(self.relations)
            if min(self.s.min(), self.o.min(), self.r.min()) < 0 or max(self.s.max(), self.o.max()) >= ne or self.r.max() >= nr:
                raise ValueError("FactTable ids out of range of the name lists")
            if np.any(self.end < self.start):
                raise ValueError("FactTable has a fact with end < start")
        self.entity_id: dict[str, int] = {n_: i for i, n_ in enumerate(self.entities)}
        self.relation_id: dict[str, int] = {n_: i for i, n_ in enumerate(self.relations)}
        if len(self.entity_id) != len(self.entities) or len(self.relation_id) != len(self.relations):
            raise ValueError("FactTable name lists must not contain duplicates")

    # ------------------------------------------------------------------ basics
    @property
    def num_facts(self) -> int:
        return len(self.s)

    def __len__(self) -> int:
        return len(self.s)

    def __repr__(self) -> str:
        return (
            f"FactTable({self.num_facts} facts, {len(self.entities)} entities, "
            f"{len(self.relations)} relations, source={self.source!r})"
        )

    @staticmethod
    def display(name: str) -> str:
        return display(name)

    @cached_property
    def display_entity_id(self) -> dict[str, int]:
        """Display form → entity id (questions and gold answers use spaces)."""
        return {display(n): i for i, n in enumerate(self.entities)}

    @cached_property
    def display_relation_id(self) -> dict[str, int]:
        return {display(n): i for i, n in enumerate(self.relations)}

    @cached_property
    def is_interval(self) -> bool:
        """True when some fact spans more than one day."""
        return bool(np.any(self.end != self.start))

    @cached_property
    def max_duration(self) -> int:
        return int((self.end - self.start).max()) if self.num_facts else 0

    def fact(self, i: int) -> Fact:
        i = int(i)
        if not 0 <= i < self.num_facts:
            raise IndexError(f"fact id {i} out of range [0, {self.num_facts})")
        return Fact(
            i,
            self.entities[self.s[i]],
            self.relations[self.r[i]],
            self.entities[self.o[i]],
            int(self.start[i]),
            int(self.end[i]),
        )

    def facts(self, ids: Iterable[int]) -> list[Fact]:
        return [self.fact(i) for i in np.asarray(ids, dtype=np.int64).tolist()]

    # ------------------------------------------------------------------ hashing
    @cached_property
    def content_hash(self) -> str:
        """sha256 of the canonical content (names, then columns little-endian int32).

        Independent of file format/compression: the same facts in a .txt, .gz or Arrow file
        hash the same, so embedding caches keyed by it survive re-packaging.
        """
        h = hashlib.sha256(b"tkgqa-ray factable v1\n")
        for names in (self.entities, self.relations):
            h.update(len(names).to_bytes(8, "little"))
            h.update("\n".join(names).encode("utf-8"))
            h.update(b"\0")
        for col in (self.s, self.r, self.o, self.start, self.end):
            h.update(col.astype("<i4", copy=False).tobytes())
        return h.hexdigest()

    # ------------------------------------------------------------------ triples
    @cached_property
    def _triple_data(self) -> tuple[np.ndarray, np.ndarray]:
        ne, nr = np.int64(max(len(self.entities), 1)), np.int64(max(len(self.relations), 1))
        key = (self.s.astype(np.int64) * nr + self.r) * ne + self.o
        uniq, inverse = np.unique(key, return_inverse=True)
        triples = np.empty((len(uniq), 3), dtype=np.int32)
        triples[:, 2] = uniq % ne
        rest = uniq // ne
        triples[:, 1] = rest % nr
        triples[:, 0] = rest // nr
        return _frozen(triples, np.int32), _frozen(inverse.reshape(-1), np.int32)

    @property
    def triples(self) -> np.ndarray:
        """Distinct (s, r, o) rows, sorted lexicographically; shape (n_triples, 3) int32."""
        return self._triple_data[0]

    @property
    def fact_triple(self) -> np.ndarray:
        """Triple id of every fact (int32, length num_facts)."""
        return self._triple_data[1]

    @property
    def num_triples(self) -> int:
        return len(self.triples)

    @cached_property
    def _triple_postings(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.lexsort((self.start, self.fact_triple))  # stable: ties keep id order
        counts = np.bincount(self.fact_triple, minlength=self.num_triples)
        offsets = np.zeros(self.num_triples + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return _frozen(order, np.int64), _frozen(offsets, np.int64)

    def facts_of_triples(self, triple_ids: Iterable[int] | np.ndarray) -> np.ndarray:
        """Fact ids of the given triples: per triple sorted by (start, id), triples in the
        order given (int64). Dense retrieval ranks triples; this expands them to dated facts."""
        order, offsets = self._triple_postings
        tids = np.asarray(triple_ids, dtype=np.int64).reshape(-1)
        if tids.size == 0:
            return np.empty(0, dtype=np.int64)
        if tids.min() < 0 or tids.max() >= self.num_triples:
            raise IndexError("triple id out of range")
        return np.concatenate([order[offsets[t] : offsets[t + 1]] for t in tids.tolist()])

    @cached_property
    def _entity_triple_postings(self) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """CSR of triple ids by subject and by object: ``(order, offsets)`` per side, the ids
        of entity ``e`` being ``order[offsets[e]:offsets[e + 1]]`` in ascending order. Built once
        per table (as :attr:`_triple_postings`); a lookup is a slice, not a mask over every triple."""
        tr = self.triples
        ne = max(len(self.entities), 1)
        sides = []
        for col in (0, 2):
            order = np.argsort(tr[:, col], kind="stable")  # stable: ascending triple id per entity
            offsets = np.zeros(ne + 1, dtype=np.int64)
            np.cumsum(np.bincount(tr[:, col], minlength=ne), out=offsets[1:])
            sides.append((_frozen(order, np.int64), _frozen(offsets, np.int64)))
        return sides[0], sides[1]

    def triples_with_subject(self, entity: int) -> np.ndarray:
        """Ids of the triples whose subject is ``entity``, ascending (int64; empty when none)."""
        order, offsets = self._entity_triple_postings[0]
        e = int(entity)
        return order[offsets[e] : offsets[e + 1]] if 0 <= e < len(offsets) - 1 else order[:0]

    def triples_with_object(self, entity: int) -> np.ndarray:
        """Ids of the triples whose object is ``entity``, ascending (int64; empty when none)."""
        order, offsets = self._entity_triple_postings[1]
        e = int(entity)
        return order[offsets[e] : offsets[e + 1]] if 0 <= e < len(offsets) - 1 else order[:0]

    def triple_text(self, triple_id: int) -> str:
        s, r, o = self.triples[int(triple_id)].tolist()
        return f"{display(self.entities[s])} {display(self.relations[r])} {display(self.entities[o])}"

    # ------------------------------------------------------------------ arrow
    def to_arrow(self) -> pa.Table:
        """Arrow table: dictionary-encoded names (sharing one entity dictionary), date32 times."""
        ents = pa.array(self.entities, type=pa.string())
        rels = pa.array(self.relations, type=pa.string())
        epoch = np.int32(EPOCH_ORDINAL)
        schema_md = {b"tkgqa.kind": b"facttable", b"tkgqa.content_hash": self.content_hash.encode()}
        if self.source:
            schema_md[b"tkgqa.source"] = str(self.source).encode()
        return pa.table(
            {
                "subject": pa.DictionaryArray.from_arrays(pa.array(self.s), ents),
                "relation": pa.DictionaryArray.from_arrays(pa.array(self.r), rels),
                "object": pa.DictionaryArray.from_arrays(pa.array(self.o), ents),
                "start": pa.array(self.start - epoch).cast(pa.date32()),
                "end": pa.array(self.end - epoch).cast(pa.date32()),
            }
        ).replace_schema_metadata(schema_md)

    @classmethod
    def from_string_columns(cls, s, r, o, start, end, source: str) -> "FactTable":
        """From name columns (Arrow strings) and times (int32 ordinals or Arrow strings);
        raises :class:`~tkgqa_ray.kg.columns.RowError` for a bad row (callers add file:line)."""
        return cls(*encode_string_columns(s, r, o, start, end), source=source)

    @classmethod
    def from_arrow(cls, table: pa.Table, source: str | None = None) -> "FactTable":
        """Inverse of ``to_arrow``; also accepts plain string name columns and int32
        ordinal or ``YYYY[-MM[-DD]]`` string time columns."""
        missing = {"subject", "relation", "object", "start", "end"} - set(table.column_names)
        if missing:
            raise KGFormatError(f"{source or '<arrow>'}: missing columns {sorted(missing)}")
        cols = {c: table.column(c).combine_chunks() for c in ("subject", "relation", "object", "start", "end")}

        def names(a: pa.Array) -> pa.Array:
            return a.cast(pa.string()) if pa.types.is_dictionary(a.type) else a

        def days(a: pa.Array, which: str):
            if pa.types.is_date32(a.type):
                return a.cast(pa.int32()).to_numpy(zero_copy_only=False).astype(np.int32) + np.int32(EPOCH_ORDINAL)
            if pa.types.is_integer(a.type):
                return a.to_numpy(zero_copy_only=False).astype(np.int32)
            return a.cast(pa.string())  # parsed by the loader path

        start, end = days(cols["start"], "start"), days(cols["end"], "end")
        md = table.schema.metadata or {}
        src = source or (md.get(b"tkgqa.source", b"").decode() or None)
        try:
            return cls.from_string_columns(
                names(cols["subject"]), names(cols["relation"]), names(cols["object"]), start, end, src or "<arrow>"
            )
        except RowError as e:
            raise KGFormatError(f"{src or '<arrow>'}: row {e.row + 1}: {e.message}") from None

    @classmethod
    def from_rows(
        cls, rows: Iterable[Sequence[str | None]], source: str = "<rows>"
    ) -> "FactTable":
        """Build from ``(s, r, o, start_str[, end_str])`` rows with KG-form names and
        ``YYYY[-MM[-DD]]`` times (end defaults to start's span end)."""
        subj: list[str] = []
        rel: list[str] = []
        obj: list[str] = []
        st: list[int] = []
        en: list[int] = []
        for i, row in enumerate(rows, 1):
            if len(row) not in (4, 5):
                raise KGFormatError(f"{source}: row {i}: expected (s, r, o, start[, end]), got {len(row)} fields")
            s_, r_, o_, t0 = row[0], row[1], row[2], row[3]
            t1 = row[4] if len(row) == 5 and row[4] is not None else t0
            try:
                lo, _ = parse_time_span(str(t0))
                _, hi = parse_time_span(str(t1))
            except ValueError as e:
                raise KGFormatError(f"{source}: row {i}: {e}") from None
            if hi < lo:
                raise KGFormatError(f"{source}: row {i}: end {t1!r} is before start {t0!r}")
            subj.append(s_)
            rel.append(r_)
            obj.append(o_)
            st.append(lo)
            en.append(hi)
        try:
            return cls.from_string_columns(
                pa.array(subj, pa.string()),
                pa.array(rel, pa.string()),
                pa.array(obj, pa.string()),
                np.asarray(st, np.int32),
                np.asarray(en, np.int32),
                source,
            )
        except RowError as e:
            raise KGFormatError(f"{source}: row {e.row + 1}: {e.message}") from None
