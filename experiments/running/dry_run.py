"""``cogarch run CONFIG --dry-run``: check a run config and print its plan, calling no model.

The config is validated and everything a run resolves before its first trial is resolved the
same way (:class:`~cogarch.experiments.running.worker.RunSetup`): the task is built from its
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

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogarch.construction import prepare
from cogarch.core.task import Task
from cogarch.errors import ConfigError, MissingDataError
from cogarch.models.provider import ProviderSettings
from cogarch.models.providers import ProviderConfig, Providers
from cogarch.tasks.registry import TASKS
from cogarch.workspace.spec import AgentSpec, describe_spec, providers_named

from ..judge_audit.audit import audit_plan
from ..papers.episodex_paper import episodex_deviations, played_games
from ..papers.episodex_protocol import unstated_settings
from ..results.task_types import task_source
from .budgets import budget_text
from .controls import expanded_run
from .cost_estimate import cost_line, estimates
from .fakes import run_fakes
from .frameworks import FrameworkAgentSpec
from .identity import code_digests
from .run_config import RunConfig
from .user_code import user_code
from .worker import RunSetup, resolve_agents


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
    config = expanded_run(config)
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
    recorded = config.model_dump(mode="json")
    if task is None:
        out += [f"  {k}: {v}" for k, v in config.task.params().items()]
        if (games := played_games(recorded)) is not None:
            out.append(f"  games: {games}")
        out.append(f"  MISSING DATA (supply it before running): {resolved.missing}")
        episodes = limit = None
    else:
        out += [f"  {line}" for line in task.plan()]
        episodes = task.episodes_per_trial()
        limit = task.actions_per_episode()
    if config.audit_judge is not None:
        out.append(audit_plan(task, config.task.kind, config.audit_judge))
    if unstated := unstated_settings(recorded):
        out.append("not stated by the paper (cogarch's choice):")
        out += [f"  {line}" for line in unstated]
    if differs := [d for d in episodex_deviations(recorded) if "cogarch's choice" not in d]:
        out.append("differs from the paper:")
        out += [f"  {line}" for line in differs]
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
            + (f" (control: {entry.control})" if entry.control else "")
            + (f" (budget: {budget_text(entry.budget)})" if entry.budget and spec.memory else "")
        )
    if config.helper_provider:
        used.add(config.helper_provider)
    if config.audit_judge is not None and config.audit_judge.second_judge is not None:
        used.add(config.audit_judge.second_judge)
    out.append("providers:")
    for name in sorted(used):
        cfg = resolved.providers.config(name)
        out.append(f"  {_provider_line(name, cfg, resolved.providers)}")
    names = {
        label: spec.name if isinstance(spec, AgentSpec) else f"{spec.framework}:{spec.factory}"
        for label, spec in resolved.specs.items()
    }
    own = user_code(config, resolved.specs, code_digests(config))
    out.append(
        "your code imported (run to check it, as the run will):" if own else "your code: none"
    )
    out += [f"  {line}" for line in own]
    costs = estimates(config, names, estimate_from)
    out.append("cost:")
    for entry in config.agents:
        est = costs.get(entry.label)
        if est is None:
            out.append(
                f"  {entry.label}: not known (no earlier run of {names[entry.label]} on this task)"
            )
        else:
            out.append(f"  {entry.label}: {cost_line(est, episodes, limit)}")
    out.append("dry run: nothing was played and no model was called")
    return plan
