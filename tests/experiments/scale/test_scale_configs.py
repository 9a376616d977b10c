"""The shipped scale configs: the fakes suite end to end through the scale command (the
curves of two memories over three history lengths, written beside the leaderboard, rebuilt
the same from the folder, resumed), and the embedded-model and endpoint suites load and
plan without starting a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.suites.config import load_suite_config

REPO = Path(__file__).resolve().parents[3]
EXPERIMENTS = REPO / "experiments" / "configs"


def test_the_fakes_scale_suite_writes_each_memorys_curves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scale"
    config = EXPERIMENTS / "genmem_scale_fakes.yaml"
    assert main(["scale", str(config), "--results-dir", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "6 cells: 60 trials run, 0 already complete, 0 failed" in printed
    assert "| dense_turns |" in printed and "| hybrid_turns |" in printed
    assert (out / "leaderboard.json").is_file()
    scale = json.loads((out / "scale.json").read_text(encoding="utf-8"))
    assert scale["suite"] == "genmem_scale_fakes" and scale["recall_metric"] == "turn recall_all@5"
    points = scale["points"]
    assert [(p["agent"], p["task"]) for p in points] == [
        (agent, task)
        for agent in ("dense_turns", "hybrid_turns")
        for task in ("genmem_4k", "genmem_8k", "genmem_16k")
    ]
    for agent in ("dense_turns", "hybrid_turns"):
        sizes = [p["history_tokens"] for p in points if p["agent"] == agent]
        assert sizes == sorted(sizes) and len(set(sizes)) == 3  # the measured history grows
        assert 3000 < sizes[0] < 4000 * 1.2 and 13000 < sizes[-1] < 16000 * 1.2
    for point in points:
        assert point["questions"] == 10 and point["failed"] == 0
        assert 0.0 <= point["accuracy"] <= 1.0
        assert point["accuracy"] == pytest.approx(point["correct"] / 10)
        assert point["recall"] is not None and 0.0 <= point["recall"] <= 1.0
        assert point["recall_questions"] == point["answerable"] > 0
        assert point["context_tokens"] > 0  # the reader saw the retrieved turns
        assert point["ingest_calls"] == 0  # raw turns embed, they call no model to ingest
        assert point["ingest_seconds"] >= 0 and point["answer_seconds"] >= 0
    # the hybrid memory finds more of the evidence than the dense one on the hash embedder
    mean = {
        a: sum(p["recall"] for p in points if p["agent"] == a) / 3
        for a in ("dense_turns", "hybrid_turns")
    }
    assert mean["hybrid_turns"] > mean["dense_turns"]
    table = (out / "scale.md").read_text(encoding="utf-8")
    assert table.count("| dense_turns |") == 3 and "ingest s" in table
    svg = (out / "scale.svg").read_text(encoding="utf-8")
    assert svg.count('<g class="series" data-agent="hybrid_turns">') == 4

    assert main(["scale", str(config), "--results-dir", str(out), "--quiet"]) == 0
    assert "0 trials run, 60 already complete" in capsys.readouterr().out
    assert main(["scale", "report", str(out)]) == 0
    assert json.loads((out / "scale.json").read_text(encoding="utf-8")) == scale
    assert main(["scale", "report", str(out), "--recall", "session recall_any@1"]) == 0
    assert "recall (session recall_any@1)" in capsys.readouterr().out


def test_a_wrong_recall_metric_is_named_with_the_ones_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = EXPERIMENTS / "genmem_scale_fakes.yaml"
    assert main(["scale", str(config), "--recall", "turn recall@7"]) != 0
    err = capsys.readouterr().err
    assert "'turn recall@7' is not a retrieval metric" in err and "recall_all" in err


def test_scale_report_of_a_folder_that_is_no_suite_says_what_to_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scale", "report", str(tmp_path)]) != 0
    assert "is not a suite's folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "lengths"),
    [
        ("genmem_scale_local.yaml", [8000, 32000, 128000, 512000]),
        ("genmem_scale_endpoint.yaml", [32000, 128000, 512000, 1500000]),
    ],
)
def test_the_model_scale_suites_load_and_plan(
    name: str,
    lengths: list[int],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GENMEM_BASE_URL", "http://127.0.0.1:9/v1")  # never called: a plan
    monkeypatch.setenv("GENMEM_API_KEY", "unused")
    config = load_suite_config(EXPERIMENTS / name)
    assert [t.params()["target_tokens"] for t in config.tasks] == lengths
    assert len({t.params()["seed"] for t in config.tasks}) == 1  # one conversation seed
    assert {"dense_turns", "hybrid_turns"} <= {a.label for a in config.agents}
    path = str(EXPERIMENTS / name)
    assert main(["suite", path, "--dry-run", "--results-dir", "/nonexistent/x"]) == 0
    assert f"{len(lengths)} tasks x" in capsys.readouterr().out
