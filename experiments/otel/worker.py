"""The worker side of a trace: spans recorded in another process (a Ray worker) under the
driver's trace, collected in memory and sent back to the driver as plain data with the trial's
record. The driver exports them, with its own resource, through its own exporter, so a worker
needs no route to the OTLP endpoint or the results directory.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from opentelemetry import context
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from .remote import span_data
from .session import Tracing


@contextmanager
def recording(carrier: Mapping[str, Any]) -> Iterator[list[dict[str, Any]]]:
    """Trace the code inside as a child of the driver's span in ``carrier`` (from
    :meth:`~cogarch.experiments.otel.Tracing.carrier`); on exit the list holds its spans as
    plain data."""
    collector = InMemorySpanExporter()
    tracing = Tracing(
        SimpleSpanProcessor(collector), capture_content=bool(carrier.get("capture_content"))
    )
    parent = TraceContextTextMapPropagator().extract(dict(carrier.get("context", {})))
    spans: list[dict[str, Any]] = []
    token = context.attach(parent)
    try:
        with tracing.activate():
            yield spans
    finally:
        context.detach(token)
        spans.extend(span_data(s) for s in collector.get_finished_spans())
        tracing.shutdown()
