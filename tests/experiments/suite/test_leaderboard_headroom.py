"""Headroom captured in the leaderboard, on boards written by hand: the value and interval
``headroom`` gives for the items a memory shares with the no-memory and oracle controls,
'not estimable' with fewer than ten items or no spread, none for a control or a column without
both controls; the controls never ranked."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogarch.experiments.estimates.clusters import MIN_CLUSTERS
from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.files import to_markdown
from cogarch.experiments.leaderboard.headroom import headroom

from .boards import RATE, write_board

MEMORY = [1] * 8 + [0] * 4
RIVAL = [1] * 4 + [0] * 8
NONE = [0] * 10 + [1] * 2
ORACLE = [1] * 11 + [0]


def _trials(oks: list[int], control: str | None = None) -> list[dict[str, object]]:
    return [{"ok": ok, **({"control": control} if control else {})} for ok in oks]


def _board(tmp_path: Path, n: int = 12) -> Path:
    return write_board(
        tmp_path,
        {"framed": [RATE], "bare": [RATE]},
        {
            "framed": {
                "memory": _trials(MEMORY[:n]),
                "rival": _trials(RIVAL[:n]),
                "no_memory": _trials(NONE[:n], "no_memory"),
                "oracle": _trials(ORACLE[:n], "oracle"),
            },
            "bare": {"memory": _trials(MEMORY[:n]), "rival": _trials(RIVAL[:n])},
        },
    )


def test_headroom_beside_each_memory_with_its_paired_bootstrap_interval(tmp_path: Path) -> None:
    board = build_leaderboard(_board(tmp_path))
    for agent, oks in (("memory", MEMORY), ("rival", RIVAL)):
        cell = board.cell(agent, "framed")
        assert cell is not None and cell.headroom is not None
        # by hand: memory 8/12, no memory 2/12, oracle 11/12 -> (8 - 2) / (11 - 2) = 2/3
        s, n, o = sum(oks) / 12, 2 / 12, 11 / 12
        assert cell.headroom.value == pytest.approx((s - n) / (o - n))
        found = headroom(
            {str(i): float(v) for i, v in enumerate(oks)},
            {str(i): float(v) for i, v in enumerate(NONE)},
            {str(i): float(v) for i, v in enumerate(ORACLE)},
        )
        assert (cell.headroom.low, cell.headroom.high) == (found.low, found.high)
        assert cell.headroom.low is not None and cell.headroom.high is not None
        assert cell.headroom.low < cell.headroom.value < cell.headroom.high
        assert cell.headroom.items == 12 and cell.headroom.interval_note is None
    memory = board.cell("memory", "framed")
    assert memory is not None and memory.headroom is not None
    assert memory.headroom.value == pytest.approx(2 / 3)
    markdown = to_markdown(board)
    assert f"headroom 0.667 ({memory.headroom.low:.3g}-{memory.headroom.high:.3g})" in markdown


def test_controls_have_no_headroom_and_take_no_rank(tmp_path: Path) -> None:
    board = build_leaderboard(_board(tmp_path))
    framed = next(t for t in board.tasks if t.name == "framed")
    assert framed.best == ["memory"]  # the oracle scores higher, but is not ranked
    for role in ("no_memory", "oracle"):
        cell = board.cell(role, "framed")
        assert cell is not None and cell.control == role
        assert cell.headroom is None and cell.ranked_value is None and not cell.best
        row = next(r for r in board.rows if r.agent == role)
        assert row.mean_win_rate is None and row.mean_rank is None and row.tasks == []
    rows = {r.agent: r for r in board.rows}
    assert rows["memory"].mean_win_rate == 1.0 and rows["rival"].mean_win_rate == 0.0
    bare = board.cell("memory", "bare")  # no controls in this column: no headroom
    assert bare is not None and bare.headroom is None


def test_with_fewer_than_ten_items_the_interval_is_not_estimable(tmp_path: Path) -> None:
    board = build_leaderboard(_board(tmp_path, n=MIN_CLUSTERS - 1))
    cell = board.cell("memory", "framed")
    assert cell is not None and cell.headroom is not None and cell.headroom.value is not None
    assert (cell.headroom.low, cell.headroom.high) == (None, None)
    assert cell.headroom.interval_note == f"{MIN_CLUSTERS - 1} items, fewer than {MIN_CLUSTERS}"
    assert "; headroom " in to_markdown(board) and "(not estimable)" in to_markdown(board)
