"""LoCoMo: long-term conversational memory (Maharana et al., ACL 2024), scored as its
official evaluation code scores it."""

from .data import Conversation, DialogTurn, LocomoDataError, load_locomo
from .records import LocomoAnswer, LocomoEvaluation, LocomoHost, LocomoPayload
from .scoring import evidence_recall, score

__all__ = [
    "Conversation",
    "DialogTurn",
    "LocomoAnswer",
    "LocomoDataError",
    "LocomoEvaluation",
    "LocomoHost",
    "LocomoPayload",
    "evidence_recall",
    "load_locomo",
    "score",
]
