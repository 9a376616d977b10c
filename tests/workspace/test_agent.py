"""Whole agents over several turns: the workflow agent per strategy and the routed gwt agent."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from autogen_core.models import LLMMessage

from cogarch.memory import WorkingMemory
from cogarch.models import CallInfo, as_pairs
from cogarch.workspace import Agent, build_agent, load_agent_spec
from cogarch.workspace.heatmap import aggregate_counts, plot_transition_heatmap
from tests.workspace import Brain, make_agent, memory_edit, providers, role_of, working_memory_in

STRATEGIES = ["overwrite", "append_delete", "patch_replace"]
QUESTIONS = ["Shall we play a game?", "Is the word long?", "Does it have an E?"]


def working_memory(agent: Agent) -> WorkingMemory:
    module = agent.memory["working_memory"]
    assert isinstance(module, WorkingMemory)
    return module


def assert_trace_is_the_walk(agent: Agent) -> None:
    """Per turn: the transitions chain from the entry and the steps run exactly those nodes."""
    for turn in range(1, agent.workspace.turn + 1):
        moves = [t for t in agent.route_log.transitions if t.turn == turn]
        assert moves[0].how == "entry" and moves[0].target == agent.graph.entry
        for before, after in itertools.pairwise(moves):
            assert after.source == before.target
        ran = [s.node for s in agent.route_log.steps if s.turn == turn]
        assert ran == [t.target for t in moves]


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_workflow_answers_then_updates_memory_every_turn(strategy: str) -> None:
    brain = Brain()
    agent = make_agent("workflow", brain, strategy=strategy)

    replies = [await agent.respond(q) for q in QUESTIONS]

    assert replies == ["answer 1", "answer 2", "answer 3"]
    assert [r for r, _ in brain.calls] == ["responder", "updater"] * 3
    memory = working_memory(agent)
    assert memory.strategy == strategy
    for n in (1, 2, 3):
        assert f"- note {n}" in memory.text
    assert memory.text.startswith("## 1. Goals and Plans")
    assert len(memory.edits) == 3
    # the responder of turn 2 reads the memory the updater wrote in turn 1
    second = brain.of("responder")[1]
    assert "- note 1" in working_memory_in(as_pairs(second)[0][1])
    assert "- note 2" not in as_pairs(second)[0][1]
    # the trace holds every transition, with timing and the model call of each step
    assert [(t.turn, t.source, t.target, t.how) for t in agent.route_log.transitions] == [
        (turn, source, target, how)
        for turn in (1, 2, 3)
        for source, target, how in (
            ("<input>", "responder", "entry"),
            ("responder", "updater", "single"),
        )
    ]
    assert [(s.node, s.model_calls) for s in agent.route_log.steps] == [
        ("responder", 1),
        ("updater", 1),
    ] * 3
    assert all(s.elapsed_s >= 0 and s.tokens > 0 for s in agent.route_log.steps)
    assert agent.workspace.broadcasts["updater"] == {"applied": 1, "errors": []}
    assert len(agent.state_sizes) == 3
    assert agent.state_sizes[0] < agent.state_sizes[-1]


async def test_the_updater_sees_the_reply_and_only_the_strategys_tools() -> None:
    brain = Brain()
    agent = make_agent("workflow", brain, strategy="append_delete")
    await agent.respond("Hello there")
    await agent.respond("Second message")
    prompt = as_pairs(brain.of("updater")[1])[0][1]
    assert "<assistant_response> answer 2 </assistant_response>" in prompt
    assert "<dialogue> User: Hello there\nAssistant: answer 1 </dialogue>" in prompt
    tools = prompt.split("Allowed tools:", 1)[1]
    assert "append_in_memory(" in tools and "delete_from_memory(" in tools
    assert "overwrite_memory(" not in tools and "patch_memory(" not in tools
    assert as_pairs(brain.of("updater")[1])[1][1].startswith("User: Second message")


async def test_the_gwt_agent_routes_answers_and_updates_over_several_turns(tmp_path: Path) -> None:
    brain = Brain(route=("focus", "planner", "responder"))
    agent = make_agent("gwt", brain, strategy="patch_replace")

    replies = [await agent.respond(q) for q in QUESTIONS]

    assert replies == ["answer 1", "answer 2", "answer 3"]
    assert_trace_is_the_walk(agent)
    counts = agent.route_log.counts()
    assert counts == {
        ("perception", "conscious"): 3,
        ("conscious", "focus"): 3,
        ("focus", "conscious"): 3,
        ("conscious", "planner"): 3,
        ("planner", "responder"): 3,  # the plan hands over to the responder
        ("responder", "updater"): 3,
    }
    assert [r for r, _ in brain.calls].count("router") == 6
    assert "borrows only the Episodex routing" in load_agent_spec("gwt").description
    assert "forms and stores no belief state" in load_agent_spec("gwt").description
    assert "- note 3" in working_memory(agent).text
    # the responder reads the turn's private broadcasts (focus and plan), never shown to the user
    system_text = as_pairs(brain.of("responder")[0])[0][1]
    assert "Focus on the user's latest message: Shall we play a game?" in system_text
    assert "Plan: answer briefly." in system_text

    png = plot_transition_heatmap(counts, tmp_path / "gwt.png", title="gwt, 3 turns")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000


async def test_transitions_of_many_agents_make_one_heatmap(tmp_path: Path) -> None:
    agents = [make_agent("workflow", Brain(), strategy=s) for s in STRATEGIES]
    agents.append(make_agent("gwt", Brain(route=("planner", "responder"))))
    for agent in agents:
        for q in QUESTIONS[:2]:
            await agent.respond(q)
    counts = aggregate_counts(agent.route_log for agent in agents)
    assert counts[("responder", "updater")] == 2 * 4
    assert counts[("conscious", "planner")] == 2
    png = plot_transition_heatmap(counts, tmp_path / "all" / "heatmap.png")
    assert png.exists() and png.stat().st_size > 10_000


class FlakyUpdater:
    """Responds normally; the updater's answers come from a script, one per attempt."""

    def __init__(self, attempts: Sequence[str]) -> None:
        self.attempts = list(attempts)
        self.updater_calls: list[list[tuple[str, str]]] = []

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        if role_of(messages) != "updater":
            return "Sure."
        self.updater_calls.append(as_pairs(messages))
        return self.attempts[min(len(self.updater_calls), len(self.attempts)) - 1]


