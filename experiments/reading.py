"""Which reading of the SCT's yes/no answers a table uses, and how trials are stratified.

Two readings are recorded in every SCT trial: the lenient one (``outcome``: "Yes.", "**Yes**"
and "YES!" are affirmations) and the Hangman authors' exact one (``outcome_strict``: only a
reply that is "yes" once stripped and lowercased). ``cogarch report --reading`` picks which
one the outcome table and the significance tests use; the report says which.

Self-consistency is compared within a (task, model) stratum only, as the paper's Table 1 is
laid out: an agent on one model is never tested against a baseline on another.
"""

from __future__ import annotations

from typing import Literal

from cogarch.errors import ConfigError

from .tidy import TrialRow

Reading = Literal["lenient", "strict"]
READINGS: tuple[Reading, ...] = ("lenient", "strict")

DESCRIPTIONS: dict[Reading, str] = {
    "lenient": (
        "lenient reading: a reply whose first word is yes (any case, punctuation or markdown) "
        "affirms the candidate"
    ),
    "strict": (
        "strict reading (the Hangman authors' code, comparable with the paper's Table 1): a "
        'reply affirms only when it is exactly "yes" once stripped and lowercased'
    ),
}


def check_reading(reading: str) -> Reading:
    if reading not in READINGS:
        raise ConfigError(f"unknown reading '{reading}'; choose one of {', '.join(READINGS)}")
    return reading


def outcome_of(row: TrialRow, reading: Reading) -> str | None:
    return row.outcome_strict if reading == "strict" and row.outcome_strict else row.outcome


def success_of(row: TrialRow, reading: Reading) -> bool | None:
    """Whether the trial succeeded under ``reading``; None when it is not rated, or when it
    asked fewer candidates than requested (reported apart from the rates)."""
    if row.candidate_shortfall:
        return None
    if reading == "strict" and row.outcome_strict is not None:
        return row.self_consistent_strict
    return row.self_consistent


def stratum(row: TrialRow) -> str:
    """The column a trial is compared in: its task and the agent's model."""
    model = row.agent_model or row.provider or "-"
    return f"{row.task or '-'} / {model}"


def short_trials_note(rows: list[TrialRow]) -> str | None:
    short = [r for r in rows if r.status == "complete" and r.candidate_shortfall]
    if not short:
        return None
    listed = ", ".join(f"{r.agent} #{r.trial} ({r.candidate_shortfall} short)" for r in short[:20])
    more = f" and {len(short) - 20} more" if len(short) > 20 else ""
    return (
        f"{len(short)} trial(s) asked fewer candidates than requested and are left out of the "
        f"rates and the tests: {listed}{more}."
    )


__all__ = [
    "DESCRIPTIONS",
    "READINGS",
    "Reading",
    "check_reading",
    "outcome_of",
    "short_trials_note",
    "stratum",
    "success_of",
]
