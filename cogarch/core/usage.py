"""What a trial's model calls cost: each metered call, and the totals over calls and by caller."""

from __future__ import annotations

import math
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class CallRecord(BaseModel):
    """One metered model call: what the model layer records of each call (its ``Usage``) and
    a trial file's ``usage.calls`` holds.

    A ``cached`` call was served from the on-disk response cache: no request was made now
    (``attempts`` is 0), and its tokens, ``cached_prompt_tokens`` and ``latency_s`` are those
    of the original call it replays, so a replayed trial reports what the original one did.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    caller: str
    provider: str = ""
    model: str = ""
    prompt_tokens: int = 0
    """Prompt tokens sent (as the endpoint counted them)."""
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    attempts: int = 1
    cached_prompt_tokens: int | None = None
    """Prompt tokens the server served from its prompt (prefix) cache instead of evaluating
    them: ``usage.prompt_tokens_details.cached_tokens``, else llama.cpp's ``timings.cache_n``;
    None when the server reported neither (never a guessed 0), and in files written before
    this was recorded."""

    @property
    def evaluated_prompt_tokens(self) -> int | None:
        """Prompt tokens the server evaluated (sent minus served from its cache, at least 0);
        None when it did not report its cache."""
        if self.cached_prompt_tokens is None:
            return None
        return max(0, self.prompt_tokens - self.cached_prompt_tokens)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


class MeteredCall(Protocol):
    """What :func:`usage_totals` reads of a call: a model-layer ``Usage`` (one call) or a
    :class:`CallRecord`."""

    @property
    def caller(self) -> str: ...
    @property
    def cached(self) -> bool: ...
    @property
    def prompt_tokens(self) -> int: ...
    @property
    def completion_tokens(self) -> int: ...
    @property
    def reasoning_tokens(self) -> int: ...
    @property
    def latency_s(self) -> float: ...
    @property
    def cached_prompt_tokens(self) -> int | None: ...


class _Tally:
    def __init__(self) -> None:
        self.calls = self.hits = self.prompt = self.completion = self.reasoning = 0
        self.latency: list[float] = []
        self.reports = self.served = self.evaluated = 0

    def add(self, call: MeteredCall) -> None:
        self.calls += 1
        self.hits += bool(call.cached)
        self.prompt += call.prompt_tokens
        self.completion += call.completion_tokens
        self.reasoning += call.reasoning_tokens
        self.latency.append(call.latency_s)
        if call.cached_prompt_tokens is not None:
            self.reports += 1
            self.served += call.cached_prompt_tokens
            self.evaluated += max(0, call.prompt_tokens - call.cached_prompt_tokens)

    def common(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt,
            "completion_tokens": self.completion,
            "reasoning_tokens": self.reasoning,
            "latency_s": round(math.fsum(self.latency), 4),
            "cached_prompt_tokens": self.served if self.reports else None,
            "evaluated_prompt_tokens": self.evaluated if self.reports else None,
            "prompt_cache_reports": self.reports,
        }


def usage_totals(calls: Iterable[MeteredCall]) -> dict[str, Any]:
    """The fields of :class:`TrialUsage` but ``calls``: totals overall and by caller, as JSON data.

    Every call counts, response-cache hits included (with the original call's tokens and
    latency), so a trial replayed from the cache totals what the original did; sums do not
    depend on the order of the calls.
    """
    total = _Tally()
    by_caller: dict[str, _Tally] = {}
    for call in calls:
        total.add(call)
        by_caller.setdefault(call.caller, _Tally()).add(call)
    return {
        "model_calls": total.calls,
        "cache_hits": total.hits,
        **total.common(),
        "by_caller": {
            name: {"calls": t.calls, "cached": t.hits, **t.common()}
            for name, t in by_caller.items()
        },
    }


class TrialUsage(BaseModel):
    """What the trial's model calls cost: totals, totals by caller, and every call.

    Totals count every call the trial consumed, response-cache hits included: a trial resumed
    or replayed from the cache reports the same calls and tokens as the run it replays
    (``cache_hits`` and each call's ``cached`` say which were replayed). Files written while
    hits were left out of the totals are read with them added back from ``calls``.

    Prompt tokens split in two when the server reports its prompt cache: those it served from
    the cache (``cached_prompt_tokens``) and those it evaluated (``evaluated_prompt_tokens``,
    sent minus served). Both are sums over the ``prompt_cache_reports`` calls that reported
    it; when that is fewer than ``model_calls``, the calls that did not report are in neither
    sum (only in ``prompt_tokens``), and when no call reported it both are None, never 0.
    ``by_caller`` rows hold the same numbers per caller (``calls``, ``cached`` for the hits,
    ``prompt_tokens``, ..., ``prompt_cache_reports``).
    """

    model_config = ConfigDict(extra="allow")

    model_calls: int = 0
    """Every call the trial consumed, response-cache hits included."""
    cache_hits: int = 0
    """How many of ``model_calls`` were served from the response cache."""
    prompt_tokens: int = 0
    """Prompt tokens sent, over all calls."""
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_s: float = 0.0
    """Seconds the calls took (a hit counts the original call's latency)."""
    cached_prompt_tokens: int | None = None
    """Prompt tokens the server served from its prompt cache, over the reporting calls."""
    evaluated_prompt_tokens: int | None = None
    """Prompt tokens the server evaluated (sent minus served from cache), over the reporting
    calls."""
    prompt_cache_reports: int = 0
    """How many calls reported served-from-cache prompt tokens."""
    by_caller: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    calls: list[CallRecord] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _count_hits(cls, data: Any) -> Any:
        """Totals of older files, which left response-cache hits out, recounted from their
        calls (files without hits read as they are)."""
        if not isinstance(data, dict) or "prompt_cache_reports" in data:
            return data
        calls, hits, live = data.get("calls"), data.get("cache_hits"), data.get("model_calls", 0)
        if not isinstance(calls, list) or not isinstance(hits, int) or hits <= 0:
            return data
        if not isinstance(live, int) or len(calls) != live + hits:
            return data
        try:
            records = [CallRecord.model_validate(c) for c in calls]
        except ValidationError:
            return data
        return {**data, **usage_totals(records)}


class UsageMeter(Protocol):
    """Collects the model calls made while it is active (the model layer's ``Meter``)."""

    def active(self) -> AbstractContextManager[Any]:
        """Record every call made in this context."""
        ...

    def usage(self) -> TrialUsage:
        """Everything recorded so far, totalled."""
        ...
