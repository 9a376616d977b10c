"""The tidy table: every trial file is a row, failed and corrupt ones included."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from cogarch.core.records import WalkStep
from cogarch.errors import ConfigError
from cogarch.experiments.results.migrate import migrate_v1
from cogarch.experiments.tables.tidy import footprint_of, tidy_run, transitions_of
from cogarch.experiments.tables.tidy_table import BASE_COLUMNS, columns_of, write_csv, write_jsonl
from tests.experiments import make_trial, write_corrupt, write_run


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    write_run(
        root,
        [
            make_trial("ours", 0, tokens=[10, 20, 30], transitions={("responder", "updater"): 3}),
            make_trial("ours", 1, outcome="over_confirmation", revealed="homer", tokens=[12, 18]),
            make_trial("vanilla", 0, outcome="leakage", base_agent="vanilla"),
            make_trial("vanilla", 1, failed=True, base_agent="vanilla"),
        ],
    )
    write_corrupt(root, "vanilla", 2)
    (root / "run.json").write_text(json.dumps({"config": {"name": "named-run"}}), "utf-8")
    return root


def test_every_trial_file_is_a_row_with_its_status(run_dir: Path) -> None:
    table = tidy_run(run_dir)
    assert len(table.rows) == 5
    assert table.status_counts == {"complete": 3, "failed": 1, "corrupt": 1}
    by_key = {(r.agent, r.trial): r for r in table.rows}
    failed = by_key[("vanilla", 1)]
    assert failed.status == "failed" and failed.error_type == "ModelCallError"
    assert failed.error_message == "provider timed out after 3 tries"
    assert failed.outcome is None and failed.self_consistent is None
    corrupt = by_key[("vanilla", 2)]
    assert corrupt.status == "corrupt" and corrupt.error_type == "CorruptTrialError"
    assert "trial_0002.json" in (corrupt.error_message or "")
    assert corrupt.run == "named-run" and corrupt.task is None


def test_complete_rows_hold_the_evaluation_and_usage(run_dir: Path) -> None:
    row = next(r for r in tidy_run(run_dir).rows if (r.agent, r.trial) == ("ours", 0))
    assert (row.run, row.task, row.seed, row.status) == (
        "synthetic",
        "hangman_sct",
        1000,
        "complete",
    )
    assert row.outcome == "self_consistent" and row.self_consistent is True
    sct = row.columns  # the SCT's own columns (its tidy_columns)
    assert (sct["revealed"], sct["memory_secret"], sct["n_candidates"]) == ("range", "range", 5)
    assert (sct["yes_rate"], sct["parsed_rate"], row.turns) == (0.2, 1.0, 4)
    assert row.answer == "range" and row.unrated is None
    assert row.private_state_tokens == [10, 20, 30] and row.final_private_state_tokens == 30
    assert (row.model_calls, row.prompt_tokens, row.completion_tokens) == (4, 400, 40)
    assert (row.reasoning_tokens, row.latency_s, row.duration_s) == (7, 0.5, 1.25)
    assert (row.provider, row.model, row.base_agent) == ("fakeprov", "tiny-model", "workflow")
    assert row.transitions == [("responder", "updater", 3)]


def test_csv_and_jsonl_hold_the_same_rows(run_dir: Path, tmp_path: Path) -> None:
    table = tidy_run(run_dir)
    csv_path = write_csv(table.rows, tmp_path / "out" / "trials.csv")
    jsonl_path = write_jsonl(table.rows, tmp_path / "out" / "trials.jsonl")
    with csv_path.open(encoding="utf-8", newline="") as handle:
        csv_rows = list(csv.DictReader(handle))
    lines = [json.loads(line) for line in jsonl_path.read_text("utf-8").splitlines()]
    assert len(csv_rows) == len(lines) == len(table.rows) == 5
    assert list(csv_rows[0]) == list(lines[0]) == columns_of(table.rows)
    split = BASE_COLUMNS.index("self_consistent") + 1
    assert list(csv_rows[0])[split : split + 9] == [
        "outcome_strict",
        "self_consistent_strict",
        "candidate_shortfall",
        "leaked",
        "revealed",
        "memory_secret",
        "n_candidates",
        "yes_rate",
        "parsed_rate",
    ]
    assert [r["status"] for r in csv_rows] == [r["status"] for r in lines]
    ours = next(r for r in lines if r["agent"] == "ours" and r["trial"] == 0)
    assert json.loads(ours["private_state_tokens"]) == [10, 20, 30]
    assert json.loads(ours["transitions"]) == {"responder->updater": 3}
    corrupt = next(r for r in csv_rows if r["status"] == "corrupt")
    assert corrupt["outcome"] == "" and corrupt["trial"] == "2"


def _v1(task: str, turns: int, extra: dict[str, Any]) -> dict[str, Any]:
    log = [{"turn": t + 1, "user": "u", "reply": "r"} for t in range(turns)]
    return {"schema_version": 1, "status": "complete", "run": "r", "agent": "a", "task": task,
            "trial": 0, "seed": 1, "interaction_log": log, "extra": extra}  # fmt: skip


def test_footprints_of_the_task_shapes_of_schema_version_1() -> None:
    rounds = [{"turn": 1, "memory_tokens": 11}, {"turn": 2, "memory_tokens": None}]
    revision = migrate_v1(_v1("revision", 2, {"revision": {"footprint": rounds}}))
    assert footprint_of(revision) == [11, None]
    judged = {"turns": [{"footprint": {"turn": 1, "memory_tokens": 4}}]}
    constraints = migrate_v1(_v1("constraints", 1, {"constraints": judged}))
    assert footprint_of(constraints) == [4]
    assert footprint_of(migrate_v1(_v1("hangman_sct", 2, {}))) == []


def test_revision_outcome_maps_to_self_consistency(tmp_path: Path) -> None:
    trial = make_trial(
        "ours", 0, footprint=[3, 4], task="revision", evaluation={"outcome": "inconsistent"}
    )
    write_run(tmp_path, [trial])
    row = tidy_run(tmp_path).rows[0]
    assert row.self_consistent is False and row.footprint_tokens == [3, 4]


def test_missing_run_directory_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--results-dir"):
        tidy_run(tmp_path / "nope")


def test_transitions_a_task_did_not_record_are_counted_from_the_walk() -> None:
    def step(turn: int, n: int, node: str, source: str, how: str) -> WalkStep:
        return WalkStep(turn=turn, step=n, node=node, source=source, how=how)

    walk = [
        step(1, 1, "external_perception", "<input>", "entry"),
        step(1, 2, "conscious", "external_perception", "single"),
        step(1, 3, "planning", "conscious", "model"),
        step(1, 4, "motor", "planning", "single"),
        step(2, 1, "external_perception", "motor", "resume"),
        step(2, 2, "conscious", "external_perception", "single"),
    ]
    record = make_trial("episodex", 0).model_copy(update={"walk": walk})
    assert transitions_of(record) == [
        ("conscious", "planning", 1),
        ("external_perception", "conscious", 2),
        ("motor", "external_perception", 1),  # the edge the environment closed between turns
        ("planning", "motor", 1),
    ]
    recorded = make_trial("ours", 0, transitions={("responder", "updater"): 3})
    recorded = recorded.model_copy(update={"walk": record.walk})
    assert transitions_of(recorded) == [("responder", "updater", 3)]  # the task's own counts
