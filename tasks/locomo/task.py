"""LoCoMo as a runnable task: one conversation per trial, every question on its own fork.

A trial feeds the conversation's sessions, in order, to a fresh agent (see ``ingest``), then
asks each question on a fork made after the last session, so no question changes the memory
or another question (a fork costs the same whatever the memory holds). With a results
directory, the agent's state is saved after every session and each answer is logged as it
comes (see ``trial_state``), so a rerun after an interruption goes on where it stopped.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from cogarch.core.controls import ControlAgent, ControlRole
from cogarch.core.judge_audit import AuditedJudge
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.records import Scoring, TrialOutput, TrialRecord
from cogarch.core.task import Task, TrialContext
from cogarch.models.fakes import PairsFn
from cogarch.models.metering import Meter, replay
from cogarch.tasks.memory_bench.ingest import IngestCost, trim_history
from cogarch.tasks.memory_bench.judging import judge_model
from cogarch.tokens import count_tokens

from .data import (
    Conversation,
    evidence_ids,
    id_problems,
    load_locomo,
    select_conversations,
    select_questions,
    select_sessions,
)
from .ingest import ingest_turns
from .judge_audit import LocomoAuditedJudge
from .questions import RECALL_AT, ask, judge
from .reader import READERS
from .records import LocomoAnswer, LocomoEvaluation, LocomoHost, LocomoPayload
from .scoring import CATEGORIES
from .trial_state import TrialState


class LocomoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: str = Field(
        description="Path of a file in LoCoMo's format (data/locomo10.json of "
        "snap-research/LoCoMo)."
    )
    conversations: list[str] = Field(
        default_factory=list,
        description="Sample ids to play (default all); trial i plays the i-th, cycling.",
    )
    sessions: list[int] = Field(
        default_factory=list,
        description="Session numbers to ingest (default all); with a cut, only the questions "
        "whose evidence lies in them are asked.",
    )
    categories: list[StrictInt] = Field(
        default_factory=list, description="Question categories 1-5 to ask (default all)."
    )
    history_tokens: int | None = Field(
        default=6000,
        ge=1,
        description="The public history a question's prompt keeps, latest first, in tokens: "
        "the full-context agent's truncation to the model's context.",
    )
    judge: bool = Field(
        default=False,
        description="Also ask an LLM judge, categories 1-4: the run's helper_provider, which "
        "this then requires.",
    )

    @field_validator("categories")
    @classmethod
    def _known_categories(cls, value: list[int]) -> list[int]:
        unknown = [c for c in value if c not in CATEGORIES]
        if unknown:
            known = ", ".join(f"{n} ({name})" for n, name in CATEGORIES.items())
            raise ValueError(f"category {unknown[0]} is not one of LoCoMo's: {known}")
        return value


def _quantile(values: Sequence[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 4) if values else None


def _mean(values: Sequence[float]) -> float | None:
    return round(fmean(values), 4) if values else None


def evaluate(payload: LocomoPayload) -> dict[str, Any]:
    """Per-category and overall F1 (and J), evidence recall@k, tokens, latency, ingest cost.

    ``memory_tokens`` is the agent's stored private state; ``memory_tokens_per_question`` the
    memory its answering prompts carried (for a full-context agent, the transcript kept)."""
    answers = payload.answers
    by_name = {name: [a for a in answers if a.category == c] for c, name in CATEGORIES.items()}
    f1 = {n: _mean([a.f1 for a in group]) for n, group in by_name.items() if group}
    out: dict[str, Any] = {
        "questions": len(answers),
        "f1": {**f1, "overall": _mean([a.f1 for a in answers])},
    }
    judged = [a for a in answers if a.judge is not None]
    if judged:
        j = {
            n: _mean([float(bool(a.judge)) for a in g if a.judge is not None])
            for n, g in by_name.items()
        }
        out["judge"] = {
            **{k: v for k, v in j.items() if v is not None},
            "overall": _mean([float(bool(a.judge)) for a in judged]),
        }
    recalled = [a.recall for a in answers if a.recall is not None]
    if recalled:
        out["recall"] = {f"at{k}": _mean([r[str(k)] for r in recalled]) for k in RECALL_AT}
    latency = [a.latency_s for a in answers]
    turns = max(payload.turns_ingested, 1)
    ingest = payload.ingest
    tokens = ingest.get("prompt_tokens", 0) + ingest.get("completion_tokens", 0)
    out.update(
        prompt_tokens_per_question=_mean([a.prompt_tokens for a in answers]),
        memory_tokens_per_question=_mean(
            [a.memory_tokens for a in answers if a.memory_tokens is not None]
        ),
        latency_p50_s=_quantile(latency, 50),
        latency_p95_s=_quantile(latency, 95),
        memory_tokens=payload.memory_tokens,
        ingest={
            "calls_per_turn": round(ingest.get("model_calls", 0) / turns, 4),
            "tokens_per_turn": round(tokens / turns, 2),
            "seconds_per_turn": round(ingest.get("seconds", 0.0) / turns, 4),
        },
    )
    return out


class LocomoTask(Task):
    """Long-term conversational memory on LoCoMo (Maharana et al., ACL 2024).

    Args:
        params: The task's parameters, a ``LocomoParams`` (a run config's ``task:`` keys,
            validated): the data file, the conversations, sessions and question categories
            played, and whether a judge is asked.
    """

    kind: ClassVar[str] = "locomo"
    fakes: ClassVar[Mapping[str, PairsFn]] = {f"locomo.{k}": fn for k, fn in READERS.items()}
    """The scripted reader, as ``locomo.<kind>``."""
    Params: ClassVar[type[BaseModel]] = LocomoParams
    Payload = LocomoPayload
    Evaluation = LocomoEvaluation
    scoring: ClassVar[Scoring] = Scoring()
    clusters: ClassVar[str | None] = "sample_id"  # a conversation's questions hang together
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="f1",
            value="f1",
            items="answers",
            failure=0.0,
            description="official LoCoMo token F1, over every question asked",
        ),
        LeaderboardMetric(
            name="j",
            value="judge",
            items="answers",
            interval="wilson",
            description="the judge's share of correct answers (only when judged)",
        ),
    )
    controls: ClassVar[Mapping[ControlRole, ControlAgent]] = {
        "no_memory": ControlAgent(agent="no_memory", description="the question alone"),
        "full_history": ControlAgent(
            agent="transcript",
            description="the whole conversation, its latest history_tokens kept",
        ),
        "oracle": ControlAgent(
            agent="transcript", description="only the question's evidence turns, on a fresh agent"
        ),
    }
    params: LocomoParams

    def __init__(self, params: BaseModel) -> None:
        super().__init__(params)
        p = self.params
        chosen = select_conversations(load_locomo(p.data), p.conversations)
        for problem in (found for c in chosen for found in id_problems(c)):
            sys.stderr.write(f"warning: {p.data}: {problem}\n")
        self.conversations = [select_sessions(c, p.sessions) for c in chosen]

    @property
    def needs_helper(self) -> bool:
        return self.params.judge

    def audited_judge(self) -> AuditedJudge | None:
        if not self.params.judge:
            return None
        return LocomoAuditedJudge(self.conversations, self.params.categories)

    def conversation(self, trial: int) -> Conversation:
        return self.conversations[trial % len(self.conversations)]

    def data_item(self, trial: int) -> tuple[str, str]:
        played = self.conversation(trial)
        return played.sample_id, played.item_digest()

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        conv = self.conversation(ctx.trial)
        agent: LocomoHost = ctx.make_agent()
        numbers = sorted(conv.sessions)
        oracle = ctx.control == "oracle"  # each question on its own agent, shown its evidence
        state = TrialState(
            ctx.state_dir,
            {"sample_id": conv.sample_id, "sessions": numbers, "seed": ctx.seed},
        )
        try:
            progress = await state.restore(agent)
            replay(progress.calls)
            cost = IngestCost(progress.cost or None)
            done = progress.sessions_done
            for n in [] if oracle else numbers[done:]:
                # the snapshot's fork reads the agent's memory: let it finish first, so the
                # session's writes need not copy a store it still holds
                await state.settle()
                meter, start, session = Meter(), time.perf_counter(), IngestCost()
                with meter.active():
                    await ingest_turns(agent, conv.sessions[n])
                session.add(meter, time.perf_counter() - start)
                cost.merge(session)
                done += 1
                last = done == len(numbers)
                await state.session_done(agent, done, session.data, _dicts(meter), last=last)
            answers = await self._answers(agent, conv, ctx, state, progress.answers)
        finally:
            await state.close()
        payload = LocomoPayload(
            sample_id=conv.sample_id,
            sessions=numbers,
            turns_ingested=0 if oracle else sum(len(t) for t in conv.sessions.values()),
            ingest=cost.data,
            memory_tokens=count_tokens(agent.private_state()),
            answers=answers,
            resumed=progress.resumed,
        )
        return TrialOutput(
            evaluation=LocomoEvaluation.model_validate(
                {"conversation": conv.sample_id, **evaluate(payload)}
            ),
            payload=payload,
        )

    @classmethod
    def context_tokens(cls, record: TrialRecord) -> list[int]:
        payload = record.payload
        if not isinstance(payload, LocomoPayload):
            return []
        return [a.prompt_tokens for a in payload.answers]

    async def _answers(
        self,
        agent: LocomoHost,
        conv: Conversation,
        ctx: TrialContext,
        state: TrialState,
        saved: dict[str, dict[str, Any]],
    ) -> list[LocomoAnswer]:
        """Every selected question, each on its own fork of the ingested agent: the history
        is cut to ``history_tokens`` once, on a fork every question's fork is made from."""
        p = self.params
        model = judge_model(self, ctx, p.judge)
        await state.settle()
        base = agent.fork()
        trim_history(base, p.history_tokens)
        answers = []
        for index, qa in enumerate(conv.qa):
            if qa not in select_questions([qa], p.categories):
                continue
            key = f"{index}:{qa['question']}"
            if key in saved:
                answers.append(LocomoAnswer.model_validate(saved[key]))
                continue
            meter = Meter()
            with meter.active():
                asked = base
                if ctx.control == "oracle":
                    asked = await _evidence_agent(ctx, conv, qa, p.history_tokens)
                answer = await ask(asked, qa, ctx.seed + index)
                if model is not None and answer.category != 5:
                    answer.judge = await judge(model, answer, ctx.seed + index)
            answers.append(answer)
            state.answered(key, answer.model_dump(mode="json"), _dicts(meter))
        return answers


async def _evidence_agent(
    ctx: TrialContext, conv: Conversation, qa: dict[str, Any], history_tokens: int | None
) -> LocomoHost:
    """A fresh agent that took in only the question's evidence turns, in dialog order (the
    oracle control: every other turn of the conversation is left out)."""
    agent: LocomoHost = ctx.make_agent()
    wanted = evidence_ids(qa)
    await ingest_turns(agent, [t for t in conv.turns() if t.dia_id in wanted])
    trim_history(agent, history_tokens)
    return agent


def _dicts(meter: Meter) -> list[dict[str, Any]]:
    return [u.to_dict() for u in meter.records]
