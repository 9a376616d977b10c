"""The run report: tables, markers, failures, figures embedded in a self-contained HTML page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.cli.command import main
from cogarch.experiments.reports.report import build_report, is_default_baseline
from tests.experiments import make_trial, write_corrupt, write_run

AGENTS = ("vanilla_llm", "a-mem", "workflow_overwrite")


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    trials = []
    for i in range(10):
        tokens = [40 + i, 50 + 2 * i, 70 + 3 * i]
        trials.append(make_trial("vanilla_llm", i, outcome="all_denial", base_agent="vanilla"))
        trials.append(make_trial("a-mem", i, outcome="leakage", base_agent="amem"))
        trials.append(
            make_trial(
                "workflow_overwrite",
                i,
                revealed=["range", "homer"][i % 2],
                tokens=tokens,
                transitions={("responder", "updater"): 2},
            )
        )
    trials.append(make_trial("vanilla_llm", 10, failed=True, base_agent="vanilla"))
    write_run(root, trials)
    write_corrupt(root, "a-mem", 10)
    config = {"name": "demo", "trials": 11, "seed": 7, "agents": [{"name": a} for a in AGENTS]}
    (root / "run.json").write_text(json.dumps({"config": config, "config_hash": "ab" * 32}))
    return root


def summary_row(markdown: str, agent: str) -> list[str]:
    line = next(x for x in markdown.splitlines() if x.startswith(f"| {agent} | hangman_sct"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_report_files_and_tables(run_dir: Path) -> None:
    paths = build_report(run_dir)
    out = run_dir / "report"
    names = [p.relative_to(out).as_posix() for p in paths]
    assert names[:4] == ["report.md", "report.html", "trials.csv", "trials.jsonl"]
    assert "figures/outcomes.png" in names and "figures/private_state.png" in names
    assert "figures/transitions_workflow_overwrite.png" in names
    assert all(p.is_file() for p in paths)
    md = (out / "report.md").read_text("utf-8")
    assert "baselines (default: agents built on vanilla, mem0, " in md
    assert "): vanilla_llm, a-mem\n" in md
    ours = summary_row(md, "workflow_overwrite")
    assert ours[2:4] == ["method", "10"] and ours[-2:] == ["100*", "72-100"]
    vanilla = summary_row(md, "vanilla_llm")
    assert vanilla[2:7] == ["baseline", "11", "10", "1", "0"]  # trials, complete, failed, corrupt
    amem = summary_row(md, "a-mem")
    assert amem[3:7] == ["11", "10", "0", "1"]
    # agents in the order of the run config, not alphabetical
    assert md.index("| vanilla_llm |") < md.index("| a-mem |") < md.index("| workflow_overwrite |")
    own = md[md.index("## The task's own tables") :]  # there too
    assert (
        own.index("| vanilla_llm |") < own.index("| a-mem |") < own.index("| workflow_overwrite |")
    )
    for png in re.findall(r"!\[[^]]*\]\(([^)]+)\)", md):
        assert (out / png).is_file()


def test_report_names_the_failures(run_dir: Path) -> None:
    build_report(run_dir)
    for name in ("report.md", "report.html"):
        text = (run_dir / "report" / name).read_text("utf-8")
        assert "1 failed, 1 corrupt" in text
        assert "ModelCallError" in text and "provider timed out after 3 tries" in text
        assert "CorruptTrialError" in text and "trial_0010.json" in text


def test_html_is_self_contained(run_dir: Path, tmp_path: Path) -> None:
    paths = build_report(run_dir, tmp_path / "elsewhere")
    page = (tmp_path / "elsewhere" / "report.html").read_text("utf-8")
    images = re.findall(r"<img [^>]*src='([^']+)'", page)
    pngs = [p for p in paths if p.suffix == ".png"]
    assert len(images) == len(pngs) >= 4
    assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in images)
    assert "<table>" in page and "workflow_overwrite" in page and "100*" in page


def test_baselines_argument(run_dir: Path) -> None:
    build_report(run_dir, baselines=["workflow_overwrite"])
    md = (run_dir / "report" / "report.md").read_text("utf-8")
    assert "baselines (chosen for this report): workflow_overwrite" in md
    assert not any(summary_row(md, agent)[-2].endswith("*") for agent in AGENTS)
    with pytest.raises(ConfigError, match="mem0"):
        build_report(run_dir, baselines=["mem0"])


def test_default_baseline_names() -> None:
    for name in ("Vanilla LLM", "mem0_local", "A-Mem", "LightMem", "MemoryOS", "transcript"):
        assert is_default_baseline(name)
    assert is_default_baseline("honest_agent", "vanilla")  # by the agent spec it ran
    assert not is_default_baseline("workflow", "private_cot", None)


def test_cli_report(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(run_dir), "--out", str(tmp_path / "cli")]) == 0
    printed = capsys.readouterr().out.split()
    assert str(tmp_path / "cli" / "report.md") in printed
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_empty_run_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no trial files"):
        build_report(tmp_path)
