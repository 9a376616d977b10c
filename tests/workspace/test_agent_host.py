"""The composed agent offers a task every capability of ``cogarch.core.host``: it takes turns
in without replying, says what each reply carried and what memory retrieved for it, shows
its task state, trims its public history, and saves and loads its whole state."""

from __future__ import annotations

import json
from collections.abc import Sequence

from autogen_core.models import LLMMessage

from cogarch.core.host import AgentHost, ReplyReport
from cogarch.models import CallInfo, as_pairs
from cogarch.tokens import count_tokens
from cogarch.workspace import Agent, build_agent, load_agent_spec
from tests.workspace import make_agent, providers


def echo(messages: Sequence[LLMMessage], info: CallInfo) -> str:
    return "I remember: " + as_pairs(messages)[-1][1][:40]


def raw_turns_agent() -> Agent:
    found, _ = providers(echo)
    spec = load_agent_spec("raw_turns", {"embedder": "hash", "top_k": 2})
    return build_agent(spec, found.get, provider="fake", seed=1)


def as_host(agent: Agent) -> AgentHost:
    return agent  # the type checker holds the agent to every capability


async def test_observing_a_turn_adds_it_to_the_dialogue_and_to_memory_without_a_reply() -> None:
    agent = as_host(raw_turns_agent())
    await agent.observe("[2023-05-01] Ann: I adopted a cat named Pixel.", source_ids=["D1:1"])
    await agent.observe("[2023-05-02] Bob: Nice!", source_ids=["D1:2"], time="2023-05-02T10:00")
    assert isinstance(agent, Agent)
    assert [m.role for m in agent.workspace.dialogue] == ["user", "user"]
    assert agent.workspace.ingested == {"turns": 2}
    assert agent.workspace.turns[1].time == "2023-05-02T10:00"
    assert agent.walk() == []  # nothing was answered
    reply = await agent.respond("What is the cat called?")
    assert reply.startswith("I remember")
    report = agent.last_reply()
    assert report.retrieved is not None and {r.module for r in report.retrieved} == {"turns"}
    assert report.retrieved[0].source_ids == ["D1:1"]  # the best match first
    assert report.memory_tokens is not None and report.memory_tokens > 0
    assert report.state_tokens == count_tokens(agent.private_state())
    assert report.answer_prompt_tokens is not None and report.answer_prompt_tokens > 0
    assert agent.workspace.ingested == {"turns": 2}  # each observed turn taken in once


async def test_an_agent_without_retrieval_says_so() -> None:
    agent = make_agent("vanilla", echo)
    await agent.respond("Hello")
    report = agent.last_reply()
    assert report.retrieved is None and agent.task_state() is None
    assert report.state_tokens == 0
    assert [s.node for s in agent.walk()] == ["responder"]
    assert ReplyReport() == ReplyReport(None, None, None, None)


async def test_trimming_keeps_only_the_latest_messages_that_fit() -> None:
    agent = make_agent("vanilla", echo)
    for text in ("one two three", "four five six", "seven eight nine"):
        await agent.observe(text)
    agent.trim_dialogue(count_tokens("four five six") + count_tokens("seven eight nine"))
    assert [m.content for m in agent.workspace.dialogue] == ["four five six", "seven eight nine"]
    assert len(agent.workspace.turns) == 3  # the record of completed turns stays


async def test_a_saved_state_loads_into_a_fresh_agent_of_the_same_spec() -> None:
    agent = raw_turns_agent()
    await agent.observe("Ann: my sister lives in Lisbon.", source_ids=["D1:1"])
    await agent.respond("Where does the sister live?")
    state = json.loads(json.dumps(agent.save_state()))  # what a JSON file gives back
    fresh = raw_turns_agent()
    fresh.load_state(state)
    assert fresh.private_state() == agent.private_state()
    assert fresh.workspace == agent.workspace and fresh.walk() == agent.walk()
    assert fresh.transition_counts() == agent.transition_counts()
    for each in (agent, fresh):
        await each.respond("And the cat?")
    assert fresh.last_reply() == agent.last_reply()


async def test_the_task_state_is_the_task_graphs_current_values() -> None:
    def tracker(messages: Sequence[LLMMessage], info: CallInfo) -> str:
        schema = (info.response_format or {}).get("json_schema", {}).get("name")
        if schema is None:
            return "Noted."
        return json.dumps(
            {"intent": "new", "slot": "origin", "value": "Denver", "parent": None, "depends_on": []}
        )

    found, _ = providers(tracker)
    agent = build_agent(load_agent_spec("tme"), found.get, provider="fake", seed=1)
    await agent.respond("I fly from Denver.")
    assert agent.task_state() == {"origin": "Denver"}
