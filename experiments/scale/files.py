"""A scale suite's files: ``scale.json``, ``scale.md`` and ``scale.svg`` written beside its
leaderboard, rebuilt from the trial files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from cogarch.io import atomic_write_json, atomic_write_text

from ..suites.folder import clear_for_file
from .curves import DEFAULT_RECALL, FILES, Scale, build_scale, scale_markdown
from .figure import scale_svg


def write_scale(
    folder: str | os.PathLike[str], recall: str = DEFAULT_RECALL
) -> tuple[Scale, list[Path]]:
    """Write ``scale.json``, ``scale.md`` and ``scale.svg`` in the suite's ``folder`` (each
    atomically, rebuilt from the trial files); the curves and the files. What could not be
    read is named on stderr."""
    root = Path(folder)
    scale = build_scale(root, recall)
    for line in scale.left_out:
        sys.stderr.write(f"warning: {line}\n")
    for name in FILES:
        if (moved := clear_for_file(root / name)) is not None:
            sys.stderr.write(f"warning: {moved}\n")
    return scale, [
        atomic_write_json(root / "scale.json", scale.model_dump(mode="json")),
        atomic_write_text(root / "scale.md", scale_markdown(scale)),
        atomic_write_text(root / "scale.svg", scale_svg(scale)),
    ]
