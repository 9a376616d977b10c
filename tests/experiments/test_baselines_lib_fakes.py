"""experiments/configs/baselines_lib_fakes.yaml: the real-library agents on the Hangman SCT against
scripted hosts that also answer the libraries' own calls; every trial lands in its outcome
class and the libraries' calls are in the usage tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.experiments.cli.command import main
from cogarch.experiments.results.trial_files import iter_trials
from cogarch.memory.retrieval.libs.offline import AMEM, MEM0, MEMORYOS

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "experiments" / "configs" / "baselines_lib_fakes.yaml"
EXPECTED = {
    "honest_mem0_lib": "self_consistent",
    "forgetful_mem0_lib": "over_confirmation",
    "leaky_memoryos_lib": "leakage",
    "denier_memoryos_lib": "all_denial",
    "substituter_mem0_lib": "state_substitution",
    "honest_amem_lib": "self_consistent",
}

pytestmark = pytest.mark.skipif(
    None in (MEM0.version(), MEMORYOS.version(), AMEM.version()),
    reason=f"the memory library extras are not installed ({MEM0.install}; {MEMORYOS.install}; "
    f"{AMEM.install})",
)


def usage_rows(out: str) -> dict[str, list[str]]:
    """The rows of the printed 'model usage per agent' table, by agent."""
    lines = out.split("model usage per agent", 1)[1].splitlines()
    rows: dict[str, list[str]] = {}
    for line in lines[3:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


def test_every_trial_completes_and_the_usage_table_counts_the_library_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "run"
    assert main(["run", str(CONFIG), "--results-dir", str(results), "--quiet"]) == 0
    table = usage_rows(capsys.readouterr().out)
    calls: dict[str, int] = {}
    outcomes: dict[str, set[str]] = {}
    for path, result in iter_trials(results):
        assert not isinstance(result, Exception), f"{path}: {result}"
        assert result.status == "complete"
        outcomes.setdefault(result.agent, set()).add(str(result.evaluation.outcome))
        kind = result.agent.split("_", 1)[1]
        callers = result.usage.by_caller
        assert callers[f"memory:{kind}"]["calls"] > 0, f"{path}: no library calls metered"
        assert sum(c["calls"] for c in callers.values()) == result.usage.model_calls
        calls[result.agent] = calls.get(result.agent, 0) + result.usage.model_calls
    assert outcomes == {agent: {outcome} for agent, outcome in EXPECTED.items()}
    for agent, total in calls.items():
        assert int(table[agent][2]) == total  # the table's model calls: the library's too
