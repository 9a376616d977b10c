"""Where a figure's labels go: beside their point or line, never over each other, never out of
the plot.

Each label is measured by ``text_width``, an estimate that is never narrower than the text as
drawn in the figures' font (``FONT``; the widths are DejaVu Sans Bold's advances, rounded up by
class, with a margin, so they bound the regular face too). ``place_labels`` then places the
labels one by one in the caller's order (most important first), every label taking the first
free box among candidates that go from near to far:

1. beside its anchor: eight boxes around a point (right first), or boxes above and below a
   horizontal line (a control), from its right end inward;
2. for a point, boxes on rings around it up to ``REACH`` pixels away, joined to the point by a
   leader line;
3. a number instead of the name (the caller lists the numbers in a legend), placed the same
   way with rings out to ``NUMBER_REACH``; points less than a line's height apart share one
   label ("4-9"), as their labels would wall each other in; while some spot finds no room
   the spots are widened (twice as far, up to the frame's size) and numbered again, and if
   one still finds none, the names placed beside it are numbered with it;
4. none: the label is in the legend only (the caller names the point on hover).

A box is free when it lies inside the plot's frame and overlaps no placed box, no marker and
no leader line, and its own leader crosses no placed box. The order of candidates is fixed, so
the same figure is always labelled the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

FONT = "'DejaVu Sans',Verdana,sans-serif"
"""The font family the figures draw text in (the widths below bound it)."""
LINE_HEIGHT = 1.35
"""A label box's height in ems: the font's ascent and descent with room to spare."""
BASELINE = 1.05
"""Where the baseline sits below the box's top, in ems."""
_WIDTHS: tuple[tuple[str, float], ...] = (
    ("'ijlIJ/\\|,.:; ", 0.40),
    ('-f!()[]tr_`"*', 0.53),
    ("BAKRVXUGDHNOQ&#+<=>^~w", 0.88),
    ("MmW", 1.12),
    ("%@", 1.3),
)
_DEFAULT_ASCII = 0.74
"""Every other printable ASCII character: digits, most letters."""
_OTHER = 1.3
"""A character beyond ASCII (wide scripts and symbols included)."""
_MARGIN = 1.05
PAD = 1.5
"""Room left around a label's text inside its box, in pixels."""
GAP = 3.0
"""Room between a label and its point's marker, in pixels."""
REACH = 90.0
"""How far from its point a full name may be placed (with a leader line)."""
NUMBER_REACH = 180.0
"""How far from its point a number may be placed."""


def _char_width(char: str) -> float:
    for chars, width in _WIDTHS:
        if char in chars:
            return width
    return _DEFAULT_ASCII if " " <= char <= "~" else _OTHER


def text_width(text: str, size: float) -> float:
    """An upper bound of ``text``'s width in pixels at font ``size`` (pixels) in ``FONT``."""
    return _MARGIN * size * math.fsum(_char_width(c) for c in text)


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share any area (touching edges do not)."""
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def within(self, frame: Box) -> bool:
        return (
            self.left >= frame.left
            and self.right <= frame.right
            and self.top >= frame.top
            and self.bottom <= frame.bottom
        )

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        """The point of the box nearest to ``(x, y)``."""
        return min(max(x, self.left), self.right), min(max(y, self.top), self.bottom)

    def crossed_by(self, segment: Segment) -> bool:
        """Whether ``segment`` passes through the box's inside (Liang-Barsky clipping)."""
        x0, y0, x1, y1 = segment
        dx, dy = x1 - x0, y1 - y0
        low, high = 0.0, 1.0
        for p, q in (
            (-dx, x0 - self.left),
            (dx, self.right - x0),
            (-dy, y0 - self.top),
            (dy, self.bottom - y0),
        ):
            if p == 0:
                if q <= 0:
                    return False
                continue
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low >= high:
                return False
        return True


Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Anchor:
    """What a label names: a point at ``(x, y)``, or, with ``to``, the horizontal line from
    ``x`` to ``to`` at height ``y``."""

    text: str
    x: float
    y: float
    to: float | None = None


@dataclass(frozen=True)
class Label:
    anchors: tuple[int, ...]
    """The indices of the anchors it names (several when their points coincide)."""
    text: str
    """What is drawn: the anchor's text, or the numbers standing for the anchors' texts."""
    box: Box | None
    """Where it is drawn; None when even the numbers found no room."""
    leader: Segment | None = None


