"""The ``provider`` parameter of memory modules that make model calls of their own
(:class:`ModelCallParams`, public in :mod:`cogarch.memory`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from cogarch.errors import ConfigError


class ModelCallParams(BaseModel):
    """A base for the ``Params`` of a memory module that calls a model: its ``provider``, which
    falls back on the provider the driving specialist lends the module (the agent's by
    default) through :meth:`cogarch.core.MemoryModule.use_provider`."""

    provider: str | None = Field(
        default=None,
        description="Provider of the module's own model calls; default: that of the specialist "
        "that drives the module (the agent's).",
    )

    def provider_or(self, lent: str | None, *, missing: str) -> str:
        """The provider of the module's next model call.

        Args:
            lent: The provider the driving specialist lent the module (what its
                ``use_provider`` was last given), or None.
            missing: What the module needs a model for and where to set one, said when
                neither provider is set.

        Returns:
            This module's own ``provider`` when set, else ``lent``.

        Raises:
            ConfigError: When neither is set (its message is ``missing``).
        """
        chosen = self.provider or lent
        if chosen is None:
            raise ConfigError(missing)
        return chosen
