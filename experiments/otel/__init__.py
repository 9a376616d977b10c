"""Traces over the OpenTelemetry SDK: a run's :class:`Tracing`, the OTLP JSON file exporter,
and the spans a Ray worker sends back. Imported only when a run traces (it needs the
``otel`` extra); the code that records spans calls :mod:`cogarch.tracing` instead."""

from __future__ import annotations
