"""The focus node: re-grounds the workspace on the user's latest input."""

from __future__ import annotations

from typing import ClassVar

from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace


class Focus(BaseSpecialist):
    kind: ClassVar[str] = "focus"
    reads = ("current_input", "dialogue")
    writes = ("broadcasts.<name>", "focus_count")

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        previous = ws.dialogue[-1].content if ws.dialogue else ""
        note = f"Focus on the user's latest message: {ws.current_input.strip()}"
        if previous:
            note += f"\n(Your previous reply was: {previous.strip()[:300]})"
        ws.broadcasts[self.name] = note
        ws.focus_count += 1
