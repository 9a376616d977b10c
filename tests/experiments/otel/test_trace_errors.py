"""What goes wrong around ``--trace``: a content switch or OTLP protocol the run cannot read is
refused before any trial runs, naming the variable and the fix; a missing SDK names the extra;
an OTLP endpoint that does not answer costs the spans, never the trials."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.otel.content import CONTENT_ENV, content_capture_from_env
from cogarch.experiments.results.trial_files import iter_trials

REPO = Path(__file__).resolve().parents[3]
HANGMAN = str(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")


def run(results: Path, *extra: str) -> int:
    argv = ["run", HANGMAN, "--trials", "1", "--results-dir", str(results), "--quiet"]
    return main([*argv, *extra])


def trial_files(results: Path) -> list[Path]:
    return sorted(results.glob("*/trial_*.json"))


@pytest.mark.parametrize("value", ["true", "TRUE", "1", "span_only", "SPAN_AND_EVENT"])
def test_the_content_switch_turns_on(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONTENT_ENV, value)
    assert content_capture_from_env()


@pytest.mark.parametrize("value", ["", "false", "0", "no_content", "event_only"])
def test_the_content_switch_stays_off(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONTENT_ENV, value)
    assert not content_capture_from_env()


def test_an_unreadable_content_switch_stops_the_run_before_any_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(CONTENT_ENV, "sometimes")
    assert run(tmp_path, "--trace", "file") == 2
    err = capsys.readouterr().err
    assert CONTENT_ENV in err and "'sometimes'" in err and "true" in err
    assert trial_files(tmp_path) == []


def test_an_unsupported_otlp_protocol_is_refused_naming_the_supported_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
    assert run(tmp_path, "--trace", "otlp") == 2
    err = capsys.readouterr().err
    assert "'http/json'" in err and "http/protobuf" in err and "grpc" in err
    assert trial_files(tmp_path) == []


def test_without_the_sdk_the_error_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in ("cogarch.experiments.otel", "cogarch.experiments.otel.session"):
        monkeypatch.setitem(sys.modules, module, None)  # as if the SDK were not installed
    assert run(tmp_path, "--trace", "file") == 2
    assert "pip install 'cogarch[otel]'" in capsys.readouterr().err
    assert trial_files(tmp_path) == []


def test_an_endpoint_that_does_not_answer_loses_spans_not_trials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    assert run(tmp_path, "--trace", "otlp") == 0
    records = [r for _, r in iter_trials(tmp_path)]
    assert len(records) == 6 and all(getattr(r, "status", None) == "complete" for r in records)
