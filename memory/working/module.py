"""The private working memory module: a three-section text edited only through its tools.

The module owns its tools: which ones its strategy allows, how a model sees them (function
schemas, a prompt guide, a schema for constrained decoding) and running a call on the text.
A specialist that drives the memory asks the module, never the strategy tables.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from cogarch.core.cow import CowList
from cogarch.core.memory import MemoryModule
from cogarch.core.state import state_items, state_part, state_value

from ..budget import truncate_to_budget
from .document import INITIAL_MEMORY
from .edit_meta import ToolResult
from .tool_specs import apply_tool_call, strategy_tools, tool_call_schema, tool_guide, tool_schemas

Strategy = Literal["overwrite", "append_delete", "patch_replace"]


class WorkingMemory(MemoryModule):
    """Private text state; ``strategy`` decides which edit tools may change it.

    Args:
        params: Its settings: the edit ``strategy`` (``overwrite``, ``append_delete`` or
            ``patch_replace``) and the ``initial`` text (default: the three empty section
            headers every agent starts from).
    """

    kind: ClassVar[str] = "working_memory"

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        strategy: Strategy = "overwrite"
        initial: str | None = None

    def __init__(self, params: Params | None = None) -> None:
        params = params or self.Params()
        self.strategy: Strategy = params.strategy
        self.text: str = params.initial if params.initial is not None else INITIAL_MEMORY
        self.edits: CowList[dict[str, Any]] = CowList()
        """Every applied edit, oldest first (never changed once recorded)."""

    # -- the tools, as the model sees them ----------------------------------------------
    def tool_names(self) -> tuple[str, ...]:
        """The tools the strategy allows."""
        return strategy_tools(self.strategy)

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The allowed tools' function schemas (name, description, parameters)."""
        return tool_schemas(self.strategy)

    def tool_guide(self) -> str:
        """The allowed tools described for a prompt, one example call each."""
        return tool_guide(self.strategy)

    def tool_call_schema(self) -> dict[str, Any]:
        """A JSON schema for one call of any allowed tool (for constrained decoding)."""
        return tool_call_schema(self.strategy)

    # -- editing --------------------------------------------------------------------------
    def apply(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Run one tool call; on ``MemoryToolError`` the text is left exactly as it was."""
        [result] = self.apply_all([(name, arguments)])
        return result

    def apply_all(self, calls: list[tuple[str, dict[str, Any]]]) -> list[ToolResult]:
        """Run several tool calls as one edit: all succeed, or the memory is left unchanged."""
        allowed = self.tool_names()
        text, results = self.text, []
        for name, arguments in calls:
            result = apply_tool_call(text, name, arguments, allowed=allowed)
            text = result.new_memory
            results.append(result)
        self.text = text
        self.edits.extend(
            {"tool": name, "meta": r.to_dict()["meta"]}
            for (name, _), r in zip(calls, results, strict=True)
        )
        return results

    # -- the MemoryModule interface ---------------------------------------------------
    def render(self, budget_tokens: int | None = None) -> str:
        return truncate_to_budget(self.text, budget_tokens)

    def private_text(self) -> str:
        return self.text

    def save_state(self) -> dict[str, Any]:
        """Plain JSON: the strategy, the text and the log of applied edits."""
        return {
            "kind": self.kind,
            "strategy": self.strategy,
            "text": self.text,
            "edits": copy.deepcopy(list(self.edits)),
        }

    kindless_states: ClassVar[bool] = True

    def load_state(self, state: dict[str, Any]) -> None:
        """Go on from a saved state, checked whole before anything changes."""
        state = self.check_state_kind(state)
        owner = "working_memory"
        with state_part(owner, "strategy"):
            strategy = self.Params(strategy=state_value(state, "strategy", str, owner)).strategy
        text = state_value(state, "text", str, owner)
        edits = [e.model_dump() for e in state_items(state, "edits", _Edit, owner, optional=True)]
        self.strategy, self.text, self.edits = strategy, text, CowList(edits)


class _Edit(BaseModel):
    """An applied edit as logged: the tool and what it did."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tool: str
    meta: dict[str, Any]
