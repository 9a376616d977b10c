"""The five memory tools: the paper's examples, their semantics and every error path."""

from __future__ import annotations

import pytest

from memory.tools import (
    MemoryToolError,
    ToolResult,
    append_in_memory,
    delete_from_memory,
    overwrite_memory,
    patch_memory,
    replace_in_memory,
)
from memory.working_memory import INITIAL_MEMORY, parse_memory

# The memory the paper's Appendix G examples edit (its template wording, plus the notes the
# examples refer to).
MEMORY = """## 1. Goals and Plans
- Current overarching goal.
- Planned steps or strategies for achieving them.
[Milestones]
- Milestone: ship the MVP

## 2. Facts and Knowledge
- The user is building a web service.

## 3. Active Notes
[Investigation notes]
Hypothesis: caching is the bottleneck
Evidence: slow Redis reads
"""


def patch(*lines: str) -> str:
    return "\n".join(["*** Begin Patch", "*** Update Memory", *lines, "*** End Patch"])


def body(memory: str, title: str) -> list[str]:
    for section in parse_memory(memory).sections:
        if section.title == title:
            return [line for line in section.body if line.strip()]
    raise AssertionError(f"no section {title}")


def headers(memory: str) -> list[str]:
    return parse_memory(memory).headers


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


# --------------------------------------------------------------------------- patch


def test_patch_example_a_simple_replacement() -> None:
    text = patch(
        "@@ section: Goals and Plans",
        "- - Planned steps or strategies for achieving them.",
        "+ - Planned steps: finish MVP, write docs, ship v1 by Sept 15.",
    )
    result = patch_memory(MEMORY, patch=text, explanation="Fill in the plan")
    assert body(result.new_memory, "Goals and Plans") == [
        "- Current overarching goal.",
        "- Planned steps: finish MVP, write docs, ship v1 by Sept 15.",
        "[Milestones]",
        "- Milestone: ship the MVP",
    ]
    assert result.meta.applied_hunks == 1
    assert result.meta.changed_lines == 2
    assert result.meta.sections_touched == ["Goals and Plans"]
    assert result.meta.warnings == []


def test_patch_example_a_as_printed_matches_the_bulleted_line() -> None:
    # The paper writes "- Planned steps ..." for a line that itself starts with "- ": the
    # literal text does not match, so the list-marker-insensitive fallback finds it.
    text = patch(
        "@@ section: Goals and Plans",
        "- Planned steps or strategies for achieving them.",
        "+ Planned steps: finish MVP, write docs, ship v1 by Sept 15.",
    )
    result = patch_memory(MEMORY, patch=text, explanation="Fill in the plan")
    assert "Planned steps: finish MVP, write docs, ship v1 by Sept 15." in result.new_memory
    assert "strategies for achieving them" not in result.new_memory
    again = patch_memory(result.new_memory, patch=text, explanation="Fill in the plan")
    assert again.new_memory == result.new_memory


def test_patch_example_b_multi_line_update_with_light_context() -> None:
    text = "\n".join(
        [
            "...",
            "*** Begin Patch",
            "*** Update Memory",
            "@@ section: Active Knowledge",
            "[Investigation notes]",
            "- Hypothesis: caching is the bottleneck",
            "- Evidence: slow Redis reads",
            "+ Hypothesis (confirmed): caching is the bottleneck",
            "+ Evidence: slow Redis reads; profiler shows 45% time in cache layer",
            "*** End Patch",
            "...",
        ]
    )
    result = patch_memory(MEMORY, patch=text, explanation="Confirm the hypothesis")
    assert body(result.new_memory, "Active Notes") == [
        "[Investigation notes]",
        "Hypothesis (confirmed): caching is the bottleneck",
        "Evidence: slow Redis reads; profiler shows 45% time in cache layer",
    ]
    assert result.meta.changed_lines == 4
    assert result.meta.sections_touched == ["Active Notes"]


