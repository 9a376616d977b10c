"""Recording spans with the OpenTelemetry SDK's in-memory exporter, and reading them as a tree."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="tracing needs the otel extra")

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

from cogarch.experiments.otel.session import Tracing


class Spans:
    """Finished spans, with the tree they form."""

    def __init__(self, exporter: InMemorySpanExporter) -> None:
        self._exporter = exporter

    @property
    def all(self) -> list[ReadableSpan]:
        return sorted(self._exporter.get_finished_spans(), key=lambda s: s.start_time or 0)

    def named(self, prefix: str) -> list[ReadableSpan]:
        return [s for s in self.all if s.name.startswith(prefix)]

    def roots(self) -> list[ReadableSpan]:
        return [s for s in self.all if s.parent is None]

    def children(self, span: ReadableSpan) -> list[ReadableSpan]:
        own = span.get_span_context().span_id  # type: ignore[union-attr]
        return [s for s in self.all if s.parent is not None and s.parent.span_id == own]

    def tree(self, span: ReadableSpan) -> tuple[str, list[Any]]:
        """``(name, [child trees])``, children in start order."""
        return span.name, [self.tree(c) for c in self.children(span)]

    def under(self, span: ReadableSpan) -> list[ReadableSpan]:
        """Every span below ``span``."""
        found: list[ReadableSpan] = []
        for child in self.children(span):
            found += [child, *self.under(child)]
        return found


def attrs(span: ReadableSpan) -> Mapping[str, Any]:
    return dict(span.attributes or {})


@contextmanager
def recording(*, capture_content: bool = False) -> Iterator[Spans]:
    """Trace the code inside into memory (each span exported as it ends)."""
    exporter = InMemorySpanExporter()
    tracing = Tracing.to(exporter, batch=False, capture_content=capture_content)
    try:
        with tracing.activate():
            yield Spans(exporter)
    finally:
        tracing.shutdown()
