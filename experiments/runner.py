"""The runner: agents x trials through a bounded asyncio pool, resumable, failures recorded."""

from __future__ import annotations

import asyncio
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from cogarch.errors import ConfigError
from cogarch.io import atomic_write_json
from cogarch.models.metering import Meter
from cogarch.models.providers import ProviderConfig, Providers
from cogarch.seeds import trial_seed

from ..tasks.base import Task, TrialContext
from ..tasks.fakes import task_fakes
from ..tasks.registry import build_task
from ..workspace.agent import Agent
from ..workspace.spec import AgentSpec, build_agent, load_agent_spec
from .config import AgentEntry, RunConfig
from .results import (
    CorruptTrialError,
    TrialError,
    TrialResult,
    read_trial,
    trial_path,
    write_trial,
)
from .summary import AgentRow, format_table, summarize, text_table
from .task_metrics import MetricTable, metric_tables
from .tidy import row_from_trial

_PACKAGES = ("cogarch", "autogen-core", "autogen-ext", "openai", "networkx", "chromadb", "pydantic")


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


@dataclass
class RunReport:
    results_dir: Path
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    corrupt: list[str] = field(default_factory=list)
    rows: list[AgentRow] = field(default_factory=list)
    metrics: list[MetricTable] = field(default_factory=list)
    """The task's own numbers per agent, for tasks without SCT outcome classes."""

    def table(self) -> str:
        parts = [format_table(self.rows)]
        for m in self.metrics:
            parts += [
                f"\n{m.title} (mean ± sd over complete trials):",
                text_table(m.header, m.body),
            ]
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


def check_provider(providers: Providers, name: str) -> None:
    """Catch before any trial runs what would otherwise fail every trial."""
    providers.check(name)
    cfg: ProviderConfig = providers.config(name)
    if cfg.api_key_env and not os.environ.get(cfg.api_key_env):
        raise ConfigError(
            f"provider '{name}' reads its API key from ${cfg.api_key_env}, which is not set; "
            f"export {cfg.api_key_env}=... before running"
        )


