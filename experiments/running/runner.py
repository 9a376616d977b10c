"""The runner: the driver of a run. It schedules agents x trials through an execution
backend, skips complete trials (resume), writes every trial file, and tables the results."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from cogarch import tracing
from cogarch.core.backend import ExecutionBackend, TrialCancelledError, TrialHandle, TrialSpec
from cogarch.core.records import Scoring, TrialRecord
from cogarch.core.task import JointContext, Task, is_untrusted_stop
from cogarch.core.views import Table
from cogarch.errors import ConfigError
from cogarch.files import real_folder
from cogarch.io import atomic_write_json
from cogarch.seeds import trial_seed

from ..judge_audit.audit import JudgeAudit, JudgeAuditResult
from ..results.directory import RunLock, disk_problem
from ..results.task_trust import trust
from ..results.trial_files import (
    CorruptTrialError,
    agent_folder,
    keep_aside,
    read_trial,
    trial_path,
    write_fitted,
)
from ..results.trial_fit import FittedTrial
from ..tables.attached_metrics import checked_metrics, trust_metrics
from ..tables.report_tables import task_tables
from ..tables.summary import AgentRow, format_table, run_scoring, summarize, text_table
from ..tables.task_metrics import metric_tables, ranked_table
from ..tables.tidy import row_from_trial
from ..tables.usage_table import USAGE_NOTE, usage_table
from .backends import backend_factory
from .collections_paused import collections_paused
from .controls import expanded_run
from .identity import item_change, recorded_digests, same_code
from .interrupts import RunInterrupts
from .run_config import AgentEntry, RunConfig
from .worker import RunSetup, TrialWorker

if TYPE_CHECKING:
    from ..otel.session import Tracing

BackendFactory = Callable[[TrialWorker, int], ExecutionBackend]
OTEL_MISSING = "--trace needs the OpenTelemetry SDK: pip install 'cogarch[otel]'"


@dataclass
class RunReport:
    """What a run did: its results folder, and how many trials ran, were complete, failed."""

    results_dir: Path
    """Where the run's trial files are."""
    ran: int = 0
    """The trials this run played."""
    skipped: int = 0
    """The trials a complete file from an earlier run already held, so not played again."""
    failed: int = 0
    """The trials this run played that failed."""
    corrupt: list[str] = field(default_factory=list)
    """Why each trial file that could not be read back was kept aside and played again."""
    errors: list[str] = field(default_factory=list)
    """Why each trial this run played failed: ``agent #N: Type: message``."""
    warnings: list[str] = field(default_factory=list)
    """What the run changed or could not keep as given (printed on stderr as it happened)."""
    rows: list[AgentRow] = field(default_factory=list)
    """The outcome table, one row per agent, over all its trial files."""
    scoring: Scoring = field(default_factory=Scoring)
    """How the run's task tables its outcomes."""
    metrics: list[Table] = field(default_factory=list)
    """The task's own numbers per agent, for tasks without outcome classes."""
    usage: Table | None = None
    """Model calls, cache hits and prompt tokens (sent, served from cache, evaluated) per
    agent, summed over its trial files."""
    tables: list[Table] = field(default_factory=list)
    """The task's own tables (``Task.report_tables``)."""
    audit: JudgeAuditResult | None = None
    """The judge audit, when the run config asks for one (``judge_audit.json``)."""

    def table(self) -> str:
        parts = [format_table(self.rows, self.scoring)]
        if self.usage is not None:
            parts += [
                f"\n{self.usage.title}:",
                text_table(self.usage.header, self.usage.text_rows()),
                textwrap.fill(USAGE_NOTE, 100),
            ]
        for m in self.metrics:
            parts += [
                f"\n{m.title} (mean ± sd over complete trials):",
                text_table(m.header, m.text_rows()),
            ]
        for t in self.tables:
            parts += [f"\n{t.title}:", text_table(t.header, t.text_rows())]
        return "\n".join(parts)


