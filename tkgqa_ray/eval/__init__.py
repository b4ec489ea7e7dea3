"""Scoring: protocols, Hits@k with breakdowns and bootstrap stderr, evidence metrics, run
reports, merged comparisons and per-question diffs. See ``docs/time-and-scoring.md``."""

from .compare import Comparison, RunDiff, compare_runs, diff_runs, load_run, run_identity, write_diff
from .evidence import evidence_metrics, parse_fact_key
from .gold_io import GOLD_FILE, load_gold, save_gold
from .metrics import BREAKDOWNS, MetricsResult, aggregate, bootstrap_stderr, compute_metrics, score_col, score_questions
from .protocols import HITS_K, LENIENT, MULTITQ_OFFICIAL, PRIMARY_PROTOCOL, PROTOCOLS, SCOP_SCRIPT, Protocol, get_protocols
from .report import write_run_report

__all__ = [
    "BREAKDOWNS", "Comparison", "GOLD_FILE", "HITS_K", "LENIENT", "MULTITQ_OFFICIAL", "MetricsResult",
    "PRIMARY_PROTOCOL", "PROTOCOLS", "Protocol", "RunDiff", "SCOP_SCRIPT", "aggregate", "bootstrap_stderr",
    "compare_runs", "compute_metrics", "diff_runs", "evidence_metrics", "get_protocols", "load_gold", "load_run",
    "parse_fact_key", "run_identity", "save_gold", "score_col", "score_questions", "write_diff", "write_run_report",
]
