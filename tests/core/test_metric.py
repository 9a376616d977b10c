"""A metric made from a function of the trial record: its items, its declaration, and the
trials it reads."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cogarch.core.evaluation import Evaluation
from cogarch.core.metric import FunctionMetric, metric
from cogarch.core.payload import GenericPayload
from cogarch.core.records import TrialRecord
from cogarch.errors import ConfigError


class Rated(Evaluation):
    skip: bool = False

    def unrated_reason(self) -> str | None:
        return "left out" if self.skip else None


def record(trial: int = 0, status: str = "complete", skip: bool = False, **payload: Any):
    return TrialRecord(
        status=status,
        run="r",
        agent="a",
        task="t",
        trial=trial,
        seed=trial,
        evaluation=Rated(skip=skip),
        payload=GenericPayload(**payload),
    )


def test_a_function_gives_one_item_per_trial_or_one_per_position_or_key() -> None:
    one = metric(lambda r: r.payload.model_dump()["n"])
    assert one.units(record(3, n=2)) == [("3", 2.0, "trial 3")]
    listed = metric(items=True)(lambda r: [1, None, 0.5])
    assert listed.units(record(2)) == [("2/0", 1.0, "trial 2"), ("2/2", 0.5, "trial 2")]
    keyed = metric(items=True, cluster="conv")(lambda r: {"q1": True, "q2": False})
    assert keyed.units(record(1, conv="c7")) == [("1/q1", 1.0, "conv c7"), ("1/q2", 0.0, "conv c7")]
    assert keyed.itemised and not one.itemised
    assert one.trial_value(record(3, n=4)) == 4.0 and listed.trial_value(record(2)) == 0.75


def test_a_failed_or_unrated_trial_or_a_none_has_no_item() -> None:
    calls: list[int] = []

    @metric
    def counted(r: TrialRecord) -> int | None:
        calls.append(r.trial)
        return None if r.trial == 5 else 1

    assert counted.units(record(1, status="failed")) == []
    assert counted.units(record(2, skip=True)) == []
    assert counted.units(record(5)) == [] and counted.trial_value(record(5)) is None
    assert calls == [5, 5]  # the function only ever sees rated, complete trials


def test_a_value_that_is_no_number_or_no_rate_is_refused_naming_the_function() -> None:
    @metric
    def word(r: TrialRecord) -> str:
        return "many"

    with pytest.raises(ConfigError, match=r"metric 'word' reads 'test_.*word\(record\)'.*many"):
        word.units(record())
    rate = metric(interval="wilson")(lambda r: 0.5)
    with pytest.raises(ConfigError, match="rates need values 0 or 1"):
        rate.units(record())


def test_the_decorator_names_and_describes_the_metric_by_its_function() -> None:
    @metric(direction="lower", failure=3.0)
    def wrong_guesses(r: TrialRecord) -> int:
        """Letters guessed that the word lacks.

        More text."""
        return 0

    assert isinstance(wrong_guesses, FunctionMetric)
    assert wrong_guesses(record()) == 0  # still a function of the record
    assert (wrong_guesses.name, wrong_guesses.direction) == ("wrong_guesses", "lower")
    assert wrong_guesses.description == "Letters guessed that the word lacks."
    assert wrong_guesses.failure_value == 3.0
    assert "function" not in wrong_guesses.model_dump()  # its code is never serialised
    renamed = metric(name="wrong", description="")(wrong_guesses.function)
    assert (renamed.name, renamed.description) == ("wrong", "")
    assert metric(interval="wilson", direction="lower")(bool).failure_value == 1.0


def test_a_declaration_refuses_what_it_cannot_mean() -> None:
    with pytest.raises(ValidationError, match="direction"):
        metric(direction="up")(len)  # type: ignore[call-overload]
    with pytest.raises(ValidationError, match="dotted path"):
        metric(cluster="a..b")(len)
