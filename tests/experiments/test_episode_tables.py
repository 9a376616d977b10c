"""The episode report from trial records: comparisons by agent parameters (Episodex's
retrieved episodes and conceptual memory), what memory did per game, the focus loop; and its
place in ``cogarch report``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogarch.core.records import TrialRecord
from cogarch.core.views import Table
from cogarch.experiments.reports.episode_tables import (
    CUT_NOTE,
    FOCUS_NOTE,
    MEMORY_NOTE,
    MISSING_NOTE,
    PAPER_NOTE,
    episode_tables,
)
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.tables.summary import wilson_interval
from tests.experiments import make_trial, write_run

PARAMS = {"max_episodes": 5, "retrieval": "random", "conceptual": True, "focus": True}


def game(
    won: bool,
    actions: int,
    split: str = "train",
    memory: dict[str, dict[str, Any]] | None = None,
    focus: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One game as a curriculum task records it (with the agent's end-of-game report)."""
    found: dict[str, Any] = {"won": won, "actions": actions, "split": split, "goal": "a goal"}
    if memory is not None:
        found["memory_activity"] = memory
    if focus is not None:
        found["focus"] = focus
    return found


def trial(
    agent: str,
    index: int,
    games: list[dict[str, Any]],
    *,
    params: dict[str, Any] | None = None,
    spec: str = "episodex",
    provider: str = "local",
    status: str = "complete",
) -> TrialRecord:
    """A trial record of a task this process cannot load (its payload stays data)."""
    return TrialRecord.read(
        {
            "status": status,
            "run": "curriculum",
            "agent": agent,
            "task": "household",
            "trial": index,
            "seed": 100 + index,
            "metadata": {
                "agent_spec": {"name": spec, "params": {**PARAMS, **(params or {})}},
                "provider": provider,
            },
            "payload": {"kind": "household", "games": games},
        }
    )


def grid() -> list[TrialRecord]:
    """Episodex with 0 and 5 episodes, conceptual memory on and off: two trials of two games
    each; more episodes win more and shorter, conceptual memory wins the ood games."""
    records = []
    for episodes in (5, 0):
        for conceptual in (True, False):
            agent = f"ep{episodes}_{'on' if conceptual else 'off'}"
            params = {"max_episodes": episodes, "conceptual": conceptual}
            short = 4 if episodes else 8
            for index in range(2):
                games = [game(True, short + index, "train"), game(conceptual, 10, "ood")]
                records.append(trial(agent, index, games, params=params))
    return records


def named(tables: list[Table], title: str) -> Table:
    return next(t for t in tables if t.title == title)


def column(table: Table, name: str) -> list[Any]:
    at = list(table.header).index(name)
    return [row[at] for row in table.rows]


def test_the_papers_two_comparisons_come_from_the_agents_parameters() -> None:
    report = episode_tables(grid())
    titles = [t.title for t in report.tables]
    assert titles == ["episodex: by max_episodes", "episodex: by conceptual"]
    episodes = named(report.tables, "episodex: by max_episodes")
    assert list(episodes.header) == [
        "max_episodes",
        "conceptual",
        "agent",
        "trials",
        "games",
        "won",
        "success %",
        "95% CI",
        "success % ood",
        "success % train",
        "actions per won game",
        "paper (Table 1: 20 games, GPT-4o) success %",
        "paper actions per won game",
    ]
    # the paper's figures beside the run's, for the values it reports
    assert column(episodes, "paper (Table 1: 20 games, GPT-4o) success %") == [95.0] * 4
    assert column(episodes, "paper actions per won game") == [16.47, 11.47, 16.47, 11.47]
    # the conceptual setting held, then the retrieved episodes in order: pairs side by side
    assert column(episodes, "agent") == ["ep0_off", "ep5_off", "ep0_on", "ep5_on"]
    assert column(episodes, "max_episodes") == [0, 5, 0, 5]
    assert column(episodes, "trials") == [2] * 4 and column(episodes, "games") == [4] * 4
    assert column(episodes, "won") == [2, 2, 4, 4]
    assert column(episodes, "success %") == [50.0, 50.0, 100.0, 100.0]
    low, high = wilson_interval(2, 4)
    assert column(episodes, "95% CI")[0] == f"{100 * low:.0f}-{100 * high:.0f}"
    assert column(episodes, "success % ood") == [0.0, 0.0, 100.0, 100.0]
    assert column(episodes, "success % train") == [100.0] * 4
    # won games only: (8 + 9) / 2 without episodes; the ood wins take 10 actions
    assert column(episodes, "actions per won game") == [8.5, 4.5, 9.25, 7.25]

    conceptual = named(report.tables, "episodex: by conceptual")
    assert column(conceptual, "agent") == ["ep0_off", "ep0_on", "ep5_off", "ep5_on"]
    assert column(conceptual, "conceptual") == [False, True, False, True]
    paper = "paper (section 6.2: 10 games, GPT-4o) success %"
    assert column(conceptual, paper) == [50.0, 81.82, 50.0, 81.82]
    assert PAPER_NOTE in report.notes
    assert report.notes[0].startswith("Games are pooled over each agent's complete trials")
    assert MISSING_NOTE in report.notes  # no per-game memory or focus in these files


