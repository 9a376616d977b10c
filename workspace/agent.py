"""An agent: a transition graph of specialists over one workspace and its memory modules."""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from cogarch import tracing
from cogarch.core import specialist as core
from cogarch.core.acting import ActionChoice, Percept, read_action
from cogarch.core.affordances import render
from cogarch.core.cow import CowList
from cogarch.core.host import EpisodeReport, Observation, ReplyReport, Retrieved
from cogarch.core.memory import EpisodeEnd, MemoryModule
from cogarch.core.model import ChatModel
from cogarch.core.records import WalkStep
from cogarch.errors import CogarchError
from cogarch.models.metering import Meter
from cogarch.tokens import count_tokens

from .agent_state import load_agent_state, save_agent_state
from .describe import describe, diff, draw, format_description
from .graph import TransitionGraph
from .route_log import RouteLog, StepRecord, Transition
from .router import Router
from .specialist import StepContext
from .tracing import record_turn, step_span, turn_span
from .workspace import IngestFailure, Workspace


class TurnError(CogarchError):
    """A turn could not produce a public reply."""


@dataclass
class Agent:
    """Send user text to ``respond``; only the responder's final text comes back.

    Specialists hold configuration only; everything that changes during a dialogue lives in
    ``workspace``, ``memory`` and ``route_log``, so ``fork`` can copy it all, in O(1) in the
    length of the dialogue and the size of memory (see ``cogarch.core.memory``). The agent
    offers a task every capability of ``cogarch.core.host.AgentHost``.
    """

    name: str
    """The agent's name (its spec's)."""
    graph: TransitionGraph
    """The transition graph: its nodes, edges, entry, responder, routing and step budget."""
    specialists: Mapping[str, core.Specialist[Workspace, StepContext]]
    """By node name: any object with the members of ``cogarch.core.specialist.Specialist``."""
    models: Callable[[str], ChatModel]
    """Gives the model of a provider name."""
    memory: dict[str, MemoryModule] = field(default_factory=dict)
    """The memory modules, by name."""
    workspace: Workspace = field(default_factory=Workspace)
    """Everything that changes during the dialogue besides memory and the route log."""
    route_log: RouteLog = field(default_factory=RouteLog)
    """Every transition the router took and every step it ran, oldest first."""
    seed: int | None = None
    """The seed of the agent's model calls (None: unseeded, never cached)."""
    state_sizes: CowList[int] = field(default_factory=CowList)
    """Private-state size in tokens after each turn."""
    memory_footprints: CowList[int | None] = field(default_factory=CowList)
    """Per turn, the memory the answering specialist's prompt carried, in tokens (see
    ``Workspace.memory_tokens``); None for a turn whose answering specialist does not say."""
    router: Router = field(default_factory=Router)
    """Picks the next node after each step, by the graph's edges and routing."""
    memory_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The parameters each memory module was built with, by name (for ``describe``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("state_sizes", "memory_footprints") and not isinstance(value, CowList):
            value = CowList(value)
        object.__setattr__(self, name, value)

    def context(self) -> StepContext:
        return StepContext(self.name, self.models, self.memory, self.route_log, self.seed)

    async def respond(self, text: str) -> str:
        """Take one user turn: walk the graph from the entry node, each specialist in turn.

        Args:
            text: What the user says.

        Returns:
            The public reply (the responder's final text, as later specialists left it).

        Raises:
            TurnError: When the walk ends without a reply.
            ModelCallError: When a specialist's model call fails for good.
        """
        with turn_span(self, text) as span:
            reply = await self._respond(text)
            record_turn(span, self, reply)
        return reply

    async def act(self, percept: Percept) -> ActionChoice:
        """Take a turn on ``percept``: the workspace keeps it (its text, ``render(percept)``,
        is the turn's input, as ``respond`` would take it), and the action is the one the node
        that acted chose (a motor), else the reply read by the action reader."""
        text = render(percept)
        with turn_span(self, text) as span:
            reply = await self._respond(text, percept)
            record_turn(span, self, reply)
        chosen = self.workspace.acting_part().choice
        if chosen is None:
            return read_action(reply, percept.actions)
        return replace(chosen, reply=reply)

    async def _respond(self, text: str, percept: Percept | None = None) -> str:
        ws = self.workspace
        ws.begin_turn(text, percept)
        ctx = self.context()
        node = self.graph.entry
        self.route_log.add(self._entry(ws, node))
        budget = self.graph.step_budget
        if percept is not None and percept.step_budget is not None:
            budget = min(budget or percept.step_budget, percept.step_budget)
        steps = 0
        while True:
            steps += 1
            await self._run(node, ws, ctx, steps)
            if budget is not None and steps >= budget:
                if ws.reply is None:
                    # the responder ends the turn, and may not hold its reply back now
                    ws.must_reply = True
                    if ws.acting is not None:
                        ws.acting.budget_ends.append((ws.episode, ws.turn))
                    self.route_log.add(
                        Transition(ws.turn, steps, node, self.graph.responder, "budget")
                    )
                    steps += 1
                    node = self.graph.responder
                    await self._run(node, ws, ctx, steps)
                    await self._finish_without_choices(node, ws, ctx, steps)
                break
            choice = await self.router.choose(self.graph, node, ws, ctx)
            if choice.target is None:
                break
            self.route_log.add(
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
        ws.resume_from = self.route_log.steps[-1].node
        self.state_sizes.append(self.private_state_tokens())
        self.memory_footprints.append(ws.memory_tokens)
        return ws.reply

    def _entry(self, ws: Workspace, node: str) -> Transition:
        """The transition into the turn's entry ``node``: along the graph's edge from the node
        that ended the previous turn of this episode when there is one (the input answers what
        that node did, as an environment's observation answers an action), else from the
        outside input."""
        last = ws.resume_from
        if last is not None and self.graph.graph.has_edge(last, node):
            return Transition(ws.turn, 0, last, node, "resume")
        return Transition(ws.turn, 0, "<input>", node, "entry")

    async def end_episode(self, end: EpisodeEnd) -> EpisodeReport:
        """Close an episode of a multi-episode trial: every memory module takes in how it went,
        then the public dialogue starts afresh for the next one (memory modules keep what they
        learned; the workspace keeps its record of completed turns). Returns what the memory
        modules did for the episode and the focus loop's activations in it."""
        ctx = self.context()
        activity: dict[str, dict[str, Any]] = {}
        for name, module in self.memory.items():
            with tracing.memory_operation("update_memory", name, module.kind, 1):
                await module.end_episode(end, ctx.memory_context(f"memory:{module.kind}"))
            found = module.episode_activity(end.episode)
            if found is not None:
                activity[name] = found
        ws = self.workspace
        acting = ws.acting_part()
        focus = [asdict(f) for f in acting.focus_log if f.episode == end.episode]
        cut = [turn for episode, turn in acting.budget_ends if episode == end.episode]
        held = sum(a.sent is None for a in acting.actions if a.episode == end.episode)
        ws.dialogue = CowList()
        ws.episode = end.episode + 1
        ws.resume_from = None
        acting.new_episode()
        return EpisodeReport(memory=activity, focus=focus, budget_turns=cut, held_back=held)

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
            self.route_log.add(Transition(ws.turn, steps, node, choice.target, choice.how))
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
        self.route_log.steps.append(
            StepRecord(
                ws.turn,
                step,
                node,
                elapsed_s=round(time.perf_counter() - start, 6),
                model_calls=summary["model_calls"],
                tokens=summary["prompt_tokens"] + summary["completion_tokens"],
                prompt_tokens=summary["prompt_tokens"],
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
        """The tokens of ``private_state()``, from each module's own count (the parts are joined
        by blank lines, which hold no token)."""
        reasoning = self.workspace.reasoning
        thoughts = sum(count_tokens(str(text)) for text in reasoning.values())
        return sum(m.size_tokens() for m in self.memory.values()) + thoughts

    def task_state(self) -> dict[str, str] | None:
        """The task values of the first memory module that keeps any (a task graph)."""
        for module in self.memory.values():
            values = module.task_values()
            if values is not None:
                return dict(values)
        return None

    def last_reply(self) -> ReplyReport:
        """What the latest reply carried: its memory footprint, the private state after it,
        the prompt tokens of the responder's calls and what memory retrieved for it."""
        turn = self.workspace.turn
        ran = [s for s in self.route_log.steps if s.turn == turn]
        answering = [
            s.prompt_tokens for s in ran if s.node == self.graph.responder and s.model_calls
        ]
        retrieved: list[Retrieved] | None = None
        for name, module in self.memory.items():
            items = module.retrieved()
            if items is not None:
                retrieved = (retrieved or []) + [Retrieved(name, item) for item in items]
        return ReplyReport(
            memory_tokens=self.memory_footprints[-1] if self.memory_footprints else None,
            state_tokens=self.state_sizes[-1] if self.state_sizes else None,
            answer_prompt_tokens=sum(answering) if answering else None,
            retrieved=tuple(retrieved) if retrieved is not None else None,
            steps=len(ran),
        )

    async def rank_memory(self) -> dict[str, list[list[str]] | None]:
        """By retrieving memory module, everything it holds ranked for the query of its last
        retrieval (see ``MemoryModule.rank_all``); what the reply was shown is unchanged."""
        ctx = self.context()
        return {
            name: await module.rank_all(ctx.memory_context(f"memory:{module.kind}"))
            for name, module in self.memory.items()
            if module.retrieved() is not None
        }

    async def observe(
        self, text: str, *, source_ids: Sequence[str] = (), time: str | None = None
    ) -> None:
        """Take in ``text`` as a completed turn without replying: it joins the public dialogue
        and every memory module ingests it, once (a module's own model calls fall back on the
        provider of the specialist that drives it, as when that specialist ingests)."""
        await self.observe_many([Observation(text, tuple(source_ids), time)])

    async def observe_many(self, turns: Sequence[Observation]) -> None:
        """Take ``turns`` in as ``observe`` would, each memory module all of them at once."""
        records = [self.workspace.observe(t.text, t.source_ids, t.time) for t in turns]
        self.workspace.resume_from = None
        if not records:
            return
        ctx = self.context()
        for name, module in self.memory.items():
            module.use_provider(self._driver_provider(name))
            mctx = ctx.memory_context(f"memory:{module.kind}")
            with tracing.memory_operation("create_memory", name, module.kind, len(records)):
                failed = await module.ingest_many(records, mctx)
            # a turn the module's own model gave nothing usable for is not stored, as in the
            # retrieval specialist
            self.workspace.ingest_failures.extend(
                IngestFailure(name, i, e) for i, e in failed.items()
            )
            self.workspace.ingested[name] = records[-1].index
            await asyncio.sleep(0)  # other trials of the run go on between modules

    def _driver_provider(self, module: str) -> str | None:
        for specialist in self.specialists.values():
            if getattr(getattr(specialist, "params", None), "memory", None) == module:
                return specialist.provider
        return None

    def trim_dialogue(self, budget_tokens: int) -> None:
        """Keep only the latest public messages that fit ``budget_tokens``."""
        self.workspace.trim_dialogue(budget_tokens)

    def walk(self) -> list[WalkStep]:
        return self.route_log.walk()

    def transition_counts(self) -> Counter[tuple[str, str]]:
        return self.route_log.counts()

    def save_state(self) -> dict[str, Any]:
        """The workspace, the route log and every memory module's state, as JSON data."""
        return save_agent_state(self)

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Go on from a state :meth:`save_state` returned, into an agent built from the same spec
        (its memory modules of the same names). All or nothing.

        Args:
            state: What :meth:`save_state` returned (JSON data).

        Raises:
            StateError: When the state is not an agent's, does not fit this agent or has a
                malformed part (the message names it); the agent is left as it was.
        """
        load_agent_state(self, state)

    def fork(self) -> Agent:
        """An independent branch: nothing mutable is shared with the original."""
        return Agent(
            name=self.name,
            graph=self.graph,
            specialists=self.specialists,
            models=self.models,
            memory={k: m.fork() for k, m in self.memory.items()},
            workspace=self.workspace.copy(),
            route_log=self.route_log.copy(),
            seed=self.seed,
            state_sizes=self.state_sizes.fork(),
            memory_footprints=self.memory_footprints.fork(),
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
