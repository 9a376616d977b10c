"""Agent specs: YAML that names specialists, memory modules, edges and routing."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cogarch.config import located, read_yaml, shown, validate_mapping
from cogarch.construction import Recipe, prepare
from cogarch.core.memory import MemoryModule
from cogarch.core.model import ChatModel
from cogarch.errors import ConfigError, UnknownNameError
from cogarch.memory.registry import memory_recipe
from cogarch.registry import is_file_path

from .agent import Agent
from .graph import Edge, NodeRouting, TransitionGraph
from .registry import SPECIALISTS, ready_made_agents
from .specialist import BaseSpecialist

_ARROW = re.compile(r"^\s*([\w.-]+)\s*->\s*([\w.-]+)\s*(?:\[\s*when\s*[:=]\s*([\w.:-]+)\s*\])?\s*$")


class ComponentSpec(BaseModel):
    """``kind`` plus the component's own parameters (validated by the component)."""

    model_config = ConfigDict(extra="allow")
    kind: str
    provider: str | None = None

    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class EdgeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    source: str = Field(alias="from")
    target: str = Field(alias="to")
    when: str | None = None


class RoutingSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    default: str | None = None
    chooser: str | None = Field(
        default=None, description="Provider that picks among successors; 'agent' = the agent's."
    )
    describe: str = ""
    end_when: str | None = Field(
        default=None, description="A condition: after the node runs, the turn ends when it holds."
    )


class AgentSpec(BaseModel):
    """An agent as a YAML spec describes it: its specialists, memory, transition graph and
    routing, with the parameters the spec takes (``load_agent_spec`` reads one).

    Attributes:
        name: The agent's name.
        description: What the agent does, in a sentence or two.
        provider: The default provider of the specialists.
        params: The parameters the spec takes, with their defaults; ``${name}`` in a
            component's settings is replaced by the parameter's value.
        memory: The memory modules, by name: each a ``kind`` and its own settings.
        specialists: The specialists, by node name: each a ``kind`` and its own settings.
        edges: The transition graph's edges, ``"a -> b"`` or ``"a -> b [when: condition]"``.
        entry: The node each turn starts at.
        responder: The node whose reply is the agent's public reply.
        routing: By node, how the next node is picked among its successors.
        step_budget: At most this many steps a turn; then the responder replies (None: no
            limit).
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str = ""
    provider: str | None = Field(default=None, description="Default provider of the specialists.")
    params: dict[str, Any] = Field(default_factory=dict)
    memory: dict[str, ComponentSpec] = Field(default_factory=dict)
    specialists: dict[str, ComponentSpec]
    edges: list[EdgeSpec] = Field(default_factory=list)
    entry: str
    responder: str = "responder"
    routing: dict[str, RoutingSpec] = Field(default_factory=dict)
    step_budget: int | None = Field(default=12, ge=1)

    @field_validator("edges", mode="before")
    @classmethod
    def _arrows(cls, value: Any) -> Any:
        if not isinstance(value, list):
            return value
        out = []
        for item in value:
            if isinstance(item, dict) and len(item) == 1 and "->" in str(next(iter(item))):
                raise ValueError(
                    f'edge {shown(item)} was read as a mapping; quote it: "a -> b [when: c]"'
                )
            if isinstance(item, str):
                match = _ARROW.match(item)
                if not match:
                    raise ValueError(
                        f"edge {shown(item)} must look like 'a -> b' or 'a -> b [when: c]'"
                    )
                out.append({"from": match[1], "to": match[2], "when": match[3]})
            else:
                out.append(item)
        return out


def load_agent_spec(
    name_or_path: str | os.PathLike[str], params: Mapping[str, Any] | None = None
) -> AgentSpec:
    """A ready-made agent spec by name, or one read from a YAML file.

    A memory module or specialist the file names by a Python file's path is found relative to
    the spec file's folder.

    Args:
        name_or_path: A ready-made agent's name (``workflow``) or a spec file's path.
        params: Values for the spec's ``${param}`` placeholders.

    Returns:
        The validated spec.

    Raises:
        UnknownNameError: When ``name_or_path`` is neither a ready-made agent nor a file.
        ConfigError: When the file is malformed, or a placeholder has no value.
    """
    path = Path(name_or_path)
    ready = ready_made_agents()
    if str(name_or_path) in ready:
        path = ready[str(name_or_path)]
    elif not path.suffix or not path.exists():
        raise UnknownNameError(
            f"unknown agent '{name_or_path}'; ready-made agents: {', '.join(ready)} "
            "(or a path to an agent spec YAML file)"
        )
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise ConfigError(f"agent spec '{path}' must be a mapping")
    declared = raw.get("params") or {}
    unknown = set(params or {}) - set(declared)
    if unknown:
        raise ConfigError(
            f"agent {shown(raw.get('name', path.stem))} has no parameter(s) "
            f"{', '.join(sorted(unknown))}; its parameters: {', '.join(sorted(declared)) or 'none'}"
        )
    values = {**declared, **dict(params or {})}
    optional = {k for k, v in declared.items() if v is None and values[k] is None}
    """Parameters declared without a default and not given: a setting that is only such a
    parameter is left out, so the module's own default holds (and the spec stays as it was
    before the parameter existed)."""
    raw = {
        k: (v if k == "params" else _substitute(v, values, path, optional)) for k, v in raw.items()
    }
    raw["params"] = {k: v for k, v in values.items() if k not in optional}
    for section in ("memory", "specialists"):
        if isinstance(raw.get(section), dict):
            raw[section] = {
                key: _located_kind(part, path, f"{section}.{key}.kind")
                for key, part in raw[section].items()
            }
    return validate_mapping(AgentSpec, raw, source=str(path))


def _located_kind(part: Any, spec: Path, where: str) -> Any:
    """A memory module's or specialist's entry, its kind found relative to the spec file's
    folder when it is named by a Python file's path (``kind: notes.py:NotesMemory``)."""
    kind = part.get("kind") if isinstance(part, dict) else None
    if not isinstance(kind, str) or not is_file_path(kind):
        return part
    return {**part, "kind": located(kind, spec, where)}


