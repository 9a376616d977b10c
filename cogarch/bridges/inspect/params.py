"""The ``-T`` parameters of a cogarch task under Inspect, read into a run config.

``inspect eval cogarch/<kind> -T NAME=VALUE ...`` passes one flat mapping. The bridge's own
names (:data:`BRIDGE_PARAMS`) say which agent plays how many trials with which seed; a name
the task's ``Params`` model declares goes to the task; every other name is a parameter of
the agent's spec (``agent.NAME`` sends a name to the agent even when the task declares it
too). The result is a
:class:`~cogarch.experiments.running.run_config.RunConfig` with one agent, checked
with cogarch's own errors, so ``-T trials=N -T seed=S`` give the trials the seeds a run
config's ``trials: N`` and ``seed: S`` give them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cogarch.config import validate_mapping
from cogarch.construction import prepare
from cogarch.core.task import Task
from cogarch.errors import ConfigError
from cogarch.experiments.results.task_types import task_source
from cogarch.experiments.running.run_config import RunConfig
from cogarch.models.providers import ProviderConfig
from cogarch.tasks.registry import TASKS
from cogarch.workspace.spec import load_agent_spec

BRIDGE_PARAMS: Mapping[str, str] = {
    "agent": "the agent under test: a ready-made agent's name or an agent spec YAML "
    "(default: vanilla)",
    "name": "the agent's name in the records (default: the agent)",
    "trials": "how many trials, one Inspect sample each (default: 5)",
    "seed": "the run seed the trials' seeds come from (default: 1337)",
    "fake": "a scripted fake to play the agent's model instead of Inspect's model "
    "(as a 'kind: fake' provider's 'fake:' names it, e.g. hangman.honest)",
    "cache": "cogarch's response cache of seeded calls: true (runs/<run>/.cache), "
    "false, or a folder (default: true)",
    "task": "cogarch/task only: the task's class, as 'package.module:Class' or 'file.py:Class'",
}
"""The bridge's own ``-T`` names, with what each sets."""

INSPECT_PROVIDER = "inspect"
"""The provider name the agent's model has in the records when Inspect's model plays it."""
FAKE_PROVIDER = "fake"
"""The provider name of the scripted fake, when ``-T fake=...`` names one."""
HELPER_ROLE = "helper"
"""The Inspect model role (``--model-role helper=MODEL``) that makes the task's own calls
(the SCT's candidate proposals, a judge), and its provider's name in the records."""


@dataclass(frozen=True)
class BridgeParams:
    """One cogarch task under Inspect: its run config and the task class it plays."""

    config: RunConfig
    task_class: type[Task]
    fake: str | None
    cache_dir: Path | None = None
    """Where cogarch's response cache lives when ``-T cache=FOLDER`` names it."""
    helper: str | None = None
    """The model bound to Inspect's ``helper`` role, if any: the task's own calls go to it."""

    @property
    def label(self) -> str:
        return self.config.agents[0].label

    @property
    def provider(self) -> str:
        return FAKE_PROVIDER if self.fake is not None else INSPECT_PROVIDER

    def for_model(self, model: str, helper: str | None = None) -> RunConfig:
        """The run config of the trials Inspect's model ``model`` plays (named in the
        records as the provider's model; a fake plays instead when ``-T fake`` names one),
        with the task's own calls going to ``helper`` when a model is bound to that role."""
        providers = dict(self.config.providers)
        if self.fake is None:
            providers = {INSPECT_PROVIDER: inspect_provider(model)}
        update: dict[str, Any] = {"providers": providers}
        if helper is not None:
            providers[HELPER_ROLE] = inspect_provider(helper)
            update["helper_provider"] = HELPER_ROLE
        return self.config.model_copy(update=update)


def inspect_provider(model: str) -> ProviderConfig:
    """The provider settings recorded for Inspect's model: no temperature or token limit of
    cogarch's own, so Inspect's generate config (``--temperature``, ...) applies, except
    where a call sets its own."""
    return ProviderConfig(kind="openai", model=model, temperature=None, max_tokens=None)


