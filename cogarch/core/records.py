"""Trial records: one typed, versioned record per episode of one agent on one task.

A record has a header (run, agent, task, trial, seed, status), the run's metadata, the public
``turns`` (the same record type for every task), the SCT's ``branches``, an ``evaluation``
(an optional ``outcome`` plus the task's own metrics), the ``usage`` of the model layer, the
router's ``transitions`` as ``(source, target, count)`` and a ``payload`` tagged by ``kind``
for what only its task reads. ``scoring`` says how generic code tables the outcomes.

Files written before records existed (schema version 1) are read by the loader in
``cogarch.experiments.results``, which migrates them to this schema in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    model_serializer,
)

from .usage import CallRecord, MeteredCall, Usage, usage_totals

SCHEMA_VERSION: Final = 2

Status = Literal["complete", "failed"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TurnFootprint(_Record):
    """What one turn cost in context. Fields are None when the agent does not expose them."""

    turn: int
    memory_tokens: int | None
    """M_t: the prompt tokens of the answering call(s) besides the user's text."""
    responder_prompt_tokens: int | None = None
    prompt_tokens: int | None = None
    """All metered calls of the turn (memory upkeep included)."""
    model_calls: int = 0
    """The metered calls of the turn, response-cache hits included."""
    state_tokens: int | None = None
    """The agent's private state after the turn (``agent.state_sizes``), when it has one."""
    reply_tokens: int = 0


class Turn(_Record):
    """One public exchange: the user's message and the agent's reply."""

    turn: int = Field(ge=1)
    user: str
    reply: str
    private_state: str | None = None
    private_state_tokens: int | None = None
    footprint: TurnFootprint | None = None
    """The memory footprint, for tasks that measure it."""
    extras: dict[str, Any] = Field(default_factory=dict)


class RevealBranch(_Record):
    """The fork asked to reveal its secret."""

    kind: Literal["reveal"] = "reveal"
    prompt: str
    reply: str
    parsed: str | None
    """The revealed secret, None when the reply named none."""
    private_state: str | None = None


class CandidateBranch(_Record):
    """The fork asked whether one candidate is its secret."""

    kind: Literal["candidate"] = "candidate"
    candidate: str
    prompt: str
    reply: str
    answer: Literal["yes", "no"] | None
    parsed: bool
    private_state: str | None = None


Branch = Annotated[RevealBranch | CandidateBranch, Field(discriminator="kind")]


class Evaluation(BaseModel):
    """The task's verdict: an ``outcome`` class when it classifies trials, plus its metrics.

    The metrics are the task's own named values, kept as the task wrote them (so the JSON of
    an evaluation is the flat mapping ``{"outcome": ..., **metrics}``).
    """

    model_config = ConfigDict(extra="allow")

    outcome: str | None = None

    @property
    def metrics(self) -> dict[str, Any]:
        return dict(self.model_extra or {})

    @model_serializer(mode="wrap")
    def _flat(self, handler: Any) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("outcome") is None:
            data.pop("outcome", None)
        return data


class Scoring(_Record):
    """How a task's outcomes are tabled, declared by the task (not guessed from its keys)."""

    classes: tuple[str, ...] = ()
    """The outcome classes the task sorts every trial into, in table order; empty when the
    task measures rather than classifies (its metrics are tabled instead)."""
    success: str | None = None
    """The outcome that counts as a success (the success rate and its interval), if any."""
    totals: tuple[str, ...] = ()
    """Evaluation metrics that are counts per trial and are reported summed over an agent's
    trials, side by side for every agent (as the TME paper's tables report them)."""

    @property
    def classifies(self) -> bool:
        return bool(self.classes)

    def succeeded(self, outcome: str | None) -> bool | None:
        if self.success is None or outcome is None:
            return None
        return outcome == self.success


class Transition(_Record):
    """How often the router moved from ``source`` to ``target`` in the trial."""

    source: str
    target: str
    count: int = Field(ge=0)


class WalkStep(_Record):
    """One specialist step of the agent's walk through its transition graph in one turn."""

    turn: int
    step: int = Field(ge=1)
    node: str
    source: str
    """The node the router came from (``<input>`` for the turn's entry step)."""
    how: str
    """How the edge was chosen: entry, single, condition, model, fallback or budget."""
    model_calls: int = 0
    """The step's metered calls, response-cache hits included (with their original tokens)."""
    tokens: int = 0
    elapsed_s: float = 0.0


def transitions_from(counts: Mapping[tuple[str, str], int]) -> list[Transition]:
    """``{(source, target): n}`` as sorted transition records."""
    return [Transition(source=a, target=b, count=n) for (a, b), n in sorted(counts.items())]


class SCTAnswer(_Record):
    candidate: str
    answer: Literal["yes", "no"] | None
    parsed: bool


