"""Spans as OTLP JSON lines, the way the OpenTelemetry Collector's file exporter writes them.

Each export is one ``ExportTraceServiceRequest`` on one line, in the OTLP/JSON encoding: the
protobuf JSON mapping with lowerCamelCase field names, enums as integers, 64-bit integers as
strings, and (unlike the plain protobuf mapping) trace and span ids as hex strings. A run that
resumes appends to the same file.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

_IDS = ("traceId", "spanId", "parentSpanId")


def request_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The export request of ``spans`` in the OTLP/JSON encoding."""
    data = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    for resource in data.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                _hex_ids(span)
                for link in span.get("links", []):
                    _hex_ids(link)
    return data


def _hex_ids(item: dict[str, Any]) -> None:
    for key in _IDS:
        if key in item:
            item[key] = base64.b64decode(item[key]).hex()


class OtlpJsonFileExporter(SpanExporter):
    """Appends one OTLP/JSON export request per line to ``path``.

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
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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


__all__ = ["OtlpJsonFileExporter", "request_json"]
