"""Finished spans as plain data and back: how a worker's spans cross to the driver."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags


def span_data(span: ReadableSpan) -> dict[str, Any]:
    """A finished span as plain data (what :func:`span_from_data` rebuilds)."""
    ctx = span.get_span_context()
    assert ctx is not None  # every SDK span has one
    parent = span.parent
    scope = span.instrumentation_scope
    return {
        "name": span.name,
        "trace_id": ctx.trace_id,
        "span_id": ctx.span_id,
        "trace_flags": int(ctx.trace_flags),
        "parent": None if parent is None else [parent.span_id, parent.is_remote],
        "kind": span.kind.value,
        "attributes": dict(span.attributes or {}),
        "events": [
            {"name": e.name, "time": e.timestamp, "attributes": dict(e.attributes or {})}
            for e in span.events
        ],
        "status": [span.status.status_code.value, span.status.description],
        "start": span.start_time,
        "end": span.end_time,
        "scope": None if scope is None else [scope.name, scope.version],
    }


def span_from_data(data: Mapping[str, Any], resource: Resource) -> ReadableSpan:
    """The span ``data`` describes, under ``resource`` (the exporting process's)."""
    flags = TraceFlags(int(data["trace_flags"]))
    trace_id = int(data["trace_id"])
    parent = None
    if data["parent"] is not None:
        span_id, remote = data["parent"]
        parent = SpanContext(trace_id, int(span_id), bool(remote), flags)
    code, description = data["status"]
    scope = data["scope"]
    return ReadableSpan(
        name=str(data["name"]),
        context=SpanContext(trace_id, int(data["span_id"]), False, flags),
        parent=parent,
        resource=resource,
        attributes=data["attributes"],
        events=[Event(e["name"], e["attributes"], e["time"]) for e in data["events"]],
        kind=SpanKind(int(data["kind"])),
        status=Status(StatusCode(int(code)), description),
        start_time=data["start"],
        end_time=data["end"],
        instrumentation_scope=None if scope is None else InstrumentationScope(*scope),
    )
