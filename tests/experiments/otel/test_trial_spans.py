"""The span tree of whole SCT trials run by the runner on scripted fake hosts: one root per
trial (task, agent, index, seed, outcome), its turns, their steps, model calls and memory
operations, then the fork and its branches; no contents unless opted in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

from cogarch.config import read_yaml
from cogarch.experiments.otel.content import CONTENT_ENV
from cogarch.experiments.otel.session import Tracing
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.running.run_config import RunConfig
from cogarch.experiments.running.runner import Runner
from cogarch.seeds import trial_seed
from tests.spans import Spans, attrs, recording

REPO = Path(__file__).resolve().parents[3]
CONTENT_KEYS = {
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.memory.query.text",
    "gen_ai.memory.records",
    "cogarch.sct.candidate",
}


def config(results: Path, **changes: Any) -> RunConfig:
    data = read_yaml(REPO / "experiments" / "configs" / "hangman_sct_fakes.yaml")
    data["providers"]["broken"] = {
        "kind": "fake",
        "fake": "tests.experiments.slow_fakes:broken_host",
    }
    data["agents"] = [
        {"name": "honest_workflow", "agent": "workflow", "provider": "honest"},
        {"name": "leaky_vanilla", "agent": "vanilla", "provider": "leaky"},
        {"name": "broken", "agent": "vanilla", "provider": "broken"},
    ]
    data.update(trials=1, results_dir=str(results), **changes)
    return RunConfig.model_validate(data)


def root_of(spans: Spans, agent: str) -> ReadableSpan:
    [root] = [s for s in spans.roots() if attrs(s)["cogarch.agent"] == agent]
    return root


async def test_one_sct_trial_is_one_tree_of_turns_steps_calls_memory_and_branches(
    tmp_path: Path,
) -> None:
    run = config(tmp_path)
    with recording() as spans:
        report = await Runner(run, progress=False).run()
    assert (report.ran, report.failed) == (3, 1)

    assert len(spans.roots()) == 3  # one per trial, nothing else at the top
    root = root_of(spans, "honest_workflow")
    record = read_trial(trial_path(tmp_path, "honest_workflow", 0))
    assert root.name == "trial hangman_sct"
    assert attrs(root) == {
        "cogarch.run": "hangman_sct_fakes",
        "cogarch.task": "hangman_sct",
        "cogarch.agent": "honest_workflow",
        "cogarch.trial.index": 0,
        "cogarch.trial.seed": trial_seed(1337, 0),
        "cogarch.trial.status": "complete",
        "cogarch.trial.outcome": "self_consistent",
        "cogarch.trial.model_calls": record.usage.model_calls,
    }
    assert root.status.is_unset

    turn = (
        "invoke_agent honest_workflow",
        [
            ("step responder", [("chat fake:hangman.honest", [])]),
            ("step updater", [("chat fake:hangman.honest", []), ("update_memory", [])]),
        ],
    )
    _, children = spans.tree(root)
    assert children[:4] == [turn] * 4  # t_fork = 4 turns before the fork
    fork_name, branches = children[4]
    assert (fork_name, len(children)) == ("sct fork", 5)
    assert branches == [("sct branch reveal", [turn])] + [("sct branch candidate", [turn])] * 5

    below = spans.under(root)
    trace_id = root.get_span_context().trace_id  # type: ignore[union-attr]
    assert {s.get_span_context().trace_id for s in below} == {trace_id}  # type: ignore[union-attr]
    calls = [s for s in below if s.name.startswith("chat ")]
    assert len(calls) == record.usage.model_calls
    assert sum(attrs(c)["gen_ai.usage.input_tokens"] for c in calls) == record.usage.prompt_tokens
    assert all(attrs(c)["gen_ai.request.seed"] == trial_seed(1337, 0) for c in calls)
    assert all(attrs(c)["gen_ai.provider.name"] == "cogarch.fake" for c in calls)

    turns = [s for s in below if s.name.startswith("invoke_agent")]
    assert [attrs(s)["cogarch.turn.index"] for s in turns] == [1, 2, 3, 4] + [5] * 6
    fork = next(s for s in below if s.name == "sct fork")
    assert attrs(fork) == {"cogarch.sct.turns": 4, "cogarch.sct.candidates": 5}
    reveal, *candidates = spans.children(fork)
    assert attrs(reveal) == {
        "cogarch.sct.branch": "reveal",
        "cogarch.sct.branch.index": 0,
        "cogarch.sct.revealed": True,
    }
    answers = [a.answer for a in record.payload.answers]  # type: ignore[union-attr]
    assert sorted(attrs(c)["cogarch.sct.branch.index"] for c in candidates) == [1, 2, 3, 4, 5]
    by_index = sorted(candidates, key=lambda c: attrs(c)["cogarch.sct.branch.index"])
    assert [attrs(c)["cogarch.sct.answer"] for c in by_index] == answers

    leaky = root_of(spans, "leaky_vanilla")
    assert attrs(leaky)["cogarch.trial.outcome"] == "leakage"
    assert not any(CONTENT_KEYS & set(attrs(s)) for s in spans.all)
    opener = record.turns[0].user
    assert not any(opener in json.dumps(dict(attrs(s))) for s in spans.all)


async def test_a_failed_trial_is_a_failed_root_naming_its_error(tmp_path: Path) -> None:
    with recording() as spans:
        await Runner(config(tmp_path), progress=False).run()
    root = root_of(spans, "broken")
    assert attrs(root)["cogarch.trial.status"] == "failed"
    assert attrs(root)["error.type"] == "ModelCallError"
    assert root.status.status_code.name == "ERROR"
    assert root.status.description == "ModelCallError"  # its message only with contents
    [call] = [s for s in spans.under(root) if s.name.startswith("chat ")]
    assert call.status.status_code.name == "ERROR"
    assert call.events == ()  # no exception event (its message and stack) by default


async def test_contents_join_the_spans_when_the_user_opts_in(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv(CONTENT_ENV, "true")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    tracing = Tracing(SimpleSpanProcessor(exporter))
    assert tracing.capture_content
    with tracing.activate():
        await Runner(config(tmp_path), progress=False).run()
    tracing.shutdown()
    spans = Spans(exporter)

    root = root_of(spans, "honest_workflow")
    record = read_trial(trial_path(tmp_path, "honest_workflow", 0))
    first = next(s for s in spans.under(root) if s.name.startswith("invoke_agent"))
    said = json.loads(str(attrs(first)["gen_ai.input.messages"]))
    assert said[0]["parts"][0]["content"] == record.turns[0].user
    answered = json.loads(str(attrs(first)["gen_ai.output.messages"]))
    assert record.turns[0].reply in answered[0]["parts"][0]["content"]
    candidates = {
        attrs(s)["cogarch.sct.candidate"]
        for s in spans.under(root)
        if s.name == "sct branch candidate"
    }
    assert candidates == set(record.payload.candidates)  # type: ignore[union-attr]
    broken = root_of(spans, "broken")
    assert "the scripted host is broken" in str(broken.status.description)
    [call] = [s for s in spans.under(broken) if s.name.startswith("chat ")]
    assert [e.name for e in call.events] == ["exception"]


async def test_judging_across_agents_after_the_trials_is_a_trace_per_trial_index(
    tmp_path: Path,
) -> None:
    mute = "tests.experiments.test_judged_task:mute_judge"
    run = RunConfig.model_validate(
        {
            "name": "judged",
            "task": {"kind": "constraints", "scenario": "phishing_response", "judging": "auto"},
            "trials": 1,
            "cache": False,
            "results_dir": str(tmp_path),
            "helper_provider": "mute",
            "providers": {"mute": {"kind": "fake", "fake": mute}},
            "agents": [
                {"name": "one", "agent": "transcript", "provider": "mute"},
                {"name": "two", "agent": "vanilla", "provider": "mute"},
            ],
        }
    )
    with recording() as spans:
        await Runner(run, progress=False).run()
    roots = spans.roots()
    assert sorted(r.name for r in roots) == [
        "joint judging",
        "trial constraints",
        "trial constraints",
    ]
    [judging] = [r for r in roots if r.name == "joint judging"]
    assert attrs(judging) == {"cogarch.task": "constraints", "cogarch.trial.index": 0}
    calls = spans.children(judging)
    assert calls and {attrs(c)["cogarch.caller"] for c in calls} == {"judge"}
