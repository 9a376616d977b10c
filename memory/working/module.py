"""The private working memory module: a three-section text edited only through its tools."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from ..base import MemoryModule, truncate_to_budget

Strategy = Literal["overwrite", "append_delete", "patch_replace"]


class WorkingMemory(MemoryModule):
    """Private text state; ``strategy`` decides which edit tools may change it."""

    kind: ClassVar[str] = "working_memory"

    class Params(BaseModel):
        model_config = ConfigDict(extra="forbid")
        strategy: Strategy = "overwrite"
        initial: str | None = None

    def __init__(self, params: Params | None = None) -> None:
        from .document import INITIAL_MEMORY

        params = params or self.Params()
        self.strategy: Strategy = params.strategy
        self.text: str = params.initial if params.initial is not None else INITIAL_MEMORY
        self.edits: list[dict[str, Any]] = []

    def apply(self, name: str, arguments: dict[str, Any]) -> Any:
        """Run one tool call; on ``MemoryToolError`` the text is left exactly as it was."""
        from .tool_specs import STRATEGIES, apply_tool_call

        result = apply_tool_call(self.text, name, arguments, allowed=STRATEGIES[self.strategy])
        self.text = result.new_memory
        self.edits.append({"tool": name, "meta": result.to_dict()["meta"]})
        return result

    def apply_all(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        """Run several tool calls as one edit: all succeed, or the memory is left unchanged."""
        from .tool_specs import STRATEGIES, apply_tool_call

        text, results = self.text, []
        for name, arguments in calls:
            result = apply_tool_call(text, name, arguments, allowed=STRATEGIES[self.strategy])
            text = result.new_memory
            results.append(result)
        self.text = text
        self.edits.extend(
            {"tool": name, "meta": r.to_dict()["meta"]}
            for (name, _), r in zip(calls, results, strict=True)
        )
        return results

    def render(self, budget_tokens: int | None = None) -> str:
        return truncate_to_budget(self.text, budget_tokens)

    def private_text(self) -> str:
        return self.text
