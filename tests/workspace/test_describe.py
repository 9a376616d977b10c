"""An agent prints, draws and diffs itself from its spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.cli.command import main
from cogarch.workspace import AgentSpec, build_agent
from cogarch.workspace.describe import diff, format_description
from cogarch.workspace.spec import describe_spec
from tests.workspace import Brain, make_agent, providers

GATED: dict[str, Any] = {
    "name": "gated",
    "memory": {"working_memory": {"kind": "working_memory", "strategy": "overwrite"}},
    "specialists": {
        "start": {"kind": "reground"},
        "planner": {"kind": "planner", "max_tokens": 64},
        "responder": {"kind": "responder", "prompt": "workflow_responder"},
    },
    "edges": ["start -> planner [when: is_question]", "start -> responder", "planner -> responder"],
    "routing": {"start": {"default": "responder"}},
    "entry": "start",
    "step_budget": 5,
}


def gated(**changes: Any) -> AgentSpec:
    return AgentSpec.model_validate({**GATED, **changes})


def test_the_description_holds_every_part_of_the_spec() -> None:
    desc = describe_spec(gated())
    assert desc["entry"] == "start" and desc["responder"] == "responder"
    assert desc["step_budget"] == 5
    assert desc["nodes"]["planner"] == {
        "kind": "planner",
        "provider": "(agent provider)",
        "max_tokens": 64,
    }
    assert {"source": "start", "target": "planner", "when": "is_question"} in desc["edges"]
    assert {"source": "planner", "target": "responder", "when": None} in desc["edges"]
    assert desc["routing"] == {"start": {"default": "responder"}}
    assert desc["memory"] == {"working_memory": {"kind": "working_memory", "strategy": "overwrite"}}
    text = format_description(desc)
    assert "start -> planner  [when: is_question]" in text
    assert "step budget: 5" in text
    assert "start: default=responder" in text


def test_the_diff_names_what_differs() -> None:
    other = gated(
        edges=["start -> planner [when: first_turn]", "start -> responder"],
        specialists={**GATED["specialists"], "planner": {"kind": "planner", "max_tokens": 32}},
        memory={"working_memory": {"kind": "working_memory", "strategy": "patch_replace"}},
        step_budget=7,
    )
    assert diff(describe_spec(gated()), describe_spec(other)) == [
        "step_budget: 5 -> 7",
        "nodes.planner.max_tokens: 64 -> 32",
        "memory.working_memory.strategy: 'overwrite' -> 'patch_replace'",
        "edges.planner -> responder: present -> (absent)",
        "edges.start -> planner when: 'is_question' -> 'first_turn'",
    ]
    assert diff(describe_spec(gated()), describe_spec(gated())) == []


def test_agents_diff_each_other_and_a_fork_is_the_same_agent() -> None:
    vanilla = make_agent("vanilla", Brain())
    workflow = make_agent("workflow", Brain())
    lines = vanilla.diff(workflow)
    assert "name: 'vanilla' -> 'workflow'" in lines
    assert any(
        line.startswith("nodes.updater: (absent) -> {'kind': 'memory_updater'") for line in lines
    )
    assert "edges.responder -> updater: (absent) -> present" in lines
    assert workflow.diff(workflow.fork()) == []


def test_an_agent_draws_its_transition_graph(tmp_path: Path) -> None:
    found, _ = providers(Brain())
    agent = build_agent(gated(), found.get, provider="fake")
    out = agent.draw(tmp_path / "figures" / "gated.png")
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 5_000


def test_the_cli_describes_one_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents", "gwt"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("agent gwt\n")
    assert "step budget: 8" in text
    assert "conscious: default=responder, chooser=(agent provider)" in text
    assert "working_memory: kind=working_memory, strategy=overwrite" in text
