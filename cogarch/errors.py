"""Exception families: mistakes in how cogarch is used, and failures while it runs."""

from __future__ import annotations


class CogarchError(Exception):
    """Base class of every error cogarch raises on purpose."""


class ConfigError(CogarchError, ValueError):
    """A configuration or argument is wrong; the message names it and says how to fix it."""


class MissingDataError(ConfigError):
    """A data file the config names, which its user supplies (a benchmark's download), is not
    there; the message says where to get it."""


class UnknownNameError(ConfigError, KeyError):
    """A short name was looked up in a registry that does not hold it."""

    def __str__(self) -> str:  # KeyError would otherwise quote the whole message
        return str(self.args[0]) if self.args else ""


class ModelCallError(CogarchError):
    """A model call failed for good (after its retries)."""


class RealModelBlockedError(CogarchError):
    """A real model was called while real model calls are switched off (as in the test suite)."""
