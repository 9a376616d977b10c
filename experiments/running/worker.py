"""The worker side of a run: play one trial spec and return its record.

A :class:`RunSetup` is everything a run config builds once (providers, the task, the agent
specs checked as data, the metadata every trial records), checked before any trial runs. A
:class:`TrialWorker` plays specs with the setup of the run each names (by its config's
digest), so any execution backend can call it; a worker on another machine is given a way to
build a run's setup the first time it meets the run.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from cogarch.construction import prepare
from cogarch.core.backend import TrialSpec
from cogarch.core.host import AgentHost
from cogarch.core.records import RecordTypes, TrialError, TrialMetadata, TrialOutput, TrialRecord
from cogarch.core.task import Task, TrialContext, checked_output, is_untrusted_stop
from cogarch.core.usage import TrialUsage
from cogarch.errors import CogarchError, ConfigError
from cogarch.files import real_folder
from cogarch.models.metering import Meter
from cogarch.models.providers import LocalServerSource, Providers
from cogarch.models.slots import trial_affinity
from cogarch.tasks.registry import TASKS
from cogarch.workspace.spec import (
    AgentPlan,
    AgentSpec,
    build_agent,
    check_agent_spec,
    load_agent_spec,
    providers_named,
)

from ..results.names import safe_name
from ..results.task_types import task_source as source_of
from .budgets import apply_budget
from .cell_settings import trial_settings
from .fakes import run_fakes
from .frameworks import FrameworkAgentSpec, framework_builder
from .identity import CODE_KEY, code_digests, digests_of, item_metadata, spec_refs
from .interrupts import task_raised, trial_code
from .run_config import FrameworkAgent, RunConfig

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
    key_env = getattr(providers.config(name), "api_key_env", None)
    if key_env and not os.environ.get(key_env):
        raise ConfigError(
            f"provider '{name}' reads its API key from ${key_env}, which is not set; "
            f"export {key_env}=... before running"
        )


@contextmanager
def task_setup(kind: str) -> Iterator[None]:
    """Setting up the task ``kind`` (its own code): anything it raises is a config error."""
    try:
        yield
    except (CogarchError, KeyboardInterrupt):
        raise
    except BaseException as exc:
        raise ConfigError(
            f"task '{kind}' could not be set up: {type(exc).__name__}: {str(exc)[:300]}"
        ) from None


def resolve_agents(
    config: RunConfig,
    providers: Providers,
    needs_helper: bool = False,
    *,
    plans: dict[str, AgentPlan] | None = None,
) -> dict[str, AgentSpec | FrameworkAgentSpec]:
    """Every agent's spec by name, loaded and checked, with every provider it names (and the
    helper) checked, as a run does before any trial (a framework agent's factory is checked
    by its builder, see ``RunSetup``). ``plans``, when given, receives each spec agent's plan
    (what its check made, built from for every trial)."""
    specs: dict[str, AgentSpec | FrameworkAgentSpec] = {}
    for entry in config.agents:
        if isinstance(entry.agent, FrameworkAgent):
            specs[entry.label] = FrameworkAgentSpec.of(entry)
            if entry.provider is not None:
                providers.config(entry.provider)
            continue
        spec = apply_budget(load_agent_spec(entry.agent, entry.params), entry.budget, entry.label)
        provider = entry.provider or spec.provider
        if provider is not None:
            providers.config(provider)  # unknown names fail before any trial runs
        plan = check_agent_spec(spec, provider=provider)
        if plans is not None:
            plans[entry.label] = plan
        specs[entry.label] = spec
    if needs_helper and config.helper_provider is None:
        raise ConfigError(
            f"the {config.task.kind} task judges its trials with a helper model, and the "
            "run config names none; set 'helper_provider: NAME' to a provider (the "
            "agent's own provider is never used as its judge)"
        )
    by_label = {entry.label: entry for entry in config.agents}
    used: set[str | None] = set()
    for label, one in specs.items():
        if isinstance(one, AgentSpec):
            used |= providers_named(one, by_label[label].provider or one.provider)
        else:
            used.add(by_label[label].provider)
    used.add(config.helper_provider)
    for name in sorted(p for p in used if p):
        check_provider(providers, name)
    return specs


class RunSetup:
    """A run config's providers, task and agent specs, built and checked once.

    The config is validated once (it is a ``RunConfig``) and hashed once (``digest``).
    ``task_source`` is where the task class loads from when the config names it by file path
    (see ``task_types.task_source``; a worker elsewhere is given the driver's). ``cache_dir``
    moves the response cache away from ``results_dir/.cache`` (a cluster worker keeps its own
    on its node); ``local_server`` says where ``local`` providers find their embedded server.
    ``probe_frameworks`` builds one agent of each framework entry to refuse an agent whose
    state cannot be copied before any trial; a dry run, which builds no model, leaves it off.
    """

    def __init__(
        self,
        config: RunConfig,
        *,
        task_source: str | None = None,
        cache_dir: Path | None = None,
        local_server: LocalServerSource | None = None,
        probe_frameworks: bool = True,
        code: dict[str, str] | None = None,
    ) -> None:
        self.config = config
        self.config_json = config.model_dump(mode="json")
        self.code = code_digests(config) if code is None else dict(code)
        """The SHA-256 of each Python file the config names (``identity``); a worker
        elsewhere is given the driver's."""
        self.digest = config.digest(self.code)
        self.task_source = task_source or source_of(config.task.kind)
        fakes = run_fakes()
        with task_setup(config.task.kind):
            recipe = prepare(
                TASKS, self.task_source or config.task.kind, config.task.params(), where="task"
            )
            task_cls = recipe.cls
            self.task: Task = recipe.build()
            self.record_types: RecordTypes = task_cls.record_types()
            for name, fn in dict(task_cls.fakes).items():
                fakes.register(name, fn)
            self.needs_helper: bool = bool(self.task.needs_helper)
            self.helper_role: str | None = self.task.helper_role
        cache = (cache_dir or config.output_dir() / ".cache") if config.cache else None
        self.providers = Providers(
            config.providers, cache_dir=cache, fakes=fakes, local_server=local_server
        )
        self.entries = {entry.label: entry for entry in config.agents}
        self.plans: dict[str, AgentPlan] = {}
        """Each spec agent checked once, built from for every trial."""
        self.specs = resolve_agents(
            config, self.providers, self.task.needs_helper, plans=self.plans
        )
        for spec in self.specs.values():  # memory modules and specialists named by file
            self.code.update(digests_of(spec_refs(spec.model_dump(mode="json"))))
        self.framework_agents = {
            e.label: framework_builder(e)
            for e in config.agents
            if isinstance(e.agent, FrameworkAgent)
        }
        for builder in self.framework_agents.values():  # refused before any trial runs
            if probe_frameworks:
                builder.check(self.providers.for_trial(0))
        self._metadata: dict[str, Any] = {
            "config": self.config_json,
            "config_hash": self.digest,
            "versions": package_versions(),
            "seed_rule": SEED_RULE,
            **({"task_source": self.task_source} if self.task_source else {}),
            **({CODE_KEY: dict(self.code)} if self.code else {}),
        }
        self._trial_metadata = {label: self._agent_metadata(label) for label in self.specs}

    def provider_of(self, label: str) -> str | None:
        spec = self.specs[label]
        return self.entries[label].provider or (
            spec.provider if isinstance(spec, AgentSpec) else None
        )

    def helper_provider(self, agent_provider: str | None) -> str | None:
        """The provider of the task's own calls: the run's helper provider; tasks that do not
        judge the agent (candidate top-up in the SCT) may use the agent's provider instead."""
        if self.needs_helper:
            return self.config.helper_provider
        return self.config.helper_provider or agent_provider

    def own_helper_warning(self) -> str | None:
        """A warning when the task's helper model is the model under test of some agent (the
        helper defaults to each agent's own provider), else None."""
        role = self.helper_role
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
        """What the run records of itself (``run.json``): its config, hash and versions, and
        each agent's control role and settings."""
        agents = {label: self._control_settings(label) for label in self.specs}
        return {**self._metadata, "agents": agents}

    def shipment(self) -> dict[str, Any]:
        """What a worker elsewhere needs to build this setup: the config and the task's
        source and the digests of the files it names (plain data, sent once per worker)."""
        code = {"code": dict(self.code)} if self.code else {}
        return {"config": self.config_json, "task_source": self.task_source, **code}

    def _agent_metadata(self, label: str) -> dict[str, Any]:
        provider = self.provider_of(label)
        settings = (
            self.providers.config(provider).model_dump(mode="json", exclude={"api_key_env"})
            if provider
            else None
        )
        return {
            "agent_spec": self.specs[label].model_dump(mode="json"),
            "provider": provider,
            "provider_settings": settings,
            **self._control_settings(label),
        }

    def _control_settings(self, label: str) -> dict[str, Any]:
        """The control role and the settings (reader, judge, budget) agent ``label`` records."""
        reader, judge = self.provider_of(label), self.config.helper_provider
        settings = trial_settings(self.providers, reader, judge, self.specs[label])
        return {
            "control": self.entries[label].control,
            "settings": settings.model_dump(mode="json"),
        }

    def trial_metadata(
        self, label: str, started: datetime, index: int | None = None
    ) -> TrialMetadata:
        item = {} if index is None else item_metadata(self.task, index)
        return TrialMetadata(
            **self._metadata,
            **self._trial_metadata[label],
            **item,
            started_at=started.isoformat(),
        )

    def _state_dir(self, spec: TrialSpec) -> Path:
        """The trial's own folder for what it keeps to go on after an interruption (not made
        here); a link or file planted in its place is set aside, never written through."""
        folder = self.config.output_dir() / ".trial_state"
        found = folder / f"{self.digest[:12]}-{safe_name(spec.agent)}-{spec.index}"
        real_folder(folder, create=False)
        real_folder(found, create=False)
        return found

    async def play(self, spec: TrialSpec) -> TrialRecord:
        """Play one trial; an exception in the task is recorded as a failed trial."""
        if spec.agent not in self.specs:
            raise ConfigError(
                f"trial spec names agent '{spec.agent}', which the run config does not list; "
                f"its agents are {', '.join(self.specs)}"
            )
        provider = self.provider_of(spec.agent)
        models = self.providers.for_trial(spec.seed)
        plan = self.plans.get(spec.agent)

        def make_agent() -> AgentHost:
            if plan is None:
                return self.framework_agents[spec.agent].host(models, spec.seed)
            return build_agent(plan, models, name=spec.agent, seed=spec.seed)

        ctx = TrialContext(
            agent_name=spec.agent,
            trial=spec.index,
            seed=spec.seed,
            agent_factory=make_agent,
            models=models,
            helper_provider=self.helper_provider(provider),
            state_dir=self._state_dir(spec),
            agent_provider=provider,
            control=self.entries[spec.agent].control,
            peers=tuple(self.specs),
            meter=Meter(),
        )
        meta = self.trial_metadata(spec.agent, datetime.now(UTC), spec.index)
        clock = time.perf_counter()
        with trial_affinity():
            try:  # the task's own code: whatever it raises or returns is a failed trial
                with trial_code():
                    played = await self.task.play(ctx)
                output = checked_output(played, type(self.task), "play")
            except BaseException as exc:
                if not (is_untrusted_stop(exc) or task_raised(exc)):
                    raise
                output = TrialOutput(error=TrialError.of(exc))
        meta.duration_s = round(time.perf_counter() - clock, 3)
        header = {
            "run": self.config.name,
            "agent": spec.agent,
            "task": self.config.task.kind,
            "trial": spec.index,
            "seed": spec.seed,
        }
        try:
            return TrialRecord.of(output, metadata=meta, scoring=self.task.scoring, **header)
        except Exception as exc:  # an output of another shape (built without validation)
            usage = output.usage if isinstance(output.usage, TrialUsage) else TrialUsage()
            failed = TrialOutput(usage=usage, error=TrialError.of(exc))
            return TrialRecord.of(failed, metadata=meta, scoring=self.task.scoring, **header)


class TrialWorker:
    """Plays trial specs, each with the setup of the run it names (by config digest): the
    runs it is given (a worker elsewhere adds a run's setup the first time it meets it)."""

    def __init__(self, *setups: RunSetup) -> None:
        self._setups = {s.digest: s for s in setups}

    @property
    def setups(self) -> dict[str, RunSetup]:
        return dict(self._setups)

    def add(self, setup: RunSetup) -> None:
        self._setups.setdefault(setup.digest, setup)

    async def __call__(self, spec: TrialSpec) -> TrialRecord:
        setup = self._setups.get(spec.run_digest)
        if setup is None:
            raise ConfigError(
                f"trial spec names run {spec.run_digest[:12]}, which this worker was not given; "
                "give the worker that run's setup first"
            )
        return await setup.play(spec)

    async def aclose(self) -> None:
        for setup in self._setups.values():
            await setup.providers.aclose()
