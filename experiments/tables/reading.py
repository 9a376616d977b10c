"""Which reading of a task's outcomes a table uses, and how trials are stratified.

A task may score every trial under more than one reading (``Evaluation.readings``): the SCT
records the lenient one (``outcome``: "Yes.", "**Yes**" and "YES!" are affirmations) and the
Hangman authors' exact one (only a reply that is "yes" once stripped and lowercased).
``cogarch report --reading`` picks which one the outcome table and the significance tests use;
the report says which.

Self-consistency is compared within a (task, model) stratum only, as the paper's Table 1 is
laid out: an agent on one model is never tested against a baseline on another.
"""

from __future__ import annotations

from collections.abc import Mapping

from cogarch.errors import ConfigError

from .tidy_table import TidyRow


def check_reading(reading: str | None, readings: Mapping[str, str]) -> str | None:
    """``reading`` if the run's task scores it (None: the outcome's own reading)."""
    if reading is None or reading in readings:
        return reading
    known = (
        f"this run's task scores {', '.join(readings)}"
        if readings
        else "this run's task scores one reading only; leave --reading out"
    )
    raise ConfigError(f"unknown reading '{reading}'; {known}")


def success_of(row: TidyRow, reading: str | None) -> bool | None:
    """Whether the trial succeeded under ``reading``; None when it is not rated, or when its
    task leaves it out of the rates (reported apart)."""
    if row.unrated is not None:
        return None
    return row.success_in(reading)


def stratum(row: TidyRow) -> str:
    """The column a trial is compared in: its task and the agent's model."""
    model = row.agent_model or row.provider or "-"
    return f"{row.task or '-'} / {model}"


def short_trials_note(rows: list[TidyRow]) -> str | None:
    short = [r for r in rows if r.status == "complete" and r.unrated is not None]
    if not short:
        return None
    listed = ", ".join(f"{r.agent} #{r.trial} ({r.unrated})" for r in short[:20])
    more = f" and {len(short) - 20} more" if len(short) > 20 else ""
    return (
        f"{len(short)} trial(s) could not be rated in full and are left out of the rates and "
        f"the tests: {listed}{more}."
    )
