"""LoCoMo input that is not what it should be: special files, hostile nesting, unknown
categories, repeated or dangling ids, and trial-state files that cannot be used."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from cogarch.experiments.cli.command import main
from cogarch.tasks.locomo.data import LocomoDataError, load_locomo
from cogarch.tasks.registry import build_task
from tests.deadline import deadline

from .test_task import DATA, context, setup


@pytest.fixture(autouse=True)
def never_hangs() -> Iterator[None]:
    with deadline(60):
        yield


def samples() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def test_special_files_and_hostile_nesting_get_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(LocomoDataError, match="is a folder, not a regular file"):
        load_locomo(tmp_path / "folder.json")
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(LocomoDataError, match="is a FIFO"):
        load_locomo(tmp_path / "fifo.json")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(LocomoDataError, match="nests deeper than"):
        load_locomo(deep)
    with pytest.raises(LocomoDataError, match="does not exist"):
        load_locomo(tmp_path / "absent.json")


@pytest.mark.parametrize("categories", [[9], [0], [1, 6], ["1"], [True]])
def test_categories_must_be_locomo_s(categories: list[Any]) -> None:
    with pytest.raises((ValidationError, ValueError), match=r"categor|valid integer"):
        build_task("locomo", {"data": str(DATA), "categories": categories})


def test_a_repeated_sample_id_is_refused(tmp_path: Path) -> None:
    data = samples()
    data[1]["sample_id"] = data[0]["sample_id"]
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LocomoDataError, match="repeats sample_id 'syn-1'"):
        load_locomo(path)


def test_repeated_dialog_ids_and_dangling_evidence_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = samples()
    conv = data[0]["conversation"]
    conv["session_1"][1]["dia_id"] = conv["session_1"][0]["dia_id"]
    data[0]["qa"][0]["evidence"] = ["D99:1", "D1:1"]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    from cogarch.tasks.locomo.data import id_problems

    problems = id_problems(load_locomo(path)[0])
    assert any("dialog id 'D1:1' names 2 turns" in p for p in problems)
    assert any("evidence id(s) name no turn: " in p and "'D99:1'" in p for p in problems)
    assert id_problems(load_locomo(DATA)[0]) == []
    build_task("locomo", {"data": str(path)})
    err = capsys.readouterr().err
    assert "warning:" in err and "'D99:1'" in err and "names 2 turns" in err


def test_categories_out_of_range_stop_the_run_before_any_trial(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        f"name: c\ntask: {{kind: locomo, data: '{DATA}', categories: [9]}}\ntrials: 1\n"
        "cache: false\nproviders: {r: {kind: fake, fake: locomo.reader}}\n"
        "agents: [{name: t, agent: transcript, provider: r}]\n",
        encoding="utf-8",
    )
    assert main(["run", str(config), "--results-dir", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "category 9 is not one of LoCoMo's" in err and "Traceback" not in err


def spoil_agent(data: dict[str, Any]) -> None:
    data["agent"]["memory"] = {"bogus": 1}


def spoil_counts(data: dict[str, Any]) -> None:
    data["sessions_done"] = "two"


def spoil_session_calls(lines: list[dict[str, Any]]) -> None:
    next(line for line in lines if "session" in line)["calls"] = [{"caller": 5}]


def spoil_session_cost(lines: list[dict[str, Any]]) -> None:
    next(line for line in lines if "session" in line)["cost"] = {"seconds": "inf"}


def spoil_answer(lines: list[dict[str, Any]]) -> None:
    next(line for line in lines if "answer" in line)["value"] = {"f1": "high"}


def _vectors(data: dict[str, Any]) -> dict[str, Any]:
    block: dict[str, Any] = data["agent"]["memory"]["turns"]["data"]["store"]["vectors"]
    return block


def spoil_vectors(data: dict[str, Any]) -> None:
    _vectors(data)["base64"] = _vectors(data)["base64"][:40]


def spoil_vectors_nan(data: dict[str, Any]) -> None:
    block = _vectors(data)
    size = len(base64.b64decode(block["base64"])) // 4
    block["base64"] = base64.b64encode(np.full(size, np.nan, dtype="<f4").tobytes()).decode()


def state_file(tmp_path: Path, name: str) -> Path:
    return tmp_path / "state" / name


@pytest.mark.parametrize("spoil", [spoil_agent, spoil_counts, spoil_vectors, spoil_vectors_nan])
async def test_a_damaged_snapshot_is_set_aside_and_its_sessions_ingested_again(
    tmp_path: Path, spoil: Any
) -> None:
    s = setup(tmp_path)
    first = await s.task.run_trial(context(s, tmp_path))
    snapshot = state_file(tmp_path, "agent.json")
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    spoil(data)  # the fingerprint stays right: only the content is damaged
    snapshot.write_text(json.dumps(data), encoding="utf-8")
    again = await s.task.run_trial(context(s, tmp_path))
    assert [a.prediction for a in again.payload.answers] == [
        a.prediction for a in first.payload.answers
    ]
    assert again.payload.ingest["model_calls"] == first.payload.ingest["model_calls"]
    assert state_file(tmp_path, "agent.json.unusable").is_file()
    assert json.loads(snapshot.read_text(encoding="utf-8"))["sessions_done"] == 2  # rewritten


@pytest.mark.parametrize("spoil", [spoil_session_calls, spoil_session_cost, spoil_answer])
async def test_a_damaged_log_is_set_aside_with_its_snapshot_and_the_trial_replayed(
    tmp_path: Path, spoil: Any
) -> None:
    s = setup(tmp_path)
    first = await s.task.run_trial(context(s, tmp_path))
    log = state_file(tmp_path, "log.jsonl")
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    spoil(lines)  # the header stays right: only the content is damaged
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    again = await s.task.run_trial(context(s, tmp_path))
    assert not again.payload.resumed
    assert [a.prediction for a in again.payload.answers] == [
        a.prediction for a in first.payload.answers
    ]
    assert state_file(tmp_path, "log.jsonl.unusable").is_file()
    assert state_file(tmp_path, "agent.json.unusable").is_file()
    assert len(log.read_text(encoding="utf-8").splitlines()) == len(lines)  # written again


async def test_state_files_that_are_a_fifo_or_a_link_out_are_set_aside(tmp_path: Path) -> None:
    s = setup(tmp_path)
    await s.task.run_trial(context(s, tmp_path))
    state_file(tmp_path, "log.jsonl").unlink()
    os.mkfifo(state_file(tmp_path, "log.jsonl"))
    state_file(tmp_path, "agent.json").unlink()
    state_file(tmp_path, "agent.json").symlink_to("/dev/zero")
    again = await s.task.run_trial(context(s, tmp_path))
    assert not again.payload.resumed and len(again.payload.answers) == 5
    assert state_file(tmp_path, "agent.json").is_file()
    assert not state_file(tmp_path, "agent.json").is_symlink()
    assert state_file(tmp_path, "log.jsonl").is_file()
