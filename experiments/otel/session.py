"""A run's tracing: an OpenTelemetry tracer provider behind the :class:`cogarch.tracing.Tracer`
interface, exporting to an OTLP endpoint, to ``RESULTS_DIR/traces.jsonl``, or to any span
exporter (the SDK's in-memory one in tests)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import SERVICE_NAME, SERVICE_VERSION, Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter
from opentelemetry.trace import Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from cogarch import __version__
from cogarch.errors import ConfigError
from cogarch.files import kind_of, set_aside
from cogarch.tracing import ERROR_TYPE, Attributes, Span, SpanKind, TraceMode, tracing_with

from .content import content_capture_from_env
from .otlp_json import OtlpJsonFileExporter
from .remote import span_from_data

TRACES_FILE = "traces.jsonl"
"""Where ``--trace file`` writes, inside the run's results directory."""

_KINDS = {"internal": trace.SpanKind.INTERNAL, "client": trace.SpanKind.CLIENT}
_PROTOCOLS = ("http/protobuf", "grpc")
_PROPAGATOR = TraceContextTextMapPropagator()


def default_resource() -> Resource:
    """``service.name`` cogarch (unless ``OTEL_SERVICE_NAME`` or ``OTEL_RESOURCE_ATTRIBUTES``
    name another) and cogarch's version, merged with what those variables add."""
    resource = Resource.create({SERVICE_VERSION: __version__})
    if str(resource.attributes.get(SERVICE_NAME, "")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: "cogarch"}))
    return resource


class Tracing:
    """Spans of cogarch's code through ``processor``; current where :meth:`activate` says.

    ``capture_content`` defaults to the conventions' switch in the environment (see
    :func:`~cogarch.experiments.otel.content_capture_from_env`).
    """

    def __init__(
        self,
        processor: SpanProcessor,
        *,
        capture_content: bool | None = None,
        resource: Resource | None = None,
    ) -> None:
        self.processor = processor
        self.provider = TracerProvider(
            resource=resource or default_resource(), shutdown_on_exit=False
        )
        self.provider.add_span_processor(processor)
        self._tracer = self.provider.get_tracer("cogarch", __version__)
        self._content = content_capture_from_env() if capture_content is None else capture_content

    @classmethod
    def to(
        cls, exporter: SpanExporter, *, batch: bool = True, capture_content: bool | None = None
    ) -> Tracing:
        """Tracing that exports to ``exporter``, in background batches (``batch``) or as each
        span ends."""
        processor = BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter)
        return cls(processor, capture_content=capture_content)

    @property
    def capture_content(self) -> bool:
        return self._content

    @contextmanager
    def span(
        self, name: str, attributes: Attributes, kind: SpanKind = "internal"
    ) -> Iterator[Span]:
        """A span; an exception leaving it sets ``error.type`` and the error status. Its
        message (which may quote model output) and stack are recorded with contents only."""
        with self._tracer.start_as_current_span(
            name,
            kind=_KINDS[kind],
            attributes=attributes,
            record_exception=False,
            set_status_on_exception=False,
        ) as span:
            try:
                yield span
            except BaseException as exc:
                span.set_attribute(ERROR_TYPE, type(exc).__qualname__)
                self.fail(span, type(exc).__qualname__, str(exc))
                if self._content:
                    span.record_exception(exc)
                raise

    def fail(self, span: Span, error: str, message: str = "") -> None:
        if isinstance(span, trace.Span):
            shown = f"{error}: {message}" if self._content and message else error
            span.set_status(Status(StatusCode.ERROR, shown))

    def carrier(self) -> dict[str, Any]:
        context: dict[str, str] = {}
        _PROPAGATOR.inject(context)
        return {"context": context, "capture_content": self._content}

    def adopt(self, spans: Sequence[Mapping[str, Any]]) -> None:
        for data in spans:
            self.processor.on_end(span_from_data(data, self.provider.resource))

    @contextmanager
    def activate(self) -> Iterator[Tracing]:
        """Make this tracing current for the code run inside (tasks started there inherit)."""
        with tracing_with(self):
            yield self

    def shutdown(self) -> None:
        """Export what is still buffered and close the exporter."""
        self.provider.shutdown()


def otlp_exporter() -> SpanExporter:
    """The OTLP exporter the standard ``OTEL_EXPORTER_OTLP_*`` variables describe (endpoint,
    headers, protocol: ``http/protobuf`` by default, or ``grpc``)."""
    protocol = (
        os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or "http/protobuf"
    ).strip()
    if protocol == "http/protobuf":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (
            OTLPSpanExporter as GrpcExporter,
        )

        return GrpcExporter()
    raise ConfigError(
        f"OTLP protocol {protocol!r} (from OTEL_EXPORTER_OTLP_PROTOCOL) is not supported; "
        f"set it to one of {', '.join(_PROTOCOLS)}"
    )


def start_tracing(mode: TraceMode, results_dir: Path) -> Tracing:
    """The tracing of a run: to the OTLP endpoint of the environment, or to
    ``results_dir/traces.jsonl``."""
    if mode == "file":
        path = results_dir / TRACES_FILE
        try:
            mode_found = os.lstat(path).st_mode
        except FileNotFoundError:
            mode_found = None
        if mode_found is not None and not stat.S_ISREG(mode_found):
            kept = set_aside(path)
            sys.stderr.write(
                f"warning: '{path}' was {kind_of(mode_found)}, not a file of the run's own; "
                f"set aside as '{kept.name}', spans go to a new '{TRACES_FILE}'\n"
            )
        return Tracing.to(OtlpJsonFileExporter(path))
    return Tracing.to(otlp_exporter())
