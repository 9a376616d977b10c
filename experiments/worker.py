"""The worker side of a run: play one trial spec and return its record.

A :class:`RunSetup` is everything a run config builds once (providers, the task, the agent
specs), checked before any trial runs. A :class:`TrialWorker` plays specs, building the setup
of each run config it meets from the spec alone, so any execution backend can call it.
"""

from __future__ import annotations

import os
import platform
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from cogarch.core.backend import TrialSpec
from cogarch.core.records import TrialError, TrialMetadata, TrialOutput, TrialRecord, Usage
from cogarch.core.task import Task, TrialContext
from cogarch.errors import ConfigError
from cogarch.models.metering import Meter
from cogarch.models.providers import LocalServerSource, ProviderConfig, Providers
from cogarch.models.slots import trial_affinity

from ..tasks.fakes import task_fakes
from ..tasks.registry import build_task
from ..workspace.agent import Agent
from ..workspace.spec import AgentSpec, build_agent, load_agent_spec, providers_named
from .config import RunConfig
from .names import safe_name

_PACKAGES = ("cogarch", "autogen-core", "autogen-ext", "openai", "networkx", "chromadb", "pydantic")
SEED_RULE = "trial_seed(run_seed, i) = sha256(f'{run_seed}:{i}')[:8] & (2**63-1)"


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def check_provider(providers: Providers, name: str) -> None:
    """Catch before any trial runs what would otherwise fail every trial."""
    providers.check(name)
    cfg: ProviderConfig = providers.config(name)
    if cfg.api_key_env and not os.environ.get(cfg.api_key_env):
        raise ConfigError(
            f"provider '{name}' reads its API key from ${cfg.api_key_env}, which is not set; "
            f"export {cfg.api_key_env}=... before running"
        )


