"""A suite in the viewer: its leaderboard page, each cell linking to its trials and report.

``cogarch view SUITE_DIR`` browses the trials of every cell (each cell's run folder is one
results directory of the index) and serves the leaderboard, rebuilt from the files on every
request, at ``/leaderboard``; a cell links to the run page showing that cell's trials only
(``/?run=NAME``) and to its report (``/report/<cell>/report.html``, the report
``cogarch suite`` wrote in the cell's folder). The export writes the same page as
``leaderboard.html`` beside ``index.html``, with each cell's report copied under
``reports/<cell>/``.
"""

from __future__ import annotations

import html
import os
import shutil
import sys
from pathlib import Path
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from cogarch.errors import CogarchError, ConfigError
from cogarch.io import atomic_write_text

from ..leaderboard.board import Cell, build_leaderboard
from ..leaderboard.html import leaderboard_page
from ..suites.files import SuiteManifest, is_suite, read_manifest
from ..suites.folder import cell_folder

REPORT = Path("report") / "report.html"


class SuitePages:
    """The suite in ``folder``: its cells' run folders and its leaderboard page."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.manifest: SuiteManifest = read_manifest(self.folder)
        self.numbers = {(c.task, c.agent): i for i, c in enumerate(self.manifest.cells)}

    def run_dirs(self) -> list[Path]:
        """The cells' run folders that exist (a cell not started has none yet)."""
        found = [cell_folder(self.folder, c.folder) for c in self.manifest.cells]
        return [d for d, problem in found if problem is None and d.is_dir()]

    def run_name(self, cell: Cell) -> str:
        return f"{self.manifest.suite}.{cell.task}.{cell.agent}"

    def report(self, number: int) -> Path | None:
        if not 0 <= number < len(self.manifest.cells):
            return None
        folder, problem = cell_folder(self.folder, self.manifest.cells[number].folder)
        path = folder / REPORT
        return path if problem is None and path.is_file() else None

    def page(self, *, trials: str, reports: str, home: str) -> str:
        """The leaderboard page: a cell's trials at ``trials + run name``, its report at
        ``reports + cell number + '/report.html'``, all trials at ``home``."""
        board = build_leaderboard(self.folder)
        for line in board.left_out:
            sys.stderr.write(f"warning: {line}\n")

        def report_href(cell: Cell) -> str | None:
            number = self.numbers[(cell.task, cell.agent)]
            return f"{reports}{number}/report.html" if self.report(number) else None

        nav = f'<p><a id="all-trials" href="{home}">all trials</a></p>'
        if board.left_out:
            items = "".join(f"<li>{html.escape(line)}</li>" for line in board.left_out)
            nav += f'<div id="left-out"><p>Left out of the leaderboard:</p><ul>{items}</ul></div>'
        return leaderboard_page(
            board,
            report_href=report_href,
            trials_href=lambda cell: trials + quote(self.run_name(cell), safe=""),
            head=nav,
        )

    def routes(self) -> list[BaseRoute]:
        async def leaderboard(request: Request) -> Response:
            try:
                page = self.page(trials="/?run=", reports="/report/", home="/")
            except CogarchError as exc:  # the suite's own file damaged since the viewer started
                sys.stderr.write(f"warning: {exc}\n")
                text = html.escape(str(exc))
                return HTMLResponse(f"<p>no leaderboard: {text}</p>", status_code=503)
            return HTMLResponse(page)

        async def report(request: Request) -> Response:
            raw = request.path_params["cell"]
            path = self.report(int(raw)) if raw.isdigit() and len(raw) < 7 else None
            if path is None:
                return HTMLResponse("no report for this cell", status_code=404)
            name = request.path_params["name"]
            target = (path.parent / name).resolve()
            if not target.is_file() or path.parent.resolve() not in target.parents:
                return HTMLResponse("not found", status_code=404)
            return FileResponse(target)

        return [
            Route("/leaderboard", leaderboard),
            Route("/report/{cell}/{name:path}", report),
        ]

    def export(self, out: Path) -> Path:
        """Write ``leaderboard.html`` into the export folder ``out`` (beside ``index.html``)
        with every cell's report copied under ``reports/``; returns the page's path."""
        for number in range(len(self.manifest.cells)):
            found = self.report(number)
            if found is not None:
                shutil.copytree(found.parent, out / "reports" / str(number), dirs_exist_ok=True)
        text = self.page(trials="index.html?run=", reports="reports/", home="index.html")
        return atomic_write_text(out / "leaderboard.html", text)


def suite_of(dirs: list[Path]) -> SuitePages | None:
    """The suite when ``dirs`` is one suite's folder; a suite among other folders is refused."""
    suites = [d for d in dirs if is_suite(d)]
    if not suites:
        return None
    if len(dirs) > 1:
        raise ConfigError(
            f"'{suites[0]}' is a suite's folder: view it alone (cogarch view {suites[0]})"
        )
    return SuitePages(suites[0])