def test_patch_example_c_pure_insertion_after_context() -> None:
    text = patch(
        "@@ section: Goals and Plans",
        "[Milestones]",
        "+ - Milestone: pass integration tests in CI",
    )
    result = patch_memory(MEMORY, patch=text, explanation="Add a milestone")
    assert body(result.new_memory, "Goals and Plans")[2:] == [
        "[Milestones]",
        "- Milestone: pass integration tests in CI",
        "- Milestone: ship the MVP",
    ]
    assert result.meta.changed_lines == 1


@pytest.mark.parametrize(
    "text",
    [
        patch("@@ section: Goals and Plans", "[Milestones]", "+ - Milestone: CI"),
        patch("@@ section: Goals and Plans", "- - Current overarching goal.", "+ - Goal: v1"),
        patch("@@ section: Active Notes", "- Evidence: slow Redis reads"),
        patch("@@ section: Facts and Knowledge", "+ - Stack: Python"),
        patch(
            "@@ section: Goals and Plans",
            "- - Milestone: ship the MVP",
            "+ - Milestone: ship the MVP",
            "+ - Milestone: CI green",
        ),
    ],
)
def test_reapplying_a_patch_changes_nothing(text: str) -> None:
    once = patch_memory(MEMORY, patch=text)
    assert once.new_memory != MEMORY
    twice = patch_memory(once.new_memory, patch=text)
    assert twice.new_memory == once.new_memory
    assert twice.meta.applied_hunks == 0
    assert twice.meta.changed_lines == 0
    assert "skipped" in twice.meta.warnings[0]


def test_patch_with_several_hunks_in_several_sections() -> None:
    text = patch(
        "@@ section: Goals and Plans",
        "- - Current overarching goal.",
        "+ - Goal: ship v1",
        "@@ section: Facts and Knowledge",
        "+ - Deadline: Sept 15",
        "@@ section: Goals and Plans",
        "[Milestones]",
        "+ - Milestone: docs",
    )
    result = patch_memory(MEMORY, patch=text, expected_hunks=3, expected_changes=4)
    assert result.meta.applied_hunks == 3
    assert result.meta.changed_lines == 4
    assert result.meta.sections_touched == ["Goals and Plans", "Facts and Knowledge"]
    assert body(result.new_memory, "Facts and Knowledge")[-1] == "- Deadline: Sept 15"
    assert body(result.new_memory, "Goals and Plans")[0] == "- Goal: ship v1"


def test_patch_prose_and_fences_around_the_hunks_are_ignored() -> None:
    text = "Here is my patch:\n```diff\n...\n@@ section: Facts @@\n+ - Deadline: Sept 15\n```\n"
    result = patch_memory(MEMORY, patch=text)
    assert body(result.new_memory, "Facts and Knowledge")[-1] == "- Deadline: Sept 15"


def test_patch_without_markers_is_accepted() -> None:
    text = "@@ section: Facts and Knowledge\n+ - Deadline: Sept 15\n"
    result = patch_memory(MEMORY, patch=text)
    assert body(result.new_memory, "Facts and Knowledge")[-1] == "- Deadline: Sept 15"


def test_patch_context_may_have_a_leading_space_and_blank_lines_are_skipped() -> None:
    memory = "## 1. Goals and Plans\n- a\n\n- b\n"
    text = patch("@@ section: Goals", " - a", "- - b", "+ - c")
    assert patch_memory(memory, patch=text).new_memory == "## 1. Goals and Plans\n- a\n\n- c\n"


def test_patch_section_header_as_first_context_inserts_at_the_top() -> None:
    text = patch("@@ section: Goals and Plans", "## 1. Goals and Plans", "+ - Top priority")
    result = patch_memory(MEMORY, patch=text)
    assert body(result.new_memory, "Goals and Plans")[0] == "- Top priority"
    assert patch_memory(result.new_memory, patch=text).new_memory == result.new_memory


