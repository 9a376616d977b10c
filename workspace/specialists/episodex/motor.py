"""The motor: the one specialist that acts. Its action is the turn's reply.

It asks its model for the action to take now, given the plan and the admissible actions, and
has the action judge (:func:`cogarch.core.acting.read_action`) read one action out of the
answer, judged against the game's task space (its grammar and the things it has named); the
choice it sends is the turn's ``Workspace.acting.choice``, in the game's form, with what was
proposed and what was wrong with it. Every action is sent, admissible or not: it becomes the
reply (the environment answers an inadmissible command, in ALFWorld with "Nothing
happens.", and the step counts), and the game's episodic memory takes it in. A hallucination,
in the Episodex paper's two forms (no action: empty, a refusal, several commands; or output
outside the task space: not a command of the game's grammar, or naming nothing of this game),
is held back when ``hold_back`` is on (the focus loop's setting): no reply is written, and the
walk goes on to external perception, which reports it, so the conscious node can refocus and
the agent plan and act again. When the step budget is spent (``Workspace.must_reply``), or
with ``hold_back`` off, the motor acts anyway, as the judge says: a command outside the task
space is sent as proposed (the environment answers it), several commands send the first, and
no action or a refusal is replaced by ``idle_action`` (or, where the input does not allow it,
its first admissible action). So every turn ends in exactly one action; one the budget forced
is marked (``ActionAttempt.forced``), with the focus activations it ended.

Every proposal is kept in ``Workspace.acting.actions``; a proposal after focus activations
tells them what the agent did next (``FocusActivation.next_valid``, ``next_sent``).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from autogen_core.models import LLMMessage
from pydantic import Field

from cogarch import tracing
from cogarch.core.acting import TaskSpace, one_line, read_action
from cogarch.core.cow import CowList
from cogarch.core.memory import TurnRecord
from cogarch.models.messages import system, user

from ...actions import ActionAttempt, FocusActivation
from ...commands import AUTO, grammar_for, names_in
from ...prompts import resolve_prompt
from ...sanitize import public_text
from ...specialist import BaseSpecialist, StepContext
from ...workspace import Workspace
from .situation import SituationParams, episodic_of, scene, situation


class Motor(BaseSpecialist):
    kind: ClassVar[str] = "motor"
    reads = ("acting.percept", "dialogue", "broadcasts", "must_reply")
    writes = (
        "reply",
        "acting.choice",
        "acting.actions",
        "acting.focus_log",
        "broadcasts.<name>",
        "memory",
    )

    class Params(SituationParams):
        prompt: str = Field(default="episodex_motor", description="A prompt name or text.")
        hold_back: bool = Field(
            default=True, description="Hold a hallucinated action back (the focus loop) or send it."
        )
        grammar: str | None = Field(
            default=AUTO,
            description="The game's command grammar by name (household: ALFWorld's); auto: "
            "the one that covers the admissible actions; None: only the form of a command.",
        )
        idle_action: str = Field(
            default="look", min_length=1, description="Sent when an action must go and none came."
        )
        max_tokens: int = Field(default=48, ge=4)

    params: Params

    async def step(self, ws: Workspace, ctx: StepContext) -> None:
        p = self.params
        now = scene(ws)
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
        seen = [m.content for m in ws.dialogue if m.role == "user"] + [ws.current_input]
        grammar = grammar_for(now.admissible, p.grammar)
        space = TaskSpace(grammar, names_in(seen), p.idle_action)
        choice = read_action(public_text(completion.content), now.admissible, space)
        sends = choice.problem is None or ws.must_reply or not p.hold_back
        attempt = ActionAttempt(
            ws.episode,
            ws.turn,
            choice.proposed,
            choice.problem,
            choice.admissible,
            choice.reply if sends else None,
            ws.must_reply,
        )
        self._record(ws, attempt)
        if not sends:
            held = one_line(choice.proposed, 80)
            ws.broadcasts[self.name] = f'Held back "{held}": {choice.problem}.'
            return
        ws.reply = choice.reply
        ws.acting_part().choice = choice
        ws.broadcasts[self.name] = f"Action: {choice.reply}"
        episodic = episodic_of(ctx, p, self.name)
        record = TurnRecord(ws.turn, ws.current_input, choice.reply)
        with tracing.memory_operation("create_memory", p.memory, episodic.kind, 1):
            await episodic.ingest(record, ctx.memory_context(self.name))

    @staticmethod
    def _record(ws: Workspace, attempt: ActionAttempt) -> None:
        acting = ws.acting_part()
        acting.actions.append(attempt)
        acting.focus_log = CowList(_followed(f, attempt) for f in acting.focus_log)


def _followed(activation: FocusActivation, attempt: ActionAttempt) -> FocusActivation:
    """The activation, told of the proposal that followed it (if it was waiting for one) and
    of the budget ending its turn."""
    if activation.episode != attempt.episode:
        return activation
    if activation.next_action is None and activation.next_valid is None:
        activation = dataclasses.replace(
            activation,
            next_action=attempt.proposed,
            next_admissible=attempt.admissible,
            next_valid=attempt.problem is None,
            next_sent=attempt.sent,
        )
    if attempt.forced and activation.turn == attempt.turn:
        activation = dataclasses.replace(activation, ended_by_budget=True)
    return activation
