"""Traces over the OpenTelemetry SDK: a run's :class:`Tracing`, the OTLP JSON file exporter,
and the spans a Ray worker sends back. Imported only when a run traces (it needs the
``otel`` extra); the code that records spans calls :mod:`cogarch.tracing` instead."""

from __future__ import annotations

from .content import CONTENT_ENV, content_capture_from_env
from .otlp_json import OtlpJsonFileExporter, request_json
from .session import TRACES_FILE, TraceMode, Tracing, otlp_exporter, start_tracing

__all__ = [
    "CONTENT_ENV",
    "TRACES_FILE",
    "OtlpJsonFileExporter",
    "TraceMode",
    "Tracing",
    "content_capture_from_env",
    "otlp_exporter",
    "request_json",
    "start_tracing",
]
