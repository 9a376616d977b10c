"""``--trace file`` writes only to a regular file of the results folder's own: a link planted as
``traces.jsonl`` (to a file, or to nothing) is set aside, never followed, and a FIFO there is
set aside with a warning instead of spans being lost without a word."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from opentelemetry.sdk.trace.export import SpanExportResult

from cogarch.experiments.cli.command import main
from cogarch.experiments.otel.otlp_json import OtlpJsonFileExporter

REPO = Path(__file__).resolve().parents[3]
HANGMAN = str(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")


def run(results: Path) -> int:
    argv = ["run", HANGMAN, "--trials", "1", "--results-dir", str(results), "--quiet"]
    return main([*argv, "--trace", "file"])


def spans_written(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(len(json.loads(line)["resourceSpans"]) for line in lines)


def test_a_link_planted_as_the_traces_file_is_never_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results, victim = tmp_path / "run", tmp_path / "victim.txt"
    results.mkdir()
    victim.write_text("keep me\n", encoding="utf-8")
    (results / "traces.jsonl").symlink_to(victim)
    assert run(results) == 0
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    traces = results / "traces.jsonl"
    assert not traces.is_symlink() and spans_written(traces) > 0
    assert (results / "traces.jsonl.unusable").is_symlink()
    assert "a link" in capsys.readouterr().err


def test_a_dangling_link_creates_nothing_outside(tmp_path: Path) -> None:
    results, outside = tmp_path / "run", tmp_path / "made_outside.jsonl"
    results.mkdir()
    (results / "traces.jsonl").symlink_to(outside)
    assert run(results) == 0
    assert not outside.exists() and spans_written(results / "traces.jsonl") > 0


def test_a_fifo_as_the_traces_file_is_set_aside_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    results.mkdir()
    os.mkfifo(results / "traces.jsonl")
    assert run(results) == 0
    assert "FIFO" in capsys.readouterr().err
    assert spans_written(results / "traces.jsonl") > 0


def test_the_exporter_refuses_a_link_planted_during_the_run(tmp_path: Path) -> None:
    victim, path = tmp_path / "victim.txt", tmp_path / "traces.jsonl"
    victim.write_text("keep me\n", encoding="utf-8")
    path.symlink_to(victim)
    exporter = OtlpJsonFileExporter(path)
    assert exporter.export([]) == SpanExportResult.FAILURE
    assert victim.read_text(encoding="utf-8") == "keep me\n" and exporter.error is not None
