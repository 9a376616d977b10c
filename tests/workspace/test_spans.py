"""An agent's spans: ``invoke_agent`` per turn, a span per specialist step saying how the
router chose it, the model calls under the step that made them, and memory operations with
the module's name and their entry counts; contents only when opted in."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cogarch import tracing
from tests.spans import attrs, recording
from tests.workspace import Brain, make_agent

CONTENT_KEYS = {
    "gen_ai.input.messages",
    "gen_ai.output.messages",
    "gen_ai.system_instructions",
    "gen_ai.memory.query.text",
    "gen_ai.memory.records",
}


async def test_a_workflow_turn_is_an_invoke_agent_span_over_its_steps() -> None:
    agent = make_agent("workflow", Brain(), strategy="append_delete")
    with recording() as spans:
        await agent.respond("Shall we play a game?")
        await agent.respond("Is the word long?")

    turns = spans.named("invoke_agent")
    assert [s.name for s in turns] == ["invoke_agent workflow"] * 2
    assert all(s.parent is None for s in turns)  # no trial around them here
    first = attrs(turns[0])
    assert first["gen_ai.operation.name"] == "invoke_agent"
    assert first["gen_ai.agent.name"] == "workflow"
    assert [attrs(s)["cogarch.turn.index"] for s in turns] == [1, 2]
    assert first["cogarch.turn.steps"] == 2
    assert first["cogarch.private_state.tokens"] == agent.state_sizes[0]
    assert first["cogarch.memory.prompt_tokens"] == agent.memory_footprints[0]

    assert spans.tree(turns[1]) == (
        "invoke_agent workflow",
        [
            ("step responder", [("chat fake", [])]),
            ("step updater", [("chat fake", []), ("update_memory", [])]),
        ],
    )
    responder, updater = spans.children(turns[1])
    assert (
        attrs(responder).items()
        >= {
            "cogarch.step.node": "responder",
            "cogarch.step.kind": "responder",
            "cogarch.step.how": "entry",
            "cogarch.step.source": "<input>",
            "cogarch.step.index": 1,
            "cogarch.turn.index": 2,
        }.items()
    )
    assert attrs(updater)["cogarch.step.how"] == "single"
    assert attrs(updater)["cogarch.step.source"] == "responder"
    chat = spans.children(updater)[0]
    assert attrs(chat)["cogarch.caller"] == "updater"
    assert attrs(chat)["cogarch.role"] == "memory_updater"
    update = attrs(spans.children(updater)[1])
    assert update == {
        "gen_ai.operation.name": "update_memory",
        "gen_ai.memory.store.id": "working_memory",
        "cogarch.memory.kind": "working_memory",
        "gen_ai.memory.record.count": 1,
    }
    assert not any(CONTENT_KEYS & set(attrs(s)) for s in spans.all)


async def test_a_routed_step_says_the_model_chose_it_and_the_router_call_sits_in_the_turn() -> None:
    agent = make_agent("gwt", Brain())
    with recording() as spans:
        await agent.respond("Shall we play a game?")

    [turn] = spans.named("invoke_agent")
    children = spans.children(turn)
    steps = [s for s in children if s.name.startswith("step ")]
    routed = [attrs(s)["cogarch.step.how"] for s in steps]
    assert routed[0] == "entry" and "model" in routed
    routers = [s for s in children if s.name.startswith("chat ")]
    assert routers and {attrs(s)["cogarch.caller"] for s in routers} == {"router"}
    assert [s.name for s in steps] == [f"step {s.node}" for s in agent.route_log.steps]


@dataclass
class RefusedOnce(Brain):
    """Calls a tool the memory does not have in its first edit, then edits as Brain does."""

    refused: bool = False

    def _edit(self, prompt: str) -> tuple[str, dict[str, Any]]:
        if not self.refused:
            self.refused = True
            return "no_such_tool", {}
        return super()._edit(prompt)


async def test_a_failed_memory_edit_is_an_update_memory_span_with_its_error() -> None:
    agent = make_agent("workflow", RefusedOnce(), strategy="append_delete")
    with recording() as spans:
        await agent.respond("Shall we play a game?")

    updates = spans.named("update_memory")
    assert len(updates) == 2  # refused, then applied on the retry
    assert attrs(updates[0])["error.type"] == "MemoryToolError"
    assert not updates[0].status.is_ok
    assert "error.type" not in attrs(updates[1]) and updates[1].status.is_unset


async def test_retrieval_memory_creates_a_record_per_turn_and_searches_each_input() -> None:
    agent = make_agent("raw_turns", Brain(), embedder="hash", top_k=3)
    with recording() as spans:
        await agent.respond("the invoice is due Friday")
        await agent.respond("when is the invoice due?")

    first, second = spans.named("invoke_agent")
    retrieval = next(s for s in spans.under(first) if s.name == "step retrieval")
    assert [s.name for s in spans.children(retrieval)] == ["search_memory"]
    assert attrs(spans.children(retrieval)[0])["gen_ai.memory.record.count"] == 0

    retrieval = next(s for s in spans.under(second) if s.name == "step retrieval")
    created, searched = spans.children(retrieval)
    assert attrs(created) == {
        "gen_ai.operation.name": "create_memory",
        "gen_ai.memory.store.id": "turns",
        "cogarch.memory.kind": "raw_turns",
        "gen_ai.memory.record.count": 1,
    }
    assert attrs(searched)["gen_ai.operation.name"] == "search_memory"
    assert attrs(searched)["gen_ai.memory.record.count"] == 2  # both messages of turn 1
    assert "gen_ai.memory.query.text" not in attrs(searched)


async def test_contents_are_recorded_only_when_opted_in() -> None:
    agent = make_agent("raw_turns", Brain(), embedder="hash", top_k=3)
    with recording(capture_content=True) as spans:
        await agent.respond("the invoice is due Friday")
        reply = await agent.respond("when is the invoice due?")

    turn = attrs(spans.named("invoke_agent")[1])
    assert json.loads(str(turn["gen_ai.input.messages"])) == [
        {"role": "user", "parts": [{"type": "text", "content": "when is the invoice due?"}]}
    ]
    [output] = json.loads(str(turn["gen_ai.output.messages"]))
    assert output["parts"] == [{"type": "text", "content": reply}]

    searched = attrs(spans.named("search_memory")[1])
    assert searched["gen_ai.memory.query.text"] == "when is the invoice due?"
    found = json.loads(str(searched["gen_ai.memory.records"]))
    assert "the invoice is due Friday" in {r["content"] for r in found}

    chat = attrs(spans.named("chat")[-1])
    assert json.loads(str(chat["gen_ai.system_instructions"]))[0]["type"] == "text"
    assert "the invoice is due Friday" in str(chat["gen_ai.system_instructions"])
    said = json.loads(str(chat["gen_ai.output.messages"]))[0]
    assert {"type": "reasoning", "content": "thinking 2"} in said["parts"]


async def test_nothing_is_recorded_while_tracing_is_off() -> None:
    assert tracing.current_tracer() is None
    assert tracing.span("anything", {"a": 1}) is tracing.NO_SPAN
    assert tracing.memory_operation("search_memory", "m", "k") is tracing.NO_SPAN
    agent = make_agent("workflow", Brain())
    with recording() as spans:
        pass
    assert await agent.respond("Shall we play a game?") == "answer 1"
    assert spans.all == []
