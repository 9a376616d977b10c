"""Transition matrices and the two-panel heatmap."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cogarch.errors import ConfigError
from cogarch.workspace.heatmap import aggregate_counts, plot_transition_heatmap, transition_matrix
from cogarch.workspace.route_log import RouteLog, Transition


def route_log(*moves: tuple[str, str]) -> RouteLog:
    out = RouteLog()
    out.add(Transition(1, 0, "<input>", moves[0][0], "entry"))
    for step, (source, target) in enumerate(moves, start=1):
        out.add(Transition(1, step, source, target, "single"))
    return out


def test_the_matrix_counts_and_row_normalises() -> None:
    counts = {("hub", "plan"): 1, ("hub", "answer"): 3, ("plan", "hub"): 1}
    names, matrix, probabilities = transition_matrix(counts)
    assert names == ["answer", "hub", "plan"]
    assert matrix.tolist() == [[0, 0, 0], [3, 0, 1], [0, 1, 0]]
    assert probabilities.tolist() == [[0.0, 0.0, 0.0], [0.75, 0.0, 0.25], [0.0, 1.0, 0.0]]
    row_sums = probabilities.sum(axis=1)
    assert np.allclose(row_sums, [0.0, 1.0, 1.0])  # "answer" is never left: its row stays 0


def test_names_fix_the_order_and_may_add_unvisited_nodes() -> None:
    names, matrix, _ = transition_matrix({("a", "b"): 2}, names=["b", "a", "never"])
    assert names == ["b", "a", "never"]
    assert matrix.tolist() == [[0, 0, 0], [2, 0, 0], [0, 0, 0]]


def test_names_that_miss_a_node_are_refused() -> None:
    with pytest.raises(ConfigError, match="not in 'names': c"):
        transition_matrix({("a", "c"): 1}, names=["a"])


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ConfigError, match="a -> b has a negative count"):
        transition_matrix({("a", "b"): -1})


def test_counts_add_up_over_route_logs_without_the_entry() -> None:
    one = route_log(("hub", "plan"), ("plan", "hub"), ("hub", "answer"))
    two = route_log(("hub", "answer"))
    total = aggregate_counts([one, two, RouteLog()])
    assert total == Counter({("hub", "answer"): 2, ("hub", "plan"): 1, ("plan", "hub"): 1})
    assert aggregate_counts([]) == Counter()


def test_the_heatmap_is_a_png_file(tmp_path: Path) -> None:
    counts = aggregate_counts([route_log(("perception", "conscious"), ("conscious", "responder"))])
    path = plot_transition_heatmap(counts, tmp_path / "nested" / "map.png", title="two steps")
    assert path == tmp_path / "nested" / "map.png"
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 5_000


def test_an_empty_heatmap_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no transitions to plot"):
        plot_transition_heatmap(Counter(), tmp_path / "empty.png")
    assert not (tmp_path / "empty.png").exists()
