"""The memory tools: result shape, overwrite, append and delete, with every error path."""

from __future__ import annotations

import pytest

from cogarch.memory.working.document import INITIAL_MEMORY
from cogarch.memory.working.edit_meta import MemoryToolError, ToolResult
from cogarch.memory.working.line_edits import append_in_memory, delete_from_memory
from cogarch.memory.working.overwrite import overwrite_memory
from tests.memory.tool_memory import MEMORY, body, headers

# --------------------------------------------------------------------------- results


def test_tool_result_to_dict_has_the_papers_shape() -> None:
    result = append_in_memory(INITIAL_MEMORY, section_title="Active Notes", lines=["- x"])
    assert isinstance(result, ToolResult)
    assert result.to_dict() == {
        "new_memory": result.new_memory,
        "meta": {
            "applied_hunks": 1,
            "changed_lines": 1,
            "sections_touched": ["Active Notes"],
            "warnings": [],
        },
    }


def test_memory_tool_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        overwrite_memory(MEMORY, new_memory=None)  # type: ignore[arg-type]


def test_current_memory_must_be_text() -> None:
    with pytest.raises(TypeError, match="current_memory"):
        append_in_memory(None, section_title="Goals", lines=["x"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- overwrite


def test_overwrite_returns_the_new_memory_unchanged() -> None:
    new = INITIAL_MEMORY.replace("## 3. Active Notes\n", "## 3. Active Notes\n- fresh\n")
    result = overwrite_memory(MEMORY, new_memory=new)
    assert result.new_memory == new
    assert result.meta.applied_hunks == 1
    assert result.meta.warnings == []
    assert set(result.meta.sections_touched) == {
        "Goals and Plans",
        "Facts and Knowledge",
        "Active Notes",
    }


def test_overwrite_without_headers_is_allowed_but_warned() -> None:
    result = overwrite_memory(MEMORY, new_memory="just a note")
    assert result.new_memory == "just a note"
    (warning,) = result.meta.warnings
    assert "'Goals and Plans', 'Facts and Knowledge', 'Active Notes'" in warning


def test_overwrite_warns_only_about_the_dropped_sections() -> None:
    new = "## 1. Goals and Plans\n- a\n## 2. Facts and Knowledge\n"
    (warning,) = overwrite_memory(MEMORY, new_memory=new).meta.warnings
    assert "no section header for 'Active Notes';" in warning


@pytest.mark.parametrize("bad", [None, 3, ["## 1. Goals and Plans"], {"text": "x"}])
def test_overwrite_needs_a_string(bad: object) -> None:
    with pytest.raises(MemoryToolError, match="overwrite_memory: 'new_memory' must be"):
        overwrite_memory(MEMORY, new_memory=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- append


def test_append_adds_lines_at_the_end_of_the_section_body() -> None:
    result = append_in_memory(
        MEMORY, section_title="Goals and Plans", lines=["- Ship v1", "- Write docs"]
    )
    goals = body(result.new_memory, "Goals and Plans")
    assert goals[-2:] == ["- Ship v1", "- Write docs"]
    assert "- Write docs\n\n## 2. Facts and Knowledge" in result.new_memory
    assert result.meta.changed_lines == 2
    assert result.meta.sections_touched == ["Goals and Plans"]
    assert body(result.new_memory, "Active Notes") == body(MEMORY, "Active Notes")


def test_append_to_initial_memory_keeps_the_blank_separator() -> None:
    result = append_in_memory(INITIAL_MEMORY, section_title="facts", lines="- Secret: APPLE")
    assert result.new_memory == (
        "## 1. Goals and Plans\n\n## 2. Facts and Knowledge\n- Secret: APPLE\n\n"
        "## 3. Active Notes\n"
    )


def test_append_splits_line_breaks_and_drops_blank_lines() -> None:
    result = append_in_memory(
        INITIAL_MEMORY, section_title="Active Notes", lines=["- a\n- b", "", "   "]
    )
    assert result.new_memory.endswith("## 3. Active Notes\n- a\n- b\n")


def test_append_to_last_section_without_trailing_newline() -> None:
    result = append_in_memory("## 1. Goals and Plans", section_title="Goals", lines=["x"])
    assert result.new_memory == "## 1. Goals and Plans\nx"


def test_append_keeps_windows_line_ends() -> None:
    memory = "## 1. Goals and Plans\r\n- a\r\n"
    result = append_in_memory(memory, section_title="Goals", lines=["- b"])
    assert result.new_memory == "## 1. Goals and Plans\r\n- a\r\n- b\r\n"


@pytest.mark.parametrize("lines", [[], [""], ["  ", "\n"]])
def test_append_needs_some_text(lines: list[str]) -> None:
    with pytest.raises(MemoryToolError, match="'lines' has no text to append"):
        append_in_memory(MEMORY, section_title="Goals and Plans", lines=lines)


@pytest.mark.parametrize("lines", [None, 5, [1, 2], {"a": "b"}, ["ok", None]])
def test_append_needs_a_list_of_strings(lines: object) -> None:
    with pytest.raises(MemoryToolError, match="'lines' must be a list of strings"):
        append_in_memory(MEMORY, section_title="Goals and Plans", lines=lines)  # type: ignore[arg-type]


@pytest.mark.parametrize("line", ["## 4. Extra", "  ## sneaky", "- ok\n## 4. Extra"])
def test_append_refuses_header_lines(line: str) -> None:
    with pytest.raises(MemoryToolError, match="section header"):
        append_in_memory(MEMORY, section_title="Goals and Plans", lines=[line])


def test_append_to_unknown_section_lists_the_valid_titles() -> None:
    with pytest.raises(MemoryToolError) as info:
        append_in_memory(MEMORY, section_title="Scratchpad", lines=["x"])
    message = str(info.value)
    assert message.startswith("append_in_memory: Section 'Scratchpad' does not exist")
    assert "'Goals and Plans', 'Facts and Knowledge', 'Active Notes'" in message


def test_append_needs_a_string_title() -> None:
    with pytest.raises(MemoryToolError, match="'section_title' must be a string"):
        append_in_memory(MEMORY, section_title=3, lines=["x"])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- delete

NOTES = """## 1. Goals and Plans
- Keep the secret word hidden

## 2. Facts and Knowledge
- Secret word: APPLE

## 3. Active Notes
- User guessed E (correct)
- User guessed Z (wrong)
- E
* Hint given: it is a fruit
"""


def test_delete_matches_canonical_lines_ignoring_markers_case_and_spacing() -> None:
    result = delete_from_memory(
        NOTES, section_title="Active Notes", lines=["user   GUESSED e (correct)"]
    )
    assert body(result.new_memory, "Active Notes") == [
        "- User guessed Z (wrong)",
        "- E",
        "* Hint given: it is a fruit",
    ]
    assert result.meta.changed_lines == 1
    assert result.meta.sections_touched == ["Active Notes"]


def test_delete_short_targets_need_a_whole_line_match() -> None:
    result = delete_from_memory(NOTES, section_title="Active Notes", lines=["e"])
    assert body(result.new_memory, "Active Notes") == [
        "- User guessed E (correct)",
        "- User guessed Z (wrong)",
        "* Hint given: it is a fruit",
    ]


def test_delete_long_targets_match_by_substring_and_warn_on_several() -> None:
    result = delete_from_memory(NOTES, section_title="Active Notes", lines=["user guessed"])
    assert body(result.new_memory, "Active Notes") == ["- E", "* Hint given: it is a fruit"]
    assert result.meta.warnings == ["'user guessed' matched 2 lines; all of them were deleted."]


def test_delete_reports_targets_that_matched_nothing() -> None:
    result = delete_from_memory(
        NOTES, section_title="Active Notes", lines=["- Hint given: it is a fruit", "- Nope"]
    )
    assert result.meta.warnings == ["'- Nope' matched no line in section 'Active Notes'."]
    assert "Hint given" not in result.new_memory


def test_delete_with_nothing_matched_fails_and_shows_the_lines() -> None:
    with pytest.raises(MemoryToolError) as info:
        delete_from_memory(NOTES, section_title="Facts", lines=["Secret word: PEAR"])
    message = str(info.value)
    assert message.startswith("delete_from_memory: nothing was deleted")
    assert "Its lines are: '- Secret word: APPLE'" in message


def test_delete_in_an_empty_section_says_it_is_empty() -> None:
    with pytest.raises(MemoryToolError, match="The section is empty"):
        delete_from_memory(INITIAL_MEMORY, section_title="Goals", lines=["anything here"])


def test_delete_never_deletes_a_header() -> None:
    with pytest.raises(MemoryToolError, match="nothing was deleted"):
        delete_from_memory(NOTES, section_title="Active Notes", lines=["## 3. Active Notes"])
    result = delete_from_memory(
        NOTES, section_title="Active Notes", lines=["## 3. Active Notes", "- E"]
    )
    assert headers(result.new_memory) == headers(NOTES)
    assert "headers are never deleted" in result.meta.warnings[0]


def test_delete_ignores_targets_without_text() -> None:
    result = delete_from_memory(NOTES, section_title="Active Notes", lines=["-", "- E"])
    assert result.meta.warnings == ["Ignored '-': nothing is left once list markers are removed."]


@pytest.mark.parametrize("lines", [[], [""], None, [3]])
def test_delete_needs_targets(lines: object) -> None:
    with pytest.raises(MemoryToolError, match="'lines'"):
        delete_from_memory(NOTES, section_title="Active Notes", lines=lines)  # type: ignore[arg-type]


def test_delete_single_string_is_one_target() -> None:
    result = delete_from_memory(NOTES, section_title="Facts", lines="Secret word: APPLE")
    assert body(result.new_memory, "Facts and Knowledge") == []
