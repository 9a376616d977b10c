"""The LoCoMo judge: asked for, it needs a model of its own; given one, J is reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogarch.errors import ConfigError
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.models.fakes import CallInfo

DATA = Path(__file__).parent / "data" / "synthetic.json"


def strict_judge(pairs: list[tuple[str, str]], seed: int, call: CallInfo) -> str:
    """CORRECT only when the generated answer repeats the gold answer's first word."""
    text = pairs[-1][1]
    gold = text.split("Gold answer: ", 1)[1].split("\n", 1)[0]
    said = text.split("Generated answer: ", 1)[1].split("\n", 1)[0]
    first = gold.split()[0].strip(",.").lower() if gold.split() else ""
    return '{"label": "CORRECT"}' if first and first in said.lower() else '{"label": "WRONG"}'


def config(results: Path, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "judged_locomo",
        "task": {"kind": "locomo", "data": str(DATA), "judge": True},
        "trials": 1,
        "cache": False,
        "results_dir": str(results),
        "providers": {
            "reader": {"kind": "fake", "fake": "locomo.reader"},
            "judge": {"kind": "fake", "fake": "tests.tasks.locomo.test_judge:strict_judge"},
        },
        "agents": [{"name": "replay", "agent": "transcript", "provider": "reader"}],
    }
    data.update(changes)
    return data


def test_judge_without_a_helper_provider_is_refused_before_any_trial(tmp_path: Path) -> None:
    results = tmp_path / "run"
    with pytest.raises(ConfigError, match="helper_provider"):
        Runner(RunConfig.model_validate(config(results)), progress=False)
    assert not results.exists()


def test_without_the_judge_no_helper_is_needed(tmp_path: Path) -> None:
    data = config(tmp_path / "run")
    data["task"] = {**data["task"], "judge": False}
    assert not Runner(RunConfig.model_validate(data), progress=False).task.needs_helper


async def test_the_helper_judges_categories_one_to_four(tmp_path: Path) -> None:
    results = tmp_path / "run"
    report = await Runner(
        RunConfig.model_validate(config(results, helper_provider="judge")), progress=False
    ).run()
    assert report.ran == 1
    record = read_trial(trial_path(results, "replay", 0))
    answers = record.payload.answers  # type: ignore[union-attr]
    assert {a.category for a in answers} == {1, 2, 3, 4, 5}
    expected = {}
    for a in answers:
        if a.category == 5:
            assert a.judge is None
            continue
        first = a.gold.split()[0].strip(",.").lower()
        assert a.judge is (first in a.prediction.lower())
        expected[a.category] = float(a.judge)
    assert len(set(expected.values())) == 2  # the fake judge said both words
    j = record.evaluation.judge
    names = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop"}
    assert {names[c]: v for c, v in expected.items()} == {k: j[k] for k in names.values()}
    assert j["overall"] == pytest.approx(sum(expected.values()) / 4, abs=1e-4)
    judged = [c for c in record.usage.calls if c.caller == "judge"]
    assert len(judged) == 4
