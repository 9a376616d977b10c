"""The motor: the one specialist that acts. Its action is the turn's reply.

It asks its model for the action to take now, given the plan and the admissible actions, and
reads one action out of the answer (:func:`cogarch.workspace.actions.read_action`). A valid
action is sent: it becomes the reply, and the game's episodic memory takes it in. A
hallucination (no action, text outside the task, an action the input does not allow) is held
back when ``hold_back`` is on (the focus loop's setting): no reply is written, and the walk
goes on to external perception, which reports it, so the conscious node can refocus and the
agent plan and act again. When the step budget is spent (``Workspace.must_reply``), or with
``hold_back`` off, the motor acts anyway: an inadmissible command is sent as proposed (the
environment answers it), while no action or text outside the task is replaced by
``idle_action`` (or, where the input does not allow it, its first admissible action). So
every turn ends in exactly one action.

Every proposal is kept in ``Workspace.actions``; a proposal after focus activations tells them
whether the agent recovered (``FocusActivation.next_admissible``).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from pydantic import Field

from cogarch import tracing
from cogarch.core.affordances import ActionInput, split_input
from cogarch.core.cow import CowList
from cogarch.core.memory import TurnRecord
from cogarch.models.messages import LLMMessage, system, user

from ...actions import ActionAttempt, Problem, judge_action, one_line, read_action
from ...prompts import resolve_prompt
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, episodic_of, situation


class Motor(BaseSpecialist):
    kind: ClassVar[str] = "motor"
    reads = ("current_input", "dialogue", "broadcasts", "must_reply")
    writes = ("reply", "actions", "focus_log", "broadcasts.<name>", "memory")

    class Params(SituationParams):
        prompt: str = Field(default="episodex_motor", description="A prompt name or text.")
        hold_back: bool = Field(
            default=True, description="Hold a hallucinated action back (the focus loop) or send it."
        )
        idle_action: str = Field(
            default="look", min_length=1, description="Sent when an action must go and none came."
        )
        max_tokens: int = Field(default=48, ge=4)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        current = split_input(ws.current_input)
        messages: list[LLMMessage] = [
            system(resolve_prompt(p.prompt)),
            user(
                situation(ws, ctx, p, self.name).text(memory=False)
                + "\n\nOutput the action to take now."
            ),
        ]
        completion = await self.model(ctx).complete(
            messages, caller=self.name, seed=ctx.seed, max_tokens=p.max_tokens
        )
        proposed = read_action(completion.content, current)
        problem, admissible = judge_action(proposed, current)
        sent: str | None = proposed
        if problem is not None:
            sent = self._forced(proposed, problem, current) if self._must_act(ws) else None
        self._record(ws, ActionAttempt(ws.episode, ws.turn, proposed, problem, admissible, sent))
        if sent is None:
            ws.broadcasts[self.name] = f'Held back "{one_line(proposed, 80)}": {problem}.'
            return
        ws.reply = sent
        ws.broadcasts[self.name] = f"Action: {sent}"
        episodic = episodic_of(ctx, p, self.name)
        record = TurnRecord(ws.turn, ws.current_input, sent)
        with tracing.memory_operation("create_memory", p.memory, episodic.kind, 1):
            await episodic.ingest(record, ctx.memory_context(self.name))

    def _must_act(self, ws: Workspace) -> bool:
        return ws.must_reply or not self.params.hold_back

    def _forced(self, proposed: str, problem: Problem, current: ActionInput) -> str:
        if problem == "inadmissible":
            return one_line(proposed)
        idle = self.params.idle_action
        if current.actions and current.allows(idle) is False:
            return current.actions[0]
        return idle

    @staticmethod
    def _record(ws: Workspace, attempt: ActionAttempt) -> None:
        ws.actions.append(attempt)
        valid = attempt.problem is None
        ws.focus_log = CowList(
            dataclasses.replace(f, next_action=attempt.proposed, next_admissible=valid)
            if f.next_admissible is None and f.episode == attempt.episode
            else f
            for f in ws.focus_log
        )


__all__ = ["Motor"]
