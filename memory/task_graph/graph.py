"""The task graph of the Task Memory Engine: a DAG of slots with values, history and dependants.

An edge ``u -> v`` means ``v`` builds on ``u``: ``u`` is ``v``'s parent task or one of its
dependencies. Changing ``u`` (update, rollback, inactivate) marks every node reachable from it
as needing review, and records that in ``events``. ``check`` answers from the graph and never
changes it. Retrieval picks the nodes a query is about and adds everything they build on, so a
prompt shows a small, self-contained subgraph instead of the transcript.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import networkx as nx

from cogarch.core.cow import CowList

from .nodes import (
    CheckResult,
    ClaimStatus,
    GraphEvent,
    HistoryEntry,
    Op,
    TaskGraphError,
    TaskNode,
)

_WORD = re.compile(r"[a-z0-9]+")
_SUMMARY = re.compile(
    r"\b(summar\w*|everything|all (of )?(my|the)|overview|recap|full|complete|final|read back|"
    r"repeat my|what'?s (currently )?in)\b",
    re.IGNORECASE,
)
_STOP_WORDS = "the a an and or of to in on at for my me is it was what can you i do did"
_STOP = frozenset(_STOP_WORDS.split())


def _key_words(text: str) -> set[str]:
    """Content words without a plural ending, for matching a query against nodes."""
    return {w.rstrip("s") for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def slot_key(slot: str) -> str:
    """Canonical slot name: lower case, words joined by ``_`` (dots kept for hierarchy)."""
    key = re.sub(r"[^a-z0-9_.]+", "_", slot.strip().lower()).strip("_.")
    if not key:
        raise TaskGraphError(f"slot name {slot!r} is empty; give a name such as 'destination'")
    return key


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


class TaskGraph:
    """Nodes keyed by slot in a networkx ``DiGraph``; every change is recorded in ``events``.

    ``fork`` is O(1): the twins share the graph until either changes it, which first copies
    its structure for itself; a node is copied only when this twin changes it.
    """

    def __init__(self) -> None:
        self._g: nx.DiGraph = nx.DiGraph()
        self._shared = False
        self._mine: set[str] | None = None
        """Slots whose node this twin alone holds (None: all, it was never forked)."""
        self.events: CowList[GraphEvent] = CowList()

    def fork(self) -> TaskGraph:
        """An independent twin, in O(1) (copy-on-write)."""
        twin = TaskGraph.__new__(TaskGraph)
        twin._g, twin.events, twin._shared, twin._mine = self._g, self.events.fork(), True, set()
        self._shared, self._mine = True, set()
        return twin

    def _own(self) -> None:
        """Copy the graph's structure before the first change after a fork (its nodes stay
        shared until ``_mutable`` copies one)."""
        if self._shared:
            self._g, self._shared = self._g.copy(), False

    def _mutable(self, slot: str | None) -> TaskNode:
        """The node of ``slot``, this twin's own copy (made on its first change after a fork)."""
        node = self._node(slot)
        if self._mine is not None and node.slot not in self._mine:
            node = node.model_copy(deep=True)
            self._g.nodes[node.slot]["node"] = node
            self._mine.add(node.slot)
        return node

    # -- reading ------------------------------------------------------------------------
    def __contains__(self, slot: object) -> bool:
        if not isinstance(slot, str):
            return False
        try:
            return slot_key(slot) in self._g
        except TaskGraphError:
            return False

    def __len__(self) -> int:
        return self._g.number_of_nodes()

    def node(self, slot: str) -> TaskNode:
        """A copy of the node (edits to it never reach the graph)."""
        return self._node(slot).model_copy(deep=True)

    def nodes(self, *, active_only: bool = False) -> list[TaskNode]:
        """Nodes in dependency order (parents and dependencies first, then insertion order)."""
        order = {key: i for i, key in enumerate(self._g.nodes)}
        keys = nx.lexicographical_topological_sort(self._g, key=lambda k: f"{order[k]:08d}")
        found = [self._g.nodes[k]["node"] for k in keys]
        return [n.model_copy(deep=True) for n in found if n.active or not active_only]

    def current_values(self) -> dict[str, str]:
        return {n.slot: n.value for n in self.nodes(active_only=True)}

    def dependants(self, slot: str) -> list[str]:
        """Every slot that builds on ``slot``, directly or transitively."""
        below = nx.descendants(self._g, self._node(slot).slot)
        return [n.slot for n in self.nodes() if n.slot in below]

    def check(self, slot: str, claimed: str | None = None) -> CheckResult:
        """Answer from the graph without changing anything."""
        try:
            node = self._node(slot)
        except TaskGraphError:
            return CheckResult(slot=slot, found=False, claimed=claimed)
        earlier = [h.value for h in node.history if not _same(h.value, node.value)]
        status: ClaimStatus = "none"
        if claimed is not None:
            if _same(claimed, node.value) and node.active:
                status = "current"
            elif any(_same(claimed, h.value) for h in node.history) or _same(claimed, node.value):
                status = "earlier"
            else:
                status = "never"
        return CheckResult(
            slot=node.slot,
            found=True,
            value=node.value,
            active=node.active,
            stale=node.stale,
            earlier_values=list(dict.fromkeys(earlier)),
            claimed=claimed,
            claim_status=status,
        )

    # -- changing -----------------------------------------------------------------------
    def add(
        self,
        slot: str,
        value: str,
        *,
        turn: int,
        parent: str | None = None,
        depends_on: Iterable[str] = (),
    ) -> TaskNode:
        self._own()
        key = slot_key(slot)
        if key in self._g:
            raise TaskGraphError(f"slot '{key}' already exists; use update to change its value")
        parent_key = self._node(parent).slot if parent else None
        deps = list(dict.fromkeys(self._node(d).slot for d in depends_on))
        node = TaskNode(slot=key, value=value, parent=parent_key, dependencies=deps, turn=turn)
        self._g.add_node(key, node=node)
        if self._mine is not None:
            self._mine.add(key)
        for source in ([parent_key] if parent_key else []) + deps:
            self._g.add_edge(source, key, kind="parent" if source == parent_key else "depends")
        self._log(turn, "add", key, value)
        return node.model_copy(deep=True)

    def link(self, slot: str, depends_on: str, *, turn: int) -> None:
        """Make ``slot`` depend on ``depends_on`` (refused when it would close a cycle)."""
        self._own()
        node, prereq = self._mutable(slot), self._node(depends_on)
        if node.slot == prereq.slot or nx.has_path(self._g, node.slot, prereq.slot):
            raise TaskGraphError(
                f"'{node.slot}' cannot depend on '{prereq.slot}': that would form a cycle"
            )
        if prereq.slot not in node.dependencies and prereq.slot != node.parent:
            node.dependencies.append(prereq.slot)
            self._g.add_edge(prereq.slot, node.slot, kind="depends")
            self._log(turn, "link", node.slot, f"depends on {prereq.slot}")

    def update(self, slot: str, value: str, *, turn: int, reason: str = "") -> list[str]:
        """Set a new value, keep the old one in history; return the dependants marked stale."""
        self._own()
        node = self._mutable(slot)
        old = node.value
        node.history.append(HistoryEntry(value=old, set_turn=node.turn, replaced_turn=turn))
        node.value, node.turn = value, turn
        node.stale, node.stale_reason = False, None
        self._log(
            turn, "update", node.slot, f"{old} -> {value}" + (f" ({reason})" if reason else "")
        )
        return self._propagate(node.slot, f"{node.slot} changed to '{value}'", turn)

    def rollback(self, slot: str, *, turn: int) -> list[str]:
        """Restore the previous value. The undone value enters history, so rolling back twice
        returns to where it started."""
        self._own()
        node = self._mutable(slot)
        if not node.history:
            raise TaskGraphError(f"slot '{node.slot}' has no earlier value to roll back to")
        previous = node.history[-1]
        old = node.value
        node.history.append(
            HistoryEntry(value=old, set_turn=node.turn, replaced_turn=turn, how="rollback")
        )
        node.value, node.turn = previous.value, turn
        node.stale, node.stale_reason = False, None
        self._log(turn, "rollback", node.slot, f"{old} -> {previous.value}")
        return self._propagate(node.slot, f"{node.slot} rolled back to '{previous.value}'", turn)

    def inactivate(self, slot: str, *, turn: int, reason: str = "") -> list[str]:
        """Mark a node obsolete (kept for history and checks); its dependants need review."""
        self._own()
        node = self._mutable(slot)
        if not node.active:
            return []
        node.active = False
        self._log(turn, "inactivate", node.slot, reason)
        return self._propagate(node.slot, f"{node.slot} was removed", turn)

    def activate(self, slot: str, *, turn: int) -> list[str]:
        self._own()
        node = self._mutable(slot)
        if node.active:
            return []
        node.active, node.stale, node.stale_reason = True, False, None
        self._log(turn, "activate", node.slot)
        return self._propagate(node.slot, f"{node.slot} was restored", turn)

    # -- retrieval ----------------------------------------------------------------------
    def relevant(self, query: str) -> list[str]:
        """Active slots whose name or value shares a content word with ``query``."""
        words = _key_words(query)
        hits = []
        for node in self.nodes(active_only=True):
            text = f"{node.slot.replace('_', ' ').replace('.', ' ')} {node.value}"
            if words & _key_words(text):
                hits.append(node.slot)
        return hits

    def subgraph(self, slots: Iterable[str] = (), *, query: str | None = None) -> list[TaskNode]:
        """The named (or query-relevant) nodes plus everything they build on, in order.

        A query that asks for a summary ("everything", "final", "recap"...) or matches nothing
        yields the whole active graph.
        """
        wanted = {self._node(s).slot for s in slots if s in self}
        if query is not None:
            if _SUMMARY.search(query):
                return self.nodes(active_only=True)
            wanted |= set(self.relevant(query))
        if not wanted:
            return self.nodes(active_only=True)
        closure = set(wanted)
        for key in wanted:
            closure |= nx.ancestors(self._g, key)
        return [n for n in self.nodes() if n.slot in closure and (n.active or n.slot in wanted)]

    def render(
        self, nodes: Iterable[TaskNode] | None = None, *, history: bool | Iterable[str] = False
    ) -> str:
        """One line per node, indented under its parent; earlier values for every node
        (``history=True``) or for the named slots only."""
        chosen = list(self.nodes(active_only=True) if nodes is None else nodes)
        with_history = (
            {n.slot for n in chosen}
            if history is True
            else set()
            if history is False
            else {slot_key(s) for s in history}
        )
        if not chosen:
            return "(no tasks recorded yet)"
        shown = {n.slot for n in chosen}
        lines = []
        for node in chosen:
            depth, parent = 0, node.parent
            while parent is not None and parent in shown:
                depth += 1
                parent = self._g.nodes[parent]["node"].parent
            line = f"{'  ' * depth}- {node.slot}: {node.value}"
            if not node.active:
                line += " [removed]"
            if node.dependencies:
                line += f" (depends on {', '.join(node.dependencies)})"
            if node.slot in with_history and node.history:
                earlier = list(
                    dict.fromkeys(h.value for h in node.history if h.value != node.value)
                )
                line += f" (earlier: {', '.join(earlier)})"
            if node.stale:
                line += f" [needs review: {node.stale_reason}]"
            lines.append(line)
        return "\n".join(lines)

    # -- state ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": [self._g.nodes[k]["node"].model_dump(mode="json") for k in self._g.nodes],
            "events": [e.model_dump(mode="json") for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskGraph:
        """The graph ``to_dict`` described; ``ValueError`` or ``TypeError`` for one that is
        malformed (a node naming a parent or dependency the graph lacks, say)."""
        graph = cls()
        nodes, events = data.get("nodes", []), data.get("events", [])
        if not isinstance(nodes, list) or not isinstance(events, list):
            raise TypeError("a task graph's nodes and events are lists")
        for item in nodes:
            node = TaskNode.model_validate(item)
            graph._g.add_node(node.slot, node=node)
        for key in list(graph._g.nodes):
            node = graph._g.nodes[key]["node"]
            for other in [node.parent, *node.dependencies] if node.parent else node.dependencies:
                if other not in graph._g or "node" not in graph._g.nodes[other]:
                    raise ValueError(f"slot '{key}' names the slot '{other}', which it lacks")
            if node.parent:
                graph._g.add_edge(node.parent, key, kind="parent")
            for dep in node.dependencies:
                graph._g.add_edge(dep, key, kind="depends")
        graph.events = CowList(GraphEvent.model_validate(e) for e in events)
        return graph

    # -- internals ----------------------------------------------------------------------
    def _node(self, slot: str | None) -> TaskNode:
        key = slot_key(slot or "")
        if key not in self._g:
            known = ", ".join(self._g.nodes) or "(none yet)"
            raise TaskGraphError(f"no slot '{key}' in the task graph; known slots: {known}")
        node: TaskNode = self._g.nodes[key]["node"]
        return node

    def _propagate(self, key: str, why: str, turn: int) -> list[str]:
        marked = self.dependants(key)
        for slot in marked:
            live = self._mutable(slot)
            live.stale, live.stale_reason = True, f"{why} at turn {turn}"
            self._log(turn, "propagate", slot, why)
        return marked

    def _log(self, turn: int, op: Op, slot: str, detail: str = "") -> None:
        self.events.append(GraphEvent(turn=turn, op=op, slot=slot, detail=detail))
