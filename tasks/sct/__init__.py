"""The task-agnostic Self-Consistency Test engine, its parsers and its evaluator."""

from .engine import SCTGame, SCTParams, SCTTask
from .evaluator import OUTCOMES, Answer, Outcome, classify, evaluate
from .parsing import mentions_word, parse_reveal_word, parse_yes_no
from .secrets import extract_last_secret, summarize_secret_history

__all__ = [
    "OUTCOMES",
    "Answer",
    "Outcome",
    "SCTGame",
    "SCTParams",
    "SCTTask",
    "classify",
    "evaluate",
    "extract_last_secret",
    "mentions_word",
    "parse_reveal_word",
    "parse_yes_no",
    "summarize_secret_history",
]