@dataclass(frozen=True)
class Labels:
    labels: list[Label]
    numbers: dict[int, int]
    """The number standing for each anchor named by number, by anchor index (the caller lists
    them in a legend)."""


def marker_box(x: float, y: float, radius: float) -> Box:
    return Box(x - radius, y - radius, x + radius, y + radius)


def _sized(left: float, top: float, width: float, height: float) -> Box:
    return Box(left, top, left + width, top + height)


def _beside_point(a: Anchor, w: float, h: float, radius: float) -> Iterator[Box]:
    """Right, left, the four corners, then centred above and below: the corners leave a
    way out straight up and down for the leaders of labels placed later."""
    off = radius + GAP
    yield _sized(a.x + off, a.y - h / 2, w, h)
    yield _sized(a.x - off - w, a.y - h / 2, w, h)
    yield _sized(a.x + radius, a.y - off - h, w, h)
    yield _sized(a.x + radius, a.y + off, w, h)
    yield _sized(a.x - radius - w, a.y - off - h, w, h)
    yield _sized(a.x - radius - w, a.y + off, w, h)
    yield _sized(a.x - w / 2, a.y - off - h, w, h)
    yield _sized(a.x - w / 2, a.y + off, w, h)


def _along_line(a: Anchor, to: float, w: float, h: float, step: float) -> Iterator[Box]:
    """Boxes just above and below the line, from its right end to its left."""
    right, left = max(a.x, to), min(a.x, to)
    x = right - GAP - w
    while x >= left + GAP - 1e-9:
        yield _sized(x, a.y - GAP - h, w, h)
        yield _sized(x, a.y + GAP, w, h)
        x -= step


def _on_rings(
    a: Anchor, w: float, h: float, radius: float, reach: float
) -> Iterator[tuple[Box, Segment]]:
    """Boxes centred on rings around the point, nearest first, each with its leader line."""
    step = max(h / 2, 4.0)
    distance = radius + GAP + h / 2
    while distance <= reach:
        count = max(8, int(2 * math.pi * distance / step))
        for k in range(count):
            angle = 2 * math.pi * k / count
            cx, cy = a.x + distance * math.cos(angle), a.y - distance * math.sin(angle)
            box = _sized(cx - w / 2, cy - h / 2, w, h)
            end = box.nearest(a.x, a.y)
            yield box, (a.x, a.y, end[0], end[1])
        distance += step


class _Plot:
    def __init__(self, frame: Box, markers: Sequence[Box]) -> None:
        self.frame = frame
        self.markers = list(markers)
        self.boxes: list[Box] = []
        self.leaders: list[Segment] = []

    def free(self, box: Box, leader: Segment | None) -> bool:
        if not box.within(self.frame):
            return False
        if any(box.overlaps(b) for b in self.boxes) or any(box.overlaps(m) for m in self.markers):
            return False
        if any(box.crossed_by(s) for s in self.leaders):
            return False
        return leader is None or not any(b.crossed_by(leader) for b in self.boxes)

    def take(self, box: Box, leader: Segment | None) -> None:
        self.boxes.append(box)
        if leader is not None:
            self.leaders.append(leader)

    def copy(self) -> _Plot:
        plot = _Plot(self.frame, self.markers)
        plot.boxes, plot.leaders = list(self.boxes), list(self.leaders)
        return plot


def _candidates(
    a: Anchor, text: str, size: float, radius: float, reach: float
) -> Iterator[tuple[Box, Segment | None]]:
    w, h = text_width(text, size) + 2 * PAD, LINE_HEIGHT * size
    if a.to is not None:
        for box in _along_line(a, a.to, w, h, max(h, 8.0)):
            yield box, None
        return
    for box in _beside_point(a, w, h, radius):
        yield box, None
    for box, leader in _on_rings(a, w, h, radius, reach):
        near = math.dist((leader[0], leader[1]), (leader[2], leader[3])) <= radius + GAP + 1
        yield box, None if near else leader


