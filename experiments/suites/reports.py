"""Each cell's own report (``cogarch report`` on its run folder), written after a suite ran,
so the leaderboard links every cell to its report."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from cogarch.errors import CogarchError

from ..reports.report import build_report
from .files import read_manifest
from .folder import cell_folder


def write_cell_reports(folder: str | os.PathLike[str]) -> list[Path]:
    """The report of every cell of the suite in ``folder`` that has trial files; a cell whose
    report cannot be written is named on stderr and the others go on."""
    root = Path(folder)
    written = []
    for cell in read_manifest(root).cells:
        run_dir, problem = cell_folder(root, cell.folder)
        if problem is not None:
            sys.stderr.write(f"warning: no report for cell {cell.agent} x {cell.task}: {problem}\n")
            continue
        if not any(run_dir.glob("*/trial_*.json")):
            continue
        try:
            written.append(build_report(run_dir)[1])
        except CogarchError as exc:
            line = str(exc).splitlines()[0][:200]
            sys.stderr.write(f"warning: no report for cell {cell.agent} x {cell.task}: {line}\n")
    return written
