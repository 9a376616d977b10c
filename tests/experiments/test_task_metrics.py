"""Task metrics: numeric evaluation values per agent and scenario, in the report."""

from __future__ import annotations

import json
from pathlib import Path

from cogarch.core.evaluation import Evaluation
from cogarch.core.metric import metric
from cogarch.core.records import TrialRecord
from cogarch.core.usage import TrialUsage
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.tables.task_metrics import metric_tables, ranked_table
from cogarch.experiments.tables.tidy import row_from_trial
from tests.experiments import make_trial, write_run


def revision_eval(scenario: str, passed: int, stale: int) -> dict[str, object]:
    return {
        "scenario": scenario,
        "outcome": "consistent" if passed == 6 else "inconsistent",
        "rounds_passed": passed,
        "stale_mentions": stale,
        "final_summary_ok": passed == 6,
        "state_errors": None,
    }


def test_metrics_are_the_evaluation_numbers_one_mapping_deep() -> None:
    evaluation = {
        "scenario": "trip",
        "hallucination_rate": 0.25,
        "drift_rate": None,
        "judge_failures": 1,
        "ok": True,
        "footprint": {"mean_memory_tokens": 310.5, "final": 402, "note": "x", "deep": {"a": 1}},
        "turns": [1, 2, 3],
    }
    assert Evaluation.model_validate(evaluation).numeric_values() == {
        "hallucination_rate": 0.25,
        "judge_failures": 1.0,
        "footprint.mean_memory_tokens": 310.5,
        "footprint.final": 402.0,
    }


def test_one_table_per_scenario_with_mean_and_spread() -> None:
    trials = [
        make_trial("tme", 0, task="revision", evaluation=revision_eval("trip", 6, 0)),
        make_trial("tme", 1, task="revision", evaluation=revision_eval("cart", 4, 1)),
        make_trial("tme", 2, task="revision", evaluation=revision_eval("trip", 4, 2)),
        make_trial("flat", 0, task="revision", evaluation=revision_eval("trip", 3, 3)),
        make_trial("flat", 1, failed=True, task="revision"),
    ]
    tables = metric_tables([row_from_trial(t) for t in trials])
    assert [t.title for t in tables] == ["scenario trip", "scenario cart"]
    trip = tables[0]
    assert trip.header == ["metric", "tme", "flat"]
    rows = {r[0]: r[1:] for r in trip.rows}
    assert rows["complete trials"] == ["2", "1"]
    assert rows["rounds_passed"] == ["5 ± 1.41", "3"]
    assert rows["stale_mentions"] == ["1 ± 1.41", "3"]
    assert rows["model calls"] == ["4 ± 0", "4"]
    assert rows["prompt tokens served from cache"] == ["n/a", "n/a"]  # never reported
    assert rows["prompt tokens evaluated"] == ["n/a", "n/a"]
    assert "state_errors" not in rows and "final_summary_ok" not in rows
    cart = {r[0]: r[1:] for r in tables[1].rows}
    assert tables[1].header == ["metric", "tme"] and cart["rounds_passed"] == ["4"]


def test_declared_totals_are_summed_per_agent_side_by_side() -> None:
    def tme_eval(scenario: str, hallucinations: int, confusions: int) -> dict[str, object]:
        consistent = int(hallucinations + confusions == 0)
        counts = {"hallucinations": hallucinations, "confusions": confusions}
        return {"scenario": scenario, **counts, "consistent_task": consistent}

    trials = [
        make_trial("react", 0, task="revision", evaluation=tme_eval("trip", 1, 2)),
        make_trial("react", 1, task="revision", evaluation=tme_eval("cart", 0, 0)),
        make_trial("tme", 0, task="revision", evaluation=tme_eval("trip", 0, 0)),
        make_trial("tme", 1, task="revision", evaluation=tme_eval("cart", 0, 1)),
    ]
    totals = ("hallucinations", "confusions", "consistent_task")
    tables = metric_tables([row_from_trial(t) for t in trials], totals)
    assert [t.title for t in tables] == ["totals over all trials", "scenario trip", "scenario cart"]
    assert tables[0].header == ["agent", "trials", *totals]
    assert tables[0].rows == [["react", "2", "1", "2", "1"], ["tme", "2", "0", "1", "1"]]


def test_a_table_says_how_its_trials_were_judged() -> None:
    trials = [
        make_trial(
            a,
            0,
            task="constraints",
            evaluation={"scenario": "x", "judging": mode, "drift_rate": 0.1},
        )
        for a, mode in (("acc", "cross_agent"), ("rag", "cross_agent"))
    ]
    (table,) = metric_tables([row_from_trial(t) for t in trials])
    assert table.title == "scenario x, judged cross-agent"


