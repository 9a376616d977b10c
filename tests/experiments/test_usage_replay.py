"""Usage in a run: cached prompt tokens reach the trial files, the end table and the report, and
a run resumed or replayed from the response cache reports the usage of the run it replays.

The fake runs play the honest Hangman host behind a server that reports its prompt cache for
answers but not for memory updates (``tests.experiments.slow_fakes:prefix_cached_honest``),
so the workflow agent has calls that report and calls that do not. The HTTP run sends every
call through the real OpenAI client to the fault server, which answers llama.cpp-style.
"""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

from cogarch.core.records import TrialRecord
from cogarch.experiments.reports.report import build_report
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner, RunReport
from cogarch.testing import FaultServer, allowing_model_requests
from tests.experiments.test_fault_run import fault_config

AGENTS = ("vanilla", "workflow")
TRIALS = 3


def fake_config(results: Path) -> RunConfig:
    return RunConfig.model_validate(
        {
            "name": "usage_replay",
            "task": {"kind": "hangman_sct", "t_fork": 3, "n_candidates": 3},
            "trials": TRIALS,
            "seed": 11,
            "concurrency": 2,
            "cache": True,
            "results_dir": str(results),
            "helper_provider": "prefix",
            "providers": {
                "prefix": {
                    "kind": "fake",
                    "fake": "tests.experiments.slow_fakes:prefix_cached_honest",
                }
            },
            "agents": [
                {"name": "vanilla", "agent": "vanilla", "provider": "prefix"},
                {
                    "name": "workflow",
                    "agent": "workflow",
                    "provider": "prefix",
                    "params": {"strategy": "overwrite"},
                },
            ],
        }
    )


async def run(config: RunConfig) -> RunReport:
    return await Runner(config, progress=False).run()


def trials(results: Path, agents: tuple[str, ...] = AGENTS) -> dict[tuple[str, int], TrialRecord]:
    return {(a, i): read_trial(trial_path(results, a, i)) for a in agents for i in range(TRIALS)}


def consumed(record: TrialRecord) -> dict[str, Any]:
    """What a trial's calls cost, whether each was made now or replayed: the totals and every
    call's numbers (in a stable order), without the hit flags, attempts and times."""
    usage = record.usage
    totals = usage.model_dump(exclude={"cache_hits", "latency_s", "calls", "by_caller"})
    callers = {
        name: {k: v for k, v in row.items() if k not in ("cached", "latency_s")}
        for name, row in usage.by_caller.items()
    }
    calls = list(
        (c.caller, c.prompt_tokens, c.completion_tokens, c.reasoning_tokens, c.cached_prompt_tokens)
        for c in usage.calls
    )  # fmt: skip
    calls.sort(key=repr)  # the fork's branches may answer in any order
    return {"totals": totals, "by_caller": callers, "calls": calls}


