"""Traces of runs in the OpenTelemetry GenAI conventions: off, and free, unless a run asks.

This module is the interface the rest of the code calls; it imports no OpenTelemetry. A run
that turns tracing on (``cogarch run CONFIG --trace otlp|file``) builds a :class:`Tracer` over
the OpenTelemetry SDK (``cogarch.experiments.otel``) and makes it current for its trials with
:func:`tracing_with`. While no tracer is current, every helper here returns :data:`NO_SPAN`, one
shared do-nothing object, so an instrumented line costs one context-variable read.

Spans name what they cover in the conventions' terms where the conventions have one
(``invoke_agent``, ``chat``, ``search_memory`` / ``create_memory`` / ``update_memory``) and under
``cogarch.*`` otherwise (trials, specialist steps, SCT branches). Message, query and memory
contents are recorded only when the tracer's ``capture_content`` is on (the conventions'
opt-in, ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from cogarch.core.memory import MemoryItem

AttributeValue = str | bool | int | float | Sequence[str] | Sequence[int] | Sequence[float]
Attributes = Mapping[str, AttributeValue]
SpanKind = Literal["internal", "client"]
TraceMode = Literal["otlp", "file"]
"""Where a run sends its spans: the OTLP endpoint of the environment, or its traces file."""
MemoryOperation = Literal["search_memory", "create_memory", "update_memory", "delete_memory"]

OPERATION = "gen_ai.operation.name"
MEMORY_STORE = "gen_ai.memory.store.id"
MEMORY_RECORDS = "gen_ai.memory.record.count"
MEMORY_KIND = "cogarch.memory.kind"
MEMORY_QUERY = "gen_ai.memory.query.text"
MEMORY_CONTENT = "gen_ai.memory.records"
ERROR_TYPE = "error.type"


class Span(Protocol):
    """The part of an OpenTelemetry span the instrumented code uses."""

    def is_recording(self) -> bool: ...

    def set_attribute(self, key: str, value: AttributeValue) -> None: ...

    def set_attributes(self, attributes: Attributes) -> None: ...


class Tracer(Protocol):
    """What a run that traces makes current: spans, and context for other processes."""

    @property
    def capture_content(self) -> bool:
        """Whether spans may carry message, query and memory contents (off by default)."""
        ...

    def span(
        self, name: str, attributes: Attributes, kind: SpanKind = "internal"
    ) -> AbstractContextManager[Span]:
        """A span, current inside the ``with`` block, as a child of the current one. An
        exception leaving the block marks it failed, with ``error.type``."""
        ...

    def fail(self, span: Span, error: str, message: str = "") -> None:
        """Mark ``span`` failed with the ``error`` type; ``message`` (which may quote model
        output) only when contents are captured."""
        ...

    def carrier(self) -> dict[str, Any]:
        """The current span's context as plain data, for a worker in another process."""
        ...

    def adopt(self, spans: Sequence[Mapping[str, Any]]) -> None:
        """Export spans a worker recorded under a context from :meth:`carrier`."""
        ...


class _NoSpan:
    """The span of code that runs while tracing is off: a context manager that is its own
    span and records nothing."""

    __slots__ = ()

    def __enter__(self) -> _NoSpan:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def is_recording(self) -> bool:
        return False

    def set_attribute(self, key: str, value: AttributeValue) -> None:
        pass

    def set_attributes(self, attributes: Attributes) -> None:
        pass


NO_SPAN = _NoSpan()
"""The one do-nothing span every helper returns while tracing is off."""

_CURRENT: ContextVar[Tracer | None] = ContextVar("cogarch_tracer", default=None)


def current_tracer() -> Tracer | None:
    """The tracer of the running trial, or None while tracing is off."""
    return _CURRENT.get()


@contextmanager
def tracing_with(tracer: Tracer | None) -> Iterator[None]:
    """Make ``tracer`` current in this context (tasks started inside inherit it)."""
    token = _CURRENT.set(tracer)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def span(
    name: str, attributes: Attributes | None = None, kind: SpanKind = "internal"
) -> AbstractContextManager[Span]:
    """A span named ``name`` under the current one, or :data:`NO_SPAN` while tracing is off."""
    tracer = _CURRENT.get()
    if tracer is None:
        return NO_SPAN
    return tracer.span(name, attributes or {}, kind)


def capture_content() -> bool:
    """Whether the current tracer records contents (False while tracing is off)."""
    tracer = _CURRENT.get()
    return tracer is not None and tracer.capture_content


def memory_operation(
    operation: MemoryOperation, store: str, kind: str, records: int | None = None
) -> AbstractContextManager[Span]:
    """The span of one operation on an agent's memory module ``store`` (its name in the
    agent) of module kind ``kind``; ``records`` is how many records the operation writes or
    returns, when known before it runs (set ``gen_ai.memory.record.count`` later otherwise)."""
    tracer = _CURRENT.get()
    if tracer is None:
        return NO_SPAN
    attributes: dict[str, AttributeValue] = {
        OPERATION: operation,
        MEMORY_STORE: store,
        MEMORY_KIND: kind,
    }
    if records is not None:
        attributes[MEMORY_RECORDS] = records
    return tracer.span(operation, attributes)


def record_search(span: Span, query: str, items: Sequence[MemoryItem]) -> None:
    """What a ``search_memory`` found: how many entries, and (opted in) the query and them."""
    if not span.is_recording():
        return
    span.set_attribute(MEMORY_RECORDS, len(items))
    if capture_content():
        span.set_attribute(MEMORY_QUERY, query)
        span.set_attribute(
            MEMORY_CONTENT,
            to_json([{"id": i.id, "content": i.text, "score": i.score} for i in items]),
        )


def to_json(value: Any) -> str:
    """A structured attribute value as the conventions allow on spans: a JSON string."""
    return json.dumps(value, ensure_ascii=False, default=str)


def text_message(role: str, text: str, **extra: Any) -> dict[str, Any]:
    """One message in the conventions' shape: a role and one text part."""
    return {"role": role, "parts": [{"type": "text", "content": text}], **extra}
