"""Per-call usage records, collected by whichever meter is active in the current context.

A trial activates its own meter; asyncio tasks inherit the context, so concurrent trials never
mix their records.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from cogarch.models.types import Usage

_ACTIVE: ContextVar[tuple[Meter, ...]] = ContextVar("cogarch_meters", default=())


@dataclass
class Meter:
    records: list[Usage] = field(default_factory=list)

    def record(self, usage: Usage) -> None:
        self.records.append(usage)

    @contextmanager
    def active(self) -> Iterator[Meter]:
        """Record every call made in this context (nested meters all record)."""
        token = _ACTIVE.set((*_ACTIVE.get(), self))
        try:
            yield self
        finally:
            _ACTIVE.reset(token)

    @property
    def model_calls(self) -> int:
        return sum(1 for r in self.records if not r.cached)

    def summary(self) -> dict[str, Any]:
        """Totals overall and by caller, in plain types for JSON."""
        by_caller: dict[str, dict[str, float]] = {}
        for r in self.records:
            row = by_caller.setdefault(
                r.caller,
                {
                    "calls": 0,
                    "cached": 0,
                    "prompt_tokens": 0,
                    "completion_tokens": 0,
                    "reasoning_tokens": 0,
                    "latency_s": 0.0,
                },
            )
            row["calls"] += 0 if r.cached else 1
            row["cached"] += 1 if r.cached else 0
            row["prompt_tokens"] += r.prompt_tokens
            row["completion_tokens"] += r.completion_tokens
            row["reasoning_tokens"] += r.reasoning_tokens
            row["latency_s"] = round(row["latency_s"] + r.latency_s, 4)
        live = [r for r in self.records if not r.cached]
        return {
            "model_calls": len(live),
            "cache_hits": len(self.records) - len(live),
            "prompt_tokens": sum(r.prompt_tokens for r in live),
            "completion_tokens": sum(r.completion_tokens for r in live),
            "reasoning_tokens": sum(r.reasoning_tokens for r in live),
            "latency_s": round(sum(r.latency_s for r in live), 4),
            "by_caller": by_caller,
        }


def record(usage: Usage) -> None:
    for meter in _ACTIVE.get():
        meter.record(usage)
