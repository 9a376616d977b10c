"""``cogarch run CONFIG --trace file``: ``RESULTS_DIR/traces.jsonl`` holds one OTLP/JSON export
request per line, which the OpenTelemetry protobuf JSON parser reads, with hex ids and string
64-bit integers as the OTLP/JSON encoding asks; a resumed run appends to it."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict, Parse
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Link, Status, StatusCode

from cogarch import tracing as cogarch_tracing
from cogarch.experiments.cli.command import main
from cogarch.experiments.otel.otlp_json import request_json
from cogarch.experiments.otel.remote import span_from_data
from cogarch.experiments.otel.session import Tracing
from cogarch.experiments.otel.worker import recording
from cogarch.experiments.results.trial_files import iter_trials

REPO = Path(__file__).resolve().parents[3]
HANGMAN = str(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
HEX32 = re.compile(r"^[0-9a-f]{32}$")
HEX16 = re.compile(r"^[0-9a-f]{16}$")


def run(results: Path, trials: int, *extra: str) -> int:
    argv = ["run", HANGMAN, "--trials", str(trials), "--results-dir", str(results), "--quiet"]
    return main([*argv, *extra])


def spans_of(line: str) -> list[dict[str, Any]]:
    return [
        span
        for resource in json.loads(line)["resourceSpans"]
        for scope in resource["scopeSpans"]
        for span in scope["spans"]
    ]


def keys(value: Any) -> set[str]:
    """Every field name in an OTLP/JSON document (attribute keys are values, not fields)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            found |= keys(item)
    elif isinstance(value, list):
        for item in value:
            found |= keys(item)
    return found


def as_protobuf_json(line: str) -> str:
    """The line with its hex ids in base64, the plain protobuf JSON mapping of bytes."""
    data = json.loads(line)
    for resource in data["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json.dumps(data)


def test_a_fake_run_writes_otlp_json_the_protobuf_parser_reads(tmp_path: Path) -> None:
    assert run(tmp_path, 1, "--trace", "file") == 0
    lines = (tmp_path / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines

    spans: list[dict[str, Any]] = []
    for line in lines:
        Parse(line, ExportTraceServiceRequest())  # strict: an unknown field name fails
        request = ExportTraceServiceRequest()
        Parse(as_protobuf_json(line), request)
        for resource in request.resource_spans:
            service = {a.key: a.value.string_value for a in resource.resource.attributes}
            assert service["service.name"] == "cogarch"
            for scope in resource.scope_spans:
                assert scope.scope.name == "cogarch"
                for span in scope.spans:
                    assert len(span.trace_id) == 16 and len(span.span_id) == 8
                    assert span.end_time_unix_nano >= span.start_time_unix_nano > 0
        spans += spans_of(line)
        assert not {k for k in keys(json.loads(line)) if "_" in k}  # lowerCamelCase fields

    for span in spans:
        assert HEX32.match(span["traceId"]) and HEX16.match(span["spanId"])
        assert "parentSpanId" not in span or HEX16.match(span["parentSpanId"])
        assert span["startTimeUnixNano"].isdigit() and span["endTimeUnixNano"].isdigit()
        assert isinstance(span["kind"], int)
        for attribute in span.get("attributes", []):
            if "intValue" in attribute["value"]:
                assert isinstance(attribute["value"]["intValue"], str)

    ids = {s["spanId"] for s in spans}
    roots = [s for s in spans if "parentSpanId" not in s]
    assert all(s["parentSpanId"] in ids for s in spans if "parentSpanId" in s)
    assert {r["name"] for r in roots} == {"trial hangman_sct"}
    assert len(roots) == 6  # one trial per agent of the shipped config
    records = [r for _, r in iter_trials(tmp_path) if not isinstance(r, Exception)]
    calls = sum(r.usage.model_calls for r in records)
    assert len([s for s in spans if s["name"].startswith("chat ")]) == calls
    by_root = {r["spanId"]: r["traceId"] for r in roots}
    assert len(set(by_root.values())) == 6  # each trial its own trace


def test_a_resumed_run_appends_and_leaves_what_was_written(tmp_path: Path) -> None:
    assert run(tmp_path, 1, "--trace", "file") == 0
    before = (tmp_path / "traces.jsonl").read_bytes()
    assert run(tmp_path, 2, "--trace", "file") == 0
    after = (tmp_path / "traces.jsonl").read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    added = after[len(before) :].decode().splitlines()
    roots = [s for line in added for s in spans_of(line) if "parentSpanId" not in s]
    assert len(roots) == 6  # only the trials that ran now


def test_without_trace_there_is_no_file_and_no_sdk_import(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from cogarch.experiments.cli.command import main\n"
        f"code = main(['run', {HANGMAN!r}, '--trials', '1', '--results-dir', {str(tmp_path)!r},"
        " '--quiet'])\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('opentelemetry.sdk',"
        " 'cogarch.experiments.otel')))\n"
        "print(code, loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "0 []"
    assert not (tmp_path / "traces.jsonl").exists()


def test_the_file_encoding_is_the_protobuf_mapping_with_hex_ids() -> None:
    """Every kind of span content, written by ``request_json``, equals what the SDK's OTLP
    protobuf messages give through the protobuf JSON mapping (ids turned to hex)."""
    exporter = InMemorySpanExporter()
    tracing = Tracing(SimpleSpanProcessor(exporter), capture_content=True)
    values = {
        "text": "naïve ✓",
        "flag": True,
        "count": 2**62,
        "negative": -3,
        "ratio": 0.25,
        "words": ["a", "b"],
        "numbers": [1, 2],
        "doubles": [0.5, 1.5],
        "flags": [True, False],
    }
    with tracing.activate(), tracing.span("root", values, "client") as root:
        root.set_attribute("late", "set after start")
        with pytest.raises(ValueError), tracing.span("failing", {}):
            raise ValueError("recorded with contents")
        carrier = tracing.carrier()
        other = tracing.provider.get_tracer("other", "9", schema_url="https://example.org/s")
        link = Link(root.get_span_context(), {"k": 1})  # type: ignore[attr-defined]
        with other.start_as_current_span("linked", links=[link]) as linked:
            linked.set_status(Status(StatusCode.OK))
    with recording(carrier) as sent, cogarch_tracing.span("in a worker", {"n": 1}):
        pass
    spans = [*exporter.get_finished_spans()]
    spans += [span_from_data(data, tracing.provider.resource) for data in sent]
    tracing.shutdown()
    kinds = {s.name: s for s in spans}
    assert kinds["failing"].events and kinds["linked"].links
    assert kinds["in a worker"].parent is not None and kinds["in a worker"].parent.is_remote

    expected = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    assert request_json(spans) == json.loads(as_hex_ids(json.dumps(expected)))


def as_hex_ids(document: str) -> str:
    """A protobuf JSON document with its trace and span ids (base64) in hex, as OTLP/JSON has
    them, links' ids included."""
    data = json.loads(document)

    def convert(item: dict[str, Any]) -> None:
        for key in ("traceId", "spanId", "parentSpanId"):
            if key in item:
                item[key] = base64.b64decode(item[key]).hex()

    for resource in data["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                convert(span)
                for linked in span.get("links", []):
                    convert(linked)
    return json.dumps(data)
