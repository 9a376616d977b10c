"""Trial records: one typed, versioned record per trial (one agent on one task, one seed).

A record is an envelope every task shares: a header (run, agent, task, trial, seed, status),
the run's metadata, the public ``turns``, the ``branches`` of any fork, an ``evaluation`` (an
optional ``outcome`` plus the task's typed measures), the ``usage`` of the model layer, the
router's ``transitions`` as ``(source, target, count)``, the agent's ``walk`` and an ``error``.
What only its task reads is the ``payload``, tagged by ``kind`` and versioned. ``scoring``
says how generic code tables the outcomes.

The task owns the classes of its parts (see ``Task.record_types``): its payload, its
evaluation and its branches. A loader that knows them reads a file with
:meth:`TrialRecord.read`; without them (a task that cannot be imported here) every part loads
as generic data (:class:`~cogarch.core.payload.GenericPayload`, the base
:class:`~cogarch.core.evaluation.Evaluation` and :class:`Branch`, each keeping all its values).

Files written before records existed (schema version 1) are read by the loader in
``cogarch.experiments.results.trial_files``, which migrates them to this schema in memory.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from .controls import ControlRole
from .evaluation import Evaluation
from .payload import GenericPayload, Payload, PayloadRegistry
from .settings import TrialSettings
from .usage import TrialUsage

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
    """The agent's private state after the turn, when it has one."""
    reply_tokens: int = 0


class Turn(_Record):
    """One public exchange: the user's message and the agent's reply."""

    turn: int = Field(ge=1)
    """The exchange's number, from 1."""
    user: str
    """The user's message."""
    reply: str
    """The agent's public reply."""
    private_state: str | None = None
    """The agent's private state after the reply, when it has one."""
    private_state_tokens: int | None = None
    """The private state's size in tokens."""
    footprint: TurnFootprint | None = None
    """The memory footprint, for tasks that measure it."""
    extras: dict[str, Any] = Field(default_factory=dict)
    """Whatever else the task records about the exchange (JSON values)."""


class Branch(BaseModel):
    """One fork of the agent asked one prompt. A task subclasses it with what it reads from
    the reply (its ``kind`` tag narrowed) and says how to show it (the ``branch_`` methods);
    values beyond these fields are kept as data."""

    model_config = ConfigDict(extra="allow")

    kind: str
    """What the branch asked, as a tag (a task narrows it to its own kinds)."""
    prompt: str
    """The prompt the fork was asked."""
    reply: str
    """The fork's public reply."""
    private_state: str | None = None
    """The fork's private state after replying, when the agent has one."""

    def branch_title(self, record: TrialRecord) -> str:
        """What the branch of ``record`` was asked, in a few words."""
        return self.kind

    def branch_verdict(self, record: TrialRecord) -> str:
        """What the task read from the reply, in a few words ("" when nothing)."""
        return ""

    def branch_confirmed(self) -> bool:
        """Whether the reply affirmed what it was asked (highlighted where shown)."""
        return False


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


class TransitionCount(_Record):
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
    """The node the router came from (``<input>`` for the turn's entry step, unless the walk
    resumes there from the node that ended the previous turn)."""
    how: str
    """How the edge was chosen: entry, resume, single, condition, model, fallback or budget."""
    model_calls: int = 0
    """The step's metered calls, response-cache hits included (with their original tokens)."""
    tokens: int = 0
    elapsed_s: float = 0.0


def transitions_from(counts: Mapping[tuple[str, str], int]) -> list[TransitionCount]:
    """``{(source, target): n}`` as sorted transition records."""
    return [TransitionCount(source=a, target=b, count=n) for (a, b), n in sorted(counts.items())]