def test_trials_without_a_scenario_share_one_table() -> None:
    rows = [row_from_trial(make_trial("vanilla", i)) for i in range(3)]
    (table,) = metric_tables(rows)
    assert table.title == "all trials"
    assert {r[0]: r[1] for r in table.rows}["yes_rate"] == "0.2 ± 0"


def test_the_report_has_a_task_metrics_section(tmp_path: Path) -> None:
    root = tmp_path / "run"
    write_run(
        root,
        [
            make_trial("tme", i, task="revision", evaluation=revision_eval("trip", 6 - i, i))
            for i in range(3)
        ],
    )
    (root / "run.json").write_text(json.dumps({"config": {"name": "rev", "agents": []}}))
    build_report(root)
    md = (root / "report" / "report.md").read_text("utf-8")
    section = md[md.index("## Task metrics") : md.index("## Failures")]
    assert "### scenario trip" in section
    assert "| rounds_passed | 5 ± 1 |" in section
    html = (root / "report" / "report.html").read_text("utf-8")
    assert "<h2>Task metrics</h2>" in html and "rounds_passed" in html


def test_a_measuring_task_gets_no_sct_columns(tmp_path: Path) -> None:
    root = tmp_path / "run"
    evaluation = {"scenario": "itops_502", "hallucination_rate": 0.1, "drift_rate": 0.2}
    write_run(
        root,
        [make_trial("acc", i, task="constraints", evaluation=evaluation) for i in range(2)],
    )
    paths = build_report(root)
    md = (root / "report" / "report.md").read_text("utf-8")
    summary = md[md.index("## Summary") : md.index("## Task metrics")]
    assert "self_consistent" not in summary and "SC %" not in summary
    assert "superiority" not in summary
    assert "| acc | constraints / tiny-model | method | 2 | 2 | 0 | 0 |" in summary
    assert "| drift_rate | 0.2 ± 0 |" in md
    assert not any(p.name == "outcomes.png" for p in paths)


def test_footprints_of_different_scenarios_get_their_own_figures(tmp_path: Path) -> None:
    root = tmp_path / "run"
    trials = [
        make_trial(
            "tme",
            i,
            task="revision",
            evaluation=revision_eval(name, 6, 0),
            footprint=[10 * (i + 1) * t for t in range(1, length + 1)],
        )
        for i, (name, length) in enumerate([("trip", 10), ("cart", 6), ("trip", 10)])
    ]
    write_run(root, trials)
    names = {p.name for p in build_report(root)}
    assert {"footprint_trip.png", "footprint_cart.png"} <= names
    assert "footprint.png" not in names
    md = (root / "report" / "report.md").read_text("utf-8")
    assert "### Memory footprint per turn, scenario cart (mean, 95% band)" in md


def test_older_trials_take_the_scenario_from_the_run_config() -> None:
    old = make_trial("acc", 0, task="constraints", evaluation={"drift_rate": 0.1})
    old.metadata.config = {"task": {"kind": "constraints", "scenario": "itops_502"}}
    assert row_from_trial(old).scenario == "itops_502"
    several = make_trial("acc", 1, task="constraints", evaluation={"drift_rate": 0.1})
    several.metadata.config = {"task": {"kind": "constraints", "scenario": ["a", "b"]}}
    assert row_from_trial(several).scenario is None


def test_prompt_cache_rows_show_what_was_reported() -> None:
    def reporting(trial: int, served: int | None) -> TrialRecord:
        record = make_trial("tme", trial, task="revision", evaluation=revision_eval("trip", 6, 0))
        if served is None:
            return record
        usage = {**record.usage.model_dump(), "cached_prompt_tokens": served}
        usage.update(evaluated_prompt_tokens=400 - served, prompt_cache_reports=4)
        return record.model_copy(update={"usage": TrialUsage.model_validate(usage)})

    trials = [reporting(0, 300), reporting(1, 100), reporting(2, None)]
    (table,) = metric_tables([row_from_trial(t) for t in trials])
    rows = {r[0]: r[1:] for r in table.rows}
    assert rows["prompt tokens served from cache"] == ["200 ± 141 (n=2)"]
    assert rows["prompt tokens evaluated"] == ["200 ± 141 (n=2)"]


def test_the_ranked_table_leaves_out_a_metric_no_trial_measured_unless_it_was_attached() -> None:
    @metric
    def never(record: TrialRecord) -> float | None:
        return None

    @metric
    def one(record: TrialRecord) -> float | None:
        return 1.0

    records = [make_trial("a", 0), make_trial("a", 1), make_trial("b", 0)]
    table = ranked_table(records, [never, one])
    assert table is not None and [row[0] for row in table.rows] == ["one"]
    kept = ranked_table(records, [never, one], keep=["never"])
    assert kept is not None and [row[0] for row in kept.rows] == ["never", "one"]
    assert kept.rows[0][3:] == ["-", "-"]
    assert ranked_table(records, [never]) is None
