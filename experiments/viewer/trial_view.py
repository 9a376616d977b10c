"""What the trial page shows, computed from a typed trial record (the template only lays it
out): each turn with its private state, the state's diff from the previous turn and the
graph walk (an input that lists an environment's admissible actions shows them folded); the
fork with every branch; the verdict in words; the task's own sections
(``Task.trial_sections``); usage and failures. Nothing here knows a task."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.affordances import split_input
from cogarch.core.records import Branch, TrialRecord, Turn, WalkStep
from cogarch.core.views import Section

from ..results.task_types import task_of
from ..tables.report_tables import task_sections
from .explain import explain
from .graph_svg import Drawing, Shape, draw, shape_of

DiffLine = tuple[str, str]
"""``(op, text)``: op is ``+`` (added), ``-`` (removed), `` `` (kept) or ``…`` (lines skipped)."""


def state_diff(before: str | None, after: str | None, context: int = 2) -> list[DiffLine]:
    """The lines of ``after`` that differ from ``before``, with a little context."""
    a, b = (before or "").splitlines(), (after or "").splitlines()
    out: list[DiffLine] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        if out:
            out.append(("…", ""))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                out += [(" ", line) for line in a[i1:i2]]
                continue
            out += [("-", line) for line in a[i1:i2]]
            out += [("+", line) for line in b[j1:j2]]
    return out


@dataclass
class TurnView:
    turn: Turn
    diff: list[DiffLine]
    steps: list[WalkStep]
    drawing: Drawing | None
    observation: str = ""
    """The user's text without the admissible actions it lists (all of it when it lists
    none)."""
    actions: tuple[str, ...] | None = None
    """The admissible actions the user's text lists (``cogarch.core.affordances``), shown
    folded; None when it lists none."""


@dataclass
class BranchView:
    title: str
    branch: Branch
    verdict: str
    diff: list[DiffLine]
    confirmed: bool = False


@dataclass
class ForkView:
    after_turn: int
    snapshot: str | None
    """The private state at the fork (after the last turn before it)."""
    branches: list[BranchView]


@dataclass
class TrialView:
    record: TrialRecord
    turns: list[TurnView]
    fork: ForkView | None
    explanation: list[str]
    metrics: list[tuple[str, str]]
    payload_json: str | None
    callers: list[tuple[str, dict[str, float | None]]]
    extra_steps: dict[int, list[WalkStep]] = field(default_factory=dict)
    """Walk steps of turns the record has no turn for (a failure mid-turn)."""
    sections: list[Section] = field(default_factory=list)
    """The task's own sections of the page."""


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def turn_views(turns: list[Turn], walk: list[WalkStep], shape: Shape | None) -> list[TurnView]:
    by_turn: dict[int, list[WalkStep]] = {}
    for step in walk:
        by_turn.setdefault(step.turn, []).append(step)
    views, previous = [], None
    for turn in turns:
        steps = by_turn.get(turn.turn, [])
        drawing = draw(shape, steps) if shape is not None else None
        diff = state_diff(previous, turn.private_state) if turn.private_state is not None else []
        shown = split_input(turn.user)
        views.append(TurnView(turn, diff, steps, drawing, shown.observation, shown.actions))
        previous = turn.private_state if turn.private_state is not None else previous
    return views


def fork_view(record: TrialRecord) -> ForkView | None:
    """Every branch of the trial's fork, with its private state's change from the state at
    the fork; None when the trial forked nothing."""
    if not record.branches:
        return None
    snapshot = record.turns[-1].private_state if record.turns else None
    views = [
        BranchView(
            b.branch_title(record),
            b,
            b.branch_verdict(record),
            state_diff(snapshot, b.private_state),
            confirmed=b.branch_confirmed(),
        )
        for b in record.branches
    ]
    return ForkView(record.turns[-1].turn if record.turns else 0, snapshot, views)


def trial_view(record: TrialRecord, *, within: str | None = None) -> TrialView:
    """The page of ``record``; ``within`` is the results folder it was read from (a task
    file inside it is never loaded for the task's own sections)."""
    shape = shape_of(record.metadata.agent_spec, record.transitions, record.walk)
    turns = turn_views(record.turns, record.walk, shape)
    known = {t.turn.turn for t in turns}
    extra: dict[int, list[WalkStep]] = {}
    for step in record.walk:
        if step.turn not in known:
            extra.setdefault(step.turn, []).append(step)
    sections = task_sections(task_of(record, within=within), record)
    payload = record.payload
    empty = not payload.model_dump(exclude={"kind"})
    return TrialView(
        record=record,
        turns=turns,
        fork=fork_view(record),
        explanation=explain(record),
        metrics=[(k, _value(v)) for k, v in record.evaluation.evaluation_items()],
        payload_json=None if sections or empty else payload.model_dump_json(indent=2),
        callers=sorted(record.usage.by_caller.items()),
        extra_steps=extra,
        sections=sections,
    )
