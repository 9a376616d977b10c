"""Metrics by name: the shipped ones, plain registration, and any function named by import
path or file, each refused with a message that says what is wrong and what is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import GenericPayload
from cogarch.core.records import TrialRecord
from cogarch.core.usage import TrialUsage
from cogarch.errors import UnknownNameError
from cogarch.metrics import METRICS, FunctionMetric, metric, resolve_metric

FILE = '''
from cogarch.metrics import metric


@metric(direction="lower")
def wrong_guesses(record):
    """Letters guessed that the word lacks."""
    return record.payload.model_dump()["wrong"]


def guesses(record):
    return 7


NOT_A_METRIC = 3


class Guesses:
    pass
'''


def record(**usage: int) -> TrialRecord:
    return TrialRecord(
        status="complete",
        run="r",
        agent="a",
        task="t",
        trial=0,
        seed=0,
        evaluation=Evaluation(),
        payload=GenericPayload(wrong=2),
        usage=TrialUsage(**usage),
    )


@pytest.fixture
def metrics_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_metrics.py"
    path.write_text(FILE, encoding="utf-8")
    return path


def test_the_shipped_metrics_read_the_trials_usage_and_lower_is_better() -> None:
    assert set(METRICS.names()) >= {"model_calls", "prompt_tokens", "tokens", "seconds"}
    tokens = resolve_metric("tokens")
    assert (tokens.name, tokens.direction) == ("tokens", "lower")
    assert tokens.trial_value(record(prompt_tokens=30, completion_tokens=12)) == 42.0


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown metric 'tokenz'; valid names: .*tokens"):
        resolve_metric("tokenz")


def test_a_function_in_a_file_is_a_metric_decorated_or_plain(metrics_file: Path) -> None:
    decorated = resolve_metric(f"{metrics_file}:wrong_guesses")
    assert (decorated.name, decorated.direction) == ("wrong_guesses", "lower")
    assert decorated.trial_value(record()) == 2.0
    plain = resolve_metric(f"{metrics_file}:guesses")
    assert isinstance(plain, FunctionMetric)
    assert (plain.name, plain.direction, plain.interval) == ("guesses", "higher", "bootstrap")
    assert plain.trial_value(record()) == 7.0


def test_a_file_without_the_function_says_so_and_names_what_it_defines(
    metrics_file: Path,
) -> None:
    with pytest.raises(UnknownNameError, match=r"defines no 'wrong'.*it defines: .*wrong_guesses"):
        resolve_metric(f"{metrics_file}:wrong")
    with pytest.raises(UnknownNameError, match="does not exist"):
        resolve_metric(f"{metrics_file.with_name('gone.py')}:wrong")


@pytest.mark.parametrize(
    ("name", "problem"), [("NOT_A_METRIC", "is not a function"), ("Guesses", "is a class")]
)
def test_what_is_no_metric_is_refused(metrics_file: Path, name: str, problem: str) -> None:
    with pytest.raises(UnknownNameError, match=f"cannot be used as a metric.*{problem}"):
        resolve_metric(f"{metrics_file}:{name}")


def test_a_metric_registered_by_name_goes_by_that_name(monkeypatch: pytest.MonkeyPatch) -> None:
    @metric(direction="lower")
    def calls(r: TrialRecord) -> int:
        return r.usage.model_calls

    monkeypatch.setitem(METRICS._entries, "my_calls", calls)
    monkeypatch.setitem(METRICS._entries, "plain", lambda r: 1)
    monkeypatch.setitem(METRICS._entries, "broken", 3)
    assert resolve_metric("my_calls").name == "my_calls"
    assert resolve_metric("my_calls").trial_value(record(model_calls=4)) == 4.0
    assert resolve_metric("plain").name == "plain"
    with pytest.raises(UnknownNameError, match="'broken' cannot be used: it is not a function"):
        resolve_metric("broken")
