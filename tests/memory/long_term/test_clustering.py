"""Concept consolidation: k = max(1, floor(sqrt(N))) clusters, the member nearest each centroid."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogarch.memory.long_term.clustering import DIGITS, cluster_count, consolidate, kmeans


@pytest.mark.parametrize(
    ("n", "k"), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (8, 2), (9, 3), (15, 3), (16, 4)]
)
def test_k_is_the_floor_of_the_square_root(n: int, k: int) -> None:
    assert cluster_count(n) == k


def test_the_member_nearest_the_centroid_represents_a_cluster() -> None:
    # three concepts make one cluster; its centroid (11/3, 0) is nearest the second
    groups = consolidate([[0.0, 0.0], [1.0, 0.0], [10.0, 0.0]], seed=1)
    assert len(groups) == 1
    assert groups[0].members == (0, 1, 2) and groups[0].representative == 1


def test_separate_groups_become_separate_clusters() -> None:
    left = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.1]]
    right = [[5.0, 5.0], [5.1, 5.0], [5.0, 5.1]]
    groups = consolidate(left + right, seed=3)  # six concepts: two clusters
    assert sorted(g.members for g in groups) == [(0, 1, 2), (3, 4, 5)]
    assert [g.representative for g in groups] == [0, 3]


def test_identical_concepts_never_fill_more_clusters_than_they_are_distinct() -> None:
    groups = consolidate([[1.0, 0.0]] * 5, seed=0)
    assert len(groups) == 1 and groups[0].representative == 0


vectors = st.lists(
    st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3), min_size=1, max_size=30
)


@settings(max_examples=40, deadline=None)
@given(vectors, st.integers(0, 2**31))
def test_every_concept_is_in_one_cluster_whose_representative_is_nearest(
    points: list[list[float]], seed: int
) -> None:
    groups = consolidate(points, seed)
    distinct = len({tuple(p) for p in points})
    assert len(groups) == min(max(1, math.isqrt(len(points))), distinct)
    members = sorted(i for g in groups for i in g.members)
    assert members == list(range(len(points)))
    data = np.asarray(points)
    for g in groups:
        assert g.representative in g.members
        centre = data[list(g.members)].mean(axis=0)
        squared = ((data[list(g.members)] - centre) ** 2).sum(axis=1)
        # nearest up to the stated rounding of a squared distance
        assert ((data[g.representative] - centre) ** 2).sum() <= squared.min() + 10.0**-DIGITS
    assert consolidate(points, seed) == groups  # the same seed, the same clusters
    assert [g.members[0] for g in groups] == sorted(g.members[0] for g in groups)


def test_clusters_are_numbered_by_their_first_member_whatever_the_restarts_found() -> None:
    far, near = [[9.0, 9.0], [9.1, 9.0]], [[0.0, 0.0], [0.1, 0.0]]
    points = [*far, *near]
    for seed in range(20):
        groups = consolidate(points, seed)
        assert [g.members for g in groups] == [(0, 1), (2, 3)]


def test_equal_inputs_give_equal_labels_from_every_seed_at_a_tie() -> None:
    # a square: two equally good splits; whichever a seed finds, labels start at the first row
    square = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    for seed in range(10):
        labels = kmeans(square, 2, seed)
        assert labels[0] == 0 and sorted(set(labels.tolist())) == [0, 1]
