"""A provider kind: a class with its own config model that makes a run's ``Model``.

A run config's provider entry names its kind (``kind: openai``, ``local``, ``fake``, or an
import path ``my_package.module:MyProvider`` / ``file.py:MyProvider``); the kind's ``Params``
model (a :class:`ProviderSettings`) validates the entry, and the kind, given the provider's
name, its validated config and what the run shares (:class:`ProviderContext`), builds the
model (``cogarch.construction``, the way every component is built). A kind implements
:meth:`Provider.client`; the rest has defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from autogen_core.models import ChatCompletionClient
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from cogarch.models.cache import ResponseCache
from cogarch.models.model import Model, ReasoningMode
from cogarch.models.retry import RetryPolicy

if TYPE_CHECKING:
    from cogarch.models.fakes import PairsFn
    from cogarch.models.local import LocalServerSettings
    from cogarch.registry import Registry


class ProviderSettings(BaseModel):
    """What every provider kind's config holds: its ``kind`` and the settings of the ``Model``
    over it (sampling, retries, how many requests it may hold open). A kind's own ``Params``
    subclasses this and adds its fields."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field(
        default="openai",
        description="The provider kind: openai, local, fake, or an import path to a provider "
        "class ('package.module:MyProvider', 'file.py:MyProvider').",
    )
    temperature: float | None = Field(
        default=0.3, ge=0, le=2, allow_inf_nan=False, description="Sampling temperature."
    )
    max_tokens: StrictInt | None = Field(
        default=2048, ge=1, le=1_000_000, description="Most tokens a reply may take."
    )
    extra_body: dict[str, Any] = Field(
        default_factory=dict, description="Extra fields sent in every request body."
    )
    reasoning: ReasoningMode = Field(
        default="auto",
        description="Where reasoning arrives: field (reasoning_content), think_tags "
        "(<think>...</think> in the content), auto (either) or none.",
    )
    retry: RetryPolicy = Field(
        default_factory=RetryPolicy,
        description="Backoff on 429, 5xx, timeouts and dropped connections.",
    )
    max_in_flight: int | None = Field(
        default=None,
        ge=1,
        description="At most this many requests open at once per endpoint, in each process.",
    )


@dataclass(frozen=True)
class ProviderContext:
    """What the providers of one run share: the response cache, the table of scripted fakes
    ``kind: fake`` providers name, and where ``local`` providers find their embedded server."""

    cache: ResponseCache | None = None
    """The run's response cache (None: calls are not cached)."""
    fakes: Registry[PairsFn] | None = None
    """The table of scripted fakes ``kind: fake`` providers name by short name (None: an empty
    table, so a fake is named by its import path)."""
    local_server: Callable[[LocalServerSettings], tuple[str, str]] | None = None
    """Where ``local`` providers find their embedded server: settings -> (model name, base
    URL) (None: each process starts its own)."""


class Provider:
    """One provider of a run: its name, its validated config, and the model it builds.

    A kind sets ``Params`` to its config model and implements :meth:`client`; it may override
    :meth:`check` (refuse, before any trial runs, what could never work), :meth:`replicas`
    (endpoints a trial may keep to), :meth:`model` (the ``Model`` of one replica), ``served``
    and ``where`` (what ``cogarch models`` lists). ``offline``: the kind answers in-process
    and makes no request (scripted fakes, a plain Python function), so the test suite's guard
    against real model calls lets it through.

    Args:
        name: The provider's name in the run config.
        config: Its settings, validated by the kind's ``Params``.
        context: What the run's providers share.
    """

    Params: ClassVar[type[ProviderSettings]] = ProviderSettings
    offline: ClassVar[bool] = False

    def __init__(self, name: str, config: ProviderSettings, context: ProviderContext) -> None:
        self.name = name
        self.config = config
        self.context = context

    @property
    def served(self) -> str:
        """The name of the model it serves (recorded with every call)."""
        return type(self).__name__

    @property
    def where(self) -> str:
        """Where its answers come from, in a few words."""
        return f"{type(self).__module__}:{type(self).__qualname__}"

    def check(self) -> None:
        """Fail now, naming the fix, if this provider could never build a working model."""

    def replicas(self) -> int:
        """How many endpoints serve it; each trial keeps to one, chosen by its seed."""
        return 1

    def client(self, replica: int) -> ChatCompletionClient:
        """The client the model sends its calls to (made on the model's first call)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement client()")

    def model_options(self) -> dict[str, Any]:
        """The ``Model`` settings every kind shares, from the config."""
        cfg = self.config
        return {
            "provider": self.name,
            "temperature": cfg.temperature,
            "max_tokens": cfg.max_tokens,
            "extra_body": cfg.extra_body,
            "reasoning": cfg.reasoning,
            "retry": cfg.retry,
            "cache": self.context.cache,
            "max_in_flight": cfg.max_in_flight,
        }

    def model(self, replica: int = 0) -> Model:
        """The model of replica ``replica``."""
        return Model(
            lambda: self.client(replica),
            model=self.served,
            fake=self.offline,
            **self.model_options(),
        )
