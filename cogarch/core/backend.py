"""Execution backends: where trials run.

The driver (the runner) submits plain-data trial specs and gets trial records back; only the
driver writes the results directory, so workers need no shared disk. A spec names its run by
the digest of the run config, which a backend ships to each worker once (see ``TrialWorker``
in ``cogarch.experiments.running.worker``): the worker builds the run's providers, task and agent
specs once per run, which is what lets the same spec run in this process, in a pool of
processes or on another machine.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from cogarch.errors import CogarchError

from .records import TrialRecord


class TrialSpec(BaseModel):
    """One trial to run, as plain data: which agent entry, which index and seed, which run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_digest: str
    """The digest of the run config (``RunConfig.digest()``), which names the run."""
    agent: str
    """The label of the agent entry in the run config."""
    index: int = Field(ge=0)
    seed: int
    run_name: str = ""
    """The run's name and its task's kind, as labels (progress lines, trace spans)."""
    task: str = ""


TrialFn = Callable[[TrialSpec], Awaitable[TrialRecord]]
"""The worker side: play one trial spec and return its record (failures recorded in it)."""


class TrialCancelledError(CogarchError):
    """The trial was cancelled before it produced a record."""


class TrialHandle(Protocol):
    """A submitted trial."""

    @property
    def spec(self) -> TrialSpec: ...

    async def record(self) -> TrialRecord:
        """Wait for the trial's record; raises ``TrialCancelledError`` if it was cancelled."""
        ...

    def cancel(self) -> None:
        """Stop the trial (if it has not finished); its record will never come."""
        ...


class ExecutionBackend(Protocol):
    """Runs submitted trials, at most as many at once as the backend allows."""

    def submit(self, spec: TrialSpec) -> TrialHandle: ...

    async def aclose(self) -> None:
        """Cancel what is still running and release the workers."""
        ...
