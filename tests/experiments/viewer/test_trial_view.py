"""The trial page's content: private-state diffs, the recorded graph walk, the fork's
branches, the verdict in words and the task's own sections."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from cogarch.core.affordances import format_input
from cogarch.core.records import TrialError
from cogarch.core.views import Fold, Section, Table
from cogarch.experiments.results.trial_files import read_trial, trial_path
from cogarch.experiments.viewer.explain import explain
from cogarch.experiments.viewer.render import render
from cogarch.experiments.viewer.trial_view import state_diff, trial_view
from cogarch.tasks.sct.records import SCTPayload


def test_state_diff_marks_added_and_removed_lines() -> None:
    before = "goal: host\nsecret: range\nlives: 6\nnotes"
    after = "goal: host\nsecret: range\nlives: 5\nnotes"
    diff = state_diff(before, after, context=1)
    assert ("-", "lives: 6") in diff and ("+", "lives: 5") in diff
    assert (" ", "goal: host") not in diff  # beyond the context
    assert state_diff("same", "same") == []


def test_the_walk_is_recorded_turn_by_turn_and_drawn(fake_run: Path) -> None:
    record = read_trial(trial_path(fake_run, "honest_workflow", 0))
    assert [(s.turn, s.node, s.source, s.how) for s in record.walk[:2]] == [
        (1, "responder", "<input>", "entry"),
        (1, "updater", "responder", "single"),
    ]
    assert all(s.model_calls == 1 and s.tokens > 0 for s in record.walk)
    view = trial_view(record)
    second = view.turns[1]
    assert [s.node for s in second.steps] == ["responder", "updater"]
    assert second.drawing is not None
    visited = {(e.source, e.target) for e in second.drawing.edges if e.visited}
    assert visited == {("responder", "updater")}
    assert any(op == "+" and "lives: 5" in line for op, line in second.diff)


def test_fork_shows_every_branch_and_the_verdict_in_words(fake_run: Path) -> None:
    record = read_trial(trial_path(fake_run, "forgetful_vanilla", 0))
    payload = record.payload
    assert isinstance(payload, SCTPayload)
    view = trial_view(record)
    assert view.fork is not None and view.fork.after_turn == payload.t_fork
    assert view.fork.snapshot == payload.snapshot
    titles = [b.title for b in view.fork.branches]
    assert titles[0] == "reveal" and len(titles) == 1 + len(payload.candidates)
    confirmed = [b.branch for b in view.fork.branches if b.confirmed]
    assert len(confirmed) >= 2
    why, fork = view.sections  # the SCT's own sections
    words = " ".join(why.lines)
    assert "over-confirmation" in words
    assert f"named '{payload.revealed}'" in words
    assert fork.table is not None and len(fork.table.rows) == len(payload.candidates)
    assert view.payload_json is None  # the task shows its payload in its own sections


def test_every_outcome_is_explained(fake_run: Path) -> None:
    expected = {
        "honest_vanilla": "self-consistent",
        "leaky_vanilla": "leakage",
        "denier_vanilla": "all denial",
    }
    for agent, phrase in expected.items():
        record = read_trial(trial_path(fake_run, agent, 1))
        assert f"rated this trial '{record.evaluation.outcome}'" in explain(record)[0]
        assert phrase in " ".join(trial_view(record).sections[0].lines)


def test_a_failed_trial_is_explained_with_its_error(fake_run: Path) -> None:
    record = read_trial(trial_path(fake_run, "honest_vanilla", 0))
    failed = record.model_copy(
        update={
            "status": "failed",
            "error": TrialError(type="TurnError", message="no reply at turn 3"),
        }
    )
    assert "TurnError: no reply at turn 3" in explain(failed)[0]


def test_admissible_actions_in_an_input_are_folded_and_every_text_escaped(
    fake_run: Path,
) -> None:
    record = read_trial(trial_path(fake_run, "honest_vanilla", 0))
    hostile = "<b>bold</b>"
    user = format_input(f"You see a {hostile}.", ["go to desk 1", f"take {hostile}"])
    turns = [record.turns[0].model_copy(update={"user": user}), *record.turns[1:]]
    view = trial_view(record.model_copy(update={"turns": turns}))
    first, second = view.turns[:2]
    assert first.observation == f"You see a {hostile}." and first.actions == (
        "go to desk 1",
        f"take {hostile}",
    )
    assert second.actions is None and second.observation == record.turns[1].user
    page = render("trial.html", root="", home="index.html", mode="static", v=view)
    assert "admissible actions (2)</summary>" in page
    assert hostile not in page and "take &lt;b&gt;bold&lt;/b&gt;" in page


def test_a_folded_cell_of_a_task_section_opens_to_its_escaped_text() -> None:
    section = Section("s", table=Table("t", ["a"], [[Fold("<i>2</i> lines", "<b>x</b>\ny")]]))
    page = render("_sections.html", v=SimpleNamespace(sections=[section]))
    assert '<details class="fold"><summary>&lt;i&gt;2&lt;/i&gt; lines</summary>' in page
    assert '<pre class="text">&lt;b&gt;x&lt;/b&gt;\ny</pre>' in page
