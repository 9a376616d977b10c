"""Usage totals of a trial: every call counted, hits flagged, prompt tokens split by the cache."""

from __future__ import annotations

from typing import Any

import pytest

from cogarch.core.model import Usage as CallUsage
from cogarch.core.usage import CallRecord, TrialUsage, usage_totals
from cogarch.models import Meter


def call(caller: str = "responder", **fields: Any) -> CallUsage:
    return CallUsage(caller=caller, provider="p", model="m", **fields)


def test_hits_count_with_the_tokens_of_the_call_they_replay() -> None:
    calls = [
        call(prompt_tokens=100, completion_tokens=10, latency_s=0.5, cached_prompt_tokens=60),
        call(prompt_tokens=80, completion_tokens=8, latency_s=0.25, cached=True, attempts=0),
    ]
    totals = usage_totals(calls)
    assert (totals["model_calls"], totals["cache_hits"]) == (2, 1)
    assert (totals["prompt_tokens"], totals["completion_tokens"]) == (180, 18)
    assert totals["latency_s"] == 0.75


def test_the_prompt_split_covers_the_calls_that_reported_it() -> None:
    calls = [
        call(prompt_tokens=100, cached_prompt_tokens=60),
        call(prompt_tokens=50),  # this server said nothing
        call("memory", prompt_tokens=40, cached_prompt_tokens=0),
        call("memory", prompt_tokens=10, cached_prompt_tokens=12),  # more than sent: 0 evaluated
    ]
    totals = usage_totals(calls)
    assert totals["prompt_tokens"] == 200
    assert totals["cached_prompt_tokens"] == 72
    assert totals["evaluated_prompt_tokens"] == 80
    assert totals["prompt_cache_reports"] == 3
    assert totals["by_caller"]["responder"] == {
        "calls": 2,
        "cached": 0,
        "prompt_tokens": 150,
        "completion_tokens": 0,
        "reasoning_tokens": 0,
        "latency_s": 0.0,
        "cached_prompt_tokens": 60,
        "evaluated_prompt_tokens": 40,
        "prompt_cache_reports": 1,
    }


def test_nothing_reported_stays_absent_not_zero() -> None:
    totals = usage_totals([call(prompt_tokens=10), call("memory", prompt_tokens=5)])
    assert totals["cached_prompt_tokens"] is None
    assert totals["evaluated_prompt_tokens"] is None
    assert totals["prompt_cache_reports"] == 0
    assert totals["by_caller"]["memory"]["cached_prompt_tokens"] is None
    usage = TrialUsage.model_validate(totals)
    assert (usage.cached_prompt_tokens, usage.evaluated_prompt_tokens) == (None, None)
    assert TrialUsage.model_validate(usage.model_dump(mode="json")) == usage


def test_totals_do_not_depend_on_the_order_of_the_calls() -> None:
    calls = [call(latency_s=x) for x in (0.1, 0.2, 0.3, 1e-6, 0.123457)]
    assert usage_totals(calls) == usage_totals(calls[::-1])


def test_the_meter_sums_what_it_recorded() -> None:
    calls = [call(prompt_tokens=9, cached_prompt_tokens=4), call(cached=True, attempts=0)]
    meter = Meter()
    for c in calls:
        meter.record(c)
    assert meter.summary() == usage_totals(calls)
    assert (meter.model_calls, meter.requests) == (2, 1)


def test_a_call_record_without_cached_prompt_tokens_loads_as_absent() -> None:
    record = CallRecord.model_validate({"caller": "responder", "prompt_tokens": 3})
    assert record.cached_prompt_tokens is None
    assert (
        CallRecord.model_validate(call(cached_prompt_tokens=2).to_dict()).cached_prompt_tokens == 2
    )


OLD_CALLS = [
    {"caller": "responder", "prompt_tokens": 100, "completion_tokens": 10, "latency_s": 0.5},
    {"caller": "responder", "prompt_tokens": 80, "completion_tokens": 8, "cached": True},
]


def test_older_totals_that_left_hits_out_are_recounted_from_the_calls() -> None:
    old = {
        "model_calls": 1,
        "cache_hits": 1,
        "prompt_tokens": 100,
        "completion_tokens": 10,
        "latency_s": 0.5,
        "by_caller": {"responder": {"calls": 1, "cached": 1, "prompt_tokens": 180}},
        "calls": OLD_CALLS,
    }
    usage = TrialUsage.model_validate(old)
    assert (usage.model_calls, usage.cache_hits) == (2, 1)
    assert (usage.prompt_tokens, usage.completion_tokens) == (180, 18)
    assert usage.by_caller["responder"]["calls"] == 2
    assert usage.cached_prompt_tokens is None and usage.prompt_cache_reports == 0


@pytest.mark.parametrize(
    "usage",
    [
        {"model_calls": 2, "cache_hits": 0, "prompt_tokens": 180, "calls": OLD_CALLS},  # no hits
        {"model_calls": 5, "cache_hits": 1, "prompt_tokens": 7, "calls": OLD_CALLS},  # not these
        {"model_calls": 3, "cache_hits": 1, "prompt_tokens": 7, "calls": []},
        {"model_calls": 1, "prompt_tokens": 7, "prompt_cache_reports": 0, "cache_hits": 1,
         "calls": OLD_CALLS},  # written with hits counted already
    ],
)  # fmt: skip
def test_other_totals_are_read_as_written(usage: dict[str, Any]) -> None:
    read = TrialUsage.model_validate(usage)
    assert (read.model_calls, read.prompt_tokens) == (usage["model_calls"], usage["prompt_tokens"])
