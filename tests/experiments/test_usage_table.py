"""The usage table per agent: calls, cache hits, and prompt tokens sent, served and evaluated."""

from __future__ import annotations

from typing import Any

from cogarch.core.records import TrialRecord
from cogarch.core.usage import TrialUsage
from cogarch.experiments.tables.tidy import row_from_trial
from cogarch.experiments.tables.tidy_table import TidyRow
from cogarch.experiments.tables.usage_table import HEADER, usage_table
from tests.experiments import make_trial


def trial(agent: str, index: int, **usage: Any) -> TidyRow:
    record: TrialRecord = make_trial(agent, index)
    merged = TrialUsage.model_validate({**record.usage.model_dump(), **usage})
    return row_from_trial(record.model_copy(update={"usage": merged}))


def table(rows: list[TidyRow]) -> dict[str, dict[str, str]]:
    made = usage_table(rows)
    assert made is not None and made.header == HEADER
    return {r[0]: dict(zip(HEADER, r, strict=True)) for r in made.rows}


def test_sums_per_agent_with_the_share_served_from_cache() -> None:
    split = {"prompt_cache_reports": 4, "cached_prompt_tokens": 300, "evaluated_prompt_tokens": 100}
    rows = table([trial("a", 0, **split, cache_hits=4), trial("a", 1, **split)])
    assert rows["a"] == {
        "agent": "a",
        "trials": "2",
        "model calls": "8",
        "cache hits": "4",
        "prompt tokens sent": "800",
        "served from cache": "600 (75%)",
        "evaluated": "200",
        "completion tokens": "80",
    }


def test_unreported_is_n_a_and_partial_reports_say_how_many_calls() -> None:
    rows = table(
        [
            trial("quiet", 0),
            trial("mixed", 0, prompt_cache_reports=1, cached_prompt_tokens=0,
                  evaluated_prompt_tokens=90),
            trial("mixed", 1),
        ]
    )  # fmt: skip
    assert (rows["quiet"]["served from cache"], rows["quiet"]["evaluated"]) == ("n/a", "n/a")
    assert rows["mixed"]["served from cache"] == "0 (0%) (1 of 8 calls)"
    assert rows["mixed"]["evaluated"] == "90 (1 of 8 calls)"


def test_failed_trials_count_and_a_run_without_trials_has_no_table() -> None:
    failed = row_from_trial(make_trial("a", 1, failed=True))
    rows = table([trial("a", 0), failed])
    assert rows["a"]["trials"] == "2" and rows["a"]["model calls"] == "8"
    assert usage_table([]) is None
