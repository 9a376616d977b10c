"""What every figure shares: a figure on an Agg canvas (no display, no global pyplot state),
drawn with math text off, saved as a PNG written atomically; and the agents in row order."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ParamSpec, TypeVar

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from cogarch.files import real_folder
from cogarch.io import atomic_write_bytes

from ..tables.tidy_table import TidyRow

DPI = 120

_P = ParamSpec("_P")
_R = TypeVar("_R")


def plain_text(draw: Callable[_P, _R]) -> Callable[_P, _R]:
    """Draw with matplotlib's math text off: names and replies from a run are shown as
    written (a ``$`` in an agent name or a revealed secret is a dollar sign, not math)."""

    @functools.wraps(draw)
    def plain(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with rc_context({"text.parse_math": False}):
            return draw(*args, **kwargs)

    return plain


def new_figure(width: float, height: float) -> Figure:
    """A figure of ``width`` x ``height`` inches on its own Agg canvas, laid out to fit."""
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save_png(figure: Figure, path: str | Path) -> Path:
    """``figure`` as a PNG at ``path``, written atomically; the path."""
    target = Path(path)
    real_folder(target.parent)  # a link planted there is set aside, never written through
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return atomic_write_bytes(target, buffer.getvalue())


def agents_in(rows: Iterable[TidyRow]) -> list[str]:
    """Agent names in the order they first appear."""
    return list(dict.fromkeys(r.agent for r in rows))
