"""The summarising memory of the extending guide, used as a newcomer would: built from the
public helpers (``cogarch.memory.ask_model``, ``ModelCallParams``), its own calls answered in a
fakes run by a fake picked by caller, while the task's fakes play the agent's game turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.core import MemoryContext, StateError, TurnRecord
from cogarch.errors import ConfigError
from cogarch.experiments import read_trial
from cogarch.memory import build_memory
from cogarch.models import FunctionModel, Model, Providers
from tests.test_examples import REPO, run_example

KIND = f"{REPO / 'examples' / 'summary_memory.py'}:SummaryMemory"


@pytest.fixture(scope="module")
def summary_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("summary_clone")
    run_example(root, "summary_memory.yaml", 4)
    return root


def test_the_memorys_calls_are_played_by_its_fake_and_the_game_by_the_tasks(
    summary_clone: Path,
) -> None:
    files = sorted((summary_clone / "runs" / "summary_memory").glob("*/trial_*.json"))
    assert len(files) == 4
    for path in files:
        record = read_trial(path)
        expected = "self_consistent" if record.agent == "honest_summary" else "over_confirmation"
        assert record.evaluation.outcome == expected
        by_caller = record.usage.by_caller
        assert by_caller["memory:summary"]["calls"] == len(record.turns) + len(record.branches) - 1
        # turn k's private state is the summary of turns 1 .. k-1, one part per turn
        for turn in record.turns[1:]:
            parts = (turn.private_state or "").split(" | ")
            assert len(parts) == turn.turn - 1 and all(p.startswith("user: ") for p in parts)


async def test_the_module_falls_back_on_the_lent_provider_and_says_when_there_is_none() -> None:
    asked: list[str] = []

    def model(messages: object, info: object) -> str:
        asked.append(getattr(info, "caller", ""))
        return json.dumps({"summary": "The user has a cat called Tomasz."})

    providers = Providers()
    providers.register("lent", Model(FunctionModel(model), provider="lent", model="m", fake=True))
    module = build_memory(KIND, {})
    ctx = MemoryContext(model=providers.get, caller="memory:summary")
    turn = TurnRecord(1, "My cat is called Tomasz.", "Noted.")
    with pytest.raises(ConfigError, match="needs a model: set 'provider'"):
        await module.ingest(turn, ctx)
    module.use_provider("lent")
    await module.ingest(turn, ctx)
    assert (
        module.render() == "Summary of the conversation so far: The user has a cat called Tomasz."
    )
    assert asked == ["memory:summary"]
    with pytest.raises(StateError, match="'summary' is a int"):
        module.load_state({"kind": "summary", "summary": 3})
    assert module.private_text() == "The user has a cat called Tomasz."
