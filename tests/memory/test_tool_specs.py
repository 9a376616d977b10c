"""Tool schemas, prompt guides, call dispatch and reading calls from model replies."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogarch.errors import UnknownNameError
from cogarch.memory.working.document import INITIAL_MEMORY, parse_memory
from cogarch.memory.working.edit_meta import MemoryToolError, ToolResult
from cogarch.memory.working.line_edits import append_in_memory, delete_from_memory
from cogarch.memory.working.module import WorkingMemory
from cogarch.memory.working.overwrite import overwrite_memory
from cogarch.memory.working.patch import patch_memory
from cogarch.memory.working.replace import replace_in_memory
from cogarch.memory.working.tool_calls import ToolCallRequest, parse_tool_calls
from cogarch.memory.working.tool_specs import (
    STRATEGIES,
    TOOL_SCHEMAS,
    apply_tool_call,
    signature,
    tool_guide,
    tool_schemas,
)

FUNCTIONS: dict[str, Callable[..., ToolResult]] = {
    "overwrite_memory": overwrite_memory,
    "append_in_memory": append_in_memory,
    "delete_from_memory": delete_from_memory,
    "patch_memory": patch_memory,
    "replace_in_memory": replace_in_memory,
}

MEMORY = (
    "## 1. Goals and Plans\n- Keep the secret word hidden\n\n"
    "## 2. Facts and Knowledge\n- Secret word: APPLE\n- Release owner: Dana\n\n"
    "## 3. Active Notes\n- User guessed E (wrong)\n- Evidence: slow cache reads\n"
    "- Hypothesis: caching is the bottleneck\n"
)


# --------------------------------------------------------------------------- schemas


def test_strategies_are_the_papers_three() -> None:
    assert STRATEGIES == {
        "overwrite": ("overwrite_memory",),
        "append_delete": ("append_in_memory", "delete_from_memory"),
        "patch_replace": ("patch_memory", "replace_in_memory"),
    }


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_tool_schemas_list_the_strategys_tools(strategy: str) -> None:
    schemas = tool_schemas(strategy)
    assert [s["name"] for s in schemas] == list(STRATEGIES[strategy])
    for schema in schemas:
        assert set(schema) == {"name", "description", "parameters"}
        assert schema["description"]
        parameters = schema["parameters"]
        assert parameters["type"] == "object"
        assert parameters["additionalProperties"] is False
        assert "current_memory" not in parameters["properties"]
        assert set(parameters["required"]) <= set(parameters["properties"])


@pytest.mark.parametrize("name", list(TOOL_SCHEMAS))
def test_schema_parameters_are_the_functions_keyword_arguments(name: str) -> None:
    parameters = inspect.signature(FUNCTIONS[name]).parameters
    keywords = {p for p in parameters if p != "current_memory"}
    assert set(TOOL_SCHEMAS[name]["parameters"]["properties"]) == keywords
    no_default = {p for p in keywords if parameters[p].default is inspect.Parameter.empty}
    assert no_default <= set(TOOL_SCHEMAS[name]["parameters"]["required"])


def test_schemas_are_json_and_returned_as_copies() -> None:
    schemas = tool_schemas("patch_replace")
    json.dumps(schemas)
    schemas[0]["parameters"]["properties"].clear()
    assert tool_schemas("patch_replace")[0]["parameters"]["properties"]


@pytest.mark.parametrize("spelling", ["append/delete", "Append-Delete", " append delete "])
def test_strategy_names_are_read_leniently(spelling: str) -> None:
    assert [s["name"] for s in tool_schemas(spelling)] == list(STRATEGIES["append_delete"])


def test_unknown_strategy_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownNameError, match="overwrite, append_delete, patch_replace"):
        tool_schemas("rewrite")


def test_signature_marks_optional_arguments() -> None:
    assert signature("append_in_memory") == "append_in_memory(section_title: str, lines: list[str])"
    assert "expected_replacements?: int" in signature("replace_in_memory")


# --------------------------------------------------------------------------- guides


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_tool_guide_describes_only_the_allowed_tools(strategy: str) -> None:
    guide = tool_guide(strategy)
    for name in TOOL_SCHEMAS:
        assert (f"- {name}(" in guide) == (name in STRATEGIES[strategy])


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_tool_guide_examples_are_valid_calls(strategy: str) -> None:
    lines = [line.strip() for line in tool_guide(strategy).splitlines()]
    examples = [line for line in lines if line.startswith('{"name"')]
    assert len(examples) == len(STRATEGIES[strategy])
    memory = MEMORY
    for example in examples:
        (call,) = parse_tool_calls(example)
        result = apply_tool_call(memory, call.name, call.arguments, allowed=STRATEGIES[strategy])
        assert result.new_memory != memory
        assert parse_memory(result.new_memory).headers == parse_memory(MEMORY).headers


# --------------------------------------------------------------------------- dispatch


def test_apply_tool_call_runs_each_tool() -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("append_in_memory", {"section_title": "Active Notes", "lines": ["- A is correct"]}),
        ("delete_from_memory", {"section_title": "Active Notes", "lines": ["- A is correct"]}),
        ("patch_memory", {"patch": "@@ section: Facts\n+ - 5 letters", "explanation": "len"}),
        ("replace_in_memory", {"old_string": "APPLE", "new_string": "PEAR"}),
        ("overwrite_memory", {"new_memory": INITIAL_MEMORY}),
    ]
    memory = MEMORY
    for name, arguments in calls:
        result = apply_tool_call(memory, name, arguments)
        assert result == FUNCTIONS[name](memory, **arguments)
        memory = result.new_memory
    assert memory == INITIAL_MEMORY


@pytest.mark.parametrize(
    "name", ["deletes_from_memory", "functions.delete_from_memory", " Delete_From_Memory "]
)
def test_apply_tool_call_accepts_aliases(name: str) -> None:
    arguments = {"section_title": "Active Notes", "lines": ["User guessed"]}
    result = apply_tool_call(MEMORY, name, arguments)
    assert "User guessed" not in result.new_memory


def test_apply_tool_call_restricts_to_the_allowed_tools() -> None:
    with pytest.raises(MemoryToolError) as info:
        apply_tool_call(
            MEMORY, "overwrite_memory", {"new_memory": ""}, allowed=STRATEGIES["append_delete"]
        )
    assert str(info.value) == (
        "Tool 'overwrite_memory' is not available here. Use one of: append_in_memory, "
        "delete_from_memory."
    )
    result = apply_tool_call(
        MEMORY,
        "deletes_from_memory",
        {"section_title": "Active Notes", "lines": "- User guessed E (wrong)"},
        allowed=["append_in_memory", "deletes_from_memory"],
    )
    assert result.meta.sections_touched == ["Active Notes"]


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("remember", {}, "Tool 'remember' is not a memory tool. Use one of: overwrite_memory"),
        (None, {}, "The tool name must be a string"),
        ("append_in_memory", {"lines": ["x"]}, "missing argument(s) 'section_title'"),
        (
            "append_in_memory",
            {"section_title": "Goals", "lines": ["x"], "current_memory": "x"},
            "unknown argument(s) 'current_memory' (current_memory is supplied automatically)",
        ),
        ("patch_memory", {"patch": "x", "force": True}, "unknown argument(s) 'force'"),
        ("append_in_memory", {"section_title": "Goals", "lines": 3}, "'lines' must be a list"),
        ("overwrite_memory", {"new_memory": ["a"]}, "'new_memory' must be a string, got a list"),
        ("replace_in_memory", {"old_string": "a", "new_string": "b", "options": "x"}, "object"),
        ("patch_memory", {"patch": "x", "expected_hunks": "two"}, "must be a whole number"),
        ("patch_memory", {"patch": "x", "expected_hunks": True}, "must be a whole number"),
        ("overwrite_memory", "not json", "the arguments are not valid JSON"),
        ("overwrite_memory", "[1]", "the arguments must be a JSON object, got list"),
        ("overwrite_memory", None, "the arguments must be a JSON object"),
        ("overwrite_memory", {"new_memory": None}, "missing argument(s) 'new_memory'"),
    ],
)
def test_apply_tool_call_rejects_bad_calls(name: Any, arguments: Any, message: str) -> None:
    with pytest.raises(MemoryToolError) as info:
        apply_tool_call(MEMORY, name, arguments)
    assert message in str(info.value)


def test_argument_errors_show_the_expected_arguments() -> None:
    with pytest.raises(MemoryToolError) as info:
        apply_tool_call(MEMORY, "append_in_memory", {"section": "Goals", "lines": ["x"]})
    assert str(info.value) == (
        "append_in_memory: unknown argument(s) 'section'. Expected: "
        "append_in_memory(section_title: str, lines: list[str])."
    )


def test_apply_tool_call_coerces_and_defaults_leniently() -> None:
    arguments = {
        "old_string": "APPLE",
        "new_string": "PEAR",
        "expected_replacements": "1",
        "section_title": None,
        "pre_context": None,
    }
    result = apply_tool_call(MEMORY, "replace_in_memory", json.dumps(arguments))
    assert "Secret word: PEAR" in result.new_memory
    patch = {"patch": "@@ section: Facts\n+ - x", "expected_hunks": 1.0}
    assert apply_tool_call(MEMORY, "patch_memory", patch).meta.applied_hunks == 1


def test_tool_errors_pass_through_and_leave_the_memory_alone() -> None:
    memory = MEMORY
    with pytest.raises(MemoryToolError, match="Section 'Scratch' does not exist"):
        apply_tool_call(memory, "append_in_memory", {"section_title": "Scratch", "lines": ["x"]})
    assert memory == MEMORY


# --------------------------------------------------------------------------- parsing replies


def test_parse_a_single_call() -> None:
    text = '{"name": "append_in_memory", "arguments": {"section_title": "Goals", "lines": ["x"]}}'
    assert parse_tool_calls(text) == [
        ToolCallRequest("append_in_memory", {"section_title": "Goals", "lines": ["x"]})
    ]


def test_parse_a_list_in_a_fence_with_prose_around() -> None:
    text = (
        "I will record the guess.\n```json\n"
        '[{"name": "append_in_memory", "arguments": {"section_title": "Active Notes", '
        '"lines": ["- E wrong"]}},\n'
        ' {"name": "deletes_from_memory", "arguments": "{\\"section_title\\": \\"Active Notes\\",'
        ' \\"lines\\": [\\"old\\"]}"}]\n```\nDone [as asked].'
    )
    calls = parse_tool_calls(text)
    assert [c.name for c in calls] == ["append_in_memory", "deletes_from_memory"]
    assert calls[1].arguments == {"section_title": "Active Notes", "lines": ["old"]}


def test_parse_openai_shapes() -> None:
    wrapped = {
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "overwrite_memory", "arguments": '{"new_memory": "x"}'},
            }
        ]
    }
    assert parse_tool_calls(json.dumps(wrapped)) == [
        ToolCallRequest("overwrite_memory", {"new_memory": "x"})
    ]


def test_parse_arguments_written_next_to_the_name() -> None:
    text = '{"name": "overwrite_memory", "new_memory": "x"}'
    assert parse_tool_calls(text) == [ToolCallRequest("overwrite_memory", {"new_memory": "x"})]


def test_parse_skips_json_that_is_not_a_call() -> None:
    text = 'Memory: {"a": 1} then {"name": "overwrite_memory", "arguments": {"new_memory": ""}}'
    assert [c.name for c in parse_tool_calls(text)] == ["overwrite_memory"]


def test_an_empty_list_means_no_edit() -> None:
    assert parse_tool_calls("```json\n[]\n```") == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I have nothing to add.", "no JSON object was found"),
        ('{"tool": "append_in_memory"}', 'a JSON object has no "name" string'),
        ('{"name": "x", "arguments": "{not json"}', "are a string that is not JSON"),
        ('{"name": "x", "arguments": [1]}', 'the "arguments" of x are not a JSON object'),
        ('{"name": "overwrite_memory", "arguments": {"new_memory": "x"', "no JSON object"),
        ("lines: [] and more", "the JSON list is empty"),
    ],
)
def test_parse_failures_explain_the_expected_shape(text: str, problem: str) -> None:
    with pytest.raises(MemoryToolError) as info:
        parse_tool_calls(text)
    message = str(info.value)
    assert problem in message
    assert '{"name": "<tool_name>", "arguments": {...}}' in message


def test_parse_rejects_non_text() -> None:
    with pytest.raises(MemoryToolError):
        parse_tool_calls(None)  # type: ignore[arg-type]


def test_a_parsed_call_runs_on_a_working_memory() -> None:
    (call,) = parse_tool_calls('{"name": "overwrite_memory", "arguments": {"new_memory": "x"}}')
    memory = WorkingMemory(WorkingMemory.Params(strategy="overwrite", initial=MEMORY))
    assert memory.apply(call.name, call.arguments).new_memory == "x" == memory.text


# --------------------------------------------------------------------------- fuzzing

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
ARGUMENT_NAMES = sorted({k for s in TOOL_SCHEMAS.values() for k in s["parameters"]["properties"]})
KEYS = st.sampled_from([*ARGUMENT_NAMES, "current_memory", "section", "args"])
NAMES = st.sampled_from([*TOOL_SCHEMAS, "deletes_from_memory", "functions.patch_memory"])
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@given(
    name=st.one_of(NAMES, st.text(max_size=12), JSON),
    arguments=st.one_of(st.dictionaries(KEYS, JSON, max_size=6), JSON, st.text(max_size=20)),
    allowed=st.none() | st.lists(NAMES, max_size=2),
)
@FUZZ
def test_any_call_succeeds_or_raises_memory_tool_error(
    name: Any, arguments: Any, allowed: list[str] | None
) -> None:
    try:
        result = apply_tool_call(MEMORY, name, arguments, allowed=allowed)
    except MemoryToolError:
        return
    assert isinstance(result.new_memory, str)


VALUES = st.one_of(
    JSON,
    st.sampled_from(["Goals", "Active Notes", "APPLE", "- Secret word: APPLE", "## 1.", ""]),
    st.lists(st.sampled_from(["- User guessed E (wrong)", "## 2. X", "", "E"]), max_size=3),
    st.sampled_from(["@@ section: Facts\n+ - x", "*** Begin Patch\n- x\n*** End Patch"]),
    st.fixed_dictionaries({}, optional={"strict_context": JSON, "case_sensitive": st.booleans()}),
)


@given(
    name=NAMES,
    arguments=st.dictionaries(KEYS, VALUES, max_size=5),
)
@FUZZ
def test_well_named_calls_with_random_arguments_only_raise_memory_tool_error(
    name: str, arguments: dict[str, Any]
) -> None:
    before = parse_memory(MEMORY).headers
    try:
        result = apply_tool_call(MEMORY, name, arguments)
    except MemoryToolError as exc:
        assert str(exc)
        return
    if not name.endswith("overwrite_memory"):
        assert parse_memory(result.new_memory).headers == before


@given(text=st.one_of(st.text(max_size=60), JSON.map(json.dumps)))
@settings(max_examples=200, deadline=None)
def test_parse_tool_calls_returns_calls_or_raises_memory_tool_error(text: str) -> None:
    try:
        calls = parse_tool_calls(text)
    except MemoryToolError:
        return
    assert all(isinstance(c, ToolCallRequest) and isinstance(c.arguments, dict) for c in calls)


def test_guides_do_not_mention_tools_outside_the_strategy() -> None:
    guide = tool_guide("append_delete")
    assert not re.search(r"\b(patch|replace|overwrite)_memory\b|replace_in_memory", guide)
