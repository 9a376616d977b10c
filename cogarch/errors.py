"""Exception families: mistakes in how cogarch is used, and failures while it runs."""

from __future__ import annotations

import os

DEBUG_ENV = "COGARCH_DEBUG"
"""Set (to anything but 0, false or no) to see the traceback behind an error's one line (the
``cogarch --debug`` flag sets it for its command)."""


def debug_enabled() -> bool:
    """Whether tracebacks are wanted: ``COGARCH_DEBUG`` is set (``cogarch --debug``)."""
    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


def one_line(exc: BaseException, limit: int = 300) -> str:
    """``Type: message`` of ``exc`` on one line, cut to ``limit`` characters."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:limit]}" if text else type(exc).__name__


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