class TrialError(_Record):
    type: str
    message: str
    traceback: str = ""

    @classmethod
    def of(cls, exc: BaseException) -> TrialError:
        """The error ``exc`` (being handled) as a record, with its traceback."""
        try:
            message = str(exc)
        except Exception:  # an error of the task's own whose text cannot be made
            message = f"<{type(exc).__name__} whose message cannot be shown>"
        try:
            text = "".join(traceback.format_exception(exc))
        except Exception:
            text = ""
        if isinstance(exc, SystemExit):
            message = f"the task's code called sys.exit({exc.code!r}); a trial must not exit"
        return cls(type=type(exc).__name__, message=message, traceback=text)


@dataclass(frozen=True)
class RecordTypes:
    """The classes a task reads its record's parts into (``Task.record_types``)."""

    payloads: PayloadRegistry = field(default_factory=PayloadRegistry)
    evaluation: type[Evaluation] = Evaluation
    branch: Any = Branch
    """A :class:`Branch` subclass, or an annotated union of them tagged by ``kind``."""
    _branches: TypeAdapter[Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_branches", TypeAdapter(self.branch))

    def read_evaluation(self, data: Any, complete: bool) -> Any:
        """A complete trial's evaluation as the task's class; one it cannot read (a file of
        an older shape), and a failed trial's, as the base class with every value kept."""
        if not isinstance(data, Mapping) or not complete or self.evaluation is Evaluation:
            return data
        try:
            return self.evaluation.model_validate(data)
        except ValidationError:
            return Evaluation.model_validate(data)

    def read_branch(self, data: Any) -> Any:
        if not isinstance(data, Mapping) or self.branch is Branch:
            return data
        try:
            return self._branches.validate_python(data)
        except ValidationError:
            return Branch.model_validate(data)


GENERIC: Final = RecordTypes()
"""Every part read as generic data."""


def _types(info: ValidationInfo) -> RecordTypes:
    found = info.context.get("record_types") if isinstance(info.context, Mapping) else None
    return found if isinstance(found, RecordTypes) else GENERIC


class _Parts(_Record):
    """The validation of the parts a task owns, shared by outputs and records."""

    @field_validator("branches", mode="before", check_fields=False)
    @classmethod
    def _read_branches(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, list):
            return value
        types = _types(info)
        return [types.read_branch(item) for item in value]

    @field_validator("evaluation", mode="before", check_fields=False)
    @classmethod
    def _read_evaluation(cls, value: Any, info: ValidationInfo) -> Any:
        return _types(info).read_evaluation(
            value, info.data.get("status", "complete") == "complete"
        )

    @field_validator("payload", mode="before", check_fields=False)
    @classmethod
    def _read_payload(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, Mapping):
            return value
        try:
            return _types(info).payloads.read(value)
        except ValidationError as exc:
            kind = value.get("kind")
            raise ValueError(f"the payload is not a valid '{kind}' payload: {exc}") from None


class TrialOutput(_Parts):
    """Everything a task's trial produced; the runner adds the header and the metadata.

    A task's ``run_trial`` fills the first five; ``Task.play`` adds the agent's ``walk`` (when
    the task left it empty), the trial's ``usage`` and the ``error`` that stopped it."""

    turns: list[Turn] = Field(default_factory=list)
    """The public exchanges, in order."""
    branches: list[SerializeAsAny[Branch]] = Field(default_factory=list)
    """The forks of the agent and what each was asked and answered."""
    evaluation: SerializeAsAny[Evaluation] = Field(default_factory=Evaluation)
    """The outcome class and the task's measures."""
    transitions: list[TransitionCount] = Field(default_factory=list)
    """The router's transitions, for tasks that count them themselves."""
    payload: SerializeAsAny[Payload] = Field(default_factory=GenericPayload)
    """The task's own data of the trial (its ``Payload`` class)."""
    walk: list[WalkStep] = Field(default_factory=list)
    """The agent's steps through its graph before any fork, turn by turn."""
    usage: TrialUsage = Field(default_factory=TrialUsage)
    """The model calls the trial consumed and their tokens."""
    error: TrialError | None = None
    """What stopped the trial, if it failed."""


class TrialMetadata(BaseModel):
    """How the trial was run: the run config and its hash, versions, the agent and provider."""

    model_config = ConfigDict(extra="allow")

    config: dict[str, Any] | None = None
    config_hash: str | None = None
    versions: dict[str, str] = Field(default_factory=dict)
    seed_rule: str | None = None
    task_source: str | None = None
    """Where the task class was loaded from (an import path, or a file path ``file.py:Name``
    made absolute), when the config named it by path; readers load its record types from
    there."""
    agent_spec: dict[str, Any] | None = None
    provider: str | None = None
    provider_settings: dict[str, Any] | None = None
    control: ControlRole | None = Field(default=None, exclude_if=lambda v: v is None)
    """The control role the agent played (``cogarch.core.controls``); None, and left out of
    the file, for an agent under comparison."""
    settings: TrialSettings | None = Field(default=None, exclude_if=lambda v: v is None)
    """Its reader, judge and retrieval budget (None in files written before they were)."""
    started_at: str | None = None
    duration_s: float | None = None


class TrialRecord(_Parts):
    """One trial: one agent on one task with one seed. (A trial may play several episodes,
    games, in a row; an episode is never a whole trial.)"""

    schema_version: Literal[2] = SCHEMA_VERSION
    """The trial file format's version."""
    status: Status
    """``complete``, or ``failed`` when the trial raised (``error`` says what)."""
    run: str
    """The run's name."""
    agent: str
    """The agent's name in the run."""
    task: str
    """The task's kind."""
    trial: int = Field(ge=0)
    """The trial's index in the run, from 0."""
    seed: int
    """The trial's seed."""
    metadata: TrialMetadata = Field(default_factory=TrialMetadata)
    """How the trial was run: the config, versions, the agent and its provider."""
    scoring: Scoring = Field(default_factory=Scoring)
    """How the task tables its outcomes."""
    turns: list[Turn] = Field(default_factory=list)
    """The public exchanges, in order."""
    branches: list[SerializeAsAny[Branch]] = Field(default_factory=list)
    """The forks of the agent and what each was asked and answered."""
    evaluation: SerializeAsAny[Evaluation] = Field(default_factory=Evaluation)
    """The outcome class and the task's measures."""
    transitions: list[TransitionCount] = Field(default_factory=list)
    """The router's transitions, for tasks that count them themselves."""
    payload: SerializeAsAny[Payload] = Field(default_factory=GenericPayload)
    """The task's own data of the trial (its ``Payload`` class)."""
    usage: TrialUsage = Field(default_factory=TrialUsage)
    """The model calls the trial consumed and their tokens."""
    walk: list[WalkStep] = Field(default_factory=list)
    """The agent's steps through its graph before any fork, turn by turn (empty for agents
    without a graph and for files written before it was recorded)."""
    error: TrialError | None = None
    """What stopped the trial, if it failed."""

    @classmethod
    def read(cls, data: Any, types: RecordTypes | None = None) -> TrialRecord:
        """A record from its JSON data, its parts read into ``types`` (a task's; generic
        data without)."""
        return cls.model_validate(data, context={"record_types": types or GENERIC})

    @classmethod
    def of(
        cls, output: TrialOutput, *, metadata: TrialMetadata, scoring: Scoring, **header: Any
    ) -> TrialRecord:
        """The record of one played trial: ``header`` (run, agent, task, trial, seed) and
        its output; failed when the output carries an error."""
        status: Status = "failed" if output.error is not None else "complete"
        parts = {name: getattr(output, name) for name in TrialOutput.model_fields}
        return cls(status=status, metadata=metadata, scoring=scoring, **header, **parts)

    @property
    def succeeded(self) -> bool | None:
        """Whether the trial reached the task's success outcome (None: not rated)."""
        if self.status != "complete":
            return None
        return self.scoring.succeeded(self.evaluation.outcome)
