"""The memory the tool tests edit, and small helpers to read it back."""

from __future__ import annotations

from cogarch.memory.working.document import parse_memory

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
