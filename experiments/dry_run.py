"""``cogarch run CONFIG --dry-run``: check a run config and print its plan, calling no model.

The config is validated and everything a run resolves before its first trial is resolved the
same way (:class:`~cogarch.experiments.worker.RunSetup`): the task is built from its
parameters, every agent spec is loaded and built without models, every provider an agent
uses is checked (a fake's name, an API key or base URL read from the environment). No model
is built, no endpoint is contacted and the embedded model is not started; a task's games are
not generated.

The plan lists the trials, what one trial plays (the task's own ``plan``), the agents with
their providers, and, where trial files of an earlier run of the same task and agent spec
are found (the config's own results folder, folders given with ``--estimate-from``, and the
runs under ``runs/``; fake runs are preferred), what a trial is expected to cost in model
calls and tokens: per episode when the task plays several (scaled to this config's episodes
per trial), else per trial.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

from cogarch.construction import prepare
from cogarch.core.task import Task
from cogarch.errors import ConfigError, MissingDataError
from cogarch.models.provider import ProviderSettings
from cogarch.models.providers import ProviderConfig, Providers
from cogarch.tasks.registry import TASKS
from cogarch.workspace.spec import AgentSpec, describe_spec, providers_named

from .fakes import run_fakes
from .frameworks import FrameworkAgentSpec
from .run_config import RunConfig
from .task_types import task_source
from .worker import RunSetup, resolve_agents

MAX_FILES = 40
"""Trial files read per agent spec for an estimate."""


@dataclass
class Estimate:
    """What trials of one agent spec cost in an earlier run."""

    source: str
    fake: bool
    trials: int
    calls: float
    tokens: float
    episodes: int = 0
    """Episodes (games) those trials played; 0 when the task plays one per trial."""
    actions: float | None = None
    """Mean actions per episode, when the trial files say."""


@dataclass
class DryRunPlan:
    """The plan of a run, as text lines, and the problems found."""

    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(self.lines)


def _provider_line(name: str, cfg: ProviderSettings, providers: Providers) -> str:
    if not isinstance(cfg, ProviderConfig):  # a provider kind of the user's own
        provider = providers.provider(name)
        return f"{name}: {cfg.kind}, {provider.served} ({provider.where}); not contacted"
    if cfg.kind == "fake":
        return f"{name}: fake '{cfg.fake}' (no model)"
    if cfg.kind == "local":
        where = cfg.gguf_path or "the embedded model (qwen2.5-coder-1.5b)"
        return f"{name}: local, {where}; not started by the dry run"
    if cfg.base_url_env:
        url = os.environ.get(cfg.base_url_env, "")
        if not url:
            raise ConfigError(
                f"provider '{name}' reads its base URL from ${cfg.base_url_env}, which is not "
                f"set; export {cfg.base_url_env}=https://your-endpoint/v1 before running"
            )
        where = f"${cfg.base_url_env} = {url}"
    else:
        where = ", ".join(u for u in cfg.endpoints() if u) or "the provider's default endpoint"
    settings = f"temperature {cfg.temperature}, max_tokens {cfg.max_tokens}"
    return f"{name}: {cfg.kind} model '{cfg.model}' at {where} ({settings}); not contacted"


def _run_dirs(config: RunConfig, extra: Sequence[Path]) -> list[Path]:
    found = [config.output_dir(), *extra]
    runs = Path("runs")
    if runs.is_dir():
        found += sorted(p for p in runs.iterdir() if p.is_dir())
    unique: dict[Path, None] = {}
    for path in found:
        if path.is_dir():
            unique.setdefault(path.resolve(), None)
    return list(unique)


def _task_kind(run_dir: Path) -> str | None:
    try:
        meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    task = (meta.get("config") or {}).get("task") or {}
    kind = task.get("kind")
    return kind if isinstance(kind, str) else None


def _trial_files(run_dir: Path) -> Iterable[Path]:
    for folder in sorted(p for p in run_dir.iterdir() if p.is_dir() and p.name[0] != "."):
        yield from sorted(folder.glob("trial_*.json"))


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("status") == "complete" else None


def _spec_name(record: dict[str, Any]) -> str | None:
    spec = (record.get("metadata") or {}).get("agent_spec") or {}
    name = spec.get("name")
    return name if isinstance(name, str) else None


def _is_fake(record: dict[str, Any]) -> bool:
    settings = (record.get("metadata") or {}).get("provider_settings") or {}
    return settings.get("kind") == "fake"


def estimates(
    config: RunConfig, specs: dict[str, str], extra: Sequence[Path]
) -> dict[str, Estimate]:
    """Per agent of ``config`` (``specs``: label -> spec name), what its trials of this task
    cost in an earlier run: trials of an agent of the same name if there are any, else of
    the same spec; a fake run before others, the first run found."""
    wanted = set(specs.values())
    found: list[tuple[bool, str, str, str, dict[str, Any]]] = []
    for run_dir in _run_dirs(config, extra):
        if _task_kind(run_dir) != config.task.kind:
            continue
        kept = 0
        for path in _trial_files(run_dir):
            record = _read(path)
            name = _spec_name(record) if record is not None else None
            if record is None or name not in wanted or kept >= MAX_FILES * len(wanted):
                continue
            kept += 1
            agent = str(record.get("agent"))
            found.append((_is_fake(record), str(run_dir), agent, str(name), record))
    out: dict[str, Estimate] = {}
    for label, spec in specs.items():
        same = [f for f in found if f[2] == label and f[3] == spec]
        pool = same or [f for f in found if f[3] == spec]
        if not pool:
            continue
        fake = any(f[0] for f in pool)
        source = next(f[1] for f in pool if f[0] == fake)
        chosen = [f[4] for f in pool if f[0] == fake and f[1] == source][:MAX_FILES]
        out[label] = _estimate(source, fake, chosen, agent=label if same else None)
    return out


def _estimate(
    source: str, fake: bool, records: list[dict[str, Any]], agent: str | None = None
) -> Estimate:
    games = [
        g
        for r in records
        for g in ((r.get("payload") or {}).get("games") or [])
        if isinstance(g, dict) and "model_calls" in g
    ]
    where = f"{source} ({agent})" if agent else f"{source} (same agent spec)"
    if games:
        actions = [g["actions"] for g in games if isinstance(g.get("actions"), int)]
        return Estimate(
            where,
            fake,
            len(records),
            fmean(g["model_calls"] for g in games),
            fmean(g.get("prompt_tokens", 0) + g.get("completion_tokens", 0) for g in games),
            episodes=len(games),
            actions=fmean(actions) if actions else None,
        )
    usage = [r.get("usage") or {} for r in records]
    return Estimate(
        where,
        fake,
        len(records),
        fmean(u.get("model_calls") or 0 for u in usage),
        fmean((u.get("prompt_tokens") or 0) + (u.get("completion_tokens") or 0) for u in usage),
    )


def _cost_line(est: Estimate, episodes: int | None, limit: int | None) -> str:
    kind = "fake run" if est.fake else "run"
    if est.episodes and episodes:
        seen = f"{est.episodes} games of a {kind} in {est.source}"
        if est.actions and limit:
            calls, tokens = est.calls / est.actions, est.tokens / est.actions
            typical = min(est.actions, limit) * episodes
            return (
                f"expected per trial: {calls * typical:,.0f} model calls, "
                f"{tokens * typical:,.0f} tokens; at most {calls * limit * episodes:,.0f} "
                f"calls, {tokens * limit * episodes:,.0f} tokens if every game runs to its "
                f"{limit} actions ({calls:.1f} calls and {tokens:,.0f} tokens per action, "
                f"{est.actions:.1f} actions per game in {seen})"
            )
        return (
            f"expected per trial: {est.calls * episodes:,.0f} model calls, "
            f"{est.tokens * episodes:,.0f} tokens ({est.calls:.1f} calls and "
            f"{est.tokens:,.0f} tokens per game in {seen})"
        )
    return (
        f"expected per trial: {est.calls:,.0f} model calls, {est.tokens:,.0f} tokens (mean of "
        f"{est.trials} trials of a {kind} in {est.source})"
    )


@dataclass
class _Resolved:
    """What the dry run resolved: the task (None when its data is missing), specs, providers."""

    task: Task | None
    specs: dict[str, AgentSpec | FrameworkAgentSpec]
    providers: Providers
    missing: str | None = None


def _resolve(config: RunConfig) -> _Resolved:
    """Resolve as a run does; a data file the user supplies that is missing leaves the task
    unbuilt (its parameters still checked) and is reported, while agents and providers are
    checked all the same."""
    try:
        setup = RunSetup(config, probe_frameworks=False)
    except MissingDataError as exc:
        kind = task_source(config.task.kind) or config.task.kind
        task_cls = prepare(TASKS, kind, config.task.params(), where="task").cls
        fakes = run_fakes()
        for name, fn in task_cls.fakes.items():
            fakes.register(name, fn)
        providers = Providers(config.providers, fakes=fakes)
        specs = resolve_agents(config, providers, config.helper_provider is not None)
        return _Resolved(None, specs, providers, str(exc))
    return _Resolved(setup.task, setup.specs, setup.providers)


def _provider_of(
    config: RunConfig, specs: dict[str, AgentSpec | FrameworkAgentSpec], label: str
) -> str | None:
    entry = next(a for a in config.agents if a.label == label)
    spec = specs[label]
    return entry.provider or (spec.provider if isinstance(spec, AgentSpec) else None)


def dry_run(config: RunConfig, estimate_from: Sequence[Path] = ()) -> DryRunPlan:
    """Check ``config`` and lay out its plan; raises ``ConfigError`` for what would fail the
    run before its first trial (a missing data file the user supplies is reported in the plan
    instead, with where to get it)."""
    resolved = _resolve(config)
    task = resolved.task
    plan = DryRunPlan()
    out = plan.lines
    agents = len(config.agents)
    out.append(f"run: {config.name} (config hash {config.digest()[:12]})")
    out.append(f"results: {config.output_dir()}")
    out.append(
        f"trials: {config.trials} per agent x {agents} agents = {config.trials * agents}, "
        f"seed {config.seed}, {config.concurrency} at once"
    )
    out.append(f"task: {config.task.kind}")
    if task is None:
        out += [f"  {k}: {v}" for k, v in config.task.params().items()]
        out.append(f"  MISSING DATA (supply it before running): {resolved.missing}")
        episodes = limit = None
    else:
        out += [f"  {line}" for line in task.plan()]
        episodes = task.episodes_per_trial()
        limit = task.actions_per_episode()
    used: set[str] = set()
    out.append("agents:")
    described: dict[str, dict[str, Any]] = {}
    for entry in config.agents:
        spec = resolved.specs[entry.label]
        provider = _provider_of(config, resolved.specs, entry.label)
        params = ", ".join(f"{k}={v}" for k, v in entry.params.items())
        if not isinstance(spec, AgentSpec):
            used |= {provider} if provider else set()
            out.append(
                f"  {entry.label}: {spec.framework} agent from {spec.factory}"
                + (f" on {provider}" if provider else "")
                + " (its factory is imported; whether its state can be copied is checked"
                " when the run starts)" + (f" [{params}]" if params else "")
            )
            continue
        named = providers_named(spec, provider)
        used |= named
        if spec.name not in described:
            described[spec.name] = describe_spec(spec)
        nodes = described[spec.name].get("nodes") or {}
        out.append(
            f"  {entry.label}: {spec.name} ({len(nodes)} nodes) on {', '.join(sorted(named))}"
            + (f" [{params}]" if params else "")
        )
    if config.helper_provider:
        used.add(config.helper_provider)
    out.append("providers:")
    for name in sorted(used):
        cfg = resolved.providers.config(name)
        out.append(f"  {_provider_line(name, cfg, resolved.providers)}")
    names = {
        label: spec.name if isinstance(spec, AgentSpec) else f"{spec.framework}:{spec.factory}"
        for label, spec in resolved.specs.items()
    }
    costs = estimates(config, names, estimate_from)
    out.append("cost:")
    for entry in config.agents:
        est = costs.get(entry.label)
        if est is None:
            out.append(
                f"  {entry.label}: not known (no earlier run of {names[entry.label]} on this task)"
            )
        else:
            out.append(f"  {entry.label}: {_cost_line(est, episodes, limit)}")
    out.append("dry run: nothing was played and no model was called")
    return plan


__all__ = ["DryRunPlan", "Estimate", "dry_run", "estimates"]