class SCTPayload(_Record):
    """The Self-Consistency Test's own record: the fork and what the branches were asked."""

    kind: Literal["sct"] = "sct"
    t_fork: int
    snapshot: str | None
    memory_secret: str | None
    revealed: str | None
    candidates: list[str]
    candidate_sources: dict[str, str]
    rejected_proposals: list[dict[str, Any]]
    shortfall: int
    answers: list[SCTAnswer]
    public_state: dict[str, Any]
    leak_turns: list[int] = Field(default_factory=list)
    """Turns whose public reply named the revealed secret."""
    proposer: str | None = None
    """``provider/model`` that would propose candidates when the set ran short."""
    proposer_is_agent: bool | None = None
    """Whether that proposer is the agent's own provider (the paper used a separate model)."""
    warnings: list[str] = Field(default_factory=list)

    @property
    def leaked(self) -> bool:
        return bool(self.leak_turns)

    def _rate(self, hits: Iterable[bool]) -> float | None:
        return sum(hits) / len(self.answers) if self.answers else None

    @property
    def yes_rate(self) -> float | None:
        return self._rate(a.answer == "yes" for a in self.answers)

    @property
    def parsed_rate(self) -> float | None:
        return self._rate(a.parsed for a in self.answers)


class RevisionPayload(_Record):
    """A revision scenario's round checks (the task's ``RevisionResult``, as JSON)."""

    kind: Literal["revision"] = "revision"
    revision: dict[str, Any]
    final_private_state: str | None = None


class ConstraintsPayload(_Record):
    """A constraint scenario's judged turns (the task's ``ConstraintResult``, as JSON)."""

    kind: Literal["constraints"] = "constraints"
    constraints: dict[str, Any]
    final_private_state: str | None = None


class LocomoAnswer(_Record):
    """One LoCoMo question asked on a fork of the agent made after the last session."""

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


class LocomoPayload(_Record):
    """A LoCoMo conversation: what was ingested, at what cost, and every answer."""

    kind: Literal["locomo"] = "locomo"
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


class OtherPayload(_Record):
    """Whatever else a task records, under names of its choosing."""

    kind: Literal["other"] = "other"
    data: dict[str, Any] = Field(default_factory=dict)


Payload = Annotated[
    SCTPayload | RevisionPayload | ConstraintsPayload | LocomoPayload | OtherPayload,
    Field(discriminator="kind"),
]


class TrialOutput(_Record):
    """What a task returns from one trial; the runner adds the header, metadata and usage."""

    turns: list[Turn] = Field(default_factory=list)
    branches: list[Branch] = Field(default_factory=list)
    evaluation: Evaluation = Field(default_factory=Evaluation)
    transitions: list[Transition] = Field(default_factory=list)
    payload: Payload = Field(default_factory=OtherPayload)


class TrialMetadata(BaseModel):
    """How the trial was run: the run config and its hash, versions, the agent and provider."""

    model_config = ConfigDict(extra="allow")

    config: dict[str, Any] | None = None
    config_hash: str | None = None
    versions: dict[str, str] = Field(default_factory=dict)
    seed_rule: str | None = None
    agent_spec: dict[str, Any] | None = None
    provider: str | None = None
    provider_settings: dict[str, Any] | None = None
    started_at: str | None = None
    duration_s: float | None = None


class TrialError(_Record):
    type: str
    message: str
    traceback: str = ""


class TrialRecord(_Record):
    """One episode of one agent on one task with one seed."""

    schema_version: Literal[2] = SCHEMA_VERSION
    status: Status
    run: str
    agent: str
    task: str
    trial: int = Field(ge=0)
    seed: int
    metadata: TrialMetadata = Field(default_factory=TrialMetadata)
    scoring: Scoring = Field(default_factory=Scoring)
    turns: list[Turn] = Field(default_factory=list)
    branches: list[Branch] = Field(default_factory=list)
    evaluation: Evaluation = Field(default_factory=Evaluation)
    transitions: list[Transition] = Field(default_factory=list)
    payload: Payload = Field(default_factory=OtherPayload)
    usage: Usage = Field(default_factory=Usage)
    walk: list[WalkStep] = Field(default_factory=list)
    """The agent's steps through its graph before any fork, turn by turn (empty for agents
    without a graph and for files written before it was recorded)."""
    error: TrialError | None = None

    @property
    def succeeded(self) -> bool | None:
        """Whether the trial reached the task's success outcome (None: not rated)."""
        if self.status != "complete":
            return None
        return self.scoring.succeeded(self.evaluation.outcome)


__all__ = [
    "SCHEMA_VERSION",
    "Branch",
    "CallRecord",
    "CandidateBranch",
    "ConstraintsPayload",
    "Evaluation",
    "LocomoAnswer",
    "LocomoPayload",
    "MeteredCall",
    "OtherPayload",
    "Payload",
    "RevealBranch",
    "RevisionPayload",
    "SCTAnswer",
    "SCTPayload",
    "Scoring",
    "Status",
    "Transition",
    "TrialError",
    "TrialMetadata",
    "TrialOutput",
    "TrialRecord",
    "Turn",
    "TurnFootprint",
    "Usage",
    "WalkStep",
    "transitions_from",
    "usage_totals",
]
