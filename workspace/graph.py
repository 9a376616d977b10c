"""The transition graph: which specialist may follow which, checked when it is built."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import networkx as nx

from cogarch.errors import ConfigError

from .conditions import PREDICATES


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    when: str | None = None
    """A condition name (see ``workspace.conditions``); the edge is taken when it holds."""


@dataclass(frozen=True)
class NodeRouting:
    default: str | None = None
    """The successor taken when no condition holds or a model's choice is illegal."""
    chooser: str | None = None
    """A provider asked to choose among the successors when no condition decides."""
    describe: str = ""
    end_when: str | None = None
    """A condition name: after the node runs, the turn ends there when it holds, successors or
    not (a node that acts may end a turn, or loop back when its action was held back)."""


@dataclass
class TransitionGraph:
    graph: nx.DiGraph
    entry: str
    responder: str
    step_budget: int | None
    routing: dict[str, NodeRouting] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        nodes: Iterable[str],
        edges: Iterable[Edge],
        *,
        entry: str,
        responder: str = "responder",
        step_budget: int | None = None,
        routing: Mapping[str, NodeRouting] | None = None,
    ) -> TransitionGraph:
        graph = nx.DiGraph()
        graph.add_nodes_from(nodes)
        known = set(graph.nodes)
        problems: list[str] = []
        edge_list = list(edges)
        for edge in edge_list:
            for end in (edge.source, edge.target):
                if end not in known:
                    problems.append(
                        f"edge {edge.source} -> {edge.target} names unknown node '{end}'"
                    )
            graph.add_edge(edge.source, edge.target, when=edge.when)
        routes = dict(routing or {})
        for name in routes:
            if name not in known:
                problems.append(f"routing names unknown node '{name}'")
        if entry not in known:
            problems.append(f"entry node '{entry}' is not a specialist")
        if responder not in known:
            problems.append(f"responder node '{responder}' is not a specialist")
        if problems:
            raise _invalid(problems, known)
        reachable = nx.descendants(graph, entry) | {entry}
        unreachable = sorted(known - reachable)
        if unreachable:
            problems.append(f"nodes not reachable from entry '{entry}': {', '.join(unreachable)}")
        if responder not in reachable:
            problems.append(f"no path from entry '{entry}' to responder '{responder}'")
        terminals = {
            n
            for n in graph.nodes
            if graph.out_degree(n) == 0 or routes.get(n, NodeRouting()).end_when is not None
        }
        if not terminals:
            problems.append(
                "no node ends a turn (every node has a successor and none an 'end_when')"
            )
        stuck = sorted(
            n for n in known if terminals and not (nx.descendants(graph, n) | {n}) & terminals
        )
        if stuck:
            problems.append(
                f"nodes from which no turn-ending node is reachable: {', '.join(stuck)}"
            )
        cycle = next(iter(nx.simple_cycles(graph)), None)
        if cycle and step_budget is None:
            loop = " -> ".join([*cycle, cycle[0]])
            problems.append(f"cycle {loop} needs a step_budget")
        for edge in edge_list:
            if edge.when is not None and edge.when not in PREDICATES and ":" not in edge.when:
                problems.append(
                    f"edge {edge.source} -> {edge.target} has unknown condition '{edge.when}' "
                    f"(valid: {', '.join(PREDICATES.names())}, or an import path 'module:name')"
                )
        for name, routed in routes.items():
            ending = routed.end_when
            if ending is not None and ending not in PREDICATES and ":" not in ending:
                problems.append(
                    f"routing of node '{name}' has unknown end_when condition '{ending}' "
                    f"(valid: {', '.join(PREDICATES.names())}, or an import path 'module:name')"
                )
        for node in graph.nodes:
            succ = sorted(graph.successors(node))
            route = routes.get(node, NodeRouting())
            if route.default is not None and route.default not in succ:
                problems.append(
                    f"default '{route.default}' of node '{node}' is not one of its successors "
                    f"({', '.join(succ) or 'none'})"
                )
            if len(succ) > 1 and route.default is None:
                problems.append(
                    f"node '{node}' has several successors ({', '.join(succ)}) but no 'default' "
                    "to fall back on"
                )
        if problems:
            raise _invalid(problems, known)
        return cls(graph, entry, responder, step_budget, routes)

    def successors(self, node: str) -> list[str]:
        return list(self.graph.successors(node))

    def edge_condition(self, source: str, target: str) -> str | None:
        when: str | None = self.graph.edges[source, target].get("when")
        return when


def _invalid(problems: list[str], known: set[str]) -> ConfigError:
    lines = "\n".join(f"  - {p}" for p in problems)
    nodes = ", ".join(sorted(known))
    return ConfigError(f"invalid transition graph:\n{lines}\n  (nodes: {nodes})")