class Runner:
    def __init__(self, config: RunConfig, *, progress: bool = True) -> None:
        self.config = config
        self.results_dir = config.output_dir()
        cache_dir = self.results_dir / ".cache" if config.cache else None
        self.providers = Providers(config.providers, cache_dir=cache_dir, fakes=task_fakes())
        self.task: Task = build_task(config.task.kind, config.task.params())
        self.specs: dict[str, AgentSpec] = {}
        for entry in config.agents:
            spec = load_agent_spec(entry.agent, entry.params)
            provider = entry.provider or spec.provider
            if provider is not None:
                self.providers.config(provider)  # unknown names fail before any trial runs
            build_agent(spec, self.providers.get, provider=provider)  # validate the graph
            self.specs[entry.label] = spec
        used = {
            e.provider or s.provider
            for e, s in zip(config.agents, self.specs.values(), strict=True)
        }
        used.add(config.helper_provider)
        for name in sorted(p for p in used if p):
            check_provider(self.providers, name)
        self.show_progress = progress

    def metadata(self) -> dict[str, Any]:
        return {
            "config": self.config.model_dump(mode="json"),
            "config_hash": self.config.digest(),
            "versions": package_versions(),
            "seed_rule": "trial_seed(run_seed, i) = sha256(f'{run_seed}:{i}')[:8] & (2**63-1)",
        }

    async def run(self, on_result: Callable[[TrialResult], None] | None = None) -> RunReport:
        report = RunReport(self.results_dir)
        self.results_dir.mkdir(parents=True, exist_ok=True)
        for leftover in self.results_dir.glob("*/.trial_*.json.*.tmp"):
            leftover.unlink(missing_ok=True)  # a write cut short by a kill; never a result
        atomic_write_json(self.results_dir / "run.json", self.metadata())
        jobs: list[tuple[AgentEntry, int]] = []
        for entry in self.config.agents:
            for i in range(self.config.trials):
                path = trial_path(self.results_dir, entry.label, i)
                if path.exists():
                    try:
                        found = read_trial(path)
                        self._check_belongs(found, entry, i, path)
                        if found.status == "complete":
                            report.skipped += 1
                            continue
                    except CorruptTrialError as exc:
                        report.corrupt.append(str(exc))
                        path.replace(path.with_suffix(".corrupt"))
                        sys.stderr.write(f"warning: {exc}; it was moved aside and will be rerun\n")
                jobs.append((entry, i))
        progress = Progress(len(jobs), self.show_progress)
        gate = asyncio.Semaphore(self.config.concurrency)

        async def one(entry: AgentEntry, index: int) -> None:
            async with gate:
                result = await self.run_trial(entry, index)
            write_trial(self.results_dir, result)
            report.ran += 1
            report.failed += result.status == "failed"
            progress.advance(f"{entry.label} #{index}", result.status == "complete")
            if on_result is not None:
                on_result(result)

        try:
            await asyncio.gather(*(one(e, i) for e, i in jobs))
        finally:
            await self.providers.aclose()
        results = []
        for entry in self.config.agents:
            for i in range(self.config.trials):
                try:
                    results.append(read_trial(trial_path(self.results_dir, entry.label, i)))
                except CorruptTrialError as exc:
                    report.corrupt.append(str(exc))
        report.rows = summarize(results)
        if not any(r.evaluation.get("self_consistent") is not None for r in results):
            report.metrics = metric_tables([row_from_trial(r) for r in results])
        return report

    def _check_belongs(self, found: TrialResult, entry: AgentEntry, index: int, path: Path) -> None:
        expected = (entry.label, index, self.config.task.kind, trial_seed(self.config.seed, index))
        actual = (found.agent, found.trial, found.task, found.seed)
        if actual != expected:
            raise CorruptTrialError(
                f"trial file '{path}' belongs to another run (agent, trial, task, seed = "
                f"{actual}, expected {expected})"
            )
        recorded = (found.metadata.get("config") or {}).get("task")
        if recorded is not None and self._task_params(recorded) != self.task.params.model_dump():
            raise CorruptTrialError(
                f"trial file '{path}' was played with other task settings ({recorded}, now "
                f"{self.config.task.model_dump()})"
            )
        played_by = found.metadata.get("agent_spec")
        if played_by is not None and played_by != self.specs[entry.label].model_dump(mode="json"):
            raise CorruptTrialError(
                f"trial file '{path}' was played by another version of agent "
                f"'{entry.label}' (its spec, prompts or params have changed since)"
            )

    def _task_params(self, recorded: Any) -> dict[str, Any] | None:
        """Recorded task settings as this run's task would read them (None if it cannot)."""
        if not isinstance(recorded, dict):
            return None
        settings = {k: v for k, v in recorded.items() if k != "kind"}
        try:
            return type(self.task.params).model_validate(settings).model_dump()
        except ValidationError:
            return None

    async def run_trial(self, entry: AgentEntry, index: int) -> TrialResult:
        spec = self.specs[entry.label]
        seed = trial_seed(self.config.seed, index)
        provider = entry.provider or spec.provider

        def make_agent() -> Agent:
            return build_agent(
                spec, self.providers.get, name=entry.label, provider=provider, seed=seed
            )

        ctx = TrialContext(
            agent_name=entry.label,
            trial=index,
            seed=seed,
            make_agent=make_agent,
            models=self.providers.get,
            helper_provider=self.config.helper_provider or provider,
        )
        meter = Meter()
        started = datetime.now(UTC)
        clock = time.perf_counter()
        header: dict[str, Any] = {
            "run": self.config.name,
            "agent": entry.label,
            "task": self.config.task.kind,
            "trial": index,
            "seed": seed,
        }
        meta = {
            **self.metadata(),
            "agent_spec": spec.model_dump(mode="json"),
            "provider": provider,
            "provider_settings": (
                self.providers.config(provider).model_dump(mode="json", exclude={"api_key_env"})
                if provider
                else None
            ),
            "started_at": started.isoformat(),
        }
        try:
            with meter.active():
                out = await self.task.run_trial(ctx)
        except Exception as exc:  # a failed trial is recorded and the run goes on
            meta["duration_s"] = round(time.perf_counter() - clock, 3)
            return TrialResult(
                status="failed",
                metadata=meta,
                usage={**meter.summary(), "calls": [u.to_dict() for u in meter.records]},
                error=TrialError(
                    type=type(exc).__name__, message=str(exc), traceback=traceback.format_exc()
                ),
                **header,
            )
        meta["duration_s"] = round(time.perf_counter() - clock, 3)
        known = {"interaction_log", "branches", "sct", "evaluation", "transitions"}
        return TrialResult(
            status="complete",
            metadata=meta,
            interaction_log=out.get("interaction_log", []),
            branches=out.get("branches", []),
            sct=out.get("sct"),
            evaluation=out.get("evaluation", {}),
            transitions=out.get("transitions", {}),
            extra={k: v for k, v in out.items() if k not in known},
            usage={**meter.summary(), "calls": [u.to_dict() for u in meter.records]},
            **header,
        )


async def run_config(config: RunConfig, *, progress: bool = True) -> RunReport:
    return await Runner(config, progress=progress).run()