def test_patch_header_of_another_section_as_context_fails() -> None:
    text = patch("@@ section: Goals and Plans", "## 3. Active Notes", "+ - x")
    with pytest.raises(MemoryToolError) as info:
        patch_memory(MEMORY, patch=text)
    assert "header '## 3. Active Notes' of another section" in str(info.value)


def test_patch_options_control_case_and_spacing() -> None:
    text = patch("@@ section: Facts", "- - the USER is   building a web service.", "+ - x")
    with pytest.raises(MemoryToolError, match="is not in section 'Facts and Knowledge'"):
        patch_memory(MEMORY, patch=text)
    result = patch_memory(MEMORY, patch=text, options={"case_sensitive": False})
    assert body(result.new_memory, "Facts and Knowledge") == ["- x"]
    with pytest.raises(MemoryToolError):
        patch_memory(
            MEMORY,
            patch=text,
            options={"case_sensitive": False, "normalize_whitespace": False},
        )


def test_patch_strict_context_needs_exact_lines_and_an_anchor() -> None:
    loose = patch("@@ section: Goals", "- Current overarching goal.", "+ - Goal: v1")
    with pytest.raises(MemoryToolError, match="is not in section 'Goals and Plans'"):
        patch_memory(MEMORY, patch=loose, options={"strict_context": True})
    bare = patch("@@ section: Goals", "+ - anywhere")
    with pytest.raises(MemoryToolError, match="strict_context requires"):
        patch_memory(MEMORY, patch=bare, options={"strict_context": True})


def test_patch_pure_insertion_without_context_appends_to_the_section() -> None:
    result = patch_memory(MEMORY, patch=patch("@@ section: Goals", "+ - Last"))
    assert body(result.new_memory, "Goals and Plans")[-1] == "- Last"
    assert "- Last\n\n## 2." in result.new_memory


def test_patch_deletion_already_done_is_skipped_with_a_warning() -> None:
    text = patch("@@ section: Active Notes", "- Evidence: slow Redis reads")
    once = patch_memory(MEMORY, patch=text)
    again = patch_memory(once.new_memory, patch=text)
    assert again.new_memory == once.new_memory
    assert "none of the lines to delete is in the section" in again.meta.warnings[0]


def test_patch_deletion_of_a_misquoted_line_fails_when_the_line_is_elsewhere() -> None:
    text = patch("@@ section: Goals", "[Milestones]", "- - Current overarching goal.")
    with pytest.raises(MemoryToolError, match="not one after another in this order"):
        patch_memory(MEMORY, patch=text)


def test_patch_only_some_hunks_already_applied() -> None:
    first = patch("@@ section: Facts", "+ - A fact")
    second = patch("@@ section: Facts", "+ - A fact", "@@ section: Active Notes", "+ - A note")
    once = patch_memory(MEMORY, patch=first)
    result = patch_memory(once.new_memory, patch=second, expected_hunks=2)
    assert result.meta.applied_hunks == 1
    assert len(result.meta.warnings) == 1
    assert body(result.new_memory, "Active Notes")[-1] == "- A note"


# patch errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the patch contains no hunk"),
        ("*** Begin Patch\n*** Update Memory\n*** End Patch", "the patch contains no hunk"),
        ("*** Begin Patch\n- old\n+ new\n*** End Patch", "comes before any '@@ section"),
        ("@@ section:\n+ x", "names no section"),
        ("@@\n+ x", "names no section"),
        ("@@ section: Goals\n[Milestones]", "changes nothing"),
        ("@@ section: Goals\n", "changes nothing"),
        ("@@ section: Goals\n+ ## 4. New section", "tries to add the header"),
        ("@@ section: Goals\n- ## 1. Goals and Plans", "tries to delete the header"),
        ("@@ section: Goals\n- x\n## 2. Facts and Knowledge\n+ y", "use as context the header"),
        ("@@ section: Scratchpad\n+ x", "Section 'Scratchpad' does not exist"),
    ],
)
def test_patch_format_errors(text: str, message: str) -> None:
    with pytest.raises(MemoryToolError, match="patch_memory: ") as info:
        patch_memory(MEMORY, patch=text)
    assert message in str(info.value)


