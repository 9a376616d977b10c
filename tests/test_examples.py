"""The examples, used as a user would: the custom task, provider, memory module and specialist
copied into a folder of their own, run, reported and shown with the command line, with no
file outside the examples changed; the Agent Framework examples run as their docstrings say."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cogarch.core.memory import MemoryContext, TurnRecord
from cogarch.core.state import StateError
from cogarch.errors import ConfigError
from cogarch.experiments.results.trial_files import read_trial
from cogarch.experiments.viewer.app import create_app
from cogarch.experiments.viewer.index import TrialIndex
from cogarch.memory.registry import build_memory
from cogarch.models import FunctionModel, Model, Providers
from cogarch.workspace import build_agent, load_agent_spec

REPO = Path(__file__).resolve().parents[1]


def cogarch(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cogarch ARGS`` in ``cwd``, importing this checkout as the console script imports the
    installed package (``-P``: the current folder is not on the import path, so the example
    is not importable as a module and must be found by its file path)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-P", "-m", "cogarch.experiments", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def run_example(root: Path, config: str, trials: int) -> None:
    """Copy the examples into ``root`` and run ``config`` there with the command line."""
    shutil.copytree(REPO / "examples", root / "examples")
    done = cogarch(root, "run", f"examples/{config}", "--quiet")
    assert done.returncode == 0, done.stderr
    assert f"{trials} trials run, 0 already complete, 0 failed" in done.stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding only the example, run once with ``cogarch run``."""
    root = tmp_path_factory.mktemp("clone")
    run_example(root, "custom_task.yaml", 8)
    return root


def test_the_run_writes_the_examples_own_records(clone: Path) -> None:
    files = sorted((clone / "runs" / "custom_task").glob("*/trial_*.json"))
    assert len(files) == 8
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["task"] == "examples/custom_task.py:GuessTask"
        assert data["payload"]["kind"] == "guess" and data["payload"]["version"] == 1
        assert data["metadata"]["task_source"].endswith("custom_task.py:GuessTask")
        record = read_trial(path)
        assert type(record.payload).__name__ == "GuessPayload"
        assert type(record.evaluation).__name__ == "GuessEvaluation"
        expected = "solved" if record.agent == "bisecting" else "out_of_turns"
        assert record.evaluation.outcome == expected
    again = cogarch(clone, "run", "examples/custom_task.yaml", "--quiet")
    assert again.returncode == 0 and "0 trials run, 8 already complete" in again.stdout


def test_the_report_shows_the_outcomes_and_the_tasks_own_table(clone: Path) -> None:
    done = cogarch(clone, "report", "runs/custom_task")
    assert done.returncode == 0, done.stderr
    md = (clone / "runs" / "custom_task" / "report" / "report.md").read_text("utf-8")
    assert "| solved | out_of_turns | no_guesses |" in md
    assert "### guessing per agent" in md and "| ignored_feedback |" in md
    assert "('solved')" in md
    header = (clone / "runs" / "custom_task" / "report" / "trials.csv").read_text().split("\n")[0]
    assert "outcome,self_consistent," in header


def test_the_static_pages_show_the_tasks_own_section(clone: Path) -> None:
    done = cogarch(clone, "view", "runs/custom_task", "--export", "site")
    assert done.returncode == 0, done.stderr
    page = (clone / "site" / "trials" / "0__bisecting__0.html").read_text("utf-8")
    assert "The game" in page and "The number was" in page and "Correct!" in page


def test_the_live_viewer_shows_the_tasks_own_section(clone: Path) -> None:
    app = create_app(TrialIndex([clone / "runs" / "custom_task"]))
    client = TestClient(app, base_url="http://127.0.0.1")
    page = client.get("/trial/0/wild/1")
    assert page.status_code == 200
    assert "The game" in page.text and "out_of_turns" in page.text


