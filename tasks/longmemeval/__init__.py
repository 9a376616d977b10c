"""LongMemEval: long-term memory of chat assistants (Wu et al., ICLR 2025), read and judged as
its official code reads and judges it."""

from .data import QUESTION_TYPES, LongMemEvalDataError, Question, Session, Turn, load_longmemeval
from .judge import judge_prompt
from .records import LongMemEvalEvaluation, LongMemEvalHost, LongMemEvalPayload

__all__ = [
    "QUESTION_TYPES",
    "LongMemEvalDataError",
    "LongMemEvalEvaluation",
    "LongMemEvalHost",
    "LongMemEvalPayload",
    "Question",
    "Session",
    "Turn",
    "judge_prompt",
    "load_longmemeval",
]
