"""replace_in_memory: the paper's Appendix G examples, its semantics and every error path."""

from __future__ import annotations

import pytest

from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.replace import replace_in_memory
from tests.memory.tool_memory import MEMORY, body, headers


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


def test_an_anchored_match_is_found_where_an_earlier_unanchored_one_overlaps_it() -> None:
    text = "## 1. Goals and Plans\n- :000Goal #0#\n## 2. Facts and Knowledge\n## 3. Active Notes"
    edit = {"pre_context": "- :000", "old_string": "Goal #0#", "new_string": ":000:"}
    once = replace_in_memory(text, explanation="tag the goal", **edit)
    assert "- :000:000:" in once.new_memory
    twice = replace_in_memory(once.new_memory, explanation="tag the goal", **edit)
    assert twice.new_memory == once.new_memory and twice.meta.applied_hunks == 0