def test_patch_missing_line_names_the_line_and_the_section() -> None:
    text = patch("@@ section: Goals", "- Hypothesis: caching is the bottleneck", "+ x")
    with pytest.raises(MemoryToolError) as info:
        patch_memory(MEMORY, patch=text)
    message = str(info.value)
    assert "hunk 1 (@@ section: Goals and Plans) could not be applied" in message
    assert "'Hypothesis: caching is the bottleneck' is not in section 'Goals and Plans'" in message
    assert "It is in section 'Active Notes'" in message
    assert "No change was made" in message


def test_patch_lines_out_of_order_are_diagnosed() -> None:
    text = patch("@@ section: Goals", "[Milestones]", "- - Current overarching goal.", "+ x")
    with pytest.raises(MemoryToolError, match="not one after another in this order"):
        patch_memory(MEMORY, patch=text)


def test_patch_ambiguous_block_fails_and_asks_for_context() -> None:
    memory = "## 3. Active Notes\n[A]\n- todo\n[B]\n- todo\n"
    with pytest.raises(MemoryToolError) as info:
        patch_memory(memory, patch=patch("@@ section: Active Notes", "- - todo", "+ - done"))
    assert "is ambiguous: its lines match 2 places" in str(info.value)
    assert "Add an unchanged context line" in str(info.value)
    result = patch_memory(
        memory, patch=patch("@@ section: Active Notes", "[B]", "- - todo", "+ - done")
    )
    assert result.new_memory == "## 3. Active Notes\n[A]\n- todo\n[B]\n- done\n"