def test_agents_of_one_spec_on_different_models_are_compared_by_provider() -> None:
    records = [
        trial("small", 0, [game(False, 50)], provider="local"),
        trial("large", 0, [game(True, 12)], provider="gpt-4o"),
        trial("react", 0, [game(True, 9)], spec="alfworld_react", params={}),
    ]
    report = episode_tables(records)
    (table,) = report.tables  # react alone: nothing to compare it with
    assert table.title == "episodex: by provider"
    assert column(table, "provider") == ["gpt-4o", "local"]
    assert column(table, "actions per won game") == [12.0, None]
    headline = "paper (abstract, section 6: 134 games, GPT-4o / DeepSeek-V3) success %"
    assert column(table, headline) == [87.5, None]


def test_a_comparison_the_paper_does_not_make_gets_no_paper_column() -> None:
    records = [
        trial("a", 0, [game(True, 5)], params={"max_episodes": 2}),
        trial("b", 0, [game(True, 5)], params={"max_episodes": 3}),
        trial("c", 0, [game(True, 5)], spec="other", params={"max_episodes": 0}),
        trial("d", 0, [game(True, 5)], spec="other", params={"max_episodes": 5}),
    ]
    report = episode_tables(records)
    assert [t.title for t in report.tables] == [
        "episodex: by max_episodes",
        "other: by max_episodes",
    ]
    assert all(not str(h).startswith("paper") for t in report.tables for h in t.header)
    assert PAPER_NOTE not in report.notes


def memory_of(retrieved: list[str], stored: list[str], k: int) -> dict[str, dict[str, Any]]:
    clusters = [{"id": f"k{i}", "members": [f"c{i}"], "representative": f"c{i}"} for i in range(k)]
    return {
        "episodic": {"kind": "episodic", "retrieved": retrieved, "stored": ["ep"]},
        "conceptual": {
            "kind": "conceptual",
            "clusters": clusters,
            "retrieved": [c["representative"] for c in clusters],
            "stored": stored,
            "error": None if stored or k else "no JSON in the answer",
        },
    }


def test_memory_per_game_counts_what_each_module_retrieved_stored_and_formed() -> None:
    games = [
        game(True, 5, memory=memory_of([], ["c0", "c1"], 0)),
        game(False, 9, memory=memory_of(["ep0"], [], 1)),
        game(True, 4, memory=memory_of(["ep0", "ep1"], ["c2"], 1)),
    ]
    records = [
        trial("episodex", 0, games),
        trial("react", 0, [game(True, 7, memory={})], spec="alfworld_react"),
    ]
    report = episode_tables(records)
    table = named(report.tables, "memory per game")
    assert list(table.header) == [
        "agent",
        "module",
        "games",
        "retrieved per game",
        "games retrieving",
        "stored",
        "games storing",
        "clusters per game",
        "failed updates",
        "games cut",
    ]
    assert [list(row) for row in table.rows] == [
        ["episodex", "episodic", 3, 1.0, 2, 3, 3, None, 0, 0],
        ["episodex", "conceptual", 3, 0.67, 2, 3, 2, 0.67, 0, 0],
    ]
    assert MEMORY_NOTE in report.notes and MISSING_NOTE not in report.notes
    assert CUT_NOTE not in report.notes

    cut = memory_of(["ep0"], [], 1)
    cut["episodic"]["cut"] = {"ep0": [0, 1]}
    capped = episode_tables([trial("episodex", 0, [game(True, 5, memory=cut)])])
    assert column(named(capped.tables, "memory per game"), "games cut") == [1, 0]
    assert CUT_NOTE in capped.notes

    failed = episode_tables([trial("episodex", 0, [game(True, 5, memory=memory_of([], [], 0))])])
    assert column(named(failed.tables, "memory per game"), "failed updates") == [0, 1]


