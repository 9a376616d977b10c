"""A task whose code misbehaves on purpose, one way per ``mode`` (trial ``bad_trial`` only,
or every trial when it is -1): the tests of task code that is untrusted at run time."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, field_serializer

from cogarch.core.evaluation import Evaluation
from cogarch.core.payload import GenericPayload
from cogarch.core.records import Scoring, TrialOutput, TrialRecord, Turn
from cogarch.core.task import Task, TrialContext
from cogarch.core.views import Table


class MisbehavingParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mode: str = "ok"
    bad_trial: int = -1
    score: float | int | None = 1
    score_text: str | None = None
    """A score the task computes itself, as ``float(score_text)`` (past what a config takes)."""
    outcome: str = "win"
    payload_bytes: int = 0
    nesting: int = 0
    block_s: float = 0.0
    block_while: str = ""
    """With ``block``: hold the event loop while this file exists (at most ``block_s``)."""


class Scored(Evaluation):
    score: float | int | None = None


class ExitingDump(Scored):
    """An evaluation whose own serializer exits (task code that runs as the file is made)."""

    @field_serializer("score")
    def _exit(self, value: object) -> object:
        sys.exit("no")


class Stop(BaseException):
    """A BaseException of the task's own."""


def echo(pairs: Sequence[tuple[str, str]], seed: int, call: object) -> str:
    return "ok"


class MisbehavingTask(Task):
    kind: ClassVar[str] = "misbehaving"
    Params: ClassVar[type[BaseModel]] = MisbehavingParams
    scoring: ClassVar[Scoring] = Scoring(classes=("win", "loss"), success="win")
    Evaluation = Scored
    fakes: ClassVar = {"misbehaving.echo": echo}
    params: MisbehavingParams

    async def run_trial(self, ctx: TrialContext) -> Any:
        agent = ctx.make_agent()
        reply = await agent.respond("hello")
        p = self.params
        output = TrialOutput(
            turns=[Turn(turn=1, user="hello", reply=reply)],
            evaluation=Scored(
                outcome=p.outcome,
                score=p.score if p.score_text is None else float(p.score_text),
            ),
        )
        if p.bad_trial not in (-1, ctx.trial):
            return TrialOutput(turns=output.turns, evaluation=Scored(outcome="win", score=1))
        if p.mode == "none":
            return None
        if p.mode == "dict":
            return {"evaluation": {"outcome": "win"}}
        if p.mode == "exit":
            sys.exit()
        if p.mode == "exit_dump":
            return TrialOutput(turns=output.turns, evaluation=ExitingDump(outcome="win", score=1))
        if p.mode == "own_interrupt":
            raise KeyboardInterrupt  # no Ctrl-C was pressed: the task's own doing
        if p.mode == "own_base":
            raise Stop("the task stopped itself")
        if p.mode == "block":
            until = time.monotonic() + p.block_s
            while Path(p.block_while).exists() and time.monotonic() < until:
                time.sleep(0.05)  # holds the event loop
        if p.payload_bytes:
            output.payload = GenericPayload(kind="blob", text="x" * p.payload_bytes)
        if p.nesting:
            deep: Any = "bottom"
            for _ in range(p.nesting):
                deep = [deep]
            output.payload = GenericPayload(kind="deep", deep=deep)
        return output

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        done = [r for r in records if r.status == "complete" and isinstance(r.evaluation, Scored)]
        return [Table("scored per run", ["scored trials"], [[len(done)]])]


class ExitingTables(MisbehavingTask):
    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        sys.exit()


class FailingJudge(MisbehavingTask):
    async def judge_jointly(self, group: Sequence[TrialRecord], ctx: Any) -> list[TrialRecord]:
        sys.exit("judging stopped")
