"""A resumed LongMemEval run follows its data file: a trial whose question changed is played
again, saying which and why; unchanged questions are kept however the file is reordered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.tasks.longmemeval.synthetic import synthetic_longmemeval

TRIALS = 4


def config(tmp_path: Path, data: Path) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "lme",
            "task": {"kind": "longmemeval", "data": str(data), "judge": False},
            "trials": TRIALS,
            "seed": 3,
            "results_dir": str(tmp_path / "runs"),
            "cache": False,
            "providers": {"reader": {"kind": "fake", "fake": "longmemeval.reader"}},
            "agents": [{"name": "full", "agent": "longmemeval_full", "provider": "reader"}],
        }
    )


async def play(cfg: RunConfig) -> Any:
    return await Runner(cfg, progress=False).run()


def asked(cfg: RunConfig) -> list[str]:
    out = []
    for i in range(TRIALS):
        record = read_trial(trial_path(cfg.output_dir(), "full", i))
        out.append(record.metadata.model_dump()["data_item"]["name"])
    return out


@pytest.fixture
def data(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    questions = synthetic_longmemeval(sessions=3, turns_per_session=2)[:TRIALS]
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    return path, questions


async def test_a_changed_question_is_played_again_saying_why(
    tmp_path: Path, data: tuple[Path, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, questions = data
    cfg = config(tmp_path, path)
    first = await play(cfg)
    assert first.ran == TRIALS
    changed = sorted(q["question_id"] for q in questions)[1]
    for q in questions:
        if q["question_id"] == changed:
            q["answer"] = "another gold answer"
    path.write_text(json.dumps(questions), encoding="utf-8")
    again = await play(cfg)
    assert (again.ran, again.skipped) == (1, TRIALS - 1)
    assert len(again.corrupt) == 1 and changed in again.corrupt[0]
    assert "has changed in the data file" in capsys.readouterr().err


async def test_an_unchanged_question_is_kept_however_the_file_is_reordered(
    tmp_path: Path, data: tuple[Path, list[dict[str, Any]]]
) -> None:
    path, questions = data
    cfg = config(tmp_path, path)
    await play(cfg)
    before = asked(cfg)
    path.write_text(json.dumps(list(reversed(questions))), encoding="utf-8")
    again = await play(cfg)
    assert (again.ran, again.skipped) == (0, TRIALS)
    assert asked(cfg) == before


async def test_an_inserted_question_plays_each_question_once(
    tmp_path: Path, data: tuple[Path, list[dict[str, Any]]]
) -> None:
    path, questions = data
    cfg = config(tmp_path, path)
    await play(cfg)
    extra = json.loads(json.dumps(questions[0]))
    extra["question_id"] = "0000_first"
    path.write_text(json.dumps([extra, *questions]), encoding="utf-8")
    again = await play(cfg)
    assert again.ran >= 1 and all("now draws" in line for line in again.corrupt)
    names = asked(cfg)
    assert len(set(names)) == TRIALS and names[0] == "0000_first"


async def test_a_file_written_before_items_were_recorded_is_judged_by_its_question_id(
    tmp_path: Path, data: tuple[Path, list[dict[str, Any]]]
) -> None:
    path, questions = data
    cfg = config(tmp_path, path)
    await play(cfg)
    files = [trial_path(cfg.output_dir(), "full", i) for i in range(TRIALS)]
    for file in files:  # as written before trial files recorded their data item
        raw = json.loads(file.read_text(encoding="utf-8"))
        del raw["metadata"]["data_item"]
        file.write_text(json.dumps(raw), encoding="utf-8")
    kept = await play(cfg)
    assert (kept.ran, kept.skipped) == (0, TRIALS)
    first = sorted(q["question_id"] for q in questions)[0]
    extra = {**json.loads(json.dumps(questions[0])), "question_id": "0000_first"}
    path.write_text(json.dumps([extra, *questions]), encoding="utf-8")
    shifted = await play(cfg)
    assert shifted.ran == TRIALS and any(f"'{first}'" in line for line in shifted.corrupt)
