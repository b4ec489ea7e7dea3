"""Temporal KG core: loaders, columnar fact table, posting-list store, oracle, sharded store.

The Ray-sharded store lives in ``tkgqa_ray.kg.sharded`` (imported on demand so the plain
classes stay usable without starting Ray).
"""

from .index import PostingIndex
from .loader import load_kg, load_kgs
from .store import FactStore, QuerySpec
from .table import Fact, FactTable, KGFormatError, display, fact_key, iso_day, parse_time_span

__all__ = [
    "Fact",
    "FactStore",
    "FactTable",
    "KGFormatError",
    "PostingIndex",
    "QuerySpec",
    "display",
    "fact_key",
    "iso_day",
    "load_kg",
    "load_kgs",
    "parse_time_span",
]
