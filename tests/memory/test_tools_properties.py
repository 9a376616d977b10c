"""Properties of the memory tools over generated memories and edits.

* re-applying a patch or a replacement changes nothing;
* no tool except ``overwrite_memory`` changes a header line or the order of sections;
* whatever the arguments, a call either succeeds or raises ``MemoryToolError``.

Idempotency is exact when a section's lines can be told apart (every generated line ends in
a unique ``#n#`` tag). With repeated lines an edit can recreate its own target (deleting the
middle of ``A A B B`` leaves a new ``A B``), which no stateless tool can tell from a fresh one;
for such memories only the safety properties are checked.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cogarch.memory.working.document import is_header_line, parse_memory
from cogarch.memory.working.edit_meta import MemoryToolError
from cogarch.memory.working.patch import patch_memory
from cogarch.memory.working.replace import replace_in_memory
from cogarch.memory.working.tool_specs import apply_tool_call

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

STANDARD_HEADERS = ["## 1. Goals and Plans", "## 2. Facts and Knowledge", "## 3. Active Notes"]
CHARS = st.characters(exclude_characters="\n", exclude_categories=["Cs"])
SAFE_CHARS = st.characters(exclude_characters="\n#", exclude_categories=["Cs"])
MARKERS = st.sampled_from(["", "- ", "* ", "• ", "1. ", "  - ", "[", "## not header? "])
WORDS = st.sampled_from(["Goal", "fact", "Note", "APPLE", "é", "  ", "[x]", ":", "ß", "-"])


def _text(chars: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(WORDS, st.text(chars, max_size=6), WORDS).map("".join)


TEXT = _text(CHARS)
SAFE_TEXT = _text(SAFE_CHARS)  # no '#': cannot form a header or repeat a tag
BLANK = st.sampled_from(["", "  ", "\t"])
COINS = st.integers(0, 3)


def _lines(draw: st.DrawFn, count: int, first_tag: int) -> list[str]:
    """``count`` body lines, each ending in its own ``#tag#``, with blank lines between."""
    out: list[str] = []
    for tag in range(first_tag, first_tag + count):
        if draw(COINS) == 0:
            out.append(draw(BLANK))
        line = f"{draw(MARKERS)}{draw(TEXT)} #{tag}#"
        out.append(line if not is_header_line(line) else "x" + line)
    return out


@st.composite
def tagged_memory(draw: st.DrawFn) -> tuple[str, list[str], list[list[str]]]:
    """A memory whose non-blank body lines are all distinct: (text, headers, bodies)."""
    headers = list(STANDARD_HEADERS)
    if draw(st.booleans()):
        headers.append("  ## 4. Extra " + draw(TEXT))
    headers = draw(st.permutations(headers))
    bodies: list[list[str]] = []
    tag = 0
    for _ in headers:
        count = draw(st.integers(0, 4))
        body = _lines(draw, count, tag)
        tag += count
        if draw(st.booleans()):
            body.append("")
        bodies.append(body)
    lines = draw(st.sampled_from([[], ["preface"], ["", "notes:"]]))
    for header, body in zip(headers, bodies, strict=True):
        lines += [header, *body]
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n"]))
    return text, headers, bodies


def _hunk(draw: st.DrawFn, header: str, body: list[str], first_new_tag: int) -> list[str]:
    """One hunk editing a run of ``body``: context/delete lines plus fresh inserted lines."""
    lines = [line for line in body if line.strip()]
    start = draw(st.integers(0, len(lines)))
    run = lines[start : start + draw(st.integers(0, 3))]
    ops = [(draw(st.sampled_from([" ", "-"])), line) for line in run]
    inserts = _lines(draw, draw(st.integers(0, 2)), first_new_tag)
    for line in inserts:
        if line.strip():
            ops.insert(draw(st.integers(0, len(ops))), ("+", line))
    if all(sign == " " for sign, _ in ops):
        ops.append(("+", f"- added #{first_new_tag + 9}#"))
    title = draw(st.sampled_from([header, header.split(". ", 1)[-1]]))
    written = [f" {text}" if sign == " " else f"{sign} {text}" for sign, text in ops]
    return [f"@@ section: {title}", *written]


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "case_sensitive": st.booleans(),
        "normalize_whitespace": st.booleans(),
        "strict_context": st.booleans(),
    },
)


def _headers(text: str) -> list[str]:
    return parse_memory(text).headers


@st.composite
def tagged_patch(draw: st.DrawFn) -> tuple[str, str, bool]:
    """A memory, a patch with one hunk in each of some sections, and whether some hunk is a
    pure insertion without context."""
    text, headers, bodies = draw(tagged_memory())
    chosen = sorted(draw(st.sets(st.integers(0, len(headers) - 1), min_size=1)))
    hunks = [_hunk(draw, headers[i], bodies[i], 1000 + 10 * n) for n, i in enumerate(chosen)]
    unanchored = any(all(line.startswith("+") for line in hunk[1:]) for hunk in hunks)
    lines = [line for hunk in hunks for line in hunk]
    patch = "\n".join(["*** Begin Patch", "*** Update Memory", *lines, "*** End Patch"])
    return text, patch, unanchored