def usage_rows(text: str) -> dict[str, dict[str, str]]:
    """The usage table printed in ``text`` (end table or report), by agent."""
    lines = text.splitlines()
    start = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("| agent") and "served from cache" in line
    )
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows: dict[str, dict[str, str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(header, cells, strict=True))
    return rows


def without_hits(rows: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    return {a: {k: v for k, v in row.items() if k != "cache hits"} for a, row in rows.items()}


async def run_once(
    tmp_path: Path,
) -> tuple[Path, RunConfig, RunReport, dict[tuple[str, int], TrialRecord]]:
    """The fake run played once into ``tmp_path / "run"``: its folder, config, report and
    trials."""
    results = tmp_path / "run"
    config = fake_config(results)
    first = await run(config)
    return results, config, first, trials(results)


def assert_usage_of_the_original(
    replayed: dict[tuple[str, int], TrialRecord],
    original: dict[tuple[str, int], TrialRecord],
    again: RunReport,
    first: RunReport,
) -> None:
    """Every trial played again cost what it first did, and the run's end table says what the
    first run's did but for its cache hits."""
    for key, record in replayed.items():
        assert consumed(record) == consumed(original[key])
    assert without_hits(usage_rows(again.table())) == without_hits(usage_rows(first.table()))


def report_text(results: Path, out: Path) -> str:
    md, *_ = build_report(results, out)
    return md.read_text(encoding="utf-8")


async def test_cached_prompt_tokens_reach_trial_files_end_table_and_report(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"
    report = await run(fake_config(results))
    records = trials(results)

    for record in records.values():
        assert record.status == "complete"
        usage = record.usage
        reporting = [c for c in usage.calls if c.cached_prompt_tokens is not None]
        assert reporting and all(c.caller != "updater" for c in reporting)
        assert all(c.cached_prompt_tokens is None for c in usage.calls if c.caller == "updater")
        assert usage.prompt_cache_reports == len(reporting)
        assert usage.cached_prompt_tokens == sum(c.cached_prompt_tokens or 0 for c in reporting)
        assert usage.evaluated_prompt_tokens == sum(
            c.prompt_tokens - (c.cached_prompt_tokens or 0) for c in reporting
        )
        assert usage.cached_prompt_tokens > 0 and usage.model_calls == len(usage.calls)
        raw = json.loads(trial_path(results, record.agent, record.trial).read_text("utf-8"))
        assert "cached_prompt_tokens" in raw["usage"]["calls"][0]
    updater = records["workflow", 0].usage.by_caller["updater"]
    assert (updater["cached_prompt_tokens"], updater["prompt_cache_reports"]) == (None, 0)

    def expected(agent: str) -> dict[str, str]:
        mine = [r.usage for (a, _), r in records.items() if a == agent]
        calls, reports = sum(u.model_calls for u in mine), sum(u.prompt_cache_reports for u in mine)
        served = sum(u.cached_prompt_tokens or 0 for u in mine)
        evaluated = sum(u.evaluated_prompt_tokens or 0 for u in mine)
        part = f" ({reports} of {calls} calls)" if reports < calls else ""
        return {
            "model calls": str(calls),
            "prompt tokens sent": str(sum(u.prompt_tokens for u in mine)),
            "served from cache": f"{served} ({100 * served / (served + evaluated):.0f}%){part}",
            "evaluated": f"{evaluated}{part}",
        }

    end = usage_rows(report.table())
    written = usage_rows(report_text(results, tmp_path / "report"))
    for agent in AGENTS:
        for table in (end, written):
            assert {k: table[agent][k] for k in expected(agent)} == expected(agent)
    assert "of" not in end["vanilla"]["served from cache"]  # every vanilla call reported
    assert "calls)" in end["workflow"]["served from cache"]  # its updater's calls did not

    with (tmp_path / "report" / "trials.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    first = next(r for r in rows if r["agent"] == "vanilla" and r["trial"] == "0")
    usage = records["vanilla", 0].usage
    assert int(first["cached_prompt_tokens"]) == usage.cached_prompt_tokens
    assert int(first["evaluated_prompt_tokens"]) == usage.evaluated_prompt_tokens
    assert (first["model_calls"], first["cache_hits"]) == (str(usage.model_calls), "0")
    metrics = report_text(results, tmp_path / "report")
    assert "| prompt tokens served from cache |" in metrics


async def test_a_replay_from_the_response_cache_reports_the_original_usage(
    tmp_path: Path,
) -> None:
    results, config, first, original = await run_once(tmp_path)
    first_report = report_text(results, tmp_path / "report1")

    for path in results.glob("*/trial_*.json"):
        path.unlink()  # the same run again: every seeded call is now a cache hit
    again = await run(config)
    replayed = trials(results)

    assert again.ran == len(original)
    for key, record in replayed.items():
        assert consumed(record) == consumed(original[key])
        usage = record.usage
        assert usage.cache_hits == usage.model_calls > 0  # all replayed, and flagged
        assert all(c.cached and c.attempts == 0 for c in usage.calls)
        assert usage.latency_s == original[key].usage.latency_s  # the original calls' times
    end, end_before = usage_rows(again.table()), usage_rows(first.table())
    assert without_hits(end) == without_hits(end_before)
    assert all(row["cache hits"] == row["model calls"] for row in end.values())
    assert all(row["cache hits"] == "0" for row in end_before.values())
    second_report = report_text(results, tmp_path / "report2")
    assert without_hits(usage_rows(second_report)) == without_hits(usage_rows(first_report))


async def test_a_resume_mixing_cached_and_live_calls_reports_the_original_usage(
    tmp_path: Path,
) -> None:
    results, config, first, original = await run_once(tmp_path)

    gone = [("vanilla", 1), ("workflow", 0), ("workflow", 2)]
    for agent, i in gone:
        trial_path(results, agent, i).unlink()
    entries = sorted((results / ".cache").rglob("*.json"))
    for entry in random.Random(3).sample(entries, len(entries) // 2):
        entry.unlink()  # these calls are made again, the others come from the cache
    again = await run(config)
    resumed = trials(results)

    assert (again.ran, again.skipped) == (len(gone), len(original) - len(gone))
    hits = [resumed[k].usage.cache_hits for k in gone]
    calls = [resumed[k].usage.model_calls for k in gone]
    assert sum(hits) > 0 and any(h < n for h, n in zip(hits, calls, strict=True))
    assert_usage_of_the_original(resumed, original, again, first)


async def test_a_replayed_http_run_reports_the_llama_cpp_timings_it_first_got(
    tmp_path: Path,
) -> None:
    results = tmp_path / "run"

    def cache_n(body: Any) -> int | None:
        turns = len(body["messages"])
        return None if turns == 2 else 3 * turns  # one call in a few says nothing

    content = "Pattern: _ _ _ _ _\nRemaining lives: 6"
    options: dict[str, Any] = {"content": content, "cached_tokens": cache_n}
    with FaultServer(cache_report="timings", prompt_tokens=50, **options) as server:
        config = fault_config(server, results, cache=True)
        with allowing_model_requests():
            first = await run(config)
        original = trials(results, ("vanilla",))
        requests = server.hits
        gone = [("vanilla", 0), ("vanilla", 2)]
        for _, i in gone:
            trial_path(results, "vanilla", i).unlink()
        entries = sorted((results / ".cache").rglob("*.json"))
        for entry in entries[::2]:
            entry.unlink()
        with allowing_model_requests():
            again = await run(config)
        made = server.hits - requests

    reports = [c.cached_prompt_tokens for r in original.values() for c in r.usage.calls]
    assert None in reports and any(n for n in reports)
    resumed = trials(results, ("vanilla",))
    hits = sum(resumed[k].usage.cache_hits for k in gone)
    assert hits > 0 and made > 0  # some calls replayed, the others made again
    assert hits + made == sum(resumed[k].usage.model_calls for k in gone)
    assert_usage_of_the_original(resumed, original, again, first)


async def test_old_trial_files_still_load_and_report_no_cache(tmp_path: Path) -> None:
    """A trial file written before cached prompt tokens were recorded, and before hits were
    counted in the totals: its calls have no ``cached_prompt_tokens``, its totals no split."""
    results = tmp_path / "run"
    await run(fake_config(results))
    path = trial_path(results, "vanilla", 0)
    data = json.loads(path.read_text(encoding="utf-8"))
    usage = data["usage"]
    for call in usage["calls"]:
        del call["cached_prompt_tokens"]
    usage["calls"][0]["cached"] = True  # one hit, left out of the old totals
    left_out = usage["calls"][0]["prompt_tokens"]
    for key in ("cached_prompt_tokens", "evaluated_prompt_tokens", "prompt_cache_reports"):
        del usage[key]
    for row in usage["by_caller"].values():
        for key in ("cached_prompt_tokens", "evaluated_prompt_tokens", "prompt_cache_reports"):
            del row[key]
    usage["model_calls"] -= 1
    usage["cache_hits"] = 1
    usage["prompt_tokens"] -= left_out
    path.write_text(json.dumps(data), encoding="utf-8")

    record = read_trial(path)
    assert record.usage.model_calls == len(record.usage.calls)  # hits counted again
    assert record.usage.prompt_tokens == usage["prompt_tokens"] + left_out
    assert record.usage.cached_prompt_tokens is None
    assert all(c.cached_prompt_tokens is None for c in record.usage.calls)

    for other in range(1, TRIALS):
        trial_path(results, "vanilla", other).unlink()
    for i in range(TRIALS):
        trial_path(results, "workflow", i).unlink()
    text = report_text(results, tmp_path / "report")
    row = usage_rows(text)["vanilla"]
    assert (row["served from cache"], row["evaluated"]) == ("n/a", "n/a")
    assert row["cache hits"] == "1"
