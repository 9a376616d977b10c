"""The leaderboard read like a paper's table: controls framing the ranked agents, values every
row shares said once, and figures whose names are placed, numbered or hovered."""

from __future__ import annotations

import html
import re
from pathlib import Path

from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.figure import Point, scatter
from cogarch.experiments.leaderboard.files import write_leaderboard

from .boards import RATE, write_board


def trials(*values: int, tokens: int = 100, control: str | None = None) -> list[dict]:
    extra = {"control": control} if control else {}
    return [{"ok": v, "tokens": tokens, **extra} for v in values]


def test_a_control_is_shown_but_never_ranked(tmp_path: Path) -> None:
    """The oracle scores above every agent and the reader with no memory below: neither is
    best, tested or aggregated, and the agents rank among themselves alone."""
    folder = write_board(
        tmp_path,
        {"t": [RATE]},
        {
            "t": {
                "a": trials(1, 1, 0, 0),
                "b": trials(0, 0, 0, 0),
                "oracle": trials(1, 1, 1, 1, control="oracle"),
                "none": [*trials(0, 0, control="no_memory"), None, None],
            }
        },
    )
    board = build_leaderboard(folder)
    oracle, none = board.cell("oracle", "t"), board.cell("none", "t")
    assert oracle is not None and oracle.control == "oracle" and oracle.value == 1.0
    assert none is not None and none.control == "no_memory" and none.n == 2
    for cell in (oracle, none):
        assert not cell.best and cell.ranked_value is None and cell.p_value is None
    column = board.tasks[0]
    assert column.best == ["a"] and column.shared_items == 4  # the control's gaps do not count
    b = board.cell("b", "t")
    assert b is not None and b.p_value is not None and b.ranked_value == 0.0
    rows = {r.agent: r for r in board.rows}
    assert rows["oracle"].control == "oracle" and rows["a"].control is None
    assert rows["oracle"].mean_win_rate is None and rows["oracle"].tasks == []
    assert (rows["a"].mean_win_rate, rows["b"].mean_win_rate) == (1.0, 0.0)  # of one other
    write_leaderboard(folder)
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    assert "| oracle (control: oracle) | 1 (" in markdown
    assert "| none (control: no_memory) | 0 (" in markdown
    assert markdown.count("not ranked (a control)") == 2
    page = (folder / "leaderboard.html").read_text(encoding="utf-8")
    controls = re.findall(r'<g class="control" data-agent="([^"]+)">', page)
    assert sorted(controls) == ["none", "oracle"]  # lines across the task's figure
    assert 'class="pareto"' in page and "dashed: a control, not ranked" in page
    circles = re.findall(r'<g class="agent" data-agent="([^"]+)">', page)
    assert "oracle" not in circles and "none" not in circles


def test_what_every_row_shares_is_said_once_and_what_differs_stays(tmp_path: Path) -> None:
    folder = write_board(
        tmp_path,
        {"t": [RATE], "u": [RATE]},
        {
            "t": {"a": trials(1, 0), "b": trials(0, 0), "c": trials(1, 1)},
            "u": {"a": trials(1, 1), "b": trials(1, 0), "c": [None, None]},
        },
    )
    write_leaderboard(folder)
    markdown = (folder / "leaderboard.md").read_text(encoding="utf-8")
    head = markdown.split("\n## ")[0]
    # tasks covered differ (c has no value on u): the column stays, one value per row
    assert "| tasks covered (items) |" in head and "| t (2) |" in head
    assert "| t (2), u (2) |" in head
    costs = markdown.split("## Costs")[1].split("## How to read it")[0]
    said = "Every row: completion tokens: 0; memory calls: 0; wall s: 0.0; cost (USD): none."
    assert said in costs
    assert "memory calls |" not in costs and "| agent | task | status | trials |" in costs
    page = (folder / "leaderboard.html").read_text(encoding="utf-8")
    assert page.count("<th>tasks covered (items)</th>") == 1
    assert '<p class="shared">Every row: <b>completion tokens</b>: 0; <b>memory calls</b>' in page
    one = write_board(tmp_path / "one", {"t": [RATE]}, {"t": {"a": trials(1), "b": trials(0)}})
    write_leaderboard(one)
    text = (one / "leaderboard.md").read_text(encoding="utf-8")
    assert "Every row: tasks covered (items): t (1)." in text
    assert "tasks covered (items) |" not in text


def test_a_name_with_no_room_is_numbered_in_the_legend_and_named_on_hover() -> None:
    names = [f"memory_store_variant_{i:02d}_" + "x" * 60 + "<b>" for i in range(12)]
    points = [Point(n, 1000.0, 0.5, 0.4, 0.6) for n in names]
    points.append(Point("reader alone", 0.0, 0.1, 0.1, 0.1, control="no_memory"))
    figure = scatter("t: accuracy", points, higher=True, metric="accuracy")
    assert "<b>" not in figure  # every name escaped
    escaped = [html.escape(n) for n in names]
    assert figure.count('<text class="label"') == 2  # "1-12" at the spot, the control's name
    assert ">1-12</text>" in figure and ">reader alone</text>" in figure
    legend = re.findall(r'<li value="(\d+)">([^<]*)</li>', figure)
    assert legend == [(str(i + 1), name) for i, name in enumerate(escaped)]
    hover = re.search(
        r'<g class="label"><title>([^<]*)</title>(<line [^>]*>)?<text [^>]*>1-12<', figure
    )
    assert hover is not None and all(name in hover.group(1) for name in escaped)
    assert "reader alone (control: no_memory): 0.1, 0 tokens" in figure
    assert figure.count('class="pareto"') == 12  # all tie; the control is not among them
