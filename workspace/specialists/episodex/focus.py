"""Focus: replays the last valid observation and the task, instead of acting.

Episodex's self-correction loop (conscious -> focus -> internal perception 2 -> conscious). It
runs when the motor held back a hallucination (no action, or output outside the task space: the
transition graph takes it on the ``action_rejected`` condition) or when the conscious node
chooses it; it calls no model. The last valid observation is the turn's input, what the
environment last said: a held-back proposal never reached the environment. Each run is logged
in ``Workspace.acting.focus_log`` with what started it; the motor's next proposal fills in what
the agent did next (an action or again none, and what was sent), and whether the step budget
ended the turn first.
"""

from __future__ import annotations

from typing import ClassVar

from ...actions import FocusActivation, FocusReason
from ...conditions import action_rejected
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, episodic_of, scene


class ReplayFocus(BaseSpecialist):
    kind: ClassVar[str] = "replay_focus"
    reads = ("acting.percept", "acting.actions", "memory")
    writes = ("broadcasts.<name>", "acting.focus_log")

    class Params(SituationParams):
        pass

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        current = scene(ws)
        game = episodic_of(ctx, self.params, self.name).game
        task = game.task if game is not None else current.goal
        reason: FocusReason = "chosen"
        attempt: int | None = None
        acting = ws.acting_part()
        if action_rejected(ws):
            attempt = len(acting.actions) - 1
            reason = acting.actions[attempt].problem or "chosen"
        acting.focus_log.append(FocusActivation(ws.episode, ws.turn, reason, attempt))
        lines = [
            "Refocus on the task and the environment.",
            f"Your task: {task}",
            f"The last valid observation: {current.observation}",
        ]
        if current.admissible is not None:
            lines.append(f"Admissible actions: {'; '.join(current.admissible) or '(none)'}")
        lines.append("The next output must be exactly one action of this environment.")
        ws.broadcasts[self.name] = "\n".join(lines)
