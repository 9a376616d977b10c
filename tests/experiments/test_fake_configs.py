"""The shipped fake-model configs, through the whole pipeline: every scripted host or patient
lands in the SCT outcome class it was written to produce."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.experiments.running.run_config import RunConfig, load_run_config
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.sct.evaluator import OUTCOMES as OUTCOME_COLUMNS
from cogarch.tasks.sct.records import SCTPayload

REPO = Path(__file__).resolve().parents[2]
HANGMAN = REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml"
DIAGNOSIS = REPO / "experiments" / "configs" / "diagnosis_sct_fakes.yaml"
TRIALS = 3

EXPECTED = {
    "honest_vanilla": {"self_consistent"},
    "honest_workflow": {"self_consistent"},
    "forgetful_vanilla": {"state_substitution", "over_confirmation"},
    "leaky_vanilla": {"leakage"},
    "denier_vanilla": {"all_denial"},
}
ONLY = {
    "hangman": {"substituter_vanilla": {"state_substitution"}},
    "diagnosis": {
        "switcher_workflow": {"state_substitution"},
        "substituter_workflow": {"state_substitution"},
    },
}
"""Allowed outcomes of the agents of one config."""
"""Allowed outcomes of every agent shared by the two fake configs."""


def shipped(path: Path, results: Path) -> RunConfig:
    config = load_run_config(path)
    return RunConfig.model_validate(
        {**config.model_dump(), "results_dir": results, "trials": TRIALS}
    )


async def outcomes_of(config: RunConfig) -> dict[str, Counter[str]]:
    report = await Runner(config, progress=False).run()
    assert report.failed == 0 and report.corrupt == []
    found: dict[str, Counter[str]] = {}
    for path, result in iter_trials(config.output_dir()):
        assert not isinstance(result, Exception), f"{path}: {result}"
        assert result.status == "complete"
        assert isinstance(result.payload, SCTPayload)
        assert len(result.payload.candidates) == 5, f"{path}: {result.payload.candidates}"
        assert result.evaluation.candidate_shortfall == 0
        found.setdefault(result.agent, Counter())[result.evaluation.outcome] += 1
    rows = {row.agent: row for row in report.rows}
    for agent, counts in found.items():
        assert rows[agent].outcomes == counts  # the summary agrees with the files
        assert rows[agent].complete == TRIALS
    return found


@pytest.mark.parametrize("path", [HANGMAN, DIAGNOSIS], ids=["hangman", "diagnosis"])
async def test_every_fake_lands_in_its_outcome_class(path: Path, tmp_path: Path) -> None:
    config = shipped(path, tmp_path / "run")
    found = await outcomes_of(config)
    expected = {**EXPECTED, **ONLY[config.task.kind.removesuffix("_sct")]}

    assert set(expected) == set(found)
    for agent, allowed in expected.items():
        assert sum(found[agent].values()) == TRIALS
        assert set(found[agent]) <= allowed, f"{agent}: {dict(found[agent])}"


async def test_the_diagnosis_switcher_never_looks_self_consistent(tmp_path: Path) -> None:
    """The switcher reveals one condition and affirms another: a substitution when its own
    condition is among the candidates, otherwise it denies them all. With a memory (workflow)
    its held condition is always a candidate, so the substitution always shows."""
    base = load_run_config(DIAGNOSIS).model_dump()
    base["agents"] = [
        {"name": "switcher_vanilla", "agent": "vanilla", "provider": "switcher"},
        {"name": "switcher_workflow", "agent": "workflow", "provider": "switcher"},
    ]
    config = RunConfig.model_validate({**base, "results_dir": tmp_path / "run", "trials": TRIALS})
    found = await outcomes_of(config)
    assert set(found["switcher_vanilla"]) <= {"state_substitution", "all_denial"}
    assert found["switcher_workflow"] == Counter({"state_substitution": TRIALS})


def tables_in(out: str) -> list[list[str]]:
    """The Markdown tables printed in ``out``, each as its lines."""
    tables: list[list[str]] = []
    previous = ""
    for line in out.splitlines():
        if line.startswith("|"):
            if not previous.startswith("|"):
                tables.append([])
            tables[-1].append(line)
        previous = line
    return tables


def test_the_cli_runs_the_hangman_fakes_and_prints_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "cli"
    argv = ["run", str(HANGMAN), "--results-dir", str(results), "--trials", "2", "--quiet"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    out = captured.out
    # --quiet: no progress bar; only the warning that the fakes propose their own candidates
    assert [line.split(":")[0] for line in captured.err.splitlines()] == ["warning"]
    summary = "hangman_sct_fakes: 12 trials run, 0 already complete, 0 failed; results in"
    assert f"{summary} {results}" in out
    tables = tables_in(out)
    table = tables[0]
    header = [cell.strip() for cell in table[0].strip("|").split("|")]
    assert header[:4] == ["agent", "trials", "done", "failed"]
    assert header[4:9] == list(OUTCOME_COLUMNS)
    rows = {
        cells[0]: dict(zip(header, cells, strict=True))
        for cells in ([c.strip() for c in line.strip("|").split("|")] for line in table[2:])
    }
    assert set(rows) == set(EXPECTED) | set(ONLY["hangman"])
    assert rows["honest_vanilla"]["self_consistent"] == "2"
    assert rows["honest_vanilla"]["SC %"] == "100"
    assert "SC strict %" in header  # the authors' exact reading beside the lenient one
    assert rows["leaky_vanilla"]["leakage"] == "2"
    assert rows["denier_vanilla"]["all_denial"] == "2"
    assert rows["forgetful_vanilla"]["self_consistent"] == "0"
    assert all(row["trials"] == row["done"] == "2" for row in rows.values())
    usage = tables[1]  # then what the calls cost; the fakes report no prompt cache
    assert "| agent" in usage[0] and "served from cache" in usage[0]
    assert len(usage) == 2 + len(rows) and all("n/a" in line for line in usage[2:])

    assert main(argv) == 0  # a second run finds everything done
    assert "0 trials run, 12 already complete" in capsys.readouterr().out
