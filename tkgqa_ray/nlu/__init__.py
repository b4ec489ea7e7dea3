"""Deterministic question understanding (no LLM): the building blocks of symbolic roles.

Public API (documented in docs/scop.md, "NLU API"):

* :class:`EntityMatcher` (``EntityMatcher.for_table(table)``, cached per table) and
  :func:`find_entity_mentions` -> list[:class:`Mention`];
* :func:`parse_temporal_cues` -> list[:class:`Cue`] and :func:`find_dates`;
* :func:`infer_answer_type` ("entity" | "time") and :func:`infer_time_level`
  ("day" | "month" | "year"), from the question text only;
* :func:`relation_phrase` (strip scaffolding) and :func:`ground_relation` (embedding
  similarity to KG relation names) -> list[:class:`RelationCandidate`];
* :func:`analyze` -> :class:`QuestionAnalysis`: all of the above for one question, with the
  clause structure (wh-phrase, main clause, event-reference clauses) SCoP's event parser uses;
  ``QuestionAnalysis.relaxed_reason`` says when only a relaxed reading exists;
  :func:`context_analysis` is the same for a run context, cached per process (the one cache
  SCoP's roles, its alignment and TCC-RAG's stages share);
* one definition each of shared patterns: :func:`name_pattern` / :func:`name_spans` (a name
  as a whole word) and the "the time that" event-clause gap (:data:`EVENT_CLAUSE_GAP_RE`,
  :data:`CUE_TIME_CLAUSE_RE`, built from :data:`TIME_CLAUSE`).
"""

from .analysis import Clause, QuestionAnalysis, analyze
from .cache import context_analysis
from .entities import EntityMatcher, Mention, find_entity_mentions
from .relations import RelationCandidate, ground_relation, relation_phrase
from .temporal import Cue, find_dates, infer_answer_type, infer_time_level, parse_temporal_cues
from .text import CUE_TIME_CLAUSE_RE, EVENT_CLAUSE_GAP_RE, TIME_CLAUSE, fold, mask_spans, name_pattern, name_spans, tokenize

__all__ = [
    "CUE_TIME_CLAUSE_RE",
    "Clause",
    "Cue",
    "EVENT_CLAUSE_GAP_RE",
    "EntityMatcher",
    "Mention",
    "QuestionAnalysis",
    "RelationCandidate",
    "TIME_CLAUSE",
    "analyze",
    "context_analysis",
    "find_dates",
    "find_entity_mentions",
    "fold",
    "ground_relation",
    "infer_answer_type",
    "infer_time_level",
    "mask_spans",
    "name_pattern",
    "name_spans",
    "parse_temporal_cues",
    "relation_phrase",
    "tokenize",
]
