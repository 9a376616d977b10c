"""Running a suite: every cell as an ordinary run, then the leaderboard from the files.

Each cell's run resumes on its own (complete trials are skipped), so running a suite again
after an interruption plays only what is missing. Up to ``parallel_cells`` cells run at once
in this process, sharing its providers (one embedded model server serves them all). With
``parallel_cells: 1`` (and the local backend) the cells play in order through one queue of
``concurrency`` places (``suite_queue``): the next cell's trials start while the last ones
of the cell before still play. With ``execution.backend: ray`` every cell's trials go to one
Ray instance, started (or joined) once for the suite. Every cell is checked first (its
task's settings, its agent's spec and params, its providers): one that would be refused
stops the suite before any cell plays, naming each such cell. A cell that cannot start all
the same (its provider is unreachable, say) is reported and the other cells go on; the
leaderboard shows it as pending and the suite ends in error, naming it. The results folder
must be this suite's (``suite_folder``). With ``audit_judge``, the judge of every judged
column is audited once the cells ran (``suite_audit``), before the leaderboard is written,
which shows it beside the scores.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cogarch.errors import CogarchError, ConfigError
from cogarch.io import atomic_write_json

from ..judge_audit.audit import JudgeAuditResult
from ..leaderboard.files import write_leaderboard
from ..running.backends.local import LocalBackend
from ..running.controls import expanded_suite
from ..running.execution import ExecutionConfig
from ..running.runner import BackendFactory, Runner
from .audit import column_audits, run_column_audits
from .checks import cell_problems
from .config import SuiteConfig
from .files import suite_manifest
from .folder import claim_folder, clear_for_file, set_aside_links
from .queue import CellGate, SuiteQueue
from .reports import write_cell_reports

QUEUED_CELLS = 2
"""Cells open at once when they share the suite's queue: the one whose last trials play and
the next (a cell's task data is loaded only when it opens)."""


@dataclass
class CellRun:
    """What running one cell did."""

    task: str
    agent: str
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    seconds: float = 0.0
    error: str | None = None
    """Why the cell could not run at all."""


@dataclass
class SuiteRun:
    """What a suite run did: its folder, each cell's run and the leaderboard files written."""

    results_dir: Path
    """The suite's folder."""
    cells: list[CellRun] = field(default_factory=list)
    """Each cell (one agent on one task) and what its run did."""
    files: list[Path] = field(default_factory=list)
    """The leaderboard files written."""
    seconds: float = 0.0
    """The suite's wall time."""
    warnings: list[str] = field(default_factory=list)
    """What the suite changed or could not keep as given."""
    audits: dict[str, JudgeAuditResult] = field(default_factory=dict)
    """The judge audit of each judged column, by task, when the suite asks for it."""

    @property
    def broken(self) -> list[CellRun]:
        """The cells that could not run at all."""
        return [c for c in self.cells if c.error is not None]

    def broken_line(self) -> str | None:
        """One line naming the cells that could not run, or None when every cell ran."""
        if not (broken := self.broken):
            return None
        names = ", ".join(f"{c.agent} x {c.task}" for c in broken)
        return f"{len(broken)} of {len(self.cells)} cells could not run: {names}"

    def summary(self) -> str:
        ran = sum(c.ran for c in self.cells)
        skipped = sum(c.skipped for c in self.cells)
        failed = sum(c.failed for c in self.cells)
        text = (
            f"{len(self.cells)} cells: {ran} trials run, {skipped} already complete, "
            f"{failed} failed, in {self.seconds:.0f}s; results in {self.results_dir}"
        )
        return "\n".join([text, *(f"cell {c.agent} x {c.task}: {c.error}" for c in self.broken)])


def _queue(config: SuiteConfig, backend: BackendFactory | None, cells: int) -> SuiteQueue | None:
    """The one queue of the suite's trials, when its cells play one after another on this
    process's own backend (None: each cell plays with its own places)."""
    if backend is not None or config.execution.backend != "local" or config.parallel_cells > 1:
        return None
    return SuiteQueue(config.concurrency, cells)


def _queued(gate: CellGate) -> BackendFactory:
    """The backend of a cell whose trials take their places in the suite's queue."""
    return lambda worker, concurrency: LocalBackend(worker, concurrency, gate)


@contextmanager
def _ray_for(execution: ExecutionConfig) -> Iterator[None]:
    """One Ray instance for every cell of the suite (None needed for the local backend)."""
    if execution.backend != "ray":
        yield
        return
    from ..running.backends.ray import import_ray
    from ..running.backends.ray_connect import probe, ray_options, start_local

    ray = import_ray()
    if ray.is_initialized():
        yield
        return
    if execution.address is None:
        start_local(ray)
    else:
        probe(execution.address)
        ray.init(address=execution.address, **ray_options())
    try:
        yield
    finally:
        ray.shutdown()


async def run_suite(
    config: SuiteConfig,
    *,
    progress: bool = True,
    backend: BackendFactory | None = None,
    reports: bool = True,
    replace: bool = False,
) -> SuiteRun:
    """Run every cell of a suite not complete yet, then write each cell's report and the
    leaderboard files.

    Args:
        config: The suite config (:func:`load_suite_config`).
        progress: Whether to show a progress bar.
        backend: Where the cells' trials run (default: the suite's execution settings).
        reports: Whether to write each cell's report.
        replace: Whether to take over a results folder that another suite's results hold.

    Returns:
        The suite's results folder, with any warnings.

    Raises:
        ConfigError: When a cell would be refused, or the results folder is another suite's
            (unless ``replace``); nothing plays then.
    """
    config = expanded_suite(config)
    problems = cell_problems(config)
    if problems:
        raise ConfigError(
            f"{len(problems)} cells of suite '{config.name}' cannot run, so none was played:\n"
            + "\n".join(f"  {p}" for p in problems)
        )
    audits = column_audits(config)  # refused here, before any cell, when it cannot run
    out = claim_folder(config, replace=replace)
    result = SuiteRun(out)
    moved = clear_for_file(out / "suite.json")
    for text in [*([moved] if moved else []), *set_aside_links(config)]:
        result.warnings.append(text)
        sys.stderr.write(f"warning: {text}\n")
    atomic_write_json(out / "suite.json", suite_manifest(config))
    start = time.perf_counter()
    result.cells = [CellRun(t.label, a.label) for t, a in config.cells()]
    queue = _queue(config, backend, len(result.cells))
    gate = asyncio.Semaphore(QUEUED_CELLS if queue else config.parallel_cells)
    interrupted: list[CellRun] = []

    async def one(number: int, cell: CellRun) -> None:
        task = next(t for t in config.tasks if t.label == cell.task)
        agent = next(a for a in config.agents if a.label == cell.agent)
        async with gate:
            if interrupted:  # Ctrl-C came before this cell began: it stays for the resume
                return
            began = time.perf_counter()
            played = backend if queue is None else _queued(queue.gate(number))
            try:
                runner = Runner(config.cell_config(task, agent), progress=progress, backend=played)
                report = await runner.run()
            except KeyboardInterrupt:  # Ctrl-C stopped this cell's trials (and every cell's)
                interrupted.append(cell)
                return
            except CogarchError as exc:
                cell.error = str(exc).splitlines()[0][:300]
                sys.stderr.write(f"warning: cell {cell.agent} x {cell.task}: {cell.error}\n")
                return
            finally:
                cell.seconds = time.perf_counter() - began
                if queue is not None:
                    queue.close(number)
            cell.ran, cell.skipped, cell.failed = report.ran, report.skipped, report.failed

    with _ray_for(config.execution):
        # a KeyboardInterrupt leaving a task of its own would leave the event loop at once,
        # before the other cells end: each cell notes it, and the suite raises it here
        await asyncio.gather(*(one(n, c) for n, c in enumerate(result.cells)))
    if interrupted:
        for column in audits:
            await column.setup.providers.aclose()
        raise KeyboardInterrupt
    result.audits = await run_column_audits(config, audits)
    result.seconds = time.perf_counter() - start
    if reports:
        await asyncio.to_thread(write_cell_reports, out)
    result.files = write_leaderboard(out)
    return result
