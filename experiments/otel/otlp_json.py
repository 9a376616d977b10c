"""Spans as OTLP JSON lines, the way the OpenTelemetry Collector's file exporter writes them.

Each export is one ``ExportTraceServiceRequest`` on one line, in the OTLP/JSON encoding: the
protobuf JSON mapping with lowerCamelCase field names, enums as integers, 64-bit integers as
strings and fields at their defaults left out, but (unlike the plain protobuf mapping) trace
and span ids as hex strings. A run that resumes appends to the same file.
"""

from __future__ import annotations

import base64
import errno
import json
import logging
import math
import os
import threading
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.sdk.util.instrumentation import InstrumentationScope
from opentelemetry.trace import SpanContext

from cogarch.files import FileRefusedError, append_only_file

HAS_IS_REMOTE = 0x100
IS_REMOTE = 0x200
"""``SpanFlags``: the span says whether its parent is remote, and it is."""


def request_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The ``ExportTraceServiceRequest`` of ``spans`` in the OTLP/JSON encoding, grouped by
    resource and instrumentation scope as the SDK's OTLP exporters group them (written here
    directly: going through the protobuf messages costs ten times as much)."""
    grouped: defaultdict[Resource, defaultdict[InstrumentationScope | None, list[Any]]]
    grouped = defaultdict(lambda: defaultdict(list))
    for span in spans:
        grouped[span.resource][span.instrumentation_scope or None].append(_span(span))
    resources = []
    for resource, scopes in grouped.items():
        entry: dict[str, Any] = {"resource": _resource(resource), "scopeSpans": []}
        for scope, encoded in scopes.items():
            scoped: dict[str, Any] = {"scope": _scope(scope), "spans": encoded}
            if scope is not None and scope.schema_url:
                scoped["schemaUrl"] = scope.schema_url
            entry["scopeSpans"].append(scoped)
        if resource.schema_url:
            entry["schemaUrl"] = resource.schema_url
        resources.append(entry)
    return {"resourceSpans": resources}


def _span(span: ReadableSpan) -> dict[str, Any]:
    context = span.get_span_context()
    assert context is not None  # every SDK span has one
    found: dict[str, Any] = {"traceId": f"{context.trace_id:032x}", "spanId": _id(context)}
    if context.trace_state:
        found["traceState"] = ",".join(f"{k}={v}" for k, v in context.trace_state.items())
    if span.parent is not None:
        found["parentSpanId"] = _id(span.parent)
    found["flags"] = _flags(span.parent)
    found["name"] = span.name
    found["kind"] = span.kind.value + 1  # the SDK counts from INTERNAL, OTLP from UNSPECIFIED
    found["startTimeUnixNano"] = str(span.start_time or 0)
    found["endTimeUnixNano"] = str(span.end_time or 0)
    _put_attributes(found, span.attributes, span.dropped_attributes)
    if span.events:
        found["events"] = []
        for event in span.events:
            encoded: dict[str, Any] = {"timeUnixNano": str(event.timestamp), "name": event.name}
            _put_attributes(encoded, event.attributes, event.dropped_attributes)
            found["events"].append(encoded)
    if span.dropped_events:
        found["droppedEventsCount"] = span.dropped_events
    if span.links:
        found["links"] = []
        for link in span.links:
            linked: dict[str, Any] = {
                "traceId": f"{link.context.trace_id:032x}",
                "spanId": _id(link.context),
            }
            _put_attributes(linked, link.attributes, link.dropped_attributes)
            linked["flags"] = _flags(link.context)
            found["links"].append(linked)
    if span.dropped_links:
        found["droppedLinksCount"] = span.dropped_links
    status: dict[str, Any] = {}
    if span.status.description:
        status["message"] = span.status.description
    if span.status.status_code.value:
        status["code"] = span.status.status_code.value
    found["status"] = status
    return found


def _id(context: SpanContext) -> str:
    return f"{context.span_id:016x}"


def _flags(parent: SpanContext | None) -> int:
    return HAS_IS_REMOTE | (IS_REMOTE if parent is not None and parent.is_remote else 0)


def _resource(resource: Resource) -> dict[str, Any]:
    found: dict[str, Any] = {}
    _put_attributes(found, resource.attributes, 0)
    return found


def _scope(scope: InstrumentationScope | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if scope is None:
        return found
    if scope.name:
        found["name"] = scope.name
    if scope.version:
        found["version"] = scope.version
    _put_attributes(found, getattr(scope, "attributes", None), 0)
    return found


def _put_attributes(
    into: dict[str, Any], attributes: Mapping[str, Any] | None, dropped: int
) -> None:
    if attributes:
        into["attributes"] = [{"key": k, "value": _value(v)} for k, v in attributes.items()]
    if dropped:
        into["droppedAttributesCount"] = dropped


def _value(value: Any) -> dict[str, Any]:
    """An ``AnyValue``: 64-bit integers as strings, bytes in base64, non-finite doubles by name."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        if math.isfinite(value):
            return {"doubleValue": value}
        return {
            "doubleValue": "NaN"
            if math.isnan(value)
            else ("Infinity" if value > 0 else "-Infinity")
        }
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, bytes):
        return {"bytesValue": base64.b64encode(value).decode()}
    if isinstance(value, Mapping):
        pairs = [{"key": str(k), "value": _value(v)} for k, v in value.items()]
        return {"kvlistValue": {"values": pairs} if pairs else {}}
    if isinstance(value, Sequence):
        values = [_value(v) for v in value]
        return {"arrayValue": {"values": values} if values else {}}
    return {}


class OtlpJsonFileExporter(SpanExporter):
    """Appends one OTLP/JSON export request per line to the regular file ``path`` (never
    through a link, never into a FIFO or device).

    A line is written with a single append, so lines already in the file are never changed; a
    write that fails (a full disk) drops that batch, keeps the error in ``error``, and the run
    goes on.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.error: OSError | None = None
        self._lock = threading.Lock()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        line = (json.dumps(request_json(spans), separators=(",", ":")) + "\n").encode()
        with self._lock:
            try:
                self._append(line)
            except OSError as exc:
                if self.error is None:
                    logging.getLogger(__name__).warning(
                        "spans could not be written to %s (%s); the run goes on without them",
                        self.path,
                        exc,
                    )
                self.error = exc
                return SpanExportResult.FAILURE
        return SpanExportResult.SUCCESS

    def _append(self, line: bytes) -> None:
        try:
            fd = append_only_file(self.path)  # never through a link, never into a FIFO
        except FileRefusedError as exc:
            raise OSError(errno.EPERM, str(exc)) from None
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True