_PARAM = re.compile(r"\$\{(\w+)\}")


def _substitute(
    value: Any,
    values: Mapping[str, Any],
    path: Path,
    optional: AbstractSet[str] = frozenset(),
) -> Any:
    """Replace ``${name}`` in every string; a string that is only ``${name}`` takes the value
    with its type (so booleans and numbers stay what they are); a mapping's entry that is only
    ``${name}`` of an ``optional`` parameter (declared null, not given) is left out."""
    if isinstance(value, dict):
        return {
            k: _substitute(v, values, path, optional)
            for k, v in value.items()
            if not (isinstance(v, str) and (m := _PARAM.fullmatch(v)) and m.group(1) in optional)
        }
    if isinstance(value, list):
        return [_substitute(v, values, path, optional) for v in value]
    if not isinstance(value, str):
        return value
    for name in _PARAM.findall(value):
        if name not in values:
            raise ConfigError(
                f"agent spec '{path}' uses ${{{name}}} but declares no parameter '{name}'; "
                f"declared: {', '.join(sorted(values)) or 'none'}"
            )
    whole = _PARAM.fullmatch(value)
    if whole:
        return values[whole.group(1)]
    return _PARAM.sub(lambda m: str(values[m.group(1)]), value)


def providers_named(spec: AgentSpec, provider: str | None = None) -> set[str]:
    """Every provider ``spec`` names (its specialists', memory modules' and routing choosers'),
    with ``provider`` replacing the spec's default; a run checks each before any trial."""
    default = provider or spec.provider
    named = {c.provider or default for c in spec.specialists.values()}
    named |= {c.provider for c in spec.memory.values()}
    named |= {r.chooser for r in spec.routing.values() if r.chooser != "agent"}
    named.add(default)
    return {p for p in named if p}


def describe_spec(spec: AgentSpec) -> dict[str, Any]:
    """The description of the agent ``spec`` builds (see ``Agent.describe``); no model is
    asked for. Diff two with ``workspace.describe.diff``."""
    return build_agent(spec, _no_models, provider=spec.provider or "(agent provider)").describe()