@given(case=tagged_patch(), options=OPTIONS)
@SETTINGS
def test_reapplying_a_patch_is_a_no_op(
    case: tuple[str, str, bool], options: dict[str, bool]
) -> None:
    text, patch, unanchored = case
    if options.get("strict_context") and unanchored:
        options = {**options, "strict_context": False}  # strict refuses unanchored inserts
    once = patch_memory(text, patch=patch, options=options)
    assert _headers(once.new_memory) == _headers(text)
    assert once.meta.applied_hunks == patch.count("\n@@ ")
    twice = patch_memory(once.new_memory, patch=patch, options=options)
    assert twice.new_memory == once.new_memory
    assert twice.meta.applied_hunks == 0
    assert twice.meta.changed_lines == 0


@st.composite
def tagged_replacement(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    text, headers, bodies = draw(tagged_memory())
    candidates = [
        (header, line)
        for header, body in zip(headers, bodies, strict=True)
        for line in body
        if line.strip()
    ]
    assume(candidates)
    header, line = draw(st.sampled_from(candidates))
    tag_at = line.rindex(" #")
    style = draw(st.sampled_from(["line", "tail", "wrap", "context"]))
    arguments: dict[str, Any] = {}
    cut = draw(st.integers(0, tag_at))
    old = line if style == "line" else line[cut:]
    new = draw(SAFE_TEXT)
    if style == "wrap":
        new = new + old + draw(SAFE_TEXT)
    if style == "context" and cut:
        arguments["pre_context"] = line[:cut]
    else:
        arguments["options"] = draw(OPTIONS.filter(lambda o: "strict_context" not in o))
    arguments |= {"old_string": old, "new_string": new}
    if draw(st.booleans()):
        arguments["section_title"] = header
    return text, arguments


@given(case=tagged_replacement())
@SETTINGS
def test_reapplying_a_replacement_is_a_no_op(case: tuple[str, dict[str, Any]]) -> None:
    text, arguments = case
    once = replace_in_memory(text, **arguments)
    assert _headers(once.new_memory) == _headers(text)
    twice = replace_in_memory(once.new_memory, **arguments)
    assert twice.new_memory == once.new_memory
    assert twice.meta.applied_hunks == 0


# --------------------------------------------------------------------------- any memory

ANY_LINE = st.one_of(
    st.sampled_from(["", "  ", "- a", "* a", "a", "A", "## 1. Goals and Plans", "[x]", "-", "+"]),
    st.text(CHARS, max_size=12),
    st.builds(lambda m, t: m + t, MARKERS, st.text(CHARS, max_size=8)),
)


@st.composite
def any_memory(draw: st.DrawFn) -> str:
    lines = draw(st.lists(ANY_LINE, max_size=6))
    for header in draw(st.permutations(STANDARD_HEADERS)):
        lines += [header, *draw(st.lists(ANY_LINE, max_size=5))]
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


def _fragment(draw: st.DrawFn, memory: str) -> str:
    """Text that often occurs in ``memory`` (a slice of it), sometimes arbitrary text."""
    if memory and draw(st.booleans()):
        start = draw(st.integers(0, len(memory) - 1))
        return memory[start : start + draw(st.integers(1, 20))]
    return draw(st.text(st.characters(exclude_categories=["Cs"]), max_size=15))


@st.composite
def any_call(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    memory = draw(any_memory())
    titles = [*parse_memory(memory).titles, "goals", "Active Knowledge", "nowhere"]
    title = draw(st.sampled_from(titles))
    lines = [line for line in memory.split("\n") if line]
    some_lines = st.lists(st.one_of(st.sampled_from(lines or ["x"]), ANY_LINE), max_size=3)
    name = draw(st.sampled_from(["append", "delete", "patch", "replace"]))
    arguments: dict[str, Any]
    if name in ("append", "delete"):
        arguments = {"section_title": title, "lines": draw(some_lines)}
        name = f"{name}_in_memory" if name == "append" else "delete_from_memory"
    elif name == "patch":
        body = [draw(st.sampled_from(["-", "+", " ", ""])) + line for line in draw(some_lines)]
        patch = "\n".join([f"@@ section: {title}", *body])
        arguments = {"patch": patch, "options": draw(OPTIONS)}
        name = "patch_memory"
    else:
        arguments = {
            "old_string": _fragment(draw, memory),
            "new_string": _fragment(draw, memory) + draw(st.sampled_from(["", "\n## 9. X", "\n"])),
            "options": draw(OPTIONS),
        }
        for key in ("section_title", "pre_context", "post_context"):
            if draw(st.booleans()):
                arguments[key] = title if key == "section_title" else _fragment(draw, memory)
        if draw(st.booleans()):
            arguments["expected_replacements"] = draw(st.integers(1, 3))
        name = "replace_in_memory"
    return memory, name, arguments


@given(call=any_call())
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_tool_changes_a_header_or_the_section_order(
    call: tuple[str, str, dict[str, Any]],
) -> None:
    memory, name, arguments = call
    before = _headers(memory)
    try:
        result = apply_tool_call(memory, name, arguments)
    except MemoryToolError:
        return
    assert _headers(result.new_memory) == before
    try:
        again = apply_tool_call(result.new_memory, name, arguments)
    except MemoryToolError:
        return
    assert _headers(again.new_memory) == before


@given(memory=any_memory())
@settings(max_examples=100, deadline=None)
def test_structure_survives_parse_render(memory: str) -> None:
    doc = parse_memory(memory)
    assert [line for line in memory.split("\n") if is_header_line(line)] == doc.headers
