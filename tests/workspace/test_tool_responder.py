"""The Autonomous responder: memory tools by native calls or JSON, errors fed back, a budget."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResultMessage,
    LLMMessage,
    UserMessage,
)

from cogarch.core import MemoryModule
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.memory import WorkingMemory
from cogarch.models import CallInfo, FakeReply, as_pairs
from cogarch.workspace import Agent, build_agent, load_agent_spec
from cogarch.workspace.graph import TransitionGraph
from cogarch.workspace.specialists.tool_responder import FINAL_REQUEST, ToolResponder
from tests.workspace import memory_edit, providers

Reply = str | FakeReply


def call(name: str, **arguments: Any) -> str:
    return json.dumps({"name": name, "arguments": arguments})


def append(line: str, section: str = "Facts and Knowledge") -> str:
    return call("append_in_memory", section_title=section, lines=[line])


class Script:
    """Replays replies in order and keeps what each call was shown."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.seen: list[tuple[list[LLMMessage], CallInfo]] = []

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> Reply:
        self.seen.append((list(messages), info))
        assert len(self.seen) <= len(self.replies), "the responder made an unexpected call"
        return self.replies[len(self.seen) - 1]

    def system(self, index: int) -> str:
        return as_pairs(self.seen[index][0])[0][1]

    def last_message(self, index: int) -> LLMMessage:
        return self.seen[index][0][-1]


def autonomous(script: Script, strategy: str = "append_delete", **params: Any) -> Agent:
    found, _ = providers(script)
    spec = load_agent_spec("autonomous", {"strategy": strategy})
    agent = build_agent(spec, found.get, provider="fake")
    responder = agent.specialists["responder"]
    assert isinstance(responder, ToolResponder)
    responder.params = responder.params.model_copy(update=params)
    return agent


def memory_text(agent: Agent) -> str:
    module = agent.memory["working_memory"]
    assert isinstance(module, WorkingMemory)
    return module.text


async def test_json_mode_runs_a_call_returns_the_result_and_takes_the_answer() -> None:
    script = Script(append("- secret: ZEBRA"), "I have chosen a word. <secret>ZEBRA</secret>")
    agent = autonomous(script)

    reply = await agent.respond("Think of a word.")

    assert reply == "I have chosen a word."
    assert "- secret: ZEBRA" in memory_text(agent)
    first, second = script.system(0), script.system(1)
    assert first.startswith("You are a helpful assistant. You have access to a private working")
    assert '{"name": "<tool_name>", "arguments": {...}}' in first
    assert "append_in_memory(" in first and "delete_from_memory(" in first
    assert "overwrite_memory(" not in first
    assert "You have at most 4 replies per turn" in first
    assert "- secret: ZEBRA" not in first
    assert "- secret: ZEBRA" in second  # the prompt is rebuilt with the edited memory
    assert all(info.tools == () for _, info in script.seen)  # json mode offers no functions
    tool_reply = script.last_message(1)
    assert isinstance(tool_reply, UserMessage)
    assert str(tool_reply.content).startswith("Tool results:\n[append_in_memory] OK:")
    broadcast = agent.workspace.broadcasts["responder"]
    assert broadcast["calls"] == [
        {
            "tool": "append_in_memory",
            "arguments": {"section_title": "Facts and Knowledge", "lines": ["- secret: ZEBRA"]},
            "ok": True,
            "error": None,
        }
    ]
    assert broadcast["errors"] == [] and broadcast["model_calls"] == 2
    assert broadcast["forced_reply"] is False
    assert agent.route_log.steps[-1].model_calls == 2


async def test_a_plain_answer_needs_no_tool() -> None:
    script = Script("Hello! What shall we talk about?")
    agent = autonomous(script)
    assert await agent.respond("Hi") == "Hello! What shall we talk about?"
    assert memory_text(agent) == WorkingMemory().text
    assert agent.workspace.broadcasts["responder"]["calls"] == []


