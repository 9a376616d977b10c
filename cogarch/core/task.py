"""The task interface: one trial of one agent with one seed, returned as a typed output."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from cogarch.errors import ConfigError

from .player import ForkableHost
from .records import Scoring, TrialOutput, TrialRecord


@dataclass(frozen=True)
class TrialContext:
    """What a task needs to play one trial: a fresh agent, the seed, and models by name."""

    agent_name: str
    trial: int
    seed: int
    make_agent: Callable[[], ForkableHost]
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


@dataclass(frozen=True)
class JointContext:
    """What a pass over the trials of one trial index may use: models and the helper."""

    models: Callable[[str], Any]
    helper_provider: str | None


class Task(ABC):
    """A task plays trials; the runner wraps each output into a trial record.

    A subclass names its ``kind`` (its short name in the task registry), its ``Params``
    model, and its ``scoring``: the outcome classes it sorts trials into (none when it only
    measures) and which outcome counts as a success.
    """

    kind: ClassVar[str]
    Params: ClassVar[type[BaseModel]]
    scoring: ClassVar[Scoring] = Scoring()
    helper_role: ClassVar[str | None] = None
    """What the task asks of its helper model, when it asks the agent's provider by default."""

    def __init__(self, params: BaseModel) -> None:
        self.params = params

    @property
    def needs_helper(self) -> bool:
        """True when the task's own calls judge the agent (as its params set it up): such a
        task needs a helper provider of its own, and a run without one is refused (it never
        borrows the agent's provider)."""
        return False

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
    async def run_trial(self, ctx: TrialContext) -> TrialOutput: ...

    async def judge_jointly(
        self, group: Sequence[TrialRecord], ctx: JointContext
    ) -> list[TrialRecord]:
        """A pass over the complete trials of one trial index (one per agent), run by the
        driver after every trial of the run has been played, for what needs the replies of
        all agents at once (cross-agent judging). Returns the records it changed, which the
        runner writes back atomically; the default changes none. Trials stay independent
        records: a pass only fills in what their own files leave pending."""
        return []


__all__ = ["JointContext", "Task", "TrialContext"]
