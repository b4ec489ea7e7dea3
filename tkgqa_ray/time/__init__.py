"""Time model: day-ordinal ranges, parsing/formatting, coarsening, SCoP predicates, Allen relations.

See ``docs/time-and-scoring.md`` for the conventions (closed day ranges, open ends, offsets,
the two Allen conventions).
"""

from .allen import ALLEN_RELATIONS, AllenRelation, allen, allen_array
from .predicates import OPS, Op, admissible_any, admissible_mask, satisfies
from .spans import (
    EPOCH_ORDINAL,
    GRANULARITIES,
    MAX_DAY,
    MIN_DAY,
    Granularity,
    TimeSpan,
    coarsen,
    coarsen_array,
    day,
    days_array,
    format_day,
    granularity_of,
    parse_time,
)

__all__ = [
    "ALLEN_RELATIONS",
    "AllenRelation",
    "allen",
    "allen_array",
    "OPS",
    "Op",
    "admissible_any",
    "admissible_mask",
    "satisfies",
    "EPOCH_ORDINAL",
    "GRANULARITIES",
    "MAX_DAY",
    "MIN_DAY",
    "Granularity",
    "TimeSpan",
    "coarsen",
    "coarsen_array",
    "day",
    "days_array",
    "format_day",
    "granularity_of",
    "parse_time",
]
