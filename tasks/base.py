"""The task interface: one trial of one agent with one seed."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from cogarch.models.model import Model

    from ..workspace.agent import Agent


@dataclass(frozen=True)
class TrialContext:
    """What a task needs to play one trial: a fresh agent, the seed, and models by name."""

    agent_name: str
    trial: int
    seed: int
    make_agent: Callable[[], Agent]
    models: Callable[[str], Model]
    helper_provider: str | None
    """Provider for the task's own model calls (candidate top-up, judge), if any."""


class Task(ABC):
    """A task plays trials; its result dict becomes part of the trial file.

    The returned mapping holds ``interaction_log``, ``evaluation`` (with ``outcome`` when the
    task classifies trials) and any task-specific blocks (``sct``, ``branches``...).
    """

    kind: ClassVar[str]

    def __init__(self, params: BaseModel) -> None:
        self.params = params

    @abstractmethod
    async def run_trial(self, ctx: TrialContext) -> dict[str, Any]: ...
