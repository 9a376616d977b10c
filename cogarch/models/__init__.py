"""The model layer: one :class:`Model` over any AutoGen ``ChatCompletionClient``, the
:class:`Providers` that build models by name, a provider kind of your own (:class:`Provider`
with its :class:`ProviderSettings`), and scripted models for tests (:class:`FunctionModel`,
:class:`ScriptedModel`, :func:`pairs_model`); a structured call's answer is a
:class:`Structured`. Each name is imported from its file on first use,
so ``import cogarch.models`` loads no model client."""

# ruff: noqa: F401
# (the imports under TYPE_CHECKING are the public names: cogarch.lazy reads them)
from __future__ import annotations

from typing import TYPE_CHECKING

from cogarch.lazy import lazy_module

if TYPE_CHECKING:
    from cogarch.models.cache import ResponseCache
    from cogarch.models.fakes import CallInfo, FakeReply, FunctionModel, ScriptedModel, pairs_model
    from cogarch.models.messages import as_pairs, assistant, system, user
    from cogarch.models.metering import Meter
    from cogarch.models.model import Model
    from cogarch.models.provider import Provider, ProviderContext, ProviderSettings
    from cogarch.models.providers import ProviderConfig, Providers
    from cogarch.models.retry import RetryPolicy
    from cogarch.models.structured import Structured

__all__, __getattr__ = lazy_module(__name__)
