"""The router: walks the transition graph and never leaves it."""

from __future__ import annotations

from dataclasses import dataclass

from autogen_core.models import LLMMessage

from cogarch.models.messages import system, user
from cogarch.models.structured import extract_json

from .conditions import PREDICATES
from .graph import NodeRouting, TransitionGraph
from .route_log import How
from .specialist import StepContext
from .workspace import Workspace

ROUTER_PROMPT = """You are the conscious router of an agent made of specialists. \
Choose which specialist acts next for the current user input.
Specialists you may choose from:
{options}
Reply with ONLY a JSON object: {{"next": "<one of: {names}>"}}"""


@dataclass(frozen=True)
class Choice:
    target: str | None
    how: How
    proposal: str | None = None


class Router:
    """Legal moves are the current node's successors; nothing else can be chosen.

    A node whose ``end_when`` condition holds ends the turn. Otherwise one successor is taken
    directly. Among several, the first edge whose condition holds wins; otherwise the node's
    chooser model is asked with a schema that allows only the legal names; an illegal or
    unparsable answer falls back to the node's default and is recorded.
    """

    async def choose(
        self,
        graph: TransitionGraph,
        node: str,
        ws: Workspace,
        ctx: StepContext,
        *,
        ask_model: bool = True,
    ) -> Choice:
        route = graph.routing.get(node)
        if route is not None and route.end_when is not None and PREDICATES.get(route.end_when)(ws):
            return Choice(None, "end")
        succ = graph.successors(node)
        if not succ:
            return Choice(None, "end")
        if len(succ) == 1:
            return Choice(succ[0], "single")
        for target in succ:
            when = graph.edge_condition(node, target)
            if when is not None and PREDICATES.get(when)(ws):
                return Choice(target, "condition")
        assert route is not None and route.default is not None  # guaranteed by validation
        if route.chooser is None or not ask_model:
            return Choice(route.default, "fallback")
        proposal = await self._ask(route.chooser, graph, succ, ws, ctx)
        if proposal in succ:
            return Choice(proposal, "model")
        return Choice(route.default, "fallback", "<unparsable>" if proposal is None else proposal)

    async def _ask(
        self,
        provider: str,
        graph: TransitionGraph,
        succ: list[str],
        ws: Workspace,
        ctx: StepContext,
    ) -> str | None:
        options = "\n".join(
            f"- {name}: {graph.routing.get(name, NodeRouting()).describe or name}" for name in succ
        )
        schema = {
            "title": "NextSpecialist",
            "type": "object",
            "properties": {"next": {"type": "string", "enum": succ}},
            "required": ["next"],
        }
        notes = "\n".join(f"[{k}] {v}" for k, v in ws.broadcasts.items() if isinstance(v, str))
        messages: list[LLMMessage] = [
            system(ROUTER_PROMPT.format(options=options, names=", ".join(succ))),
            user(f"Current input:\n{ws.current_input}\n\nWorkspace notes:\n{notes or '(none)'}"),
        ]
        completion = await ctx.models(provider).complete(
            messages, caller="router", seed=ctx.seed, response_schema=schema, max_tokens=64
        )
        try:
            value = extract_json(completion.content)
        except ValueError:
            return completion.content.strip()[:80] or None
        if isinstance(value, dict) and isinstance(value.get("next"), str):
            return str(value["next"]).strip()
        return str(value)[:80]
