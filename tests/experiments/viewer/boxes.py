"""Boxes as a browser draws them (``getBoundingClientRect``'s ``left``, ``top``, ``right`` and
``bottom``, in pixels): whether two overlap, and whether one lies inside another. The
browser tests of the leaderboard's and the scale curves' figures check labels with them."""

from __future__ import annotations

Box = dict[str, float]


def overlap(a: Box, b: Box) -> bool:
    """Whether boxes ``a`` and ``b`` share some area (touching edges do not count)."""
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def inside(inner: Box, outer: Box, slack: float = 0.5) -> bool:
    """Whether ``inner`` lies within ``outer``, give or take ``slack`` pixels on each side."""
    return (
        inner["left"] >= outer["left"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["top"] >= outer["top"] - slack
        and inner["bottom"] <= outer["bottom"] + slack
    )
