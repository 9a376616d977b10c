"""The task interface: one trial of one agent with one seed, returned as one typed output.

A task is a class with a ``kind`` (its short name in the task registry), a ``Params`` model,
its ``scoring``, and the classes of its record's parts: its ``Payload`` (a
:class:`~cogarch.core.payload.TaskPayload` subclass), its ``Evaluation`` (an
:class:`~cogarch.core.evaluation.Evaluation` subclass) and, when it forks the agent, its
``Branch`` type. It may also show its trials its own way, as plain data
(:mod:`cogarch.core.views`): tables for the report, sections for a trial's page, and
columns for the tidy export. None of it needs a change anywhere else: the runner, the
reports and the viewer read a task's records through these declarations.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from cogarch.errors import ConfigError

from .controls import ControlAgent, ControlRole
from .evaluation import Evaluation as BaseEvaluation
from .evaluation import Scalar
from .host import AgentHost
from .judge_audit import AuditedJudge
from .leaderboard import LeaderboardMetric
from .payload import PayloadRegistry, TaskPayload
from .records import Branch as BaseBranch
from .records import RecordTypes, Scoring, TrialError, TrialOutput, TrialRecord
from .usage import TrialUsage, UsageMeter
from .views import Section, Table


@dataclass
class TrialContext:
    """What a task needs to play one trial: its agent, the seed, and models by name."""

    agent_name: str
    """The name of the agent under test, as the run config gives it."""
    trial: int
    """The trial's index in the run, from 0."""
    seed: int
    """The trial's seed (every agent of the run gets the same one for this index)."""
    agent_factory: Callable[[], AgentHost]
    """Builds a fresh agent under test (see :meth:`make_agent`)."""
    models: Callable[[str], Any]
    """The model of a provider, by provider name (``cogarch.models.model.Model``)."""
    helper_provider: str | None
    """Provider for the task's own model calls (candidate top-up, judge), if any."""
    state_dir: Path | None = None
    """A directory of this trial's own under the results directory, where a long task may keep
    what it needs to go on after an interruption; None when the run keeps no results."""
    agent_provider: str | None = None
    """The provider of the agent under test (to tell a helper that is the agent's own)."""
    peers: tuple[str, ...] = ()
    """The agents of the run, each of which plays this same trial index (this one included)."""
    meter: UsageMeter | None = None
    """Collects the trial's model calls while :meth:`Task.play` runs it."""
    control: ControlRole | None = None
    """The control role the agent under test plays, if it is a control; the task gives an
    ``oracle`` only the evidence it knows."""
    agent: AgentHost | None = field(default=None, init=False)
    """The agent under test: the first one :meth:`make_agent` built (its walk is the
    trial's)."""

    def make_agent(self) -> AgentHost:
        """A fresh agent under test; the first one made is the trial's :attr:`agent`."""
        built = self.agent_factory()
        if self.agent is None:
            self.agent = built
        return built


@dataclass(frozen=True)
class JointContext:
    """What a pass over the trials of one trial index may use: models and the helper."""

    models: Callable[[str], Any]
    helper_provider: str | None


def is_untrusted_stop(exc: BaseException) -> bool:
    """Whether ``exc``, leaving a task's code, is the task's own doing to record as a failed
    trial (``sys.exit()``, a ``BaseException`` of its own, a ``CancelledError`` no one asked
    for) rather than the run being stopped (Ctrl-C, the run cancelling its trials)."""
    if isinstance(exc, KeyboardInterrupt):
        return False
    if isinstance(exc, asyncio.CancelledError):
        current = asyncio.current_task()
        return current is not None and current.cancelling() == 0
    return True


def checked_output(output: object, task: type, hook: str) -> TrialOutput:
    """``output`` when it is a :class:`TrialOutput`, else a ``TypeError`` naming the task."""
    if not isinstance(output, TrialOutput):
        raise TypeError(
            f"{task.__name__}.{hook} returned {type(output).__name__} ({output!r:.100}), not "
            "a TrialOutput; return TrialOutput(turns=..., evaluation=..., payload=...)"
        )
    return output