class RunSetup:
    """A run config's providers, task and agent specs, built and checked once.

    ``cache_dir`` moves the response cache away from ``results_dir/.cache`` (a cluster worker
    keeps its own on its node); ``local_server`` says where ``local`` providers find their
    embedded server.
    """

    def __init__(
        self,
        config: RunConfig,
        *,
        cache_dir: Path | None = None,
        local_server: LocalServerSource | None = None,
    ) -> None:
        self.config = config
        cache = (cache_dir or config.output_dir() / ".cache") if config.cache else None
        self.providers = Providers(
            config.providers, cache_dir=cache, fakes=task_fakes(), local_server=local_server
        )
        self.task: Task = build_task(config.task.kind, config.task.params())
        self.specs: dict[str, AgentSpec] = {}
        self.entries = {entry.label: entry for entry in config.agents}
        for entry in config.agents:
            spec = load_agent_spec(entry.agent, entry.params)
            provider = entry.provider or spec.provider
            if provider is not None:
                self.providers.config(provider)  # unknown names fail before any trial runs
            build_agent(spec, self.providers.get, provider=provider)  # validate the graph
            self.specs[entry.label] = spec
        if self.task.needs_helper and config.helper_provider is None:
            raise ConfigError(
                f"the {config.task.kind} task judges its trials with a helper model, and the "
                "run config names none; set 'helper_provider: NAME' to a provider (the "
                "agent's own provider is never used as its judge)"
            )
        used: set[str | None] = {
            p for k, s in self.specs.items() for p in providers_named(s, self.provider_of(k))
        }
        used.add(config.helper_provider)
        for name in sorted(p for p in used if p):
            check_provider(self.providers, name)

    def provider_of(self, label: str) -> str | None:
        return self.entries[label].provider or self.specs[label].provider

    def helper_provider(self, agent_provider: str | None) -> str | None:
        """The provider of the task's own calls: the run's helper provider; tasks that do not
        judge the agent (candidate top-up in the SCT) may use the agent's provider instead."""
        if self.task.needs_helper:
            return self.config.helper_provider
        return self.config.helper_provider or agent_provider

    def own_helper_warning(self) -> str | None:
        """A warning when the task's helper model is the model under test of some agent (the
        helper defaults to each agent's own provider), else None."""
        role = self.task.helper_role
        own = [
            label
            for label in self.specs
            if (provider := self.provider_of(label)) is not None
            and (self.config.helper_provider or provider) == provider
        ]
        if role is None or not own:
            return None
        return (
            f"warning: {role} come from the model under test for {', '.join(own)}; the paper "
            "used a separate model (set helper_provider in the run config)"
        )

    def metadata(self) -> dict[str, Any]:
        return {
            "config": self.config.model_dump(mode="json"),
            "config_hash": self.config.digest(),
            "versions": package_versions(),
            "seed_rule": SEED_RULE,
        }

    def trial_metadata(self, label: str, started: datetime) -> TrialMetadata:
        provider = self.provider_of(label)
        settings = (
            self.providers.config(provider).model_dump(mode="json", exclude={"api_key_env"})
            if provider
            else None
        )
        return TrialMetadata(
            **self.metadata(),
            agent_spec=self.specs[label].model_dump(mode="json"),
            provider=provider,
            provider_settings=settings,
            started_at=started.isoformat(),
        )

    async def play(self, spec: TrialSpec) -> TrialRecord:
        """Play one trial; an exception in the task is recorded as a failed trial."""
        if spec.agent not in self.specs:
            raise ConfigError(
                f"trial spec names agent '{spec.agent}', which the run config does not list; "
                f"its agents are {', '.join(self.specs)}"
            )
        provider = self.provider_of(spec.agent)
        built: list[Agent] = []
        models = self.providers.for_trial(spec.seed)

        def make_agent() -> Agent:
            agent = build_agent(
                self.specs[spec.agent],
                models,
                name=spec.agent,
                provider=provider,
                seed=spec.seed,
            )
            built.append(agent)
            return agent

        ctx = TrialContext(
            agent_name=spec.agent,
            trial=spec.index,
            seed=spec.seed,
            make_agent=make_agent,
            models=models,
            helper_provider=self.helper_provider(provider),
            state_dir=self.config.output_dir()
            / ".trial_state"
            / f"{self.config.digest()[:12]}-{safe_name(spec.agent)}-{spec.index}",
            agent_provider=provider,
            peers=tuple(self.specs),
        )
        meter = Meter()
        meta = self.trial_metadata(spec.agent, datetime.now(UTC))
        clock = time.perf_counter()
        out, error = TrialOutput(), None
        try:
            with meter.active(), trial_affinity():
                out = await self.task.run_trial(ctx)
        except Exception as exc:  # a failed trial is recorded and the run goes on
            error = TrialError(
                type=type(exc).__name__, message=str(exc), traceback=traceback.format_exc()
            )
        meta.duration_s = round(time.perf_counter() - clock, 3)
        return TrialRecord(
            status="failed" if error else "complete",
            run=self.config.name,
            agent=spec.agent,
            task=self.config.task.kind,
            trial=spec.index,
            seed=spec.seed,
            metadata=meta,
            scoring=self.task.scoring,
            **dict(out),
            usage=Usage.model_validate(
                {**meter.summary(), "calls": [u.to_dict() for u in meter.records]}
            ),
            walk=built[0].trace.walk() if built else [],
            error=error,
        )


def _setup_key(config: RunConfig) -> tuple[str, str]:
    """Setups differ by what a run plays and by where its state and cache lie."""
    return config.digest(), str(config.output_dir())


class TrialWorker:
    """Plays trial specs; builds each run config's setup (with ``make_setup``) the first time
    it sees it."""

    def __init__(
        self, *setups: RunSetup, make_setup: Callable[[RunConfig], RunSetup] = RunSetup
    ) -> None:
        self._setups = {_setup_key(s.config): s for s in setups}
        self._make_setup = make_setup

    async def __call__(self, spec: TrialSpec) -> TrialRecord:
        config = RunConfig.model_validate(spec.config)
        key = _setup_key(config)
        setup = self._setups.get(key)
        if setup is None:
            setup = self._setups[key] = self._make_setup(config)
        return await setup.play(spec)

    async def aclose(self) -> None:
        for setup in self._setups.values():
            await setup.providers.aclose()


__all__ = ["RunSetup", "TrialWorker", "check_provider", "package_versions"]
