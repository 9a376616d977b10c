"""A trial record in words, as Markdown: what cogarch's trial page shows, for ``inspect view``.

Each part is one titled block: every turn with the agent's private state after it (and how it
changed) and the agent's walk through its transition graph; the fork with every branch; the
verdict; the task's own sections (the SCT's: why the trial got its outcome, the fork's
secrets and candidates); usage by caller; the error that stopped a failed trial. Text from
the trial is fenced, never read as Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from cogarch.core.records import TrialRecord, Turn, WalkStep
from cogarch.core.task import Task
from cogarch.core.views import Section, Table, cell_text
from cogarch.experiments.tables.report_tables import task_sections
from cogarch.experiments.viewer.explain import explain
from cogarch.experiments.viewer.trial_view import fork_view, state_diff


def fenced(text: str, language: str = "text") -> str:
    """``text`` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for line in text.split("\n") for run in _ticks(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def _ticks(line: str) -> list[str]:
    runs, current = [], ""
    for char in line:
        if char == "`":
            current += char
        elif current:
            runs.append(current)
            current = ""
    return [*runs, current] if current else runs


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table_markdown(table: Table) -> str:
    header = "| " + " | ".join(_cell(h) for h in table.header) + " |"
    rule = "|" + "---|" * len(table.header)
    rows = ["| " + " | ".join(_cell(cell_text(c)) for c in row) + " |" for row in table.rows]
    return "\n".join([f"**{_cell(table.title)}**", "", header, rule, *rows])


def walk_markdown(steps: Sequence[WalkStep]) -> str:
    """The turn's walk, one step a line: node, where from and how chosen, its cost."""
    lines = [
        f"{s.step}. `{s.node}` from `{s.source}` ({s.how}): {_calls(s.model_calls)}, "
        f"{s.tokens} tokens, {s.elapsed_s:.2f} s"
        for s in steps
    ]
    return "\n".join(lines)


def _calls(n: int) -> str:
    return f"{n} model call" + ("" if n == 1 else "s")


def turn_markdown(turn: Turn, previous: str | None, steps: Sequence[WalkStep]) -> str:
    parts = [f"**User:**\n\n{fenced(turn.user)}", f"**Reply:**\n\n{fenced(turn.reply)}"]
    if turn.private_state is not None:
        tokens = f" ({turn.private_state_tokens} tokens)" if turn.private_state_tokens else ""
        parts.append(f"**Private state after the turn{tokens}:**\n\n{fenced(turn.private_state)}")
        diff = state_diff(previous, turn.private_state)
        if diff and previous is not None:
            changed = "\n".join(f"{op} {line}" for op, line in diff)
            parts.append(f"**Changed since the previous turn:**\n\n{fenced(changed, 'diff')}")
    if steps:
        parts.append(f"**Graph walk:**\n\n{walk_markdown(steps)}")
    return "\n\n".join(parts)


def section_markdown(section: Section) -> str:
    parts = [line for line in section.lines]
    if section.table is not None:
        parts.append(table_markdown(section.table))
    parts += [fenced(block) for block in section.preformatted]
    return "\n\n".join(parts)


def record_words(record: TrialRecord, task: type[Task] | None) -> list[tuple[str, str]]:
    """The trial's parts in words: ``(title, markdown)`` in the order a trial page shows
    them."""
    by_turn: dict[int, list[WalkStep]] = {}
    for step in record.walk:
        by_turn.setdefault(step.turn, []).append(step)
    out: list[tuple[str, str]] = []
    previous: str | None = None
    for turn in record.turns:
        out.append((f"Turn {turn.turn}", turn_markdown(turn, previous, by_turn.pop(turn.turn, []))))
        previous = turn.private_state if turn.private_state is not None else previous
    for number, steps in sorted(by_turn.items()):  # a turn cut short by a failure
        out.append((f"Turn {number} (unfinished)", f"**Graph walk:**\n\n{walk_markdown(steps)}"))
    fork = fork_view(record)
    if fork is not None:
        lines = [f"The agent was forked after turn {fork.after_turn}."]
        if fork.snapshot is not None:
            lines.append(f"**Private state at the fork:**\n\n{fenced(fork.snapshot)}")
        for i, branch in enumerate(fork.branches, 1):
            said = f"**Branch {i}: {branch.title}**"
            if branch.verdict:
                said += f" — {branch.verdict}"
            lines += [said, fenced(f"> {branch.branch.prompt}\n{branch.branch.reply}")]
            if branch.diff:
                change = "\n".join(f"{op} {line}" for op, line in branch.diff)
                lines.append(
                    f"Its private state's change from the fork:\n\n{fenced(change, 'diff')}"
                )
        out.append(("Fork", "\n\n".join(lines)))
    out.append(("Verdict", "\n\n".join(explain(record))))
    out += [(s.title, section_markdown(s)) for s in task_sections(task, record)]
    if record.usage.by_caller:
        rows = [
            [caller, *(numbers.get(k) for k in ("calls", "prompt_tokens", "completion_tokens"))]
            for caller, numbers in sorted(record.usage.by_caller.items())
        ]
        usage = Table("model calls by caller", ["caller", "calls", "prompt", "completion"], rows)
        out.append(("Usage", table_markdown(usage)))
    if record.error is not None:
        error = record.error
        out.append(("Error", f"{error.type}: {error.message}\n\n{fenced(error.traceback)}"))
    return out
