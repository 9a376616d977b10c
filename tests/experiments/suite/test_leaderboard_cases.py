"""Leaderboard cases with hand-computed statistics: shared items, failures that count,
clusters, paired tests and ties, on suite folders written item by item."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import fisher_exact, wilcoxon

from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.files import write_leaderboard

from .boards import ANSWERS, JUDGED, RATE, write_board


def ok(*values: int) -> list[dict[str, int]]:
    return [{"ok": v} for v in values]


def conversation(name: str, *scores: float) -> dict:
    answers = [{"score": s, "judge": s >= 0.5} for s in scores]
    return {"conversation": name, "answers": answers}


def test_a_partial_cell_that_ties_on_the_shared_items_ranks_as_a_tie(tmp_path: Path) -> None:
    """Three agents answer a two-conversation column alike (0.4 on the first conversation,
    0.5 on the second) and ``a`` has lost its second trial. Ranked on its own subset, ``a``
    (0.4) lost the column to the others (0.45 over both); ranked on the conversation all of
    them have, it ties."""
    one, two = conversation("c1", 0.4, 0.4), conversation("c2", 0.5, 0.5)
    folder = write_board(
        tmp_path,
        {"qa": [ANSWERS], "game": [RATE]},
        {
            "qa": {"a": [one, None], "b": [one, two], "c": [one, two]},
            "game": {"a": ok(1, 1, 1), "b": ok(1, 1, 1), "c": ok(0, 0, 0)},
        },
    )
    board = build_leaderboard(folder)
    a, b = board.cell("a", "qa"), board.cell("b", "qa")
    assert a is not None and b is not None
    assert a.status == "partial" and a.value == pytest.approx(0.4) and a.n == 2
    assert b.value == pytest.approx(0.45) and b.ranked_value == pytest.approx(0.4)
    assert a.best and b.best and board.cell("c", "qa").best  # type: ignore[union-attr]
    column = next(t for t in board.tasks if t.name == "qa")
    assert column.shared == ["0/0", "0/1"] and column.shared_clusters == 1
    rows = {r.agent: r for r in board.rows}
    # qa: all tie (1/2 each); game: a and b beat c and tie each other (3/4)
    assert rows["a"].mean_win_rate == pytest.approx((0.5 + 0.75) / 2)
    assert rows["a"].mean_win_rate == rows["b"].mean_win_rate
    assert rows["a"].mean_rank == rows["b"].mean_rank == pytest.approx((2 + 1.5) / 2)
    assert rows["b"].items == {"qa": 2, "game": 3}  # what its aggregates were computed over
    write_leaderboard(folder)
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert "0.45 (not estimable) n=4 in 2 clusters; 0.4 on the 2 shared *" in markdown
    # every row covers the same tasks: said once above the table, not in a column
    assert "Every row: tasks covered (items): qa (2), game (3)." in markdown
    assert "| qa (2), game (3) |" not in markdown and "| tasks covered" not in markdown


def test_mcnemar_on_thirty_shared_items_with_ten_discordant_pairs(tmp_path: Path) -> None:
    best = [1] * 20 + [0] * 10
    other = [1] * 10 + [0] * 20  # the 10 items 10..19: best right, other wrong
    folder = write_board(tmp_path, {"t": [RATE]}, {"t": {"x": ok(*best), "y": ok(*other)}})
    y = build_leaderboard(folder).cell("y", "t")
    assert y is not None and y.test == "mcnemar"
    assert y.p_value == pytest.approx(0.001953125, abs=1e-12)  # 2 * 0.5**10
    assert round(y.p_value, 6) == 0.001953  # type: ignore[arg-type]
    unpaired = fisher_exact([[20, 10], [10, 20]])[1]  # what pooled counts would give
    assert unpaired > 0.01 and y.significant is True


def test_a_failed_trial_counts_as_a_failure_in_the_denominator(tmp_path: Path) -> None:
    failed = {"failed": True}
    folder = write_board(
        tmp_path,
        {"t": [RATE], "qa": [ANSWERS, JUDGED]},
        {
            "t": {"x": [*ok(1, 1), failed], "y": ok(1, 1, 1)},
            "qa": {
                "x": [conversation("c1", 1.0, 1.0), failed],
                "y": [conversation("c1", 1.0, 1.0), conversation("c2", 1.0, 1.0)],
            },
        },
    )
    board = build_leaderboard(folder)
    x = board.cell("x", "t")
    assert x is not None and x.status == "partial"
    assert (x.value, x.n, x.failures) == (pytest.approx(2 / 3), 3, 1)
    assert not x.best and x.ranked_n == 3  # compared on all three trials, not two
    qa = board.cell("x", "qa")
    assert qa is not None and (qa.n, qa.failures, qa.value) == (4, 2, 0.5)  # F1 0 when failed
    judged = next(m for m in qa.more if m.metric == "j")
    assert (judged.value, judged.n, judged.failures) == (0.5, 4, 2)
    write_leaderboard(folder)
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert "n=3, 1 failed" in markdown and "n=4 in 2 clusters, 2 failed" in markdown


def test_a_failed_trial_of_a_mean_without_a_failure_value_is_counted_not_scored(
    tmp_path: Path,
) -> None:
    cost = ANSWERS.model_copy(update={"failure": None})
    folder = write_board(
        tmp_path,
        {"qa": [cost]},
        {
            "qa": {
                "x": [conversation("c1", 0.2), {"failed": True}],
                "y": [conversation("c1", 0.2), conversation("c2", 0.9)],
            }
        },
    )
    board = build_leaderboard(folder)
    x, y = board.cell("x", "qa"), board.cell("y", "qa")
    assert x is not None and (x.value, x.n, x.failures) == (0.2, 1, 1)
    assert y is not None and y.ranked_value == 0.2 and x.best and y.best  # shared: c1 only


def test_two_conversations_give_no_interval_and_a_cluster_level_test(tmp_path: Path) -> None:
    first = [conversation("c1", 1, 1, 1, 0), conversation("c2", 1, 0, 1, 1)]
    second = [conversation("c1", 0, 0, 1, 0), conversation("c2", 0, 0, 0, 1)]
    folder = write_board(tmp_path, {"qa": [JUDGED]}, {"qa": {"x": first, "y": second}})
    board = build_leaderboard(folder)
    x, y = board.cell("x", "qa"), board.cell("y", "qa")
    assert x is not None and y is not None
    assert (x.value, x.n, x.clusters) == (0.75, 8, 2)
    assert (x.low, x.high, x.interval) == (None, None, "not estimable")
    assert x.interval_note == "2 clusters, fewer than 10"
    # per conversation: x 0.75 and 0.75, y 0.25 and 0.25; signed-rank on the two differences
    assert y.test == "wilcoxon over clusters"
    assert y.p_value == wilcoxon([0.25, 0.25], [0.75, 0.75]).pvalue == 0.5
    write_leaderboard(folder)
    text = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert "0.75 (not estimable) n=8 in 2 clusters *" in text
    assert "- qa: the 8 items in 2 clusters every measured cell has" in text


def test_every_cell_tied_with_the_best_is_marked(tmp_path: Path) -> None:
    folder = write_board(
        tmp_path,
        {"t": [RATE]},
        {"t": {"a": ok(1, 0, 1), "b": ok(0, 1, 1), "c": ok(1, 1, 0), "d": ok(0, 0, 1)}},
    )
    board = build_leaderboard(folder)
    assert [c.agent for c in board.cells if c.best] == ["a", "b", "c"]
    assert next(t for t in board.tasks if t.name == "t").best == ["a", "b", "c"]
    d = board.cell("d", "t")
    assert d is not None and d.significant is False and d.test == "mcnemar"
    assert d.p_value == 1.0  # against a: one discordant pair each way


def test_cells_without_a_shared_item_are_tested_by_fisher_and_not_ranked(tmp_path: Path) -> None:
    folder = write_board(
        tmp_path, {"t": [RATE]}, {"t": {"a": [*ok(1, 1), None, None], "b": [None, None, *ok(0, 0)]}}
    )
    board = build_leaderboard(folder)
    b = board.cell("b", "t")
    assert b is not None and b.test == "fisher"
    assert b.p_value == fisher_exact([[0, 2], [2, 0]])[1]
    column = next(t for t in board.tasks if t.name == "t")
    assert column.shared == [] and not column.ranked
    assert all(r.tasks == [] and r.mean_win_rate is None for r in board.rows)