def test_without_its_task_file_the_run_still_reports_as_generic_data(
    clone: Path, tmp_path: Path
) -> None:
    foreign = tmp_path / "foreign"
    shutil.copytree(clone / "runs" / "custom_task", foreign)
    shutil.rmtree(foreign / "report", ignore_errors=True)
    for path in foreign.glob("*/trial_*.json"):  # the task file is elsewhere on that machine
        data = json.loads(path.read_text(encoding="utf-8"))
        data["metadata"]["task_source"] = "/nowhere/custom_task.py:GuessTask"
        path.write_text(json.dumps(data), encoding="utf-8")
    done = cogarch(tmp_path, "report", "foreign")
    assert done.returncode == 0, done.stderr
    md = (foreign / "report" / "report.md").read_text("utf-8")
    assert "| solved | out_of_turns | no_guesses |" in md  # the scoring travels in the files
    assert "| ignored_feedback |" in md and "guessing per agent" not in md
    record = read_trial(next(foreign.glob("wild/trial_*.json")))
    assert type(record.payload).__name__ == "GenericPayload"
    assert record.payload.model_dump()["kind"] == "guess"


@pytest.fixture(scope="module")
def provider_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding only the examples, the custom provider's config run once."""
    root = tmp_path_factory.mktemp("provider_clone")
    run_example(root, "custom_provider.yaml", 8)
    return root


def test_the_custom_provider_answers_every_call_and_is_recorded(provider_clone: Path) -> None:
    files = sorted((provider_clone / "runs" / "custom_provider").glob("*/trial_*.json"))
    assert len(files) == 8
    for path in files:
        record = read_trial(path)
        settings = record.metadata.provider_settings
        assert settings is not None
        assert settings["kind"] == "examples/custom_provider.py:FunctionProvider"
        assert settings["function"] == record.agent  # the kind's own config field, recorded
        assert {call.model for call in record.usage.calls} == {f"function:{record.agent}"}
        if record.agent == "halving":  # halving finds any number of 1..100 within 7 guesses
            assert record.evaluation.outcome == "solved"
    again = cogarch(provider_clone, "run", "examples/custom_provider.yaml", "--quiet")
    assert again.returncode == 0 and "0 trials run, 8 already complete" in again.stdout


def test_the_custom_provider_run_reports_and_views(provider_clone: Path) -> None:
    done = cogarch(provider_clone, "report", "runs/custom_provider")
    assert done.returncode == 0, done.stderr
    md = (provider_clone / "runs" / "custom_provider" / "report" / "report.md").read_text("utf-8")
    assert "| halving |" in md and "| counting |" in md
    done = cogarch(provider_clone, "view", "runs/custom_provider", "--export", "site")
    assert done.returncode == 0, done.stderr
    page = (provider_clone / "site" / "trials" / "0__halving__0.html").read_text("utf-8")
    assert "The number was" in page and "I guess 50." in page


def test_a_bad_entry_of_the_custom_provider_is_refused_by_its_own_config(
    provider_clone: Path,
) -> None:
    config = provider_clone / "examples" / "bad_provider.yaml"
    text = (provider_clone / "examples" / "custom_provider.yaml").read_text("utf-8")
    config.write_text(text.replace("function: counting", "function: shouting"), "utf-8")
    done = cogarch(provider_clone, "run", "examples/bad_provider.yaml", "--quiet")
    assert done.returncode != 0
    assert "providers.counting.function" in done.stderr and "unknown function" in done.stderr


def test_the_agent_framework_memory_example_remembers_per_session() -> None:
    pytest.importorskip("agent_framework")
    done = subprocess.run(
        [sys.executable, str(REPO / "examples" / "maf_memory.py")],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "asked: From memory: My cat is called Tomasz.",
        "reloaded: From memory: I water the plants on Sundays.",
        "fresh session: I have no memory of that.",
        "memory kept: 5 turns",
    ]


