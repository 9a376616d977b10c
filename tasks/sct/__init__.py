"""The task-agnostic Self-Consistency Test engine, its parsers and its evaluator."""

from .engine import EmptyReplyError, Fork, SCTParams, SCTTask, fork_sct, play_to_fork
from .evaluator import OUTCOMES, Answer, Outcome, classify, evaluate
from .game import CandidateSource, SCTGame, SCTJudge, SCTPlayer, SCTRules
from .parsing import mentions_word, parse_reveal_word, parse_yes_no
from .records import (
    CandidateBranch,
    RevealBranch,
    SCTAnswer,
    SCTBranch,
    SCTEvaluation,
    SCTPayload,
)
from .score import PlayedSCT, leak_turns, score
from .secrets import extract_last_secret, summarize_secret_history

__all__ = [
    "OUTCOMES",
    "Answer",
    "CandidateBranch",
    "CandidateSource",
    "EmptyReplyError",
    "Fork",
    "Outcome",
    "PlayedSCT",
    "RevealBranch",
    "SCTAnswer",
    "SCTBranch",
    "SCTEvaluation",
    "SCTGame",
    "SCTJudge",
    "SCTParams",
    "SCTPayload",
    "SCTPlayer",
    "SCTRules",
    "SCTTask",
    "classify",
    "evaluate",
    "extract_last_secret",
    "fork_sct",
    "leak_turns",
    "mentions_word",
    "parse_reveal_word",
    "parse_yes_no",
    "play_to_fork",
    "score",
    "summarize_secret_history",
]
