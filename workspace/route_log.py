"""The route log: every transition an agent's router takes and every step it runs, with
timing, usage and fallbacks.

It is the agent's own record of its walk, kept in its state and forked with it; the trial
record keeps what it needs of it (``walk`` and the ``transitions`` counts). Not to be confused
with the OpenTelemetry traces of a run (``cogarch.tracing``), which are spans sent elsewhere.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from cogarch.core.cow import CowList
from cogarch.core.records import WalkStep

How = Literal["entry", "resume", "single", "condition", "model", "fallback", "budget", "end"]
"""How the router reached a node: ``entry`` from the outside input at the start of a turn;
``resume`` at the start of a turn along the graph's edge from the node that ended the previous
turn of the episode (an environment's observation answering the motor's action: Episodex's
motor -> external perception); then along the one successor, an edge condition, the model's
choice, a fallback from an illegal choice, or the step budget's cut to the responder."""


@dataclass(frozen=True, slots=True)
class StepRecord:
    """One specialist step: how long it took and what its model calls cost."""

    turn: int
    step: int
    node: str
    elapsed_s: float
    model_calls: int = 0
    tokens: int = 0
    prompt_tokens: int = 0


@dataclass(frozen=True, slots=True)
class Transition:
    turn: int
    step: int
    source: str
    target: str
    how: How
    proposal: str | None = None
    """What a model proposed when the choice fell back (illegal or unparsable)."""


@dataclass
class RouteLog:
    """Every transition and step of an agent, oldest first (copy-on-write: ``copy`` is O(1))."""

    transitions: CowList[Transition] = field(default_factory=CowList)
    steps: CowList[StepRecord] = field(default_factory=CowList)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("transitions", "steps") and not isinstance(value, CowList):
            value = CowList(value)
        object.__setattr__(self, name, value)

    def add(self, transition: Transition) -> None:
        self.transitions.append(transition)

    def copy(self) -> RouteLog:
        return RouteLog(self.transitions.fork(), self.steps.fork())

    def counts(self) -> Counter[tuple[str, str]]:
        return Counter((t.source, t.target) for t in self.transitions if t.how != "entry")

    def walk(self) -> list[WalkStep]:
        """Every step with the edge that led to it, in order (for the trial record)."""
        into = {(t.turn, t.step + 1): t for t in self.transitions}
        out = []
        for s in self.steps:
            edge = into.get((s.turn, s.step))
            out.append(
                WalkStep(
                    turn=s.turn,
                    step=s.step,
                    node=s.node,
                    source=edge.source if edge else "<input>",
                    how=edge.how if edge else "entry",
                    model_calls=s.model_calls,
                    tokens=s.tokens,
                    elapsed_s=s.elapsed_s,
                )
            )
        return out

    def fallbacks(self) -> list[Transition]:
        return [t for t in self.transitions if t.how == "fallback"]

    def save_state(self) -> dict[str, Any]:
        return {
            "transitions": [asdict(t) for t in self.transitions],
            "steps": [asdict(s) for s in self.steps],
        }

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> RouteLog:
        """The route log ``save_state`` wrote."""
        return cls(
            CowList(Transition(**t) for t in data["transitions"]),
            CowList(StepRecord(**s) for s in data["steps"]),
        )
