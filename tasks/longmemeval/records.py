"""The LongMemEval task's own record types: its payload (the one answer of a trial), its
evaluation and the host it needs."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.host import DialogueTrimming, Host, Observing, ReplyReporting, StateSaving
from cogarch.core.payload import TaskPayload


class LongMemEvalHost(Host, Observing, ReplyReporting, StateSaving, DialogueTrimming, Protocol):
    """What LongMemEval asks of an agent: take a haystack in without replying, answer one
    question, say what memory retrieved, and save and load its state (so an ingested memory
    is kept and reused)."""


class LongMemEvalPayload(TaskPayload):
    """One question: what was ingested, the reply, the judge's verdict, and the ranked ids
    the agent's memory retrieved, with what the retrieval metrics need to be recomputed."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["longmemeval"] = "longmemeval"
    version: int = 1
    question_id: str
    question_type: str
    abstention: bool
    question: str
    question_date: str
    gold: str
    hypothesis: str
    """The agent's reply, as the official files call it."""
    verdict: bool | None = None
    """The judge's label (None: not judged)."""
    judge_reply: str | None = None
    judge_model: str | None = None
    haystack: Literal["full", "oracle"] = "full"
    sessions_ingested: int
    turns_ingested: int
    memory_reused: bool = False
    """Whether the ingested memory came from the memory cache (no ingestion paid)."""
    ingest: dict[str, float] = Field(default_factory=dict)
    ranked: list[list[str]] | None = None
    """The turn ids of each entry the agent's memory retrieved for the reader, in rank order
    (None: the agent retrieves nothing)."""
    ranking: list[list[str]] | None = None
    """The turn ids of every entry the memory holds, ranked for the question apart from what
    the reader was shown: what the retrieval metrics read (None: the memory cannot rank its
    whole store, and the metrics read ``ranked``)."""
    ranking_complete: bool | None = None
    """Whether the ranking the metrics read covers all the memory holds (False: only the
    entries the reader was shown, so no metric past their number)."""
    answer_session_ids: list[str] = Field(default_factory=list)
    evidence_turns: list[str] = Field(default_factory=list)
    """Turn ids marked ``has_answer`` (in the haystack played)."""
    session_corpus: list[str] = Field(default_factory=list)
    """The official session-granularity corpus ids (``noans`` renames applied)."""
    turn_corpus: list[str] = Field(default_factory=list)
    """The official turn-granularity corpus ids: the user's turns, ``noans`` renames applied."""
    answer_sessions_by: Literal["id", "answer_session_ids"] = "id"
    """How the evidence sessions were named (see ``corpus``)."""
    retrieval_left_out: Literal["abstention", "no user-side evidence"] | None = None
    """Why the official retrieval means leave this question out (None: they count it)."""
    retrieval: dict[str, dict[str, float]] | None = None
    token_counter: str | None = None
    """The token counter an official reader of the agent's model cuts its history with (its
    own tokenizer where known, else the estimate; see ``memory.retrieval.reader_budget``)."""
    prompt_tokens: int = 0
    memory_tokens: int | None = None
    latency_s: float = 0.0


class LongMemEvalEvaluation(Evaluation):
    """correct / wrong by the judge (None unjudged), the question's type, and the official
    retrieval metrics of a non-abstention question's answer.

    Attributes:
        outcome: ``correct`` or ``wrong`` by the judge; None when the answer was not judged.
    """

    question_type: str | None = None
    """The question's LongMemEval type (``single-session-user``, ``multi-session``,
    ``temporal-reasoning``, ``knowledge-update`` ...)."""
    abstention: bool | None = None
    """Whether it is an abstention question (``_abs`` in its id: the haystack holds no
    answer)."""
    accuracy: float | None = None
    """1.0 when the judge marked the answer correct, 0.0 when wrong; None when not judged."""
    retrieval: dict[str, dict[str, float]] | None = None
    """The official retrieval metrics of the memory's ranking, by level (``session``, and
    ``turn`` for a ranking of single turns), then ``recall_any@k``, ``recall_all@k`` and
    ``ndcg_any@k`` from 0 to 1 (a cut-off only where the ranking decides it); None when the
    agent's memory retrieves nothing or the official means leave the question out (an
    abstention question, or one without user-side evidence)."""

    def final_answer(self) -> str | None:
        return None