class Progress:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.done, self.failed = total, 0, 0
        self.enabled = enabled
        self.start = time.perf_counter()
        self.tty = sys.stderr.isatty()

    def advance(self, label: str, ok: bool) -> None:
        self.done += 1
        self.failed += 0 if ok else 1
        if not self.enabled:
            return
        width = 24
        filled = int(width * self.done / max(1, self.total))
        elapsed = time.perf_counter() - self.start
        text = (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
            f"failed {self.failed} {elapsed:.0f}s  {label}"
        )
        sys.stderr.write(("\r" + text[:110].ljust(110)) if self.tty else text + "\n")
        if self.tty and self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


class Runner:
    """Plays a run config's trials not complete yet (a rerun resumes), writes each trial file
    as it ends and returns a :class:`RunReport`: ``await Runner(config).run()``.

    Args:
        config: The run config (:func:`load_run_config`).
        progress: Whether to show a progress bar.
        backend: Where the trials run (default: the config's ``execution``).
        trace: Where the run's OpenTelemetry spans go: ``otlp`` (the environment's OTLP
            endpoint) or ``file`` (``RESULTS_DIR/traces.jsonl``); None traces only under a
            tracing the caller set up.
    """

    def __init__(
        self,
        config: RunConfig,
        *,
        progress: bool = True,
        backend: BackendFactory | None = None,
        trace: tracing.TraceMode | None = None,
    ) -> None:
        """``trace`` sends the run's spans to the OTLP endpoint of the environment (``otlp``)
        or to ``RESULTS_DIR/traces.jsonl`` (``file``); None traces only under a tracing some
        caller made current (``Tracing.activate``)."""
        config = self.config = expanded_run(config)
        self.trace = trace
        self.results_dir = config.output_dir()
        self.setup = RunSetup(config)
        trust(self.setup.task_source or config.task.kind)  # readers of its results may load it
        self.metrics = checked_metrics(config.metrics, f"the run config '{config.name}'")
        """The metrics the config attaches, beside the task's own numbers."""
        trust_metrics(config.metrics)
        if (warning := self.setup.own_helper_warning()) is not None:
            sys.stderr.write(warning + "\n")
        self.task = self.setup.task
        self.specs = self.setup.specs
        audit = config.audit_judge
        self.audit = None if audit is None else JudgeAudit(self.setup, audit, self.results_dir)
        self.show_progress = progress
        self._backend = backend or backend_factory(config.execution)
        self.records: dict[tuple[str, int], TrialRecord] = {}
        """The run's records by (agent, trial): the complete ones found, and those played."""
        self._report: RunReport | None = None
        """The report of the run going on (its warnings), once it started."""

    def metadata(self) -> dict[str, Any]:
        return self.setup.metadata()

    def _pending(self, report: RunReport) -> list[tuple[AgentEntry, int]]:
        """The trials to run: those without a complete file of this run (resume). The
        complete ones found are kept (``self.records``), so no file is read twice."""
        jobs: list[tuple[AgentEntry, int]] = []
        for place in (".trial_state",):
            if (moved := real_folder(self.results_dir / place, create=False)[1]) is not None:
                self._warn(report, f"'{place}' in the results was not a folder; kept as {moved}")
        for entry in self.config.agents:
            if (moved := agent_folder(self.results_dir, entry.label)) is not None:
                self._warn(
                    report,
                    f"the folder of agent '{entry.label}' was a link or not a folder; kept as "
                    f"'{moved.name}' (its trials are played again)",
                )
            for i in range(self.config.trials):
                path = trial_path(self.results_dir, entry.label, i)
                if path.exists():
                    try:
                        found = read_trial(
                            path, within=self.results_dir, types=self.setup.record_types
                        )
                        self._check_belongs(found, entry, i, path)
                        if found.status == "complete":
                            self.records[(entry.label, i)] = found
                            report.skipped += 1
                            continue
                    except CorruptTrialError as exc:
                        report.corrupt.append(str(exc))
                        kept = keep_aside(path)
                        sys.stderr.write(f"warning: {exc}; kept as '{kept.name}', to be rerun\n")
                jobs.append((entry, i))
        return jobs

    @staticmethod
    def _warn(report: RunReport | None, text: str) -> None:
        if report is not None:
            report.warnings.append(text)
        sys.stderr.write(f"warning: {text}\n")

    def spec(self, entry: AgentEntry, index: int) -> TrialSpec:
        return TrialSpec(
            run_digest=self.setup.digest,
            agent=entry.label,
            index=index,
            seed=trial_seed(self.config.seed, index),
            run_name=self.config.name,
            task=self.config.task.kind,
        )

    async def run(self, on_result: Callable[[TrialRecord], None] | None = None) -> RunReport:
        """Run the pending trials, holding the results directory's lock throughout.

        A full or read-only disk stops the run with a :class:`ResultsDirError`; trial files
        already written stay as they are, and the same command resumes.
        """
        with RunLock(self.results_dir) as lock:
            try:
                lock.clean_leftovers()
                with self._tracing():
                    return await self._run(on_result)
            except OSError as exc:
                raise disk_problem(exc, self.results_dir) from None

    @contextmanager
    def _tracing(self) -> Iterator[Tracing | None]:
        """The run's own tracing, current while the run goes on, flushed when it ends."""
        if self.trace is None:
            yield None
            return
        try:
            from ..otel.session import start_tracing
        except ImportError:
            raise ConfigError(OTEL_MISSING) from None
        tracing = start_tracing(self.trace, self.results_dir)
        try:
            with tracing.activate():
                yield tracing
        finally:
            tracing.shutdown()

    async def _run(self, on_result: Callable[[TrialRecord], None] | None) -> RunReport:
        report = self._report = RunReport(self.results_dir)
        self.records = {}
        atomic_write_json(self.results_dir / "run.json", self.metadata())
        jobs = self._pending(report)
        progress = Progress(len(jobs), self.show_progress)
        worker = TrialWorker(self.setup)
        backend = self._backend(worker, self.config.concurrency)
        handles = [backend.submit(self.spec(e, i)) for e, i in jobs]

        async def collect(entry: AgentEntry, index: int, played: TrialRecord) -> None:
            # serialised and synced in a worker thread: the trials still running go on
            fitted = await asyncio.to_thread(self._write, played)
            for text in fitted.warnings:
                self._warn(report, text)
            record = fitted.record  # as every reader of the file will read it
            self.records[(entry.label, index)] = record
            report.ran += 1
            report.failed += record.status == "failed"
            if record.status == "failed":
                why = f"{record.error.type}: {record.error.message}" if record.error else "?"
                report.errors.append(f"{entry.label} #{index}: {why}")
            progress.advance(f"{entry.label} #{index}", record.status == "complete")
            if on_result is not None:
                on_result(record)

        async def one(job: tuple[AgentEntry, int], handle: TrialHandle) -> None:
            try:
                played = await handle.record()
            except TrialCancelledError:  # stopped by Ctrl-C: played again on resume
                return
            await collect(*job, played)

        def stop_trials() -> None:
            for handle in handles:
                handle.cancel()

        try:
            with RunInterrupts(stop_trials) as interrupts, collections_paused():
                await asyncio.gather(*(one(j, h) for j, h in zip(jobs, handles, strict=True)))
            if interrupts.requested:  # the finished trials are written: stop here
                raise KeyboardInterrupt
            await self.judge_jointly()
            if self.audit is not None:
                report.audit = await self.audit.run(self.records.values())
        finally:
            await backend.aclose()
            await worker.aclose()
        results = [
            self.records[(entry.label, i)]
            for entry in self.config.agents
            for i in range(self.config.trials)
            if (entry.label, i) in self.records
        ]
        report.rows = summarize(results)
        report.scoring = run_scoring(results)
        rows = [row_from_trial(r, metrics=self.metrics) for r in results]
        report.usage = usage_table(rows)
        if not report.scoring.classifies:
            report.metrics = metric_tables(rows, report.scoring.totals)
        report.tables = task_tables(type(self.task), results)
        if (
            attached := ranked_table(results, self.metrics, keep=[m.name for m in self.metrics])
        ) is not None:
            report.tables.insert(0, attached)
        return report

    async def judge_jointly(self) -> int:
        """The task's pass over each trial index's complete trials (one per agent), after all
        trials ran: records it changes are written back atomically (cross-agent judging).
        Returns how many records were rewritten."""
        groups: dict[int, list[TrialRecord]] = {}
        for entry in self.config.agents:
            for i in range(self.config.trials):
                record = self.records.get((entry.label, i))
                if record is not None and record.status == "complete":
                    groups.setdefault(i, []).append(record)
        context = JointContext(self.setup.providers.get, self.config.helper_provider)
        judges = type(self.task).judge_jointly is not Task.judge_jointly
        written = 0
        for index in sorted(groups):
            attributes: tracing.Attributes = {
                "cogarch.task": self.config.task.kind,
                "cogarch.trial.index": index,
            }
            with tracing.span("joint judging", attributes) if judges else tracing.NO_SPAN:
                for record in await self._judged(groups[index], context, self._report):
                    fitted = await asyncio.to_thread(self._write, record)
                    for text in fitted.warnings:
                        self._warn(self._report, text)
                    self.records[(record.agent, record.trial)] = fitted.record
                    written += 1
        return written

    async def _judged(
        self, group: list[TrialRecord], context: JointContext, report: RunReport | None
    ) -> list[TrialRecord]:
        """The records the task's joint pass over ``group`` changed: only records of the
        group's own trials; a pass that fails, stops or returns anything else changes none
        and is reported (its task's own code)."""
        own = {(r.agent, r.trial) for r in group}
        try:
            changed = await self.task.judge_jointly(group, context)
            if not isinstance(changed, list | tuple) or not all(
                isinstance(r, TrialRecord) and (r.agent, r.trial) in own for r in changed
            ):
                raise TypeError(
                    "judge_jointly must return a list of the group's own trial records, not "
                    f"{changed!r:.100}"
                )
            return list(changed)
        except BaseException as exc:
            if not is_untrusted_stop(exc):
                raise
            text = (
                f"the task's joint judging of trial #{group[0].trial} failed "
                f"({type(exc).__name__}: {str(exc)[:200]}); its trials stay as played"
            )
            self._warn(report, text)
            return []

    def _write(self, record: TrialRecord) -> FittedTrial:
        return write_fitted(self.results_dir, record, self.setup.record_types)

    def _check_belongs(self, found: TrialRecord, entry: AgentEntry, index: int, path: Path) -> None:
        """Refuse a trial file of another run (agent, trial, seed, task, agent spec, task
        settings, data item; Python files by content, see ``identity``)."""
        kind = self.config.task.kind
        expected = (entry.label, index, kind, trial_seed(self.config.seed, index))
        actual = (found.agent, found.trial, found.task, found.seed)
        code = recorded_digests(found.metadata.model_dump())
        same_header = (found.agent, found.trial, found.seed) == (entry.label, index, expected[3])
        if not same_header or not same_code(found.task, None, kind, self.setup.code):
            raise CorruptTrialError(
                f"trial file '{path}' belongs to another run (agent, trial, task, seed = "
                f"{actual}, expected {expected})"
            )
        if not same_code(found.task, code, kind, self.setup.code):
            raise CorruptTrialError(
                f"trial file '{path}' was played with other code of task '{kind}' (its file "
                "has changed since)"
            )
        recorded = (found.metadata.config or {}).get("task")
        if recorded is not None and self._task_params(recorded) != self.task.params.model_dump():
            raise CorruptTrialError(
                f"trial file '{path}' was played with other task settings ({recorded}, now "
                f"{self.config.task.model_dump()})"
            )
        played_by = found.metadata.agent_spec
        spec = self.specs[entry.label].model_dump(mode="json")
        if played_by is not None and not same_code(played_by, code, spec, self.setup.code):
            raise CorruptTrialError(
                f"trial file '{path}' was played by another version of agent "
                f"'{entry.label}' (its spec, prompts or params have changed since)"
            )
        if (why := item_change(found, self.task, index)) is not None:
            raise CorruptTrialError(f"trial file '{path}' {why}")

    def _task_params(self, recorded: Any) -> dict[str, Any] | None:
        """Recorded task settings as this run's task would read them (None if it cannot)."""
        if not isinstance(recorded, dict):
            return None
        settings = {k: v for k, v in recorded.items() if k != "kind"}
        try:
            return type(self.task.params).model_validate(settings).model_dump()
        except ValidationError:
            return None