async def test_several_calls_in_one_reply_are_each_applied() -> None:
    script = Script(
        "[" + append("- a") + "," + append("- b", section="Active Notes") + "]",
        call("delete_from_memory", section_title="Facts and Knowledge", lines=["- a"]),
        "Done.",
    )
    agent = autonomous(script)
    assert await agent.respond("go") == "Done."
    text = memory_text(agent)
    assert "- b" in text and "- a\n" not in text
    assert [c["tool"] for c in agent.workspace.broadcasts["responder"]["calls"]] == [
        "append_in_memory",
        "append_in_memory",
        "delete_from_memory",
    ]


async def test_a_tool_error_goes_back_to_the_model_and_changes_nothing() -> None:
    script = Script(
        append("- lost", section="Secrets"),
        call("overwrite_memory", new_memory="everything"),  # not an append_delete tool
        append("- kept"),
        "Ready.",
    )
    agent = autonomous(script)

    assert await agent.respond("go") == "Ready."

    text = memory_text(agent)
    assert "- kept" in text and "- lost" not in text and "everything" not in text
    first_error = str(script.last_message(1).content)
    assert first_error.startswith("Tool results:\n[append_in_memory] Error:")
    assert "Secrets" in first_error and "Facts and Knowledge" in first_error
    second_error = str(script.last_message(2).content)
    assert "overwrite_memory" in second_error and "append_in_memory" in second_error
    broadcast = agent.workspace.broadcasts["responder"]
    assert [c["ok"] for c in broadcast["calls"]] == [False, False, True]
    assert len(broadcast["errors"]) == 2


async def test_an_unreadable_call_is_fed_back_not_published() -> None:
    broken = (
        '{"name": "append_in_memory", "arguments": {"section_title": "Active Notes", "lines": ['
    )
    script = Script(broken, append("- fixed", section="Active Notes"), "All set.")
    agent = autonomous(script)

    assert await agent.respond("go") == "All set."

    feedback = script.last_message(1)
    assert isinstance(feedback, UserMessage)
    assert str(feedback.content).startswith("Your tool call could not be read:")
    assert "- fixed" in memory_text(agent)
    assert agent.workspace.dialogue[-1].content == "All set."


async def test_an_empty_call_list_means_no_edit() -> None:
    script = Script("[]", "Nothing to remember.")
    agent = autonomous(script)
    assert await agent.respond("hi") == "Nothing to remember."
    assert "No tool was called" in str(script.last_message(1).content)


async def test_the_budget_forces_a_final_reply_without_tools() -> None:
    script = Script(
        append("- one"),
        append("- two"),
        append("- three"),
        "Fine, here is my answer.",
    )
    agent = autonomous(script, tool_mode="auto", max_iterations=3)

    assert await agent.respond("go") == "Fine, here is my answer."

    assert len(script.seen) == 4
    assert all(info.tools for _, info in script.seen[:3])  # auto mode offers the functions
    final_messages, final_info = script.seen[3]
    assert final_info.tools == ()
    assert as_pairs(final_messages)[-1] == ("user", FINAL_REQUEST)
    assert all(f"- {n}" in memory_text(agent) for n in ("one", "two", "three"))
    broadcast = agent.workspace.broadcasts["responder"]
    assert broadcast["forced_reply"] is True and broadcast["model_calls"] == 4


async def test_a_tool_call_after_the_budget_is_not_run_or_published() -> None:
    script = Script(append("- one"), append("- two"))
    agent = autonomous(script, max_iterations=1)

    assert await agent.respond("go") == ""

    assert "- one" in memory_text(agent) and "- two" not in memory_text(agent)
    assert agent.workspace.broadcasts["responder"]["errors"] == [
        "the reply after the tool budget was another tool call (not run)"
    ]


async def test_native_mode_uses_the_tool_channel() -> None:
    script = Script(
        FakeReply(
            content="Saving the word first.",
            tool_calls=(
                ("overwrite_memory", {"new_memory": "## 1. Goals and Plans\n- hide it\n"}),
            ),
        ),
        "The word is chosen.",
    )
    agent = autonomous(script, strategy="overwrite", tool_mode="native")

    assert await agent.respond("Pick a word") == "The word is chosen."

    assert memory_text(agent) == "## 1. Goals and Plans\n- hide it\n"
    assert script.seen[0][1].tools == ("overwrite_memory",)
    assert "How to call your memory tools" not in script.system(0)
    request, result = script.seen[1][0][-2:]
    assert isinstance(request, AssistantMessage) and isinstance(request.content, list)
    assert request.content[0].name == "overwrite_memory"
    assert json.loads(request.content[0].arguments) == {
        "new_memory": "## 1. Goals and Plans\n- hide it\n"
    }
    assert request.thought == "Saving the word first."
    assert isinstance(result, FunctionExecutionResultMessage)
    assert result.content[0].call_id == request.content[0].id
    assert result.content[0].is_error is False
    assert result.content[0].content.startswith("OK:")