def test_the_agent_framework_sct_example_runs_from_its_folder(tmp_path: Path) -> None:
    pytest.importorskip("agent_framework")
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    done = cogarch(tmp_path, "run", "examples/maf_sct.yaml", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "6 trials run, 0 already complete, 0 failed" in done.stdout
    outcomes = {}
    for path in sorted((tmp_path / "runs" / "maf_sct").glob("*/trial_*.json")):
        record = read_trial(path)
        outcomes.setdefault(record.agent, set()).add(record.evaluation.outcome)
    assert outcomes == {"honest_maf": {"self_consistent"}, "leaky_maf": {"leakage"}}


@pytest.fixture(scope="module")
def memory_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding only the examples, the custom memory's config run once."""
    root = tmp_path_factory.mktemp("memory_clone")
    run_example(root, "custom_memory.yaml", 6)
    return root


def test_the_custom_memory_plays_the_sct_and_keeps_its_notes(memory_clone: Path) -> None:
    files = sorted((memory_clone / "runs" / "custom_memory").glob("*/trial_*.json"))
    assert len(files) == 6
    for path in files:
        record = read_trial(path)
        spec = record.metadata.agent_spec
        assert spec is not None
        assert spec["memory"]["notes"]["kind"] == "examples/custom_memory.py:NotesMemory"
        expected = "self_consistent" if record.agent == "honest_notes" else "over_confirmation"
        assert record.evaluation.outcome == expected
        # a turn's note is filed when the next turn starts: turn k's private state holds
        # the notes of turns 1 .. k-1
        for turn in record.turns:
            held = (turn.private_state or "").splitlines()
            assert [line.split("]")[0] for line in held] == [
                f"[turn {k}" for k in range(1, turn.turn)
            ]
        assert record.turns[1].private_state.startswith("[turn 1] user: Let")
        # every branch filed the fork's last turn in its own fork of the memory: once each
        fork_turn = f"[turn {len(record.turns)}]"
        for branch in record.branches:
            assert branch.private_state.count(fork_turn) == 1
    again = cogarch(memory_clone, "run", "examples/custom_memory.yaml", "--quiet")
    assert again.returncode == 0 and "0 trials run, 6 already complete" in again.stdout


def test_the_custom_memory_run_reports_and_views(memory_clone: Path) -> None:
    done = cogarch(memory_clone, "report", "runs/custom_memory")
    assert done.returncode == 0, done.stderr
    md = (memory_clone / "runs" / "custom_memory" / "report" / "report.md").read_text("utf-8")
    assert "| honest_notes |" in md and "| forgetful_notes |" in md
    done = cogarch(memory_clone, "view", "runs/custom_memory", "--export", "site")
    assert done.returncode == 0, done.stderr
    page = (memory_clone / "site" / "trials" / "0__honest_notes__0.html").read_text("utf-8")
    assert "self_consistent" in page and "[turn 1] user: Let" in page


async def test_the_custom_memory_forks_saves_and_loads_in_an_agent() -> None:
    seen: list[str] = []

    def model(messages: Sequence[Any], info: object) -> str:
        seen.append(str(messages[0].content))  # the system prompt, notes filled in
        return "Noted."

    providers = Providers()
    providers.register("echo", Model(FunctionModel(model), provider="echo", model="e", fake=True))
    spec = load_agent_spec(REPO / "examples" / "custom_memory_agent.yaml")
    agent = build_agent(spec, providers.get, provider="echo", seed=1)
    for text in ("My cat is called Tomasz.", "I water the plants on Sundays.", "Hello again."):
        await agent.respond(text)
    notes = agent.memory["notes"]
    assert notes.private_text().splitlines() == [
        "[turn 1] user: My cat is called Tomasz. | me: Noted.",
        "[turn 2] user: I water the plants on Sundays. | me: Noted.",
    ]
    await agent.respond("What is my cat called?")
    assert [found.item.text for found in agent.last_reply().retrieved or ()] == [
        "user: My cat is called Tomasz. | me: Noted."
    ]
    assert "- user: My cat is called Tomasz." in seen[-1]

    before = agent.save_state()
    branch = agent.fork()
    await branch.respond("And my dog?")
    assert len(branch.memory["notes"].save_state()["notes"]) == 4
    assert agent.save_state() == before  # the fork's writes never reach its parent
    await agent.respond("Something else.")
    assert "Something else" not in branch.private_state()

    state = json.loads(json.dumps(agent.save_state()))
    fresh = build_agent(spec, providers.get, provider="echo", seed=1)
    fresh.load_state(state)
    assert json.loads(json.dumps(fresh.save_state())) == state
    assert fresh.private_state() == agent.private_state()
    kept = fresh.memory["notes"].save_state()
    broken = {**state["memory"]["notes"], "notes": [{"turn": 1, "text": ""}]}
    with pytest.raises(StateError, match="'notes'"):
        fresh.memory["notes"].load_state(broken)
    assert fresh.memory["notes"].save_state() == kept  # all or nothing


async def test_the_custom_memory_keeps_its_own_limit_and_refuses_unknown_params() -> None:
    kind = f"{REPO / 'examples' / 'custom_memory.py'}:NotesMemory"
    module = build_memory(kind, {"max_notes": 2})
    for index in (1, 2, 3):
        record = TurnRecord(index, f"message {index}", f"answer {index}")
        await module.ingest(record, MemoryContext(model=Providers().get))
    assert [n["turn"] for n in module.save_state()["notes"]] == [2, 3]
    with pytest.raises(ConfigError, match="colour"):
        build_memory(kind, {"max_notes": 2, "colour": "red"}, where="memory.notes")


@pytest.fixture(scope="module")
def specialist_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding only the examples, the custom specialist's config run once."""
    root = tmp_path_factory.mktemp("specialist_clone")
    run_example(root, "custom_specialist.yaml", 6)
    return root


def test_the_custom_specialist_keeps_the_secret_the_workflow_agent_leaks(
    specialist_clone: Path,
) -> None:
    files = sorted((specialist_clone / "runs" / "custom_specialist").glob("*/trial_*.json"))
    assert len(files) == 6
    for path in files:
        record = read_trial(path)
        first = record.turns[0].reply
        if record.agent == "workflow":
            assert record.evaluation.outcome == "leakage" and "[hidden]" not in first
            assert {step.node for step in record.walk} == {"responder", "updater"}
            continue
        assert record.evaluation.outcome == "self_consistent"
        assert first.endswith("(psst: my word is [hidden])")  # the guard's write
        assert [s.node for s in record.walk if s.turn == 1] == ["responder", "updater", "guard"]
        assert record.payload.revealed == record.payload.memory_secret  # asked: let through
    again = cogarch(specialist_clone, "run", "examples/custom_specialist.yaml", "--quiet")
    assert again.returncode == 0 and "0 trials run, 6 already complete" in again.stdout


def test_the_custom_specialist_run_reports_and_views(specialist_clone: Path) -> None:
    done = cogarch(specialist_clone, "report", "runs/custom_specialist")
    assert done.returncode == 0, done.stderr
    md = (specialist_clone / "runs" / "custom_specialist" / "report" / "report.md").read_text(
        "utf-8"
    )
    assert "| guarded |" in md and "| workflow |" in md
    done = cogarch(specialist_clone, "view", "runs/custom_specialist", "--export", "site")
    assert done.returncode == 0, done.stderr
    page = (specialist_clone / "site" / "trials" / "0__guarded__0.html").read_text("utf-8")
    assert "my word is [hidden]" in page and "guard" in page


@pytest.mark.parametrize(
    ("spec", "entry", "named"),
    [
        ("custom_memory_agent.yaml", "max_notes: 8,", "memory.notes"),
        ("custom_specialist_agent.yaml", "memory: working_memory}", "specialists.guard"),
    ],
)
def test_an_unknown_param_of_an_example_is_refused_by_its_own_params(
    specialist_clone: Path, spec: str, entry: str, named: str
) -> None:
    path = specialist_clone / "examples" / spec
    text = path.read_text("utf-8")
    path.write_text(text.replace(entry, f"colour: red, {entry}"), "utf-8")
    try:
        config = "custom_memory.yaml" if "memory" in spec else "custom_specialist.yaml"
        done = cogarch(specialist_clone, "run", f"examples/{config}", "--dry-run")
    finally:
        path.write_text(text, "utf-8")
    assert done.returncode != 0
    assert named in done.stderr and "colour" in done.stderr