def test_the_focus_loop_counts_activations_by_cause_and_their_recoveries() -> None:
    def run(reason: str, admissible: bool | None) -> dict[str, Any]:
        return {"episode": 0, "turn": 3, "reason": reason, "attempt": 1,
                "next_action": "look", "next_admissible": admissible}  # fmt: skip

    first = [run("empty", True), run("inadmissible", False), run("inadmissible", True)]
    second = [run("chosen", None)]
    records = [
        trial("episodex", 0, [game(True, 5, focus=first), game(False, 9, focus=[])]),
        trial("episodex", 1, [game(False, 9, focus=second)]),
        trial("steady", 0, [game(True, 5, focus=[])]),
    ]
    report = episode_tables(records)
    table = named(report.tables, "focus loop")
    assert list(table.header) == [
        "agent",
        "games",
        "activations",
        "empty",
        "refusal",
        "several",
        "off_task",
        "unknown_name",
        "inadmissible",
        "chosen",
        "recovered",
        "failed",
        "pending",
        "recovered %",
        "budget-ended",
        "turns ended by budget",
    ]
    # records of an earlier version (inadmissible commands held back) still count
    assert [list(row) for row in table.rows] == [
        ["episodex", 3, 4, 1, 0, 0, 0, 0, 2, 1, 2, 1, 1, 66.7, 0, None],
        ["steady", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, 0, None],
    ]
    assert FOCUS_NOTE in report.notes


def test_the_focus_loop_reads_what_followed_each_activation_and_the_budget() -> None:
    def run(reason: str, valid: bool, admissible: bool, budget: bool) -> dict[str, Any]:
        return {"episode": 0, "turn": 3, "reason": reason, "attempt": 1,
                "next_action": "open box 1", "next_admissible": admissible,
                "next_valid": valid, "next_sent": "open box 1" if valid else None,
                "ended_by_budget": budget}  # fmt: skip

    focus = [run("empty", False, False, True), run("off_task", True, False, True)]
    focus.append(run("unknown_name", True, True, False))
    played = {**game(False, 9, focus=focus), "budget_ended_steps": [3]}
    report = episode_tables([trial("episodex", 0, [played])])
    table = named(report.tables, "focus loop")
    (row,) = table.rows
    got = dict(zip(table.header, row, strict=True))
    assert (got["empty"], got["off_task"], got["unknown_name"]) == (1, 1, 1)
    # an inadmissible command after an activation is an action: recovered
    assert (got["recovered"], got["failed"], got["pending"]) == (2, 1, 0)
    assert (got["budget-ended"], got["turns ended by budget"]) == (2, 1)


def test_runs_without_games_and_unreadable_trials_give_nothing_or_a_note() -> None:
    assert episode_tables([make_trial("vanilla", 0)]).tables == []  # an SCT trial: no games
    assert episode_tables([make_trial("vanilla", 0)]).notes == []
    one_agent = [trial("episodex", 0, [game(True, 5)])]
    assert episode_tables(one_agent).tables == []  # nothing to compare, nothing recorded

    records = [
        trial("ep0", 0, [game(True, 5)], params={"max_episodes": 0}),
        trial("ep0", 1, [game(True, 5)], params={"max_episodes": 3}),
        trial("ep0", 2, [{"won": "perhaps", "actions": 4}], params={"max_episodes": 0}),
        trial("ep0", 3, [game(True, 5)], params={"max_episodes": 0}, status="failed"),
        trial("ep5", 0, [game(True, 3)]),
    ]
    report = episode_tables(records)
    table = named(report.tables, "episodex: by max_episodes")
    assert column(table, "trials") == [1, 1]  # the odd ones out are left out, and said so
    assert any("ep0 trial 1 ran other parameters" in n for n in report.notes)
    assert any("ep0 trial 2: game 0 is not in the expected shape (won:" in n for n in report.notes)


def test_cogarch_report_adds_the_episode_report_to_both_pages(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path / "run", grid())
    (run_dir / "run.json").write_text(json.dumps({"config": {"name": "curriculum"}}))
    build_report(run_dir)
    md = (run_dir / "report" / "report.md").read_text("utf-8")
    assert "## Across episodes" in md
    assert "### episodex: by max_episodes" in md and "### episodex: by conceptual" in md
    assert "| 0 | no | ep0_off | 2 | 4 | 2 | 50 | 15-85 | 0 | 100 | 8.5 |" in md
    html = (run_dir / "report" / "report.html").read_text("utf-8")
    assert "<h2>Across episodes</h2>" in html and "<h3>episodex: by conceptual</h3>" in html
    assert md.index("## Across episodes") < md.index("## Failures")
