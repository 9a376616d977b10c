"""What the long-term memory benchmarks (LoCoMo, LongMemEval) share: feeding a dialogue to an
agent and costing it, reading what its memory retrieved, asking the run's judge, the official
retrieval metrics, and the word-overlap reading of the scripted fake readers."""

from .ingest import IngestCost, trim_history
from .judging import judge_model, verdict_is_yes
from .ranking import RANK_CUTOFFS, ranking_metrics, retrieval_scores, turn_to_session_scores
from .retrieved import retrieved_ids, search_details

__all__ = [
    "RANK_CUTOFFS",
    "IngestCost",
    "judge_model",
    "ranking_metrics",
    "retrieval_scores",
    "retrieved_ids",
    "search_details",
    "trim_history",
    "turn_to_session_scores",
    "verdict_is_yes",
]
