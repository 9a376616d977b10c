"""TME's memory module (kind ``task_graph``): classify each input, apply it, show a subgraph.

Per user input (the TRIM step of the Task Memory Engine): a model decomposes the input into
intents with structured output, each ``new`` (a subtask or slot appears), ``update`` (a value is
set, rolled back, removed or restored; ``replaces`` names the value it supersedes) or ``check``
(the user asks about the state, possibly claiming a value: answered from the graph, never
applied). The intents are applied to the ``TaskGraph``; what a prompt then shows (``render``)
is the subgraph the input is about, not the transcript: the touched or queried nodes with
everything they build on, this turn's changes and the answers to its checks.

Two ablations of the TME paper are parameters: ``intents: random`` keeps the model's
decomposition but replaces each intent by one drawn at random (new / update / check) with a
generator seeded by the trial's seed and the turn (TME-RandomTRIM); ``structure: flat`` keeps
TRIM but no graph: every classified intent is appended to a flat log and the prompt is shown
the whole log in order (TME-Flat, linear context concatenation). A flat module exposes no task
state (``task_values`` is None).
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar, Literal, Self

from pydantic import ConfigDict, Field

from cogarch.core.cow import CowList, fork_fields
from cogarch.core.memory import MemoryContext, MemoryItem, MemoryModule, TurnRecord
from cogarch.core.state import state_items, state_part, state_value
from cogarch.errors import ModelCallError
from cogarch.tokens import count_tokens

from ..budget import truncate_to_budget
from ..model_call import ask_model
from ..provider_param import ModelCallParams
from .graph import TaskGraph, slot_key
from .intents import INTENTS, TRIM_PROMPT, Applied, Intent, Trim, TurnReport
from .nodes import TaskGraphError

_ALL = {"all", "*", "everything", "summary"}


class TaskMemory(MemoryModule):
    """Task-graph memory: TRIM classification, DAG updates, subgraph rendering."""

    kind: ClassVar[str] = "task_graph"

    class Params(ModelCallParams):
        model_config = ConfigDict(extra="forbid")

        attempts: int = Field(default=3, ge=1, le=6)
        on_invalid: Literal["skip", "raise"] = Field(
            default="skip", description="When no valid classification comes back: skip or raise."
        )
        root: str | None = Field(
            default=None, description="A root task slot every new top-level slot hangs under."
        )
        intents: Literal["model", "random"] = Field(
            default="model",
            description="'random' draws each intent at random with the trial's seed "
            "(the TME-RandomTRIM ablation).",
        )
        structure: Literal["graph", "flat"] = Field(
            default="graph",
            description="'flat' keeps a linear log of intents instead of the graph (TME-Flat).",
        )

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.Params()
        self.graph = TaskGraph()
        self.reports: CowList[TurnReport] = CowList()
        """One report per observed turn, oldest first (never changed once recorded)."""

    # -- classification and application -------------------------------------------------
    async def classify(self, text: str, ctx: MemoryContext, *, provider: str | None = None) -> Trim:
        chosen = self.params.provider_or(
            provider,
            missing="memory module 'task_graph' needs a model: set 'provider' on the task_graph "
            "memory module or on the task_tracker specialist that drives it",
        )
        listing = (
            self.graph.render(self.graph.nodes(), history=False) if len(self.graph) else "(empty)"
        )
        request = f"Current task graph:\n{listing}\n\nMessage: {text}"
        result = await ask_model(
            ctx, chosen, TRIM_PROMPT, request, Trim, attempts=self.params.attempts
        )
        return result.value

    async def observe(
        self, text: str, turn: int, ctx: MemoryContext, *, provider: str | None = None
    ) -> TurnReport:
        """Classify ``text`` and apply it (once per turn); return what happened."""
        for report in reversed(self.reports):
            if report.turn == turn:
                return report.model_copy(deep=True)
        try:
            trim = await self.classify(text, ctx, provider=provider)
        except ModelCallError as exc:
            if self.params.on_invalid == "raise":
                raise
            report = TurnReport(turn=turn, text=text, error=str(exc))
        else:
            intents = trim.intents
            if self.params.intents == "random":
                rng = random.Random(f"{ctx.seed}:{turn}")
                intents = [i.model_copy(update={"intent": rng.choice(INTENTS)}) for i in intents]
            if self.params.structure == "flat":
                report = TurnReport(turn=turn, text=text, intents=intents)
            else:
                report = self.apply(intents, turn=turn, text=text)
        report.focus = [n.slot for n in self.graph.subgraph(report.focus, query=text)]
        report.context_tokens = count_tokens(self._context(report))
        self.reports.append(report)
        return report

    def apply(self, intents: list[Intent], *, turn: int, text: str = "") -> TurnReport:
        """Apply classified intents to the graph (checks are answered, never applied)."""
        report = TurnReport(turn=turn, text=text, intents=list(intents))
        for intent in intents:
            try:
                applied = self._apply_one(intent, turn, report)
            except TaskGraphError as exc:
                applied = Applied(intent=intent, op="skip", note=str(exc))
            report.applied.append(applied)
            for slot in [*applied.slots, *applied.stale]:
                if slot not in report.focus:
                    report.focus.append(slot)
        return report

    def _apply_one(self, intent: Intent, turn: int, report: TurnReport) -> Applied:
        g = self.graph
        slot = intent.slot.strip()
        if intent.intent == "check":
            return self._check(intent, report)
        if (
            intent.intent == "update"
            and intent.replaces
            and (slot.lower() in _ALL or slot not in g)
        ):
            return self._replace_everywhere(intent, turn)
        if intent.intent == "new" and slot not in g:
            if intent.value is None:
                return Applied(intent=intent, op="skip", note="a new slot needs a value")
            parent = self._parent(intent, turn)
            deps = [d for d in intent.depends_on if d in g]
            node = g.add(slot, intent.value, turn=turn, parent=parent, depends_on=deps)
            return Applied(intent=intent, op="add", slots=[node.slot])
        if slot not in g:  # an update of something never recorded: record it
            if intent.value is None or intent.action != "set":
                return Applied(
                    intent=intent, op="skip", note=f"no slot '{slot}' to {intent.action}"
                )
            node = g.add(slot, intent.value, turn=turn, parent=self._parent(intent, turn))
            return Applied(intent=intent, op="add", slots=[node.slot], note="update of a new slot")
        key = slot_key(slot)
        for dep in intent.depends_on:
            if dep in g:
                g.link(key, dep, turn=turn)
        if intent.action == "rollback":
            return Applied(
                intent=intent, op="rollback", slots=[key], stale=g.rollback(key, turn=turn)
            )
        if intent.action == "remove":
            stale = g.inactivate(key, turn=turn, reason=intent.value or "")
            return Applied(intent=intent, op="inactivate", slots=[key], stale=stale)
        stale = g.activate(key, turn=turn) if intent.action == "restore" else []
        value = intent.value
        if value is not None and value.strip() and value != g.node(key).value:
            stale += g.update(key, value, turn=turn)
            op: Literal["update", "activate"] = "update"
        elif intent.action == "restore":
            op = "activate"
        else:
            return Applied(intent=intent, op="skip", slots=[key], note="value unchanged")
        note = (
            "new intent for an existing slot, applied as update" if intent.intent == "new" else ""
        )
        return Applied(intent=intent, op=op, slots=[key], stale=sorted(set(stale)), note=note)

    def _check(self, intent: Intent, report: TurnReport) -> Applied:
        g = self.graph
        if intent.slot.strip().lower() in _ALL:
            slots = [n.slot for n in g.nodes(active_only=True)]
            return Applied(intent=intent, op="check", slots=slots, note="summary")
        if intent.slot in g:
            result = g.check(intent.slot, intent.value)
        else:  # look for the claimed value anywhere, current or past
            holders = self._holders(intent.value) if intent.value else []
            result = (
                g.check(holders[0], intent.value) if holders else g.check(intent.slot, intent.value)
            )
        report.checks.append(result)
        return Applied(intent=intent, op="check", slots=[result.slot] if result.found else [])

    def _replace_everywhere(self, intent: Intent, turn: int) -> Applied:
        """``replaces`` without a known slot: substitute the old value wherever it is current."""
        old, new = intent.replaces or "", intent.value or ""
        pattern = re.compile(rf"(?<!\w){re.escape(old.strip())}(?!\w)", re.IGNORECASE)
        slots, stale = [], []
        for node in self.graph.nodes(active_only=True):
            if pattern.search(node.value):
                same = node.value.strip().lower() == old.strip().lower()
                value = new if same else pattern.sub(new, node.value)
                stale += self.graph.update(node.slot, value, turn=turn, reason=f"{old} -> {new}")
                slots.append(node.slot)
        if not slots:
            return Applied(intent=intent, op="skip", note=f"'{old}' is not a current value")
        return Applied(
            intent=intent, op="update", slots=slots, stale=sorted(set(stale) - set(slots))
        )

    def _holders(self, value: str) -> list[str]:
        needle = value.strip().lower()
        return [
            n.slot
            for n in self.graph.nodes()
            if needle in n.value.lower() or any(needle in h.value.lower() for h in n.history)
        ]

    def _parent(self, intent: Intent, turn: int) -> str | None:
        parent = intent.parent or self.params.root
        if not parent or slot_key(parent) == slot_key(intent.slot):
            return None
        if parent not in self.graph:  # a task named as parent becomes a node of its own
            self.graph.add(parent, parent.replace("_", " "), turn=turn)
        return parent

    # -- rendering ----------------------------------------------------------------------
    def _context(self, report: TurnReport | None) -> str:
        if self.params.structure == "flat":
            return self._flat_log()
        g = self.graph
        if report is None:
            return g.render()
        checked = {c.slot for c in report.checks}
        nodes = g.subgraph(report.focus) if report.focus else g.nodes(active_only=True)
        parts = ["Task state (current values):", g.render(nodes, history=checked)]
        changes = [e for e in g.events if e.turn == report.turn and e.op != "propagate"]
        if changes:
            parts.append(
                "Changes this turn: "
                + "; ".join(f"{e.slot} {e.op} {e.detail}".strip() for e in changes)
            )
        if report.checks:
            parts.append("Checks: " + "; ".join(c.answer() for c in report.checks))
        return "\n".join(parts)

    def _flat_log(self) -> str:
        lines = ["Task log (every classified intent, oldest first):"]
        for r in self.reports:
            for i in r.intents:
                value = f" = {i.value}" if i.value else ""
                extra = f" (replaces {i.replaces})" if i.replaces else ""
                action = f" {i.action}" if i.intent == "update" and i.action != "set" else ""
                lines.append(f"turn {r.turn}: {i.intent}{action} {i.slot}{value}{extra}")
        return "\n".join(lines) if len(lines) > 1 else "(empty)"

    def render(self, budget_tokens: int | None = None) -> str:
        """The context for the latest input: its subgraph, changes and check answers."""
        return truncate_to_budget(
            self._context(self.reports[-1] if self.reports else None), budget_tokens
        )

    def private_text(self) -> str:
        """The whole graph with history, or the flat log (what the module privately holds)."""
        if self.params.structure == "flat":
            return self._flat_log() if self.reports else ""
        return self.graph.render(self.graph.nodes(), history=True) if len(self.graph) else ""

    def task_values(self) -> dict[str, str] | None:
        """The graph's current values; None for a flat module, which keeps no task state."""
        if self.params.structure == "flat":
            return None
        return self.graph.current_values()

    # -- the MemoryModule interface ---------------------------------------------------
    async def ingest(self, turn: TurnRecord, ctx: MemoryContext) -> None:
        """Classify and apply the user's side of a completed turn, unless already done."""
        await self.observe(turn.user, turn.index, ctx)

    async def retrieve(self, query: str, ctx: MemoryContext) -> list[MemoryItem]:
        return [
            MemoryItem(
                n.slot,
                f"{n.slot}: {n.value}",
                1.0,
                {"active": n.active, "stale": n.stale, "turn": n.turn},
            )
            for n in self.graph.subgraph(query=query)
        ]

    def save_state(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "graph": self.graph.to_dict(),
            "reports": [r.model_dump(mode="json") for r in self.reports],
        }

    kindless_states: ClassVar[bool] = True

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a saved state, checked whole before anything changes."""
        state = self.check_state_kind(state)
        owner = "task_graph"
        with state_part(owner, "graph"):
            graph = TaskGraph.from_dict(state_value(state, "graph", dict, owner))
        reports = state_items(state, "reports", TurnReport, owner, optional=True)
        self.graph, self.reports = graph, CowList(reports)

    def fork(self) -> Self:
        """An independent copy in O(1): the graph and the reports are copy-on-write."""
        return fork_fields(self, share=("params",))