def read_params(
    kind: str | None, given: Mapping[str, Any], *, helper: str | None = None
) -> BridgeParams:
    """The run config of ``inspect eval cogarch/<kind> -T ...`` (``kind`` None: the task is
    the one ``-T task=...`` names); ``helper`` is the model bound to Inspect's ``helper``
    role, if any. Every mistake is a :class:`ConfigError` naming it."""
    params = dict(given)
    named = params.pop("task", None)
    if kind is None:
        if not isinstance(named, str) or not named.strip():
            raise ConfigError(
                "cogarch/task plays a task of your own: name its class with "
                "-T task=package.module:Class or -T task=path/to/file.py:Class"
            )
        kind = named
    elif named is not None:
        raise ConfigError(
            f"cogarch/{kind} is the {kind} task already; -T task=... is for cogarch/task "
            "(a task of your own)"
        )
    task_class = TASKS.get(task_source(kind) or kind)
    fields = set(task_class.Params.model_fields)
    bridge = {k: params.pop(k) for k in list(params) if k in BRIDGE_PARAMS}
    task_params = {k: params.pop(k) for k in list(params) if k in fields}
    agent_params = {k.removeprefix("agent."): v for k, v in params.items()}
    agent = bridge.get("agent", "vanilla")
    fake = bridge.get("fake")
    if fake is not None and (not isinstance(fake, str) or not fake.strip()):
        raise ConfigError("-T fake= names a scripted fake, e.g. -T fake=hangman.honest")
    if not isinstance(agent, str):
        raise ConfigError("-T agent= names an agent: a ready-made agent or a spec YAML path")
    _check_agent_params(agent, agent_params, kind, task_class)
    provider = FAKE_PROVIDER if fake is not None else INSPECT_PROVIDER
    providers: dict[str, Any] = {
        provider: {"kind": "fake", "fake": fake}
        if fake is not None
        else inspect_provider("inspect").model_dump()
    }
    entry: dict[str, Any] = {"agent": agent, "provider": provider, "params": agent_params}
    if "name" in bridge:
        entry["name"] = bridge["name"]
    data: dict[str, Any] = {
        "name": f"inspect_{_stem(kind)}",
        "task": {"kind": kind, **task_params},
        "agents": [entry],
        "providers": providers,
        "cache": True,
    }
    for key in ("trials", "seed"):
        if key in bridge:
            data[key] = bridge[key]
    cache = bridge.get("cache", True)
    cache_dir = None
    if isinstance(cache, bool):
        data["cache"] = cache
    elif isinstance(cache, str) and cache.strip():
        cache_dir = Path(cache).expanduser()
    else:
        raise ConfigError("-T cache= is true, false or a folder for cogarch's response cache")
    config = validate_mapping(RunConfig, data)
    task = prepare(TASKS, task_source(kind) or kind, config.task.params(), where="task").build()
    if task.needs_helper and helper is None:
        raise ConfigError(
            f"the {kind} task judges its trials with a helper model of its own (never the "
            f"model under test); bind one to Inspect's '{HELPER_ROLE}' role: "
            f"--model-role {HELPER_ROLE}=PROVIDER/MODEL"
        )
    return BridgeParams(
        config=config, task_class=task_class, fake=fake, cache_dir=cache_dir, helper=helper
    )


def _check_agent_params(
    agent: str, params: Mapping[str, Any], kind: str, task_class: type[Task]
) -> None:
    """The agent's spec takes ``params``, or the error says which names are whose."""
    try:
        load_agent_spec(agent, params)
    except ConfigError as exc:
        if not params:
            raise
        task_names = ", ".join(sorted(task_class.Params.model_fields)) or "none"
        raise ConfigError(
            f"{exc}. A -T name is the bridge's ({', '.join(BRIDGE_PARAMS)}), the {kind} "
            f"task's ({task_names}) or else the agent's"
        ) from None


def _stem(kind: str) -> str:
    """A run name's part for a task named by short name, import path or file path."""
    tail = kind.rpartition(":")[2] or kind
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in tail)[:60] or "task"
