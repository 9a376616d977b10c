"""The ``provider`` parameter of memory modules that make model calls of their own."""

from __future__ import annotations

from pydantic import BaseModel, Field

from cogarch.errors import ConfigError


class ProviderFallback(BaseModel):
    """A ``Params`` mixin: the provider of the module's own model calls, which falls back to
    the provider the specialist driving the module lends it (the agent's by default)."""

    provider: str | None = Field(
        default=None,
        description="Provider of the module's own model calls; default: that of the specialist "
        "that drives the module (the agent's).",
    )

    def provider_or(self, fallback: str | None, *, missing: str) -> str:
        """This module's provider, else ``fallback``; with neither, a ``ConfigError`` saying
        ``missing`` (what the module needs a model for, and where to set one)."""
        chosen = self.provider or fallback
        if chosen is None:
            raise ConfigError(missing)
        return chosen
