"""The leaderboard's figures in headless chromium: thirty agents with long, similar names at
near-identical points, identical points and points in the corners, with controls. Every
label's box, as the browser draws it, lies inside its plot's frame and overlaps no other
label and no point; every agent is named by a label, the legend or both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cogarch.experiments.leaderboard.board import build_leaderboard
from cogarch.experiments.leaderboard.files import write_leaderboard
from tests.experiments.suite.boards import RATE, write_board

from .boxes import inside, overlap
from .conftest import launched_chromium

pytestmark = pytest.mark.browser
AGENTS = [
    f"memory_vector_store_top{k}_bge_small_reader_{'qwen2.5_1.5b_' * (i % 3)}v{i}"
    for i, k in enumerate([5, 10, 20] * 10)
]
BOXES = """() => [...document.querySelectorAll('figure.scatter')].map(f => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  return {
    frame: box(f.querySelector('rect.plot-area')),
    labels: [...f.querySelectorAll('text.label')].map(t => ({
      text: t.textContent, agents: t.dataset.agents.split('\\n'), box: box(t),
      hover: t.parentElement.querySelector('title').textContent})),
    points: [...f.querySelectorAll('circle')].map(box),
    legend: [...f.querySelectorAll('ol.legend li')].map(li => li.textContent),
    agents: [...f.querySelectorAll('g.agent, g.control')].map(g => g.dataset.agent),
  };
})"""


def _items(i: int, n: int = 20) -> list[dict[str, int]]:
    """``n`` trials, ``10 + i % 3`` of them won, spending nearly the same tokens."""
    return [{"ok": int(k < 10 + i % 3), "tokens": 1000 + i} for k in range(n)]


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("crowded")
    near = {name: _items(i) for i, name in enumerate(AGENTS)}
    near["no_memory_reader_alone"] = [{"ok": 0, "control": "no_memory"}] * 20
    near["oracle_reader_with_evidence_only"] = [{"ok": 1, "control": "oracle"}] * 20
    same = {name: [{"ok": 1, "tokens": 500}] * 4 for name in AGENTS}
    corners = {
        name: [{"ok": int(i % 2 == 0), "tokens": 10 if i % 2 == 0 else 90_000}] * 4
        for i, name in enumerate(AGENTS[:8])
    }
    write_board(
        folder,
        {"near": [RATE], "same": [RATE], "corners": [RATE]},
        {"near": near, "same": same, "corners": corners},
    )
    write_leaderboard(folder)
    return folder


@pytest.fixture(scope="module")
def page(crowded: Path) -> Iterator[Any]:
    for chromium in launched_chromium():
        context = chromium.new_context(viewport={"width": 1300, "height": 1000})
        yield context.new_page()
        context.close()


def test_no_label_overlaps_another_or_leaves_its_plot(crowded: Path, page: Any) -> None:
    page.goto((crowded / "leaderboard.html").as_uri())
    figures = page.evaluate(BOXES)
    board = build_leaderboard(crowded)
    assert len(figures) == len(board.tasks) + 1
    for figure in figures:
        labels = figure["labels"]
        assert labels, figure["agents"]
        for label in labels:
            assert inside(label["box"], figure["frame"]), label
            for point in figure["points"]:
                assert not overlap(label["box"], point), (label, point)
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                assert not overlap(a["box"], b["box"]), (a["text"], b["text"])
        labelled = {agent for label in labels for agent in label["agents"]}
        assert labelled == set(figure["agents"])  # every agent by a name or a number
        for label in labels:
            if label["text"] not in label["agents"]:  # a number: its names are in the legend
                assert all(any(a in item for item in figure["legend"]) for a in label["agents"])
            assert all(agent in label["hover"] for agent in label["agents"])
    near = figures[0]
    named = {label["text"] for label in near["labels"]}
    assert {"no_memory_reader_alone", "oracle_reader_with_evidence_only"} <= named
    same = figures[1]  # thirty identical points: the names with no room share one number label
    numbered = [label for label in same["labels"] if label["text"] not in label["agents"]]
    assert len(numbered) == 1 and numbered[0]["text"] == f"1-{len(same['legend'])}"
