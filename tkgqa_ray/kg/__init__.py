"""Temporal KG core: loaders, columnar fact table, posting-list store, oracle, sharded store."""

from .loader import load_kg, load_kgs
from .table import Fact, FactTable, KGFormatError, display, fact_key, iso_day, parse_time_span

__all__ = [
    "Fact",
    "FactTable",
    "KGFormatError",
    "display",
    "fact_key",
    "iso_day",
    "load_kg",
    "load_kgs",
    "parse_time_span",
]
