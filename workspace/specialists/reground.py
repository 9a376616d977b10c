"""The reground node: re-grounds the workspace on the user's latest input (and the agent's
previous reply), as a broadcast for the specialists after it.

(Its kind was called ``focus`` before; that name still loads. The Episodex agent's node named
``focus`` is another kind, ``replay_focus``, the focus loop of its paper.)"""

from __future__ import annotations

from typing import ClassVar

from ..specialist import BaseSpecialist, StepContext
from ..workspace import Workspace


class Reground(BaseSpecialist):
    """Broadcasts the user's latest message (and the previous reply) again, before the
    specialists that act on it."""

    kind: ClassVar[str] = "reground"
    reads = ("current_input", "dialogue")
    writes = ("broadcasts.<name>", "reground_count")

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        previous = ws.dialogue[-1].content if ws.dialogue else ""
        note = f"Focus on the user's latest message: {ws.current_input.strip()}"
        if previous:
            note += f"\n(Your previous reply was: {previous.strip()[:300]})"
        ws.broadcasts[self.name] = note
        ws.reground_count += 1
