"""The golden trials replayed: each shipped fake config's kept trial is played again and its
trial file compared with the golden one field by field (run-specific fields left out)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.running.run_config import load_run_config
from cogarch.seeds import trial_seed
from cogarch.tasks.alfworld.cache import CachedGame
from tests.golden.cases import (
    CASES,
    GAME_CASES,
    GAMES,
    IGNORED,
    TRIAL,
    FieldPath,
    GoldenCase,
    compare,
    differences,
    fields,
    games_played,
    parse_field,
    replay,
    seed_games,
    under,
)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_replayed_trial_matches_its_golden_file(
    case: GoldenCase, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    games = None
    if case.plays_games:
        request.getfixturevalue("engine")
        games = seed_games(tmp_path / "games")
    played = replay(case, tmp_path / "run", games)
    if (problem := compare(case, played)) is not None:
        pytest.fail(problem, pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_golden_file_is_its_configs_trial(case: GoldenCase) -> None:
    record = read_trial(case.golden_path)
    config = load_run_config(case.config_path)
    assert record.status == "complete" and record.run == config.name
    assert (record.agent, record.trial) == (case.agent, TRIAL)
    assert record.seed == trial_seed(config.seed, TRIAL)
    blanked = {"cache_dir": None} if case.plays_games else {}
    assert fields(case.golden_path)["metadata"]["config"]["task"] == {
        **config.task.model_dump(exclude_unset=True),
        **blanked,
    }


@pytest.mark.parametrize("case", GAME_CASES, ids=str)
def test_a_golden_trials_games_are_kept(case: GoldenCase) -> None:
    """The replay plays kept games (no planner in the test); each is a valid cache entry."""
    for name in games_played(case.golden_path):
        kept = GAMES / f"{name}.json"
        assert kept.is_file(), f"{kept} is missing: python -m tests.golden.regenerate"
        entry = CachedGame.model_validate_json(kept.read_text(encoding="utf-8"))
        assert entry.status == "solvable" and entry.walkthrough


def test_the_comparison_names_the_first_differing_fields() -> None:
    golden = {
        "metadata": {"started_at": "2026-01-01", "config": {"seed": 1}},
        "payload": {"games": [{"won": True, "seconds": 1.0, "actions": ["a", "b"]}]},
        "walk": [{"node": "motor", "elapsed_s": 0.1}],
    }
    new = json.loads(json.dumps(golden))
    new["metadata"]["started_at"] = "2027-01-01"
    new["payload"]["games"][0]["seconds"] = 9.0
    new["walk"][0]["elapsed_s"] = 0.2
    assert list(differences(golden, new)) == []

    new["payload"]["games"][0]["won"] = False
    new["payload"]["games"][0]["actions"].append("c")
    new["walk"][0]["tokens"] = 3
    del new["metadata"]["config"]["seed"]
    assert list(differences(golden, new)) == [
        "metadata.config.seed: only in the golden file",
        "payload.games[0].won: golden true != new false",
        "payload.games[0].actions: 2 items in the golden file, 3 in the new",
        "walk[0].tokens: only in the new file",
    ]


def test_a_long_text_is_shown_from_where_it_parts() -> None:
    golden, new = "x" * 300 + "go to desk 1", "x" * 300 + "go to sofa 1"
    (line,) = differences({"reply": golden}, {"reply": new})
    shown = "x" * 34  # from 40 characters before the first that differs
    assert line == f'reply: golden ..."{shown}go to desk 1" != new ..."{shown}go to sofa 1"'


def test_a_number_of_another_type_differs() -> None:
    assert list(differences({"won": 1}, {"won": True})) == ["won: golden 1 != new true"]


def test_every_ignored_field_is_in_a_golden_file() -> None:
    """No rule in IGNORED is dead: each names a field some golden file holds."""
    held = {path for case in CASES for path in _paths(fields(case.golden_path), ())}
    for rule in IGNORED:
        assert any(under(parse_field(rule), path) for path in held), f"no file holds '{rule}'"


def test_a_field_rule_reads_keys_indices_and_wildcards() -> None:
    assert parse_field("usage.by_caller.*.latency_s") == ("usage", "by_caller", "*", "latency_s")
    assert parse_field("payload.games[*].seconds") == ("payload", "games", "*", "seconds")
    assert parse_field("walk[3].elapsed_s") == ("walk", 3, "elapsed_s")
    assert under(parse_field("metadata.versions"), ("metadata", "versions", "python"))
    assert not under(parse_field("walk[*].elapsed_s"), ("walk", 0, "tokens"))


def _paths(value: object, path: FieldPath) -> Iterator[FieldPath]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))