def test_patch_is_all_or_nothing() -> None:
    text = patch("@@ section: Facts", "+ - fine", "@@ section: Goals", "- missing line", "+ x")
    with pytest.raises(MemoryToolError, match="hunk 2"):
        patch_memory(MEMORY, patch=text)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"expected_hunks": 2}, "expected_hunks=2 but the patch contains 1 hunk"),
        ({"expected_changes": 1}, "expected_changes=1 but the patch contains 2 '+'/'-' line"),
        ({"expected_hunks": -1}, "'expected_hunks' must be a whole number"),
        ({"expected_changes": True}, "'expected_changes' must be a whole number"),
        ({"options": {"fuzzy": True}}, "unknown option 'fuzzy'"),
        ({"options": {"strict_context": "yes"}}, "option 'strict_context' must be true or false"),
        ({"options": ["strict_context"]}, "'options' must be an object"),
        ({"explanation": 3}, "'explanation' must be a string"),
        ({"patch": None}, "'patch' must be the patch text"),
    ],
)
def test_patch_argument_errors(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {
        "patch": patch("@@ section: Goals", "- - Current overarching goal.", "+ - Goal")
    }
    arguments.update(kwargs)
    with pytest.raises(MemoryToolError) as info:
        patch_memory(MEMORY, **arguments)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_patch_expected_counts_hold_on_reapplication() -> None:
    text = patch("@@ section: Goals", "- - Current overarching goal.", "+ - Goal")
    once = patch_memory(MEMORY, patch=text, expected_hunks=1, expected_changes=2)
    twice = patch_memory(once.new_memory, patch=text, expected_hunks=1, expected_changes=2)
    assert twice.new_memory == once.new_memory


def test_patch_keeps_windows_line_ends() -> None:
    memory = "## 1. Goals and Plans\r\n- a\r\n"
    result = patch_memory(memory, patch="@@ section: Goals\r\n- - a\r\n+ - b\r\n")
    assert result.new_memory == "## 1. Goals and Plans\r\n- b\r\n"


# --------------------------------------------------------------------------- replace


def test_replace_example_single_bullet_in_goals() -> None:
    result = replace_in_memory(
        MEMORY,
        section_title="Goals and Plans",
        old_string="- Current overarching goal.",
        new_string="- Current overarching goal: ship v1 by Sept 15.",
        expected_replacements=1,
        explanation="Clarify primary goal",
    )
    assert body(result.new_memory, "Goals and Plans")[0] == (
        "- Current overarching goal: ship v1 by Sept 15."
    )
    assert result.meta.applied_hunks == 1
    assert result.meta.changed_lines == 2
    assert result.meta.sections_touched == ["Goals and Plans"]


INVESTIGATION = """## 1. Goals and Plans
- Find the slow path

## 3. Active Notes
[Investigation notes]
- Hypothesis: caching is the bottleneck
- Evidence: slow Redis reads
[Investigation notes]
- Hypothesis: caching is the bottleneck
[Discarded]
- Hypothesis: caching is the bottleneck
"""

EXAMPLE_2 = {
    "section_title": "Active Knowledge (Reasoning Outputs & Ephemeral Notes)",
    "pre_context": "[Investigation notes]",
    "old_string": "Hypothesis: caching is the bottleneck",
    "new_string": "Hypothesis (confirmed): caching is the bottleneck",
    "expected_replacements": 2,
    "explanation": "Mark hypothesis as confirmed",
}


def test_replace_example_multi_occurrence_with_context() -> None:
    result = replace_in_memory(INVESTIGATION, **EXAMPLE_2)  # type: ignore[arg-type]
    assert body(result.new_memory, "Active Notes") == [
        "[Investigation notes]",
        "- Hypothesis (confirmed): caching is the bottleneck",
        "- Evidence: slow Redis reads",
        "[Investigation notes]",
        "- Hypothesis (confirmed): caching is the bottleneck",
        "[Discarded]",
        "- Hypothesis: caching is the bottleneck",
    ]
    assert result.meta.sections_touched == ["Active Notes"]


@pytest.mark.parametrize(
    "kwargs",
    [
        EXAMPLE_2,
        {"old_string": "Find the slow path", "new_string": "Find the slow path (Redis)"},
        {"old_string": "- Evidence: slow Redis reads\n", "new_string": ""},
    ],
)
def test_reapplying_a_replacement_changes_nothing(kwargs: dict[str, object]) -> None:
    once = replace_in_memory(INVESTIGATION, **kwargs)  # type: ignore[arg-type]
    assert once.new_memory != INVESTIGATION
    twice = replace_in_memory(once.new_memory, **kwargs)  # type: ignore[arg-type]
    assert twice.new_memory == once.new_memory
    assert twice.meta.applied_hunks == 0
    assert twice.meta.warnings[0].startswith("Replacement skipped")


def test_replace_counts_must_match_expected() -> None:
    with pytest.raises(MemoryToolError) as info:
        replace_in_memory(
            INVESTIGATION,
            old_string="Hypothesis: caching is the bottleneck",
            new_string="Hypothesis: done",
        )
    message = str(info.value)
    assert "expected 1 replacement(s), but old_string" in message
    assert "matches 3 place(s) in the working memory" in message
    assert "set expected_replacements=3" in message


def test_replace_fewer_matches_than_expected_fails() -> None:
    with pytest.raises(MemoryToolError, match="matches 1 place"):
        replace_in_memory(
            INVESTIGATION, old_string="Evidence", new_string="Proof", expected_replacements=2
        )


def test_replace_strict_context_must_be_adjacent() -> None:
    arguments = {
        "section_title": "Active Notes",
        "pre_context": "[Investigation notes]",
        "old_string": "- Evidence: slow Redis reads",
        "new_string": "- Evidence: slow reads",
    }
    with pytest.raises(MemoryToolError) as info:
        replace_in_memory(INVESTIGATION, **arguments)  # type: ignore[arg-type]
    assert "never with the given pre_context/post_context next to it" in str(info.value)
    assert "strict_context=false" in str(info.value)
    relaxed = replace_in_memory(
        INVESTIGATION,
        **arguments,  # type: ignore[arg-type]
        options={"strict_context": False},
    )
    assert "- Evidence: slow reads" in relaxed.new_memory


def test_replace_post_context_selects_the_occurrence() -> None:
    result = replace_in_memory(
        INVESTIGATION,
        old_string="Hypothesis: caching is the bottleneck",
        new_string="Hypothesis: rejected",
        post_context="- Evidence",
    )
    assert body(result.new_memory, "Active Notes")[1] == "- Hypothesis: rejected"


def test_replace_not_found_names_the_other_section() -> None:
    with pytest.raises(MemoryToolError) as info:
        replace_in_memory(
            INVESTIGATION, section_title="Goals", old_string="slow Redis", new_string="x"
        )
    message = str(info.value)
    assert "is not in section 'Goals and Plans' but in section 'Active Notes'" in message


def test_replace_not_found_suggests_case_and_spacing_options() -> None:
    with pytest.raises(MemoryToolError, match="only when case and spacing are ignored"):
        replace_in_memory(INVESTIGATION, old_string="find the  SLOW path", new_string="x")
    result = replace_in_memory(
        INVESTIGATION,
        old_string="find the  SLOW path",
        new_string="Find the fast path",
        options={"case_sensitive": False, "normalize_whitespace": True},
    )
    assert "- Find the fast path" in result.new_memory


def test_replace_plain_not_found() -> None:
    with pytest.raises(MemoryToolError, match="'banana' was not found in the working memory"):
        replace_in_memory(INVESTIGATION, old_string="banana", new_string="x")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("Active Notes", "Scratch", "touches a section header line"),
        ("## 3. Active", "## 4. Other", "touches a section header line"),
        ("slow path\n", "slow path\n## 2. New section\n", "add, remove or break a section header"),
        ("slow path\n\n", "slow path ", "add, remove or break a section header"),
    ],
)
def test_replace_refuses_to_touch_headers(old: str, new: str, message: str) -> None:
    with pytest.raises(MemoryToolError, match=message):
        replace_in_memory(INVESTIGATION, old_string=old, new_string=new)


