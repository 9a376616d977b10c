"""The LoCoMo task's own record types: its payload (every answer), its evaluation and the
host it needs."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.evaluation import Evaluation
from cogarch.core.host import (
    DialogueTrimming,
    Forking,
    Host,
    Observing,
    PrivateState,
    ReplyReporting,
    StateSaving,
)
from cogarch.core.payload import TaskPayload


class LocomoHost(
    Host, Observing, PrivateState, ReplyReporting, Forking, StateSaving, DialogueTrimming, Protocol
):
    """What LoCoMo asks of an agent: take a conversation in without replying, answer on
    forks (with a trimmed public history), say what each answer's prompt carried and what
    memory retrieved, and save and load its state between sessions."""


class LocomoAnswer(BaseModel):
    """One LoCoMo question asked on a fork of the agent made after the last session."""

    model_config = ConfigDict(extra="forbid")

    question: str
    category: int
    gold: str
    prediction: str
    f1: float
    """The official score (token F1, or 0/1 for adversarial questions)."""
    judge: bool | None = None
    """The LLM judge's verdict, when one was asked."""
    evidence: list[str] = Field(default_factory=list)
    retrieved_ids: list[str] = Field(default_factory=list)
    """Dialog ids of the retrieved entries, in rank order (empty without retrieval memory)."""
    search: list[dict[str, Any]] | None = Field(default=None, exclude_if=lambda v: v is None)
    """How each retrieved entry was found, in rank order, for a lexical or hybrid search: its
    module, id, dialog ids, score, and rank and score by the dense and the lexical search
    (see ``cogarch.memory.retrieval.search``); left out of the file for a dense search."""
    recall: dict[str, float] | None = None
    """Evidence recall of the top 1, 5 and 10 retrieved entries (keys ``"1"``, ``"5"``,
    ``"10"``); None when the agent retrieves nothing."""
    prompt_tokens: int = 0
    """Prompt tokens of the metered calls that answered it (response-cache hits included)."""
    memory_tokens: int | None = None
    """The memory the answering prompt carried, in tokens: the transcript kept, the retrieved
    block, the rendered state (the agent's memory footprint); None when the agent does not
    say."""
    latency_s: float = 0.0


class LocomoPayload(TaskPayload):
    """A LoCoMo conversation: what was ingested, at what cost, and every answer."""

    kind: Literal["locomo"] = "locomo"
    version: int = 1
    sample_id: str
    sessions: list[int]
    turns_ingested: int
    ingest: dict[str, float] = Field(default_factory=dict)
    """Model calls (response-cache hits included), prompt and completion tokens and seconds of
    the ingestion."""
    memory_tokens: int
    """The agent's private state after ingestion, in tokens (0 for a full-context agent, whose
    memory is the public transcript: see each answer's ``memory_tokens``)."""
    answers: list[LocomoAnswer] = Field(default_factory=list)
    resumed: bool = False
    """Whether the trial went on from a snapshot an interrupted run left."""


class LocomoEvaluation(Evaluation):
    """Per-category and overall F1 (and the judge's accuracy J), evidence recall@k, tokens,
    latency and the ingestion cost per turn (see ``task.evaluate``).

    Attributes:
        outcome: Always None: the task measures scores, it does not sort trials into classes.
    """

    conversation: str | None = None
    """The sample id of the conversation played."""
    questions: int | None = None
    """Questions asked."""
    f1: dict[str, float | None] = Field(default_factory=dict)
    """The mean official score (token F1, or 0/1 for an adversarial question), from 0 to 1,
    per category asked (``multi_hop``, ``temporal``, ``open_domain``, ``single_hop``,
    ``adversarial``) and ``overall`` (None when no question was asked)."""
    judge: dict[str, float | None] | None = None
    """J per category and overall, when the judge was asked."""
    recall: dict[str, float | None] | None = None
    """Mean evidence recall at 1, 5 and 10 (``at1`` ...), for agents that retrieve."""
    prompt_tokens_per_question: float | None = None
    """Mean prompt tokens of the calls that answered a question (response-cache hits
    included); None when no question was asked."""
    memory_tokens_per_question: float | None = None
    """Mean memory the answering prompts carried, in tokens (the transcript kept, the
    retrieved block, the rendered state); None when the agent does not say."""
    latency_p50_s: float | None = None
    """Median seconds (wall clock) an answer took; None when no question was asked."""
    latency_p95_s: float | None = None
    """95th percentile of the seconds an answer took; None when no question was asked."""
    memory_tokens: int | None = None
    """The agent's private state after ingestion, in tokens (0 for a full-context agent, whose
    memory is the public transcript)."""
    ingest: dict[str, float] = Field(default_factory=dict)
    """The ingestion's cost per ingested turn: ``calls_per_turn`` (model calls, response-cache
    hits included), ``tokens_per_turn`` (prompt and completion) and ``seconds_per_turn``."""