async def test_native_errors_are_marked_as_errors() -> None:
    script = Script(
        FakeReply(tool_calls=(("patch_memory", {"patch": "nonsense", "explanation": "x"}),)),
        "Answer.",
    )
    agent = autonomous(script, strategy="patch_replace", tool_mode="native")
    before = memory_text(agent)
    assert await agent.respond("go") == "Answer."
    result = script.seen[1][0][-1]
    assert isinstance(result, FunctionExecutionResultMessage)
    assert result.content[0].is_error is True
    assert result.content[0].content.startswith("Error: ")
    assert memory_text(agent) == before


async def test_native_mode_does_not_read_json_from_the_text() -> None:
    text = call("overwrite_memory", new_memory="x")
    agent = autonomous(Script(text), strategy="overwrite", tool_mode="native")
    assert await agent.respond("go") == text
    assert memory_text(agent) == WorkingMemory().text


@pytest.mark.parametrize("strategy", ["overwrite", "append_delete", "patch_replace"])
async def test_auto_mode_takes_native_calls_and_json(strategy: str) -> None:
    scratch = WorkingMemory(WorkingMemory.Params.model_validate({"strategy": strategy}))
    native = memory_edit(strategy, scratch.text, "by function")
    scratch.apply(*native)
    written = memory_edit(strategy, scratch.text, "by json")
    script = Script(FakeReply(tool_calls=(native,)), call(written[0], **written[1]), "Done.")
    agent = autonomous(script, strategy=strategy, tool_mode="auto")

    assert await agent.respond("go") == "Done."

    assert "You may also call the tools as functions instead of writing JSON." in script.system(0)
    assert script.seen[0][1].tools  # the functions are offered
    assert "- by function" in memory_text(agent) and "- by json" in memory_text(agent)
    assert isinstance(script.seen[1][0][-1], FunctionExecutionResultMessage)
    assert str(script.last_message(2).content).startswith("Tool results:")


async def test_the_thought_of_every_call_is_kept_privately() -> None:
    script = Script(
        FakeReply(content=append("- x"), thought="I should save it"),
        FakeReply(content="Answer.", thought="now answer"),
    )
    agent = autonomous(script)
    await agent.respond("go")
    assert agent.workspace.thought == "I should save it\nnow answer"
    assert "save it" not in agent.workspace.dialogue[-1].content


async def test_the_memory_must_be_a_working_memory() -> None:
    class Notes(MemoryModule):
        kind = "notes"

        def render(self, budget_tokens: int | None = None) -> str:
            return ""

        def save_state(self) -> dict[str, Any]:
            return {}

        def load_state(self, state: dict[str, Any]) -> None:
            pass

    responder = ToolResponder("responder", "fake", ToolResponder.Params(memory="notes"))
    graph = TransitionGraph.build(["responder"], [], entry="responder")
    found, _ = providers(Script("unused"))
    agent = Agent("odd", graph, {"responder": responder}, found.get, memory={"notes": Notes()})
    with pytest.raises(ConfigError, match="but it is a 'notes' module"):
        await agent.respond("hi")
    agent.specialists["responder"] = ToolResponder(
        "responder", "fake", ToolResponder.Params(memory="wm")
    )
    with pytest.raises(UnknownNameError, match="has no memory module 'wm'; its modules: notes"):
        await agent.respond("hi")


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="tool_mode"):
        ToolResponder.Params.model_validate({"tool_mode": "smoke"})
    with pytest.raises(ValueError, match="max_iterations"):
        ToolResponder.Params.model_validate({"max_iterations": 0})
    with pytest.raises(ValueError, match="extra"):
        ToolResponder.Params.model_validate({"iterations": 3})