def test_replace_may_remove_a_blank_line_before_a_header() -> None:
    result = replace_in_memory(INVESTIGATION, old_string="slow path\n\n", new_string="slow path\n")
    assert headers(result.new_memory) == headers(INVESTIGATION)
    assert "- Find the slow path\n## 3. Active Notes" in result.new_memory


def test_replace_text_in_headers_is_invisible_to_the_count() -> None:
    memory = "## 1. Goals and Plans\n- Goals and Plans are tracked here\n"
    result = replace_in_memory(memory, old_string="Goals and Plans", new_string="Objectives")
    assert result.new_memory == "## 1. Goals and Plans\n- Objectives are tracked here\n"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"old_string": ""}, "'old_string' is empty"),
        ({"old_string": None}, "'old_string' must be a string"),
        ({"new_string": 5}, "'new_string' must be a string"),
        ({"expected_replacements": 0}, "'expected_replacements' must be a whole number of at"),
        ({"expected_replacements": "2"}, "'expected_replacements' must be a whole number"),
        ({"pre_context": ["x"]}, "'pre_context' must be a string"),
        ({"section_title": "Nowhere"}, "Section 'Nowhere' does not exist"),
        ({"options": {"strict": True}}, "unknown option 'strict'"),
    ],
)
def test_replace_argument_errors(kwargs: dict[str, object], message: str) -> None:
    arguments: dict[str, object] = {"old_string": "Find", "new_string": "Seek"}
    arguments.update(kwargs)
    with pytest.raises(MemoryToolError, match="replace_in_memory: ") as info:
        replace_in_memory(INVESTIGATION, **arguments)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_replace_empty_context_counts_as_none() -> None:
    result = replace_in_memory(
        INVESTIGATION, old_string="Find", new_string="Seek", pre_context="", post_context=""
    )
    assert "- Seek the slow path" in result.new_memory