def _no_models(name: str) -> ChatModel:
    raise ConfigError(f"describing a spec needs no model, but provider '{name}' was asked for")


@dataclass(frozen=True)
class AgentPlan:
    """A spec checked once, its parts validated and ready to be instantiated: what
    :func:`check_agent_spec` returns and :func:`build_agent` builds an agent from, as often
    as a run has trials, without checking the spec again."""

    spec: AgentSpec
    provider: str | None
    """The provider that replaced the spec's default (None: the spec's own)."""
    memory_params: dict[str, dict[str, Any]]
    memory: dict[str, Recipe[MemoryModule]]
    specialists: dict[str, tuple[Recipe[BaseSpecialist], str | None]]
    """By node: the specialist's class and validated params, and its provider."""
    graph: TransitionGraph


def check_agent_spec(spec: AgentSpec, *, provider: str | None = None) -> AgentPlan:
    """Check ``spec`` as data, building nothing: every memory module's and specialist's kind
    and parameters, the memory they name, the routing and the transition graph. Raises the
    error ``build_agent`` would raise; returns the plan ``build_agent`` builds agents from."""
    default_provider = provider or spec.provider
    memory_params = {
        key: {**c.params(), **({"provider": c.provider} if c.provider else {})}
        for key, c in spec.memory.items()
    }
    memory = {
        key: memory_recipe(c.kind, memory_params[key], where=f"memory.{key}")
        for key, c in spec.memory.items()
    }
    specialists: dict[str, tuple[Recipe[BaseSpecialist], str | None]] = {}
    for key, c in spec.specialists.items():
        recipe = prepare(SPECIALISTS, c.kind, c.params(), where=f"specialists.{key}")
        specialists[key] = (recipe, c.provider or default_provider)
        named = getattr(recipe.params, "memory", None)
        if isinstance(named, str) and named not in spec.memory:
            raise ConfigError(
                f"specialists.{key}.memory: the agent declares no memory '{named}' (declared: "
                f"{', '.join(sorted(spec.memory)) or 'none'}); declare it or fix the name"
            )
    for node, r in spec.routing.items():
        if r.chooser == "agent" and default_provider is None:
            raise ConfigError(
                f"routing.{node}.chooser is 'agent' but the agent has no provider; set "
                "'provider' on the agent (or in the run config) or name a provider"
            )
    routing = {
        node: NodeRouting(
            default=r.default,
            chooser=default_provider if r.chooser == "agent" else r.chooser,
            describe=r.describe,
            end_when=r.end_when,
        )
        for node, r in spec.routing.items()
    }
    graph = TransitionGraph.build(
        specialists,
        [Edge(e.source, e.target, e.when) for e in spec.edges],
        entry=spec.entry,
        responder=spec.responder,
        step_budget=spec.step_budget,
        routing=routing,
    )
    return AgentPlan(spec, provider, memory_params, memory, specialists, graph)


def build_agent(
    spec: AgentSpec | AgentPlan,
    models: Callable[[str], ChatModel],
    *,
    name: str | None = None,
    provider: str | None = None,
    seed: int | None = None,
) -> Agent:
    """An agent built from a spec, or from a plan ``check_agent_spec`` made of one (checked once,
    built as often as needed).

    Args:
        spec: The agent spec or its checked plan.
        models: The model of a provider, by provider name (``Providers.get``, say).
        name: The agent's name (default: the spec's).
        provider: The default provider, replacing the spec's.
        seed: The seed of the agent's model calls.

    Returns:
        The agent.

    Raises:
        ConfigError: When a memory module or specialist of the spec cannot be built with its
            parameters.
    """
    plan = spec if isinstance(spec, AgentPlan) else None
    if plan is None or (provider is not None and provider != plan.provider):
        plan = check_agent_spec(
            spec.spec if isinstance(spec, AgentPlan) else spec, provider=provider
        )
    return Agent(
        name=name or plan.spec.name,
        graph=plan.graph,
        specialists={
            key: recipe.build(key, node_provider)
            for key, (recipe, node_provider) in plan.specialists.items()
        },
        models=models,
        memory={key: recipe.build() for key, recipe in plan.memory.items()},
        seed=seed,
        memory_params=plan.memory_params,
    )
