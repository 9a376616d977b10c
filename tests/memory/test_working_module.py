"""The working memory module owns its tools; the specialists that edit it ask the module."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from autogen_core.models import LLMMessage

from cogarch.memory.working.document import INITIAL_MEMORY
from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.module import WorkingMemory
from cogarch.memory.working.tool_specs import STRATEGIES, TOOL_SCHEMAS
from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.workspace import build_agent, load_agent_spec


def memory(strategy: str) -> WorkingMemory:
    return WorkingMemory(WorkingMemory.Params.model_validate({"strategy": strategy}))


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_the_module_offers_exactly_its_strategys_tools(strategy: str) -> None:
    module = memory(strategy)
    names = STRATEGIES[strategy]
    assert module.tool_names() == names
    assert module.tool_schemas() == [TOOL_SCHEMAS[name] for name in names]
    guide = module.tool_guide()
    assert [line.split("(")[0] for line in guide.splitlines() if line.startswith("- ")] == [
        f"- {name}" for name in names
    ]
    schema = module.tool_call_schema()
    options = schema.get("anyOf", [schema])
    assert schema["title"] == "MemoryToolCall"
    assert [o["properties"]["name"]["enum"] for o in options] == [[name] for name in names]
    assert [o["properties"]["arguments"] for o in options] == [
        TOOL_SCHEMAS[name]["parameters"] for name in names
    ]


def test_the_schemas_are_copies_the_caller_may_change() -> None:
    module = memory("overwrite")
    module.tool_schemas()[0]["name"] = "changed"
    assert module.tool_schemas()[0]["name"] == "overwrite_memory"


def test_a_tool_of_another_strategy_is_refused_and_changes_nothing() -> None:
    module = memory("append_delete")
    with pytest.raises(MemoryToolError, match=r"not available here.*append_in_memory"):
        module.apply("overwrite_memory", {"new_memory": "x"})
    assert module.text == INITIAL_MEMORY and module.edits == []


def test_several_calls_apply_as_one_edit_or_not_at_all() -> None:
    module = memory("append_delete")
    good = ("append_in_memory", {"section_title": "Active Notes", "lines": ["- a"]})
    bad = ("delete_from_memory", {"section_title": "Nowhere", "lines": ["- a"]})
    with pytest.raises(MemoryToolError):
        module.apply_all([good, bad])
    assert module.text == INITIAL_MEMORY and module.edits == []
    [result] = module.apply_all([good])
    assert module.text == result.new_memory and "- a" in module.text
    assert module.edits == [{"tool": "append_in_memory", "meta": result.to_dict()["meta"]}]


class MarkedMemory(WorkingMemory):
    """A working memory whose tools read differently, to see who the specialists ask."""

    def tool_guide(self) -> str:
        return "GUIDE FROM THE MODULE"

    def tool_call_schema(self) -> dict[str, Any]:
        return {"title": "FromTheModule", "type": "object"}

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [{"name": "from_the_module", "description": "", "parameters": {"type": "object"}}]


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, CallInfo]] = []

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        self.calls.append((as_pairs(messages)[0][1], info))
        return "[]" if "GUIDE FROM THE MODULE" in self.calls[-1][0] else "Hello."


async def _run(agent_name: str, params: dict[str, Any]) -> Recorder:
    recorder = Recorder()
    providers = Providers()
    model = Model(FunctionModel(recorder), provider="fake", model="f", fake=True)
    providers.register("fake", model)
    agent = build_agent(load_agent_spec(agent_name, params), providers.get, provider="fake")
    agent.memory["working_memory"] = MarkedMemory()
    await agent.respond("Hi.")
    return recorder


async def test_the_memory_updater_shows_the_modules_guide_and_call_schema() -> None:
    recorder = await _run("workflow", {})
    [(_, info)] = [c for c in recorder.calls if "GUIDE FROM THE MODULE" in c[0]]
    assert info.response_format is not None
    assert info.response_format["json_schema"]["schema"] == MarkedMemory().tool_call_schema()


async def test_the_tool_responder_shows_the_modules_guide() -> None:
    recorder = await _run("autonomous", {"tool_mode": "auto"})
    assert "GUIDE FROM THE MODULE" in recorder.calls[0][0]
    assert recorder.calls[0][1].tools == ("from_the_module",)
