"""A metric of your own for the Hangman SCT: how many candidates the agent affirmed at the
fork. The one it revealed is right; each further "yes" is over-confirmation, so fewer is
better. A run or suite config attaches it by file (``metrics: [hangman_metric.py:affirmed]``);
no subclass of the task is needed."""

from __future__ import annotations

from cogarch.core import TrialRecord
from cogarch.metrics import metric


@metric(direction="lower")
def affirmed(record: TrialRecord) -> int | None:
    """Candidates the agent said yes to at the fork."""
    answers = record.payload.model_dump().get("answers")
    if not isinstance(answers, list):
        return None  # a record of another task: no value
    return sum(answer.get("answer") == "yes" for answer in answers)
