"""An agent: a transition graph of specialists over one workspace and its memory modules."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogarch import tracing
from cogarch.core import specialist as core
from cogarch.core.memory import EpisodeEnd, MemoryModule
from cogarch.core.model import ChatModel
from cogarch.errors import CogarchError
from cogarch.models.metering import Meter
from cogarch.tokens import count_tokens

from .describe import describe, diff, draw, format_description
from .graph import TransitionGraph
from .router import Router
from .specialist import StepContext
from .trace import StepRecord, Trace, Transition
from .tracing import record_turn, step_span, turn_span
from .workspace import Workspace


class TurnError(CogarchError):
    """A turn could not produce a public reply."""


@dataclass
class Agent:
    """Send user text to ``respond``; only the responder's final text comes back.

    Specialists hold configuration only; everything that changes during a dialogue lives in
    ``workspace``, ``memory`` and ``trace``, so ``fork`` can copy it all.
    """

    name: str
    graph: TransitionGraph
    specialists: Mapping[str, core.Specialist[Workspace, StepContext]]
    """By node name: any object with the members of ``cogarch.core.specialist.Specialist``."""
    models: Callable[[str], ChatModel]
    memory: dict[str, MemoryModule] = field(default_factory=dict)
    workspace: Workspace = field(default_factory=Workspace)
    trace: Trace = field(default_factory=Trace)
    seed: int | None = None
    state_sizes: list[int] = field(default_factory=list)
    """Private-state size in tokens after each turn."""
    memory_footprints: list[int | None] = field(default_factory=list)
    """Per turn, the memory the answering specialist's prompt carried, in tokens (see
    ``Workspace.memory_tokens``); None for a turn whose answering specialist does not say."""
    router: Router = field(default_factory=Router)
    memory_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The parameters each memory module was built with, by name (for ``describe``)."""

    def context(self) -> StepContext:
        return StepContext(self.name, self.models, self.memory, self.trace, self.seed)

    async def respond(self, text: str) -> str:
        with turn_span(self, text) as span:
            reply = await self._respond(text)
            record_turn(span, self, reply)
        return reply

    async def _respond(self, text: str) -> str:
        ws = self.workspace
        ws.begin_turn(text)
        ctx = self.context()
        node = self.graph.entry
        self.trace.add(Transition(ws.turn, 0, "<input>", node, "entry"))
        budget = self.graph.step_budget
        steps = 0
        while True:
            steps += 1
            await self._run(node, ws, ctx, steps)
            if budget is not None and steps >= budget:
                if ws.reply is None:
                    # the responder ends the turn, and may not hold its reply back now
                    ws.must_reply = True
                    self.trace.add(Transition(ws.turn, steps, node, self.graph.responder, "budget"))
                    steps += 1
                    node = self.graph.responder
                    await self._run(node, ws, ctx, steps)
                    await self._finish_without_choices(node, ws, ctx, steps)
                break
            choice = await self.router.choose(self.graph, node, ws, ctx)
            if choice.target is None:
                break
            self.trace.add(
                Transition(
                    ws.turn, steps, node, choice.target, choice.how, proposal=choice.proposal
                )
            )
            node = choice.target
        if ws.reply is None:
            raise TurnError(
                f"agent '{self.name}' ended turn {ws.turn} at '{node}' without a reply; make sure "
                f"every path through the graph passes the responder '{self.graph.responder}'"
            )
        ws.end_turn()
        self.state_sizes.append(self.private_state_tokens())
        self.memory_footprints.append(ws.memory_tokens)
        return ws.reply

    async def end_episode(self, end: EpisodeEnd) -> None:
        """Close an episode of a multi-episode trial: every memory module takes in how it went,
        then the public dialogue starts afresh for the next one (memory modules keep what they
        learned; the workspace keeps its record of completed turns)."""
        ctx = self.context()
        for name, module in self.memory.items():
            with tracing.memory_operation("update_memory", name, module.kind, 1):
                await module.end_episode(end, ctx.memory_context(f"memory:{module.kind}"))
        self.workspace.dialogue = []
        self.workspace.episode = end.episode + 1

    async def _finish_without_choices(
        self, node: str, ws: Workspace, ctx: StepContext, steps: int
    ) -> None:
        """After a budget cut, finish the turn past the responder (the memory updater...)
        along single, conditional or default edges only, visiting each node at most once."""
        seen = {node}
        while True:
            choice = await self.router.choose(self.graph, node, ws, ctx, ask_model=False)
            if choice.target is None or choice.target in seen:
                return
            self.trace.add(Transition(ws.turn, steps, node, choice.target, choice.how))
            node = choice.target
            seen.add(node)
            steps += 1
            await self._run(node, ws, ctx, steps)

    async def _run(self, node: str, ws: Workspace, ctx: StepContext, step: int) -> None:
        meter = Meter()
        start = time.perf_counter()
        ws.visit(node)
        with step_span(self, node, step), meter.active():
            await self.specialists[node].step(ws, ctx)
        summary = meter.summary()
        self.trace.steps.append(
            StepRecord(
                ws.turn,
                step,
                node,
                elapsed_s=round(time.perf_counter() - start, 6),
                model_calls=summary["model_calls"],
                tokens=summary["prompt_tokens"] + summary["completion_tokens"],
            )
        )

    def private_state(self) -> str:
        """Everything the agent keeps hidden, as text: memory modules and private reasoning."""
        parts = [m.private_text() for m in self.memory.values()]
        reasoning = self.workspace.reasoning
        if reasoning:
            parts.append("\n".join(str(reasoning[t]) for t in sorted(reasoning)))
        return "\n\n".join(p for p in parts if p)

    def private_state_tokens(self) -> int:
        return count_tokens(self.private_state())

    def fork(self) -> Agent:
        """An independent branch: nothing mutable is shared with the original."""
        return Agent(
            name=self.name,
            graph=self.graph,
            specialists=self.specialists,
            models=self.models,
            memory={k: m.fork() for k, m in self.memory.items()},
            workspace=self.workspace.copy(),
            trace=self.trace.copy(),
            seed=self.seed,
            state_sizes=list(self.state_sizes),
            memory_footprints=list(self.memory_footprints),
            router=self.router,
            memory_params=self.memory_params,
        )

    def describe(self) -> dict[str, Any]:
        """Everything the agent is made of, as plain data (see ``workspace.describe``)."""
        return describe(self)

    def describe_text(self) -> str:
        return format_description(describe(self))

    def draw(self, path: str | os.PathLike[str]) -> Path:
        """Draw the transition graph, conditions on the edges, into a PNG file."""
        return draw(self, path)

    def diff(self, other: Agent) -> list[str]:
        """What differs between this agent and ``other``: nodes, edges, conditions, params."""
        return diff(describe(self), describe(other))
