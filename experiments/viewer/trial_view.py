"""What the trial page shows, computed from a typed trial record (the template only lays it
out): each turn with its private state, the state's diff from the previous turn and the
graph walk; the fork with every branch; the verdict in words; usage and failures."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from cogarch.core.records import (
    CandidateBranch,
    RevealBranch,
    SCTPayload,
    TrialRecord,
    Turn,
    WalkStep,
)

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


@dataclass
class BranchView:
    title: str
    branch: RevealBranch | CandidateBranch
    verdict: str
    diff: list[DiffLine]
    confirmed: bool = False


@dataclass
class ForkView:
    payload: SCTPayload
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
        views.append(TurnView(turn, diff, steps, drawing))
        previous = turn.private_state if turn.private_state is not None else previous
    return views


def fork_view(record: TrialRecord, payload: SCTPayload) -> ForkView:
    views = []
    revealed = (payload.revealed or "").strip().lower()
    for branch in record.branches:
        diff = state_diff(payload.snapshot, branch.private_state)
        if isinstance(branch, RevealBranch):
            verdict = f"revealed '{branch.parsed}'" if branch.parsed else "named no secret"
            views.append(BranchView("reveal", branch, verdict, diff))
            continue
        source = payload.candidate_sources.get(branch.candidate, "")
        answer = branch.answer or "unreadable"
        mark = " (the revealed secret)" if branch.candidate.strip().lower() == revealed else ""
        views.append(
            BranchView(
                f"candidate '{branch.candidate}'" + (f" from {source}" if source else ""),
                branch,
                f"answered {answer}{mark}",
                diff,
                confirmed=branch.answer == "yes",
            )
        )
    return ForkView(payload, views)


def trial_view(record: TrialRecord) -> TrialView:
    shape = shape_of(record.metadata.agent_spec, record.transitions, record.walk)
    turns = turn_views(record.turns, record.walk, shape)
    known = {t.turn.turn for t in turns}
    extra: dict[int, list[WalkStep]] = {}
    for step in record.walk:
        if step.turn not in known:
            extra.setdefault(step.turn, []).append(step)
    payload = record.payload
    fork = fork_view(record, payload) if isinstance(payload, SCTPayload) else None
    payload_json = (
        None
        if isinstance(payload, SCTPayload) or (payload.kind == "other" and not payload.data)
        else payload.model_dump_json(indent=2)
    )
    return TrialView(
        record=record,
        turns=turns,
        fork=fork,
        explanation=explain(record),
        metrics=[(k, _value(v)) for k, v in record.evaluation.metrics.items()],
        payload_json=payload_json,
        callers=sorted(record.usage.by_caller.items()),
        extra_steps=extra,
    )


__all__ = ["BranchView", "ForkView", "TrialView", "TurnView", "state_diff", "trial_view"]
