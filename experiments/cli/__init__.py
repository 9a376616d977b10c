"""The ``cogarch`` command: its parser and subcommands (``run``, ``suite``, ``scale``,
``report``...), and a command's config as the command line changes it."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The ``cogarch`` command (:func:`cogarch.experiments.cli.command.main`), by the name
    the console script of an older install imports."""
    from .command import main as command

    return command(argv)
