"""Label placement on adversarial figures: identical points, thirty agents, names longer than
the plot, points in the corners, control lines; and the width estimate against the font."""

from __future__ import annotations

import itertools
import string
from collections.abc import Sequence

import pytest
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font, LoadFlags

from cogarch.experiments.figures.labels import (
    LINE_HEIGHT,
    PAD,
    Anchor,
    Box,
    Labels,
    marker_box,
    place_labels,
    text_width,
)

FRAME = Box(58.0, 12.0, 448.0, 260.0)
RADIUS = 4.0
LONG = "memory_vector_store_top{}_bge_small_reader_qwen2.5_1.5b_long_variant_name"


def _place(anchors: Sequence[Anchor]) -> Labels:
    markers = [marker_box(a.x, a.y, RADIUS) for a in anchors if a.to is None]
    return place_labels(anchors, FRAME, size=10.0, radius=RADIUS, markers=markers)


def _check(anchors: Sequence[Anchor], labels: Labels) -> None:
    """Every placed label inside the frame, over no other label, marker or leader line; every
    anchor named once, by its text or by a number, the numbers 1..k."""
    boxes = [label.box for label in labels.labels if label.box is not None]
    for box in boxes:
        assert box.within(FRAME), box
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)
    markers = [marker_box(a.x, a.y, RADIUS) for a in anchors if a.to is None]
    for box, marker in itertools.product(boxes, markers):
        assert not box.overlaps(marker), (box, marker)
    leaders = [label.leader for label in labels.labels if label.leader is not None]
    for box, leader in itertools.product(boxes, leaders):
        assert not box.crossed_by(leader), (box, leader)
    named = sorted(i for label in labels.labels for i in label.anchors)
    assert named == list(range(len(anchors)))
    for label in labels.labels:
        if label.text == anchors[label.anchors[0]].text:
            assert len(label.anchors) == 1 and label.anchors[0] not in labels.numbers
        else:
            assert all(i in labels.numbers for i in label.anchors)
    assert sorted(labels.numbers.values()) == list(range(1, len(labels.numbers) + 1))


def test_thirty_identical_points_share_one_numbered_label() -> None:
    anchors = [Anchor(LONG.format(i), 250.0, 130.0) for i in range(30)]
    labels = _place(anchors)
    _check(anchors, labels)
    assert [label.text for label in labels.labels] == ["1-30"]
    assert labels.labels[0].box is not None
    assert labels.numbers == {i: i + 1 for i in range(30)}


def test_short_names_at_one_point_are_placed_around_it_before_any_is_numbered() -> None:
    anchors = [Anchor(f"agent {c}", 250.0, 130.0) for c in "abcdef"]
    labels = _place(anchors)
    _check(anchors, labels)
    assert not labels.numbers  # six short names find room around one point
    assert all(label.leader is None for label in labels.labels[:4])  # the four sides first


def test_names_that_would_wall_a_point_in_are_numbered_with_the_rest_of_its_spot() -> None:
    """Eight short names fill the room around one point; a ninth would have no way out, so
    the nine share one numbered label rather than leave one unlabelled."""
    anchors = [Anchor(f"agent {i}", 250.0, 130.0) for i in range(9)]
    labels = _place(anchors)
    _check(anchors, labels)
    assert [(label.text, label.box is not None) for label in labels.labels] == [("1-9", True)]
    eight = _place(anchors[:8])
    assert not eight.numbers and all(label.box is not None for label in eight.labels)


def test_a_name_longer_than_the_plot_is_numbered() -> None:
    anchors = [Anchor("x" * 200, 100.0, 100.0), Anchor("short", 300.0, 200.0)]
    labels = _place(anchors)
    _check(anchors, labels)
    assert labels.numbers == {0: 1}
    assert [label.text for label in labels.labels] == ["short", "1"]


@pytest.mark.parametrize("inset", [0.0, 14.0])
def test_points_in_the_corners_keep_their_labels_inside(inset: float) -> None:
    corners = [
        (FRAME.left + inset, FRAME.top + inset),
        (FRAME.right - inset, FRAME.top + inset),
        (FRAME.left + inset, FRAME.bottom - inset),
        (FRAME.right - inset, FRAME.bottom - inset),
    ]
    anchors = [Anchor(f"agent_{i}_{LONG[:20]}", x, y) for i, (x, y) in enumerate(corners * 3)]
    labels = _place(anchors)
    _check(anchors, labels)
    assert all(label.box is not None for label in labels.labels)


def test_thirty_agents_close_together_each_get_a_name_or_a_number() -> None:
    anchors = [
        Anchor(LONG.format(i)[: 20 + i], 200.0 + 9 * (i % 6), 100.0 + 9 * (i // 6))
        for i in range(30)
    ]
    labels = _place(anchors)
    _check(anchors, labels)
    assert all(label.box is not None for label in labels.labels)


def test_control_lines_are_labelled_on_the_line_and_points_avoid_them() -> None:
    lines = [Anchor(f"control {i}", FRAME.left, 40.0 + i, FRAME.right) for i in range(3)]
    points = [Anchor(LONG.format(i)[:30], 400.0, 45.0) for i in range(3)]
    anchors = [*lines, *points]
    labels = _place(anchors)
    _check(anchors, labels)
    first = labels.labels[0]
    assert first.box is not None and first.leader is None
    assert first.box.bottom <= 40.0 and first.box.right <= FRAME.right  # just above, at the end


def test_placement_is_the_same_every_time() -> None:
    anchors = [Anchor(LONG.format(i)[: 10 + i], 100.0 + 11 * i, 200.0 - 5 * i) for i in range(30)]
    assert _place(anchors) == _place(anchors)


def test_an_empty_figure_has_no_labels() -> None:
    assert _place([]) == Labels([], {})


def _advance(font: FT2Font, text: str, size: float) -> float:
    units = sum(font.load_char(ord(c), flags=LoadFlags.NO_SCALE).horiAdvance for c in text)
    return units / font.units_per_EM * size


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_the_width_estimate_bounds_the_figures_font(weight: str) -> None:
    """Measured with the DejaVu Sans the figures name first (matplotlib ships it): every
    printable ASCII character alone, and strings of the widest ones."""
    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans", weight=weight))
    font = FT2Font(path)
    texts = [*string.printable[:95], "WWWWWWWW", "mmmm%%%%@@@@", LONG, "MMMM_0123456789"]
    for text in texts:
        assert text_width(text, 10.0) >= _advance(font, text, 10.0), text
    ascent, descent = font.ascender / font.units_per_EM, -font.descender / font.units_per_EM
    assert ascent + descent <= LINE_HEIGHT and PAD > 0
