"""The working-memory document: parsing, rendering and section lookup."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.memory.working.document import (
    INITIAL_MEMORY,
    SECTION_TITLES,
    DocumentSection,
    MemoryDocument,
    SectionLookupError,
    body_end_index,
    canonical_line,
    find_section_index,
    is_header_line,
    parse_header,
    parse_memory,
    render_memory,
    section_spans,
)


def find_section(doc: MemoryDocument, title: str) -> DocumentSection:
    return doc.sections[find_section_index(doc, title)]


MEMORY = (
    "Private notes\n"
    "\n"
    "## 1. Goals and Plans\n"
    "- Keep the secret hidden\n"
    "\n"
    "## 2. Facts and Knowledge\n"
    "- Secret word: APPLE\n"
    "  - five letters\n"
    "\n"
    "## 3. Active Notes\n"
    "- User guessed E\n"
)


def test_initial_memory_has_the_three_sections_with_empty_bodies() -> None:
    doc = parse_memory(INITIAL_MEMORY)
    assert doc.titles == list(SECTION_TITLES)
    assert [s.number for s in doc.sections] == ["1", "2", "3"]
    assert all(not line.strip() for s in doc.sections for line in s.body)
    assert doc.preface == ()


def test_parse_splits_preface_headers_and_bodies() -> None:
    doc = parse_memory(MEMORY)
    assert doc.preface == ("Private notes", "")
    facts = doc.sections[1]
    assert facts.header == "## 2. Facts and Knowledge"
    assert facts.title == "Facts and Knowledge"
    assert facts.number == "2"
    assert facts.body == ("- Secret word: APPLE", "  - five letters", "")
    assert doc.sections[2].body == ("- User guessed E", "")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n",
        "\n\n",
        "## 1. A",
        "## 1. A\n",
        "no headers at all\nsecond line",
        "  ## indented header\nbody",
        "## 1. A\r\n- crlf line\r\n## 2. B\r\n",
        "## 3. Active Notes\n## 1. Goals and Plans\n",
        "###  not a header\n##not a header either\n##\ttab is not a header",
        MEMORY,
        INITIAL_MEMORY,
    ],
)
def test_render_gives_back_the_parsed_text_byte_for_byte(text: str) -> None:
    assert render_memory(parse_memory(text)) == text


@given(st.text(alphabet=st.sampled_from(["#", " ", "\n", "\r", "a", "1", ".", "-", "é"])))
@settings(max_examples=300, deadline=None)
def test_round_trip_on_header_heavy_text(text: str) -> None:
    assert render_memory(parse_memory(text)) == text


@given(st.text())
@settings(max_examples=200, deadline=None)
def test_round_trip_on_any_text(text: str) -> None:
    assert render_memory(parse_memory(text)) == text


def test_only_hash_hash_space_after_optional_spaces_makes_a_header() -> None:
    assert is_header_line("## Goals")
    assert is_header_line("   ## 2. Facts")
    assert is_header_line("## ")
    assert not is_header_line("### Sub heading")
    assert not is_header_line("##Goals")
    assert not is_header_line("\t## Goals")
    assert not is_header_line("- ## not at start")


def test_parse_header_reads_optional_number() -> None:
    assert parse_header("## 1. Goals and Plans") == ("Goals and Plans", "1")
    assert parse_header("## 2) Facts") == ("Facts", "2")
    assert parse_header("## Scratchpad  ") == ("Scratchpad", None)
    assert parse_header("## 2024 plans") == ("2024 plans", None)


def test_headers_out_of_order_keep_their_order() -> None:
    doc = parse_memory("## 3. Active Notes\nx\n## 1. Goals and Plans\ny")
    assert doc.titles == ["Active Notes", "Goals and Plans"]


@pytest.mark.parametrize(
    "query",
    [
        "Goals and Plans",
        "goals and plans",
        "1. Goals and Plans",
        "## 1. goals  and plans",
        "  GOALS AND PLANS  ",
        "Goals & Plans",
        "'Goals and Plans'",
        "Goals and Plans:",
        "Goals",
        "Plans",
        "Goals / Plans",
        "1",
        "## 1.",
        "section 1",
    ],
)
def test_find_section_matches_loosely_written_titles(query: str) -> None:
    assert find_section(parse_memory(MEMORY), query).title == "Goals and Plans"


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("Active Knowledge", "Active Notes"),
        ("Active Knowledge (Reasoning Outputs & Ephemeral Notes)", "Active Notes"),
        ("Inference", "Active Notes"),
        ("reasoning", "Active Notes"),
        ("Inference / Reasoning / Active Knowledge", "Active Notes"),
        ("Facts", "Facts and Knowledge"),
        ("Knowledge", "Facts and Knowledge"),
        ("Episodic buffer", "Facts and Knowledge"),
        ("Facts / Knowledge / Episodic buffer", "Facts and Knowledge"),
        ("3. Active Notes (ephemeral)", "Active Notes"),
    ],
)
def test_find_section_resolves_the_papers_loose_names(query: str, title: str) -> None:
    assert find_section(parse_memory(MEMORY), query).title == title


def test_a_real_title_wins_over_an_alias() -> None:
    doc = parse_memory("## 1. Goals and Plans\n## 2. Knowledge\n## 3. Facts and Knowledge\n")
    assert find_section_index(doc, "Knowledge") == 1
    assert find_section_index(doc, "facts") == 2


def test_unknown_section_lists_the_valid_titles() -> None:
    with pytest.raises(SectionLookupError) as info:
        find_section(parse_memory(MEMORY), "Scratchpad")
    message = str(info.value)
    assert "'Scratchpad' does not exist" in message
    for title in SECTION_TITLES:
        assert f"'{title}'" in message


def test_memory_without_headers_says_so() -> None:
    with pytest.raises(SectionLookupError, match="no section headers"):
        find_section(parse_memory("just text"), "Goals and Plans")


def test_duplicate_titles_are_ambiguous_unless_the_number_decides() -> None:
    doc = parse_memory("## 1. Notes\na\n## 2. Notes\nb\n")
    with pytest.raises(SectionLookupError, match="ambiguous"):
        find_section(doc, "Notes")
    assert find_section(doc, "2. Notes").body == ("b", "")


def test_section_spans_point_at_headers_and_bodies() -> None:
    doc = parse_memory(MEMORY)
    spans = section_spans(doc)
    for span, section in zip(spans, doc.sections, strict=True):
        assert MEMORY[span.header_start : span.header_end] == section.header
        assert MEMORY[span.body_start : span.body_end] == "\n".join(section.body) + (
            "\n" if span.body_end < len(MEMORY) else ""
        )


def test_section_span_of_a_final_header_without_newline_is_empty() -> None:
    text = "## 1. A\nx\n## 2. B"
    span = section_spans(parse_memory(text))[1]
    assert (span.body_start, span.body_end) == (len(text), len(text))


def test_body_end_index_skips_trailing_blank_lines() -> None:
    assert body_end_index(("a", "", "b", "", "  ")) == 3
    assert body_end_index(("", "")) == 0
    assert body_end_index(()) == 0


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("- Secret word: APPLE", "secret word: apple"),
        ("  *   spaced   out  ", "spaced out"),
        ("• bullet", "bullet"),
        ("1. numbered", "numbered"),
        ("2) numbered", "numbered"),
        ("- - nested markers", "nested markers"),
        ("1.5 kg of flour", "1.5 kg of flour"),
        ("-", ""),
    ],
)
def test_canonical_line(line: str, canonical: str) -> None:
    assert canonical_line(line) == canonical


def test_canonical_line_can_keep_case() -> None:
    assert canonical_line("- Secret", fold_case=False) == "Secret"
