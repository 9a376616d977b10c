"""What the task graph is made of: its nodes, their history, the events it logs and the
answers its checks give."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.errors import CogarchError

Op = Literal["add", "update", "rollback", "inactivate", "activate", "link", "propagate"]
ClaimStatus = Literal["current", "earlier", "never", "none"]


class TaskGraphError(CogarchError, ValueError):
    """An operation names a slot that does not exist, already exists, or would form a cycle."""


class HistoryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: str
    set_turn: int
    replaced_turn: int
    how: Literal["update", "rollback"] = "update"


class TaskNode(BaseModel):
    """One subtask or slot. ``history`` lists earlier values, oldest first."""

    model_config = ConfigDict(extra="forbid")

    slot: str
    value: str
    parent: str | None = None
    dependencies: list[str] = Field(default_factory=list)
    history: list[HistoryEntry] = Field(default_factory=list)
    turn: int = 0
    """The turn that set the current value."""
    active: bool = True
    stale: bool = False
    stale_reason: str | None = None


class GraphEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int
    op: Op
    slot: str
    detail: str = ""


class CheckResult(BaseModel):
    """What the graph says about a slot (and about a value the user claims it has or had)."""

    model_config = ConfigDict(extra="forbid")

    slot: str
    found: bool
    value: str | None = None
    active: bool = False
    stale: bool = False
    earlier_values: list[str] = Field(default_factory=list)
    claimed: str | None = None
    claim_status: ClaimStatus = "none"

    def answer(self) -> str:
        if not self.found:
            return f"{self.slot}: nothing recorded"
        state = self.value if self.active else f"removed (was {self.value})"
        text = f"{self.slot} is {state}"
        if self.earlier_values:
            text += f"; earlier values: {', '.join(self.earlier_values)}"
        if self.claimed is not None:
            text += {
                "current": f"; '{self.claimed}' is the current value",
                "earlier": f"; '{self.claimed}' was an earlier value, since replaced",
                "never": f"; '{self.claimed}' was never recorded for it",
                "none": "",
            }[self.claim_status]
        return text