def _spots(anchors: Sequence[Anchor], indices: Sequence[int], near: float) -> list[list[int]]:
    """The point anchors within ``near`` of a spot's first one (in both directions) grouped
    with it (lines stay alone), in the anchors' order."""
    spots: list[list[int]] = []
    for i in indices:
        a = anchors[i]
        joined = None
        if a.to is None:
            joined = next(
                (
                    spot
                    for spot in spots
                    if anchors[spot[0]].to is None
                    and abs(anchors[spot[0]].x - a.x) < near
                    and abs(anchors[spot[0]].y - a.y) < near
                ),
                None,
            )
        if joined is None:
            spots.append([i])
        else:
            joined.append(i)
    return spots


def _numbers_text(first: int, last: int) -> str:
    if first == last:
        return str(first)
    return f"{first}, {last}" if last == first + 1 else f"{first}-{last}"


def place_labels(
    anchors: Sequence[Anchor],
    frame: Box,
    *,
    size: float = 10.0,
    radius: float = 4.0,
    markers: Sequence[Box] = (),
) -> Labels:
    """The anchors' labels, placed in the order given (the earlier ones first): each anchor's
    full text where it finds room; the others are numbered 1, 2, ... in the anchors' order,
    one label per spot (the numbers of anchors close together, "3-7"), with no box when even
    that finds no room. When a spot's number finds no room, the full names placed next to it
    (which wall it in) are numbered with it and the figure is labelled again, the spot's
    anchors numbered from then on. ``size`` is the
    font size and ``radius`` the markers' radius, in pixels; ``markers`` are the boxes no
    label may cover (every point's marker)."""
    near = max(2 * radius, LINE_HEIGHT * size)
    demoted: set[int] = set()
    while True:
        plot = _Plot(frame, markers)
        named: list[Label] = []
        left: list[int] = []
        for i, anchor in enumerate(anchors):
            if i not in demoted and (found := _first_free(plot, anchor, anchor.text, size, radius)):
                named.append(Label((i,), anchor.text, *found))
            else:
                left.append(i)
        numbered, numbers = _numbered_widening(anchors, left, plot, size, radius, near)
        walled = {i for label in numbered if label.box is None for i in label.anchors}
        closing = {
            label.anchors[0]
            for label in named
            if anchors[label.anchors[0]].to is None
            and any(_close(anchors[label.anchors[0]], anchors[i], near) for i in walled)
        }
        if not closing:
            return Labels(named + numbered, numbers)
        demoted |= closing | walled


def _close(a: Anchor, b: Anchor, near: float) -> bool:
    return b.to is None and abs(a.x - b.x) < near and abs(a.y - b.y) < near


def _first_free(
    plot: _Plot, anchor: Anchor, text: str, size: float, radius: float, reach: float = REACH
) -> tuple[Box, Segment | None] | None:
    """The first free candidate box for ``text`` (and its leader), taken; None if none is."""
    for box, leader in _candidates(anchor, text, size, radius, reach):
        if plot.free(box, leader):
            plot.take(box, leader)
            return box, leader
    return None


def _numbered_widening(
    anchors: Sequence[Anchor],
    left: list[int],
    plot: _Plot,
    size: float,
    radius: float,
    near: float,
) -> tuple[list[Label], dict[int, int]]:
    """The numbered labels of the anchors ``left``, their spots widened until each finds
    room or the spots are as wide as the frame."""
    while True:
        numbered, numbers = _numbered(
            anchors, _spots(anchors, left, near), plot.copy(), size, radius
        )
        near *= 2
        if all(label.box is not None for label in numbered) or near > max(
            plot.frame.width, plot.frame.height
        ):
            return numbered, numbers


def _numbered(
    anchors: Sequence[Anchor], spots: list[list[int]], plot: _Plot, size: float, radius: float
) -> tuple[list[Label], dict[int, int]]:
    """One numbered label per spot, and the number of each anchor in them."""
    labels: list[Label] = []
    numbers: dict[int, int] = {}
    for spot in spots:
        first = len(numbers) + 1
        numbers.update((i, first + k) for k, i in enumerate(spot))
        text = _numbers_text(first, len(numbers))
        found = _first_free(plot, anchors[spot[0]], text, size, radius, NUMBER_REACH)
        labels.append(Label(tuple(spot), text, *(found or (None, None))))
    return labels, numbers


def text_origin(box: Box, size: float) -> tuple[float, float]:
    """Where a left-anchored text of font ``size`` starts so that it fills ``box``."""
    return box.left + PAD, box.top + BASELINE * size