class Task(ABC):
    """A task plays trials; the runner wraps each output into a trial record.

    A subclass names its ``kind``, its ``Params`` model and its ``scoring``: the outcome
    classes it sorts trials into (none when it only measures) and which outcome counts as a
    success. It declares the classes of its record's parts (``Payload``, ``Evaluation``,
    ``Branch``) and may declare ``fakes``: scripted stand-ins for a model, by the name a
    ``kind: fake`` provider of a run gives (``fake: guess.bisect``). Its presentation hooks
    (``report_tables``, ``trial_sections``, ``tidy_columns``) are class methods: reports and
    pages call them on records alone, without the run's parameters.

    Args:
        params: The task's parameters, an instance of its ``Params``.
    """

    kind: ClassVar[str]
    Params: ClassVar[type[BaseModel]]
    scoring: ClassVar[Scoring] = Scoring()
    Payload: ClassVar[type[TaskPayload] | None] = None
    """The task's own payload class (None: the task records no payload)."""
    Evaluation: ClassVar[type[BaseEvaluation]] = BaseEvaluation
    Branch: ClassVar[Any] = BaseBranch
    """The branches' class, or an annotated union of classes tagged by ``kind``."""
    fakes: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    """Scripted models by name, each ``(pairs, seed, call) -> reply`` (see
    ``cogarch.models.fakes.PairsFn``), offered to the run's ``kind: fake`` providers."""
    helper_role: ClassVar[str | None] = None
    """What the task asks of its helper model, when it asks the agent's provider by default."""
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = ()
    """What a suite's leaderboard ranks agents by on this task, the main metric first (see
    :mod:`cogarch.core.leaderboard`); empty: the rate of ``scoring.success``, if declared."""
    clusters: ClassVar[str | None] = None
    """What makes items of the leaderboard's metrics hang together: the dotted path of a field
    of the trial's payload (or of each item) naming the item's cluster, filled into every
    metric that declares none; None: each trial is a cluster."""
    controls: ClassVar[Mapping[ControlRole, ControlAgent]] = {}
    """The task's control agents by role (see :mod:`cogarch.core.controls`), added to a run
    or a suite by ``controls: true``; a task declaring ``oracle`` gives that agent only the
    evidence (``TrialContext.control``)."""

    def __init__(self, params: BaseModel) -> None:
        self.params = params

    def plan(self) -> list[str]:
        """What one trial plays, as lines for a dry run (``cogarch run --dry-run``); by
        default the task's parameters."""
        return [f"{k}: {v}" for k, v in self.params.model_dump(mode="json").items()]

    def data_item(self, trial: int) -> tuple[str, str] | None:
        """The data item trial ``trial`` is drawn from, as ``(name, SHA-256 of its content)``
        (a LongMemEval question: its id and the digest of the question itself); None, by
        default, for a task that draws from no data file. A trial file records it, and a
        resume plays again a trial whose item has changed since."""
        return None

    def episodes_per_trial(self) -> int | None:
        """The episodes (games) one trial plays, when it plays several; None by default."""
        return None

    def actions_per_episode(self) -> int | None:
        """The most actions an episode allows, for a task with a step limit; None by
        default."""
        return None

    @classmethod
    def record_types(cls) -> RecordTypes:
        """The classes this task's records are read into."""
        payloads = PayloadRegistry(*([cls.Payload] if cls.Payload is not None else []))
        return RecordTypes(payloads=payloads, evaluation=cls.Evaluation, branch=cls.Branch)

    @classmethod
    def leaderboard_metrics(cls) -> tuple[LeaderboardMetric, ...]:
        """The declared ``leaderboard``, or else the success rate of ``scoring.success``
        (Wilson interval over rated trials), or else none; each with the task's ``clusters``
        where it declares no cluster of its own."""
        if cls.leaderboard:
            declared = cls.leaderboard
        elif cls.scoring.success is None:
            return ()
        else:
            declared = (
                LeaderboardMetric(
                    name="success_rate",
                    value="outcome",
                    equals=cls.scoring.success,
                    interval="wilson",
                    description=f"share of rated trials whose outcome is {cls.scoring.success}",
                ),
            )
        if cls.clusters is None:
            return declared
        return tuple(
            m if m.cluster is not None else m.model_copy(update={"cluster": cls.clusters})
            for m in declared
        )

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        """The task's own tables for the report of a run (its records of every agent, complete
        and failed); none by default."""
        return []

    @classmethod
    def trial_sections(cls, record: TrialRecord) -> list[Section]:
        """The task's own sections of one trial's page; none by default."""
        return []

    @classmethod
    def tidy_columns(cls, record: TrialRecord) -> dict[str, Scalar]:
        """The task's own columns of one trial's row in the tidy export; none by default."""
        return {}

    @classmethod
    def context_tokens(cls, record: TrialRecord) -> list[int]:
        """The prompt tokens the reader was shown to answer each question of one trial, in
        the order asked (a cell's context tokens per question); none by default."""
        return []

    @property
    def needs_helper(self) -> bool:
        """True when the task's own calls judge the agent (as its params set it up): such a
        task needs a helper provider of its own, and a run without one is refused (it never
        borrows the agent's provider)."""
        return False

    def audited_judge(self) -> AuditedJudge | None:
        """The judge behind the task's judged metric, as its params set it up, for the judge
        audit (``--audit-judge``); None when the task judges no answer against a gold one."""
        return None

    def judge_provider(self, ctx: TrialContext | JointContext) -> str:
        """The run's helper provider, which judges for a task that needs one."""
        if ctx.helper_provider is None:
            raise ConfigError(
                f"the {self.kind} task needs a judge model of its own: set "
                "'helper_provider: NAME' in the run config (the provider the task uses for "
                "its own calls)"
            )
        return ctx.helper_provider

    @abstractmethod
    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        """Play one trial: make the agent (``ctx.make_agent()``), talk to it, evaluate."""

    async def play(self, ctx: TrialContext) -> TrialOutput:
        """Play one trial and return all of it as one value: what :meth:`run_trial` returned,
        with the agent's walk (unless the task gave one), the usage of every model call the
        trial made, and the error that stopped it (a failed trial keeps its walk and usage)."""
        output, error = TrialOutput(), None
        try:
            with ctx.meter.active() if ctx.meter is not None else nullcontext():
                output = checked_output(await self.run_trial(ctx), type(self), "run_trial")
        except Exception as exc:  # a failed trial is recorded and the run goes on
            error = TrialError.of(exc)
        except BaseException as exc:  # sys.exit() and the like in task code: a failed trial
            if not is_untrusted_stop(exc):
                raise
            error = TrialError.of(exc)
        walk = output.walk or (ctx.agent.walk() if ctx.agent is not None else [])
        usage = ctx.meter.usage() if ctx.meter is not None else TrialUsage()
        return output.model_copy(update={"walk": walk, "usage": usage, "error": error})

    async def judge_jointly(
        self, group: Sequence[TrialRecord], ctx: JointContext
    ) -> list[TrialRecord]:
        """A pass over the complete trials of one trial index (one per agent), run by the
        driver after every trial of the run has been played, for what needs the replies of
        all agents at once (cross-agent judging). Returns the records it changed, which the
        runner writes back atomically; the default changes none. Trials stay independent
        records: a pass only fills in what their own files leave pending."""
        return []
