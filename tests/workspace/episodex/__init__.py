"""Helpers for the Episodex agent tests: the agent on a fake model, and a scripted motor.

``Scripted`` plays every specialist with the shipped brain (``episodex_brain``, no slips, no
detours unless asked) except the roles it is given scripts for: each scripted call takes the
next answer of its script, and ``None`` in a script defers to the brain. Every call is kept
with its role and caller, so a test can read what each specialist was shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_core.models import LLMMessage

from cogarch.models import CallInfo, FunctionModel, Model, Providers, as_pairs
from cogarch.workspace import Agent, build_agent, load_agent_spec
from cogarch.workspace.specialists.episodex.brain import episodex_brain


@dataclass
class Scripted:
    """The brain, with scripted answers for some roles (``router`` for the router)."""

    scripts: dict[str, list[str | None]] = field(default_factory=dict)
    slip: float = 0.0
    detours: float = 0.0
    blunder: float = 0.0
    calls: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.brain = episodex_brain(slip=self.slip, detours=self.detours, blunder=self.blunder)

    def __call__(self, messages: Sequence[LLMMessage], info: CallInfo) -> str:
        role = "router" if info.caller == "router" else info.role or info.caller
        pairs = as_pairs(messages)
        self.calls.append((role, pairs))
        script = self.scripts.get(role)
        if script:
            answer = script.pop(0)
            if answer is not None:
                return answer
        return self.brain(pairs, info.seed or 0, info)

    def shown(self, role: str) -> list[str]:
        """The last user message of every call made in ``role``."""
        return [pairs[-1][1] for r, pairs in self.calls if r == role]

    def systems(self, role: str) -> list[str]:
        return [pairs[0][1] for r, pairs in self.calls if r == role]


def episodex(fn: Any, *, seed: int = 7, **params: Any) -> Agent:
    """The ready-made ``episodex`` agent on one fake model, embeddings by hashing."""
    providers = Providers()
    providers.register("fake", Model(FunctionModel(fn), provider="fake", model="fake", fake=True))
    spec = load_agent_spec("episodex", {"embedder": "hash", **params})
    return build_agent(spec, providers.get, provider="fake", seed=seed)


def allowed_edges() -> set[tuple[str, str]]:
    """The transitions the episodex spec allows."""
    spec = load_agent_spec("episodex")
    return {(e.source, e.target) for e in spec.edges}
