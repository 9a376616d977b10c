"""The generated benchmark's record types: its payload (one question's answer), its
evaluation and the host it needs."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.host import DialogueTrimming, Host, Observing, ReplyReporting, StateSaving
from cogarch.core.payload import TaskPayload

Reading = Literal["memory", "oracle", "none"]


class GenmemHost(Host, Observing, ReplyReporting, StateSaving, DialogueTrimming, Protocol):
    """What the task asks of an agent: take the history in without replying, answer one
    question, say what its memory retrieved, and save and load its state."""


class GenmemPayload(TaskPayload):
    """One question: the reading, the reply and its score, and the evidence ids with the
    ranked ids the agent's memory retrieved (LongMemEval's shape: turn ids
    ``<session>_<index from 1>``, evidence turns are the ones marked ``has_answer``)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["genmem"] = "genmem"
    version: int = 1
    question_id: str
    ability: str
    question_type: str
    abstention: bool
    question: str
    question_date: str
    gold: str
    variants: list[str] = Field(default_factory=list)
    rivals: list[str] = Field(default_factory=list)
    hypothesis: str
    correct: bool
    reading: Reading
    sessions_ingested: int
    turns_ingested: int
    history_tokens: int
    """The offline token estimate of what was ingested."""
    memory_reused: bool = False
    ingest: dict[str, float] = Field(default_factory=dict)
    ranked: list[list[str]] | None = None
    answer_session_ids: list[str] = Field(default_factory=list)
    evidence_turns: list[str] = Field(default_factory=list)
    session_corpus_size: int = 0
    turn_corpus_size: int = 0
    retrieval: dict[str, dict[str, float]] | None = None
    prompt_tokens: int = 0
    """Tokens of every prompt the agent sent to answer: the context a question costs."""
    memory_tokens: int | None = None
    latency_s: float = 0.0


class GenmemEvaluation(Evaluation):
    """correct / wrong by the exact rule, the ability, the answer's context tokens and the
    retrieval metrics of an answerable question.

    Attributes:
        outcome: ``correct`` or ``wrong``, by the exact rule (see
            ``cogarch.tasks.genmem.scoring``).
    """

    ability: str | None = None
    """The ability the question tests: ``extraction``, ``multi_session``, ``update``,
    ``temporal`` or ``abstention``."""
    abstention: bool | None = None
    """Whether the history holds no answer, so the correct reply says it is missing."""
    accuracy: float | None = None
    """1.0 when the reply was correct, else 0.0."""
    answerable_accuracy: float | None = None
    """The accuracy of an answerable question (None for an abstention question)."""
    context_tokens: int | None = None
    """Prompt tokens of every model call the agent made to answer: the context the question
    cost."""
    retrieval: dict[str, dict[str, float]] | None = None
    """LongMemEval's retrieval metrics of the memory's ranking, by level (``session``, and
    ``turn`` for a ranking of single turns), then ``recall_any@k``, ``recall_all@k`` and
    ``ndcg_any@k`` from 0 to 1 (a cut-off only where the ranking decides it); None for an
    abstention question, a reading of ``none`` or an agent whose memory retrieves nothing."""

    def final_answer(self) -> str | None:
        return None
