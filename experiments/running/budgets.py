"""One retrieval budget fixed for every memory, and the budget an agent spec runs with.

A suite or run that sets ``budget: {top_k: 10}`` (or ``{context_tokens: 4000}``) compares its
memories like for like by construction: the budget replaces the ``top_k`` of every memory
module of every agent that has one, and the token budget of every specialist that puts memory
into the reader's prompt (a retrieval specialist's ``budget_tokens``, a history reader's
``history_tokens``). An agent without a memory module is not a memory and keeps its spec; a
memory that cannot take the budget is refused before any trial, by name.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from cogarch.core.settings import RetrievalBudget
from cogarch.errors import ConfigError
from cogarch.memory.registry import MEMORY_MODULES
from cogarch.workspace.registry import SPECIALISTS
from cogarch.workspace.spec import AgentSpec, ComponentSpec

CONTEXT_FIELDS = ("budget_tokens", "history_tokens")
"""The specialist parameters that bound, in tokens, the memory shown to the reader."""


class Budget(BaseModel):
    """A retrieval budget: entries retrieved per query, tokens of memory in the prompt."""

    model_config = ConfigDict(extra="forbid")

    top_k: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="Entries every memory retrieves per query."
    )
    context_tokens: StrictInt | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Tokens of memory every reader is shown per question, at most.",
    )

    @model_validator(mode="after")
    def _something(self) -> Budget:
        if self.top_k is None and self.context_tokens is None:
            raise ValueError("a budget fixes top_k, context_tokens or both; give one")
        return self


def budget_text(budget: Budget) -> str:
    """``top_k=10, context_tokens=4000``: the budget's settings, as a config gives them."""
    return ", ".join(f"{k}={v}" for k, v in budget.model_dump(exclude_none=True).items())


def _fields(registry: Any, kind: str) -> set[str]:
    try:
        cls = registry.get(kind)
    except ConfigError:
        return set()
    params = getattr(cls, "Params", None)
    return set(getattr(params, "model_fields", {}))


def _validated(registry: Any, part: ComponentSpec) -> dict[str, Any]:
    """A component's parameters with its defaults filled in (as given when they do not
    validate: the spec's own check reports that)."""
    try:
        cls = registry.get(part.kind)
        params = getattr(cls, "Params", None)
        if params is None:
            return part.params()
        return dict(params.model_validate(part.params()).model_dump())
    except (ConfigError, ValueError):
        return part.params()


def _keeps_all(part: ComponentSpec) -> bool:
    """Whether a memory module shows everything it holds, whatever its ``top_k``."""
    return _validated(MEMORY_MODULES, part).get("select") == "all"


def _with(part: ComponentSpec, key: str, value: Any) -> ComponentSpec:
    return ComponentSpec.model_validate({**part.model_dump(exclude_none=True), key: value})


def apply_budget(spec: AgentSpec, budget: Budget | None, agent: str) -> AgentSpec:
    """``spec`` with ``budget`` fixed on its memory (see the module docstring); an agent
    without a memory module is returned as it is. Raises a ``ConfigError`` naming the agent
    and the part of its memory that cannot take the budget."""
    if budget is None or not spec.memory:
        return spec
    memory = dict(spec.memory)
    if budget.top_k is not None:
        for name, part in memory.items():
            if _keeps_all(part):
                raise ConfigError(
                    f"agent '{agent}': its memory module '{name}' ({part.kind}) shows the "
                    f"reader everything it holds (select: all), so the budget top_k: "
                    f"{budget.top_k} cannot apply; leave the agent out of the comparison (skip "
                    "its cells) or budget by context_tokens"
                )
            if "top_k" not in _fields(MEMORY_MODULES, part.kind):
                raise ConfigError(
                    f"agent '{agent}': its memory module '{name}' ({part.kind}) retrieves no "
                    f"top_k entries, so the budget top_k: {budget.top_k} cannot apply; leave "
                    "the agent out of the comparison (skip its cells) or budget by "
                    "context_tokens"
                )
            memory[name] = _with(part, "top_k", budget.top_k)
    specialists = dict(spec.specialists)
    if budget.context_tokens is not None:
        taken = False
        for name, part in specialists.items():
            own = _fields(SPECIALISTS, part.kind)
            field = next((f for f in CONTEXT_FIELDS if f in own), None)
            if field is not None and part.params().get("memory") in memory:
                specialists[name] = _with(part, field, budget.context_tokens)
                taken = True
        if not taken:
            raise ConfigError(
                f"agent '{agent}': no specialist of it bounds the memory it shows the reader "
                f"in tokens ({' or '.join(CONTEXT_FIELDS)}), so the budget context_tokens: "
                f"{budget.context_tokens} cannot apply; leave the agent out of the comparison "
                "(skip its cells) or budget by top_k"
            )
    return spec.model_copy(update={"memory": memory, "specialists": specialists})


def spec_budget(spec: AgentSpec) -> RetrievalBudget | None:
    """The budget ``spec`` runs with, its modules' defaults filled in; None for an agent
    without a memory module."""
    if not spec.memory:
        return None
    top_k = {}
    for name, part in spec.memory.items():
        if _keeps_all(part):
            continue
        value = _validated(MEMORY_MODULES, part).get("top_k")
        if isinstance(value, int):
            top_k[name] = value
    tokens: dict[str, int | str | None] = {}
    for name, part in spec.specialists.items():
        if part.params().get("memory") not in spec.memory:
            continue
        params = _validated(SPECIALISTS, part)
        field = next((f for f in CONTEXT_FIELDS if f in params), None)
        if field is not None:
            tokens[name] = params[field]
    return RetrievalBudget(top_k=top_k, context_tokens=tokens)
