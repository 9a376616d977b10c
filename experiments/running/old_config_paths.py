"""A shipped config named at its place before the run configs moved to
``experiments/configs/``: the error names its place now."""

from __future__ import annotations

import os
from pathlib import Path

from cogarch.errors import ConfigError

CONFIGS = "configs"
"""The folder of ``experiments/`` that holds the run and suite configs (and ``agents/``)."""


def moved_config(path: str | os.PathLike[str]) -> Path | None:
    """Where a missing ``experiments/NAME.yaml`` (or ``experiments/agents/NAME.yaml``) is now,
    if it is under ``experiments/configs/``; None for any other path."""
    file = Path(path)
    if os.path.lexists(file) or file.suffix not in (".yaml", ".yml"):
        return None
    parts = file.parts
    if "experiments" not in parts:
        return None
    top = len(parts) - 1 - parts[::-1].index("experiments")
    rest = parts[top + 1 :]
    if not (len(rest) == 1 or (len(rest) == 2 and rest[0] == "agents")):
        return None
    moved = Path(*parts[: top + 1], CONFIGS, *rest)
    return moved if moved.is_file() else None


def check_not_moved(path: str | os.PathLike[str]) -> None:
    """Refuse a config's path from before the configs moved, naming the path to use.

    Args:
        path: The config file a user named.

    Raises:
        ConfigError: When ``path`` is missing and the config it names is under
            ``experiments/configs/`` now.
    """
    moved = moved_config(path)
    if moved is not None:
        raise ConfigError(
            f"config file '{path}' does not exist: the shipped configs moved to "
            f"experiments/{CONFIGS}/; use '{moved}'"
        )