def workflow_with(fake: FlakyUpdater, strategy: str = "append_delete") -> Agent:
    found, _ = providers(fake)
    spec = load_agent_spec("workflow", {"strategy": strategy})
    return build_agent(spec, found.get, provider="fake")


def append_call(line: str, section: str = "Facts and Knowledge") -> str:
    return json.dumps(
        {"name": "append_in_memory", "arguments": {"section_title": section, "lines": [line]}}
    )


async def test_invalid_updater_json_is_shown_back_and_retried() -> None:
    fake = FlakyUpdater(["Sure, I will update the memory!", append_call("- secret: ZEBRA")])
    agent = workflow_with(fake)

    assert await agent.respond("Think of a word") == "Sure."

    memory = working_memory(agent)
    assert "- secret: ZEBRA" in memory.text
    assert len(fake.updater_calls) == 2
    retry = fake.updater_calls[1]
    assert retry[-2] == ("assistant", "Sure, I will update the memory!")
    assert retry[-1][0] == "user" and retry[-1][1].startswith("The tool call failed:")
    broadcast = agent.workspace.broadcasts["updater"]
    assert broadcast["applied"] == 1
    assert len(broadcast["errors"]) == 1
    assert agent.route_log.steps[-1].model_calls == 2


async def test_a_failing_tool_call_leaves_the_memory_unchanged() -> None:
    before = WorkingMemory(WorkingMemory.Params(strategy="append_delete")).text
    fake = FlakyUpdater(
        [
            append_call("- lost", section="Secrets"),  # no such section
            json.dumps({"name": "overwrite_memory", "arguments": {"new_memory": "gone"}}),
            # the first call would work, the second fails: neither may be applied
            "[" + append_call("- half") + "," + append_call("- other", section="Nope") + "]",
        ]
    )
    agent = workflow_with(fake)

    assert await agent.respond("Think of a word") == "Sure."

    memory = working_memory(agent)
    assert memory.text == before
    assert memory.edits == []
    broadcast = agent.workspace.broadcasts["updater"]
    assert broadcast["applied"] == 0
    assert len(broadcast["errors"]) == 3
    assert "Secrets" in broadcast["errors"][0]
    assert "overwrite_memory" in broadcast["errors"][1]  # not a tool of append_delete
    assert "Nope" in broadcast["errors"][2]


async def test_a_failed_attempt_does_not_leak_into_the_next_one() -> None:
    fake = FlakyUpdater(
        [
            "[" + append_call("- half") + "," + append_call("- other", section="Nope") + "]",
            append_call("- kept"),
        ]
    )
    agent = workflow_with(fake)
    await agent.respond("hello")
    text = working_memory(agent).text
    assert "- kept" in text
    assert "- half" not in text


@pytest.mark.parametrize("strategy", STRATEGIES)
async def test_every_strategy_accepts_its_own_tool_calls(strategy: str) -> None:
    memory = WorkingMemory(WorkingMemory.Params.model_validate({"strategy": strategy}))
    name, arguments = memory_edit(strategy, memory.text, "hello")
    memory.apply(name, arguments)
    assert "- hello" in memory.text


async def test_a_turn_cut_by_the_budget_still_updates_the_memory() -> None:
    agent = make_agent("gwt", Brain(route=("focus",)))
    await agent.respond("hello")
    assert "- note 1" in working_memory(agent).text
