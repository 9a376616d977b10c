"""The shipped suites: the fakes suite end to end through the command, the others checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.suites.config import load_suite_config

REPO = Path(__file__).resolve().parents[3]
SUITES = REPO / "experiments" / "configs"


def test_the_fakes_suite_ranks_every_task_and_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)  # the config names its data relative to the checkout
    out = tmp_path / "suite"
    config = SUITES / "suite_memory_fakes.yaml"
    assert main(["suite", str(config), "--results-dir", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    # 35 cells of its five agents, and 20 of the controls its tasks declare on its two readers
    assert "55 cells: 193 trials run, 0 already complete, 0 failed" in printed
    board = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    assert {c["status"] for c in board["cells"]} == {"complete"}
    value = {(c["agent"], c["task"]): c["value"] for c in board["cells"]}
    for task in ("hangman_sct", "diagnosis_sct", "alfworld", "revision"):
        assert value["workflow_overwrite", task] == 1.0 and value["forgetful_vanilla", task] == 0.0
    assert (
        value["vanilla", "constraints"] == 0.0 and value["forgetful_vanilla", "constraints"] == 1.0
    )
    rows = {r["agent"]: r for r in board["rows"]}
    assert len(rows["vanilla"]["tasks"]) == 7
    assert rows["forgetful_vanilla"]["mean_rank"] > rows["vanilla"]["mean_rank"]
    controls = {
        f"{role}.{reader}": role
        for role in ("lower_bound", "upper_bound", "no_memory", "full_history", "oracle")
        for reader in ("honest", "forgetful")
    }
    manifest = json.loads((out / "suite.json").read_text(encoding="utf-8"))
    assert manifest["controls"] == controls
    for agent, role in controls.items():  # marked in every trial, and never ranked
        assert rows[agent]["mean_rank"] is None and rows[agent]["tasks"] == []
        for cell in (c for c in board["cells"] if c["agent"] == agent and c["status"] != "skipped"):
            trial = json.loads((out / cell["folder"] / agent / "trial_0000.json").read_text())
            assert trial["metadata"]["control"] == role
    assert {c["task"] for c in board["cells"] if c["agent"] == "oracle.honest" and c["value"]} == {
        "locomo",
        "longmemeval",
    }
    # the worst measured agent ranks last among the five: the controls take no rank
    assert rows["forgetful_vanilla"]["mean_rank"] <= 5
    check_framed_scores(out, board)

    assert main(["suite", str(config), "--results-dir", str(out), "--quiet"]) == 0
    assert "0 trials run, 193 already complete" in capsys.readouterr().out  # resumed: all done
    assert main(["suite", "report", str(out)]) == 0
    assert json.loads((out / "leaderboard.json").read_text(encoding="utf-8")) == board
    check_partial_locomo_cell_ranks_on_the_shared_conversation(out, board, tmp_path / "copy")


def check_partial_locomo_cell_ranks_on_the_shared_conversation(
    out: Path, board: dict, copy: Path
) -> None:
    """Every LoCoMo cell ties (one scripted reader; raw_turns_top1, searching for the question
    each prompt asks, finds the one turn each answer needs), so vanilla's mean win rate is
    (5 x 2.5/4 + 3/4 + 2/4) / 7 = 5/8: it beats raw_turns_top1 at ALFWorld and ties every cell
    at LoCoMo. With one of its two conversations deleted it still ties on the conversation all
    cells have."""
    rows = {r["agent"]: r for r in board["rows"]}
    assert rows["vanilla"]["mean_win_rate"] == pytest.approx(5 / 8)
    locomo = next(t for t in board["tasks"] if t["name"] == "locomo")
    assert (locomo["cluster"], locomo["shared_clusters"]) == ("sample_id", 2)
    assert locomo["best"] == [
        "vanilla",
        "workflow_overwrite",
        "workflow_patch",
        "forgetful_vanilla",
        "raw_turns_top1",
    ]
    cell = next(c for c in board["cells"] if (c["agent"], c["task"]) == ("vanilla", "locomo"))
    assert (cell["clusters"], cell["low"], cell["high"]) == (2, None, None)
    assert cell["interval_note"] == "2 clusters, fewer than 10"
    shutil.copytree(out, copy)
    (copy / cell["folder"] / "vanilla" / "trial_0001.json").unlink()
    assert main(["suite", "report", str(copy)]) == 0
    cut = json.loads((copy / "leaderboard.json").read_text(encoding="utf-8"))
    partial = next(c for c in cut["cells"] if (c["agent"], c["task"]) == ("vanilla", "locomo"))
    assert partial["status"] == "partial" and partial["n"] < cell["n"]
    assert partial["best"] and partial["ranked_value"] == partial["value"]
    shared = next(t for t in cut["tasks"] if t["name"] == "locomo")
    assert shared["shared_items"] == partial["n"] and shared["shared_clusters"] == 1
    assert all(key.startswith("0/") for key in shared["shared"])
    others = [
        c
        for c in cut["cells"]
        if c["task"] == "locomo"
        and c["agent"] not in ("vanilla", "raw_turns_top1")
        and c["control"] is None
    ]
    assert others
    assert all(c["best"] and c["ranked_value"] == partial["value"] for c in others)
    cut_rows = {r["agent"]: r for r in cut["rows"]}
    assert cut_rows["vanilla"]["mean_win_rate"] == pytest.approx(5 / 8)
    markdown = (copy / "leaderboard.md").read_text(encoding="utf-8")
    assert "(not estimable) n=" in markdown and "(partial)" in markdown


def check_framed_scores(out: Path, board: dict) -> None:
    """The page shows each memory's score with its frame: headroom captured against the
    controls of its reader, the context tokens per question, and the judge audit of the
    judged column (LongMemEval's accuracy), whose file is in the suite's folder."""
    cell = next(
        c for c in board["cells"] if (c["agent"], c["task"]) == ("raw_turns_top1", "longmemeval")
    )
    headroom = cell["headroom"]
    assert headroom["no_memory_agent"] == "no_memory.honest"
    assert headroom["oracle_agent"] == "oracle.honest"
    s, n, o = headroom["score"], headroom["no_memory"], headroom["oracle"]
    assert headroom["value"] == pytest.approx((s - n) / (o - n))
    assert cell["context_tokens_mean"] > 0 and cell["context_tokens_p95"] > 0
    assert all(c["headroom"] is None for c in board["cells"] if c["control"] is not None)
    audit = json.loads((out / "judge_audit" / "longmemeval" / "judge_audit.json").read_text())
    column = next(t for t in board["tasks"] if t["name"] == "longmemeval")
    assert column["audit"]["false_positive"] == audit["judges"][0]["false_positive"]
    assert column["audit"]["false_negative"] == audit["judges"][0]["false_negative"]
    assert [t["name"] for t in board["tasks"] if t["audit"]] == ["longmemeval"]
    page = (out / "leaderboard.html").read_text(encoding="utf-8")
    assert 'class="headroom"' in page and 'class="context"' in page and 'class="audit"' in page
    assert "context tokens/question (mean)" in page and "Judge audit" in page


@pytest.mark.parametrize("name", ["suite_memory_local.yaml", "suite_memory_paper.yaml"])
def test_the_model_suites_load_and_plan(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    config = load_suite_config(SUITES / name)
    assert len({a.label for a in config.agents}) >= 3 and len(config.tasks) >= 3
    if name == "suite_memory_local.yaml":
        assert (
            main(["suite", str(SUITES / name), "--dry-run", "--results-dir", "/nonexistent/x"]) == 0
        )
        assert "9 cells" in capsys.readouterr().out
