"""Per-call usage records, collected by whichever meter is active in the current context.

A trial activates its own meter; asyncio tasks inherit the context, so concurrent trials never
mix their records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.model import Usage
from cogarch.core.usage import TrialUsage, usage_totals

_ACTIVE: ContextVar[tuple[Meter, ...]] = ContextVar("cogarch_meters", default=())


@dataclass
class Meter:
    """Records the usage of every model call made while it is active
    (``with meter.active():``); meters nest, and each active one records every call.

    Args:
        records: The usage of each call recorded so far (default: none).
    """

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
        """Every call made in the context, response-cache hits included."""
        return len(self.records)

    @property
    def requests(self) -> int:
        """The calls that reached a model now (response-cache hits left out)."""
        return sum(1 for r in self.records if not r.cached)

    def summary(self) -> dict[str, Any]:
        """Totals overall and by caller, in plain types for JSON (see
        :func:`cogarch.core.usage.usage_totals`): hits count, with the original call's
        tokens and latency, so a replayed trial totals what the original did."""
        return usage_totals(self.records)

    def usage(self) -> TrialUsage:
        """Everything recorded, as a trial's usage: the totals and every call."""
        return TrialUsage.model_validate(
            {**self.summary(), "calls": [u.to_dict() for u in self.records]}
        )


def record(usage: Usage) -> None:
    for meter in _ACTIVE.get():
        meter.record(usage)


def replay(calls: Iterable[Mapping[str, Any]]) -> None:
    """Record calls an interrupted run made for work a rerun keeps (``Usage.to_dict`` each),
    as the response cache records its hits: ``cached``, no request made now (``attempts`` 0),
    with the original call's tokens and latency."""
    names = set(Usage.model_fields)
    for call in calls:
        known = {k: v for k, v in call.items() if k in names}
        record(Usage(**{**known, "cached": True, "attempts": 0}))
