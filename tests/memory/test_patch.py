"""patch_memory: the paper's Appendix G examples, its semantics and every error path."""

from __future__ import annotations

import pytest

from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.patch import patch_memory
from tests.memory.tool_memory import MEMORY, body, patch


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
