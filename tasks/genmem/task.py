"""The generated memory benchmark as a runnable task: one question per trial.

A trial builds a fresh agent and plays one question under a reading:

- ``memory``: the agent takes the whole generated history in, session by session (each turn
  as ``[date] role: content`` with its turn id and its session's date, as LongMemEval's task
  feeds it), then is asked; the ingested memory is kept by the conversation's digest and the
  memory's spec and reused by the next question (see LongMemEval's ``memory_cache``);
- ``oracle``: only the question's evidence turns are taken in (with their sessions' dates),
  the control of a perfect memory;
- ``none``: nothing is taken in, the question alone (the control of no memory).

The question is asked as LongMemEval's answer prompt ends (``Current Date: D\\nQuestion:
Q\\nAnswer:``) at the day after the last session, and scored exactly (``scoring``). The
readings of the agents of a run are ``reading``, or per agent name ``readings`` (a control
added by ``controls: true`` reads as its role says), so one run
or suite compares memories with their controls on the same questions.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from typing import ClassVar

from pydantic import BaseModel, Field

from cogarch.core.controls import ControlAgent, ControlRole
from cogarch.core.evaluation import Scalar
from cogarch.core.host import Observation
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.records import Scoring, TrialOutput, TrialRecord
from cogarch.core.state import StateError
from cogarch.core.task import Task, TrialContext
from cogarch.core.views import Section, Table
from cogarch.errors import CogarchError
from cogarch.models.fakes import PairsFn
from cogarch.models.metering import Meter
from cogarch.tasks.longmemeval.memory_cache import MemoryCache
from cogarch.tasks.longmemeval.question import question_message
from cogarch.tasks.memory_bench.ingest import IngestCost, trim_history
from cogarch.tasks.memory_bench.retrieved import full_ranking, retrieved_ids
from cogarch.tokens import count_tokens

from .conversation import Conversation, Question, Session
from .fakes import FAKES
from .metrics import report_tables
from .params import ABILITIES, GeneratorParams
from .plan import session_id, turn_id
from .records import GenmemEvaluation, GenmemHost, GenmemPayload, Reading
from .retrieval import answer_retrieval
from .scoring import is_correct


class GenmemParams(GeneratorParams):
    count: int | None = Field(
        default=None, ge=1, description="Ask only the first this many questions."
    )
    reading: Reading = Field(
        default="memory",
        description="What an agent takes in before the question: 'memory' the whole history, "
        "'oracle' only the evidence turns, 'none' nothing.",
    )
    readings: dict[str, Reading] = Field(
        default_factory=dict,
        description="The reading of particular agents, by name (for example "
        "{oracle: oracle, no_memory: none}); the others read by 'reading'.",
    )
    history_tokens: int | None = Field(
        default=6000,
        ge=1,
        description="The public history kept for the question, latest first, in tokens "
        "(what an agent that reads the transcript sees: the full history cut to a window).",
    )
    cache_memory: bool = Field(
        default=True, description="Keep each ingested memory by history and spec and reuse it."
    )


def observations(session: Session) -> list[Observation]:
    return [
        Observation(f"[{session.date}] {t.role}: {t.content}", (t.turn_id,), session.time)
        for t in session.turns
    ]


def evaluate(payload: GenmemPayload) -> GenmemEvaluation:
    score = float(payload.correct)
    return GenmemEvaluation(
        outcome="correct" if payload.correct else "wrong",
        ability=payload.ability,
        abstention=payload.abstention,
        accuracy=score,
        answerable_accuracy=None if payload.abstention else score,
        context_tokens=payload.prompt_tokens,
        retrieval=payload.retrieval,
    )


CONTROL_READINGS: dict[str, Reading] = {"oracle": "oracle", "no_memory": "none"}
"""The reading of a control by its role; the full-history control reads the whole history."""


class GenmemTask(Task):
    """A generated long conversation and its questions over LongMemEval's five abilities.

    Args:
        params: The task's parameters, a ``GenmemParams`` (a run config's ``task:`` keys,
            validated): the generator's knobs, the questions asked and how agents read.
    """

    kind: ClassVar[str] = "genmem"
    fakes: ClassVar[Mapping[str, PairsFn]] = FAKES
    """The scripted reader, as ``genmem.reader``."""
    Params: ClassVar[type[BaseModel]] = GenmemParams
    Payload = GenmemPayload
    Evaluation = GenmemEvaluation
    scoring: ClassVar[Scoring] = Scoring(classes=("correct", "wrong"), success="correct")
    controls: ClassVar[Mapping[ControlRole, ControlAgent]] = {
        "no_memory": ControlAgent(agent="no_memory", description="the question alone"),
        "full_history": ControlAgent(
            agent="longmemeval_full",
            description="the whole history, its head cut to the reader's window",
        ),
        "oracle": ControlAgent(
            agent="longmemeval_full", description="only the question's evidence turns"
        ),
    }
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="accuracy",
            value="accuracy",
            interval="wilson",
            description="share of questions answered exactly (abstention: saying it is missing)",
        ),
        LeaderboardMetric(
            name="answerable_accuracy",
            value="answerable_accuracy",
            interval="wilson",
            description="accuracy on the questions that have an answer",
        ),
        LeaderboardMetric(
            name="context_tokens",
            value="context_tokens",
            direction="lower",
            description="prompt tokens the agent spent answering one question",
        ),
    )
    params: GenmemParams

    def __init__(self, params: BaseModel) -> None:
        super().__init__(params)
        self.conversation = Conversation(GeneratorParams.model_validate(_knobs(self.params)))
        questions = self.conversation.questions
        self.questions = questions[: self.params.count] if self.params.count else questions
        self._caches: dict[str, MemoryCache] = {}

    def plan(self) -> list[str]:
        counts = {a: sum(q.ability == a for q in self.questions) for a in ABILITIES}
        shown = ", ".join(f"{a} {n}" for a, n in counts.items() if n)
        c = self.conversation
        return [
            f"{c.session_count} sessions of {c.params.turns_per_session} user turns "
            f"(seed {c.params.seed}); {len(self.questions)} questions ({shown}); trial i asks "
            "the i-th, cycling"
        ]

    def question(self, trial: int) -> Question:
        return self.questions[trial % len(self.questions)]

    def reading_of(self, agent: str, control: str | None = None) -> Reading:
        """How ``agent`` reads: as its control role says (the oracle reads the evidence, the
        reader with no memory nothing), else as ``readings`` or ``reading`` say."""
        if control in CONTROL_READINGS:
            return CONTROL_READINGS[control]
        return self.params.readings.get(agent, self.params.reading)

    def _cache(self, ctx: TrialContext) -> MemoryCache:
        folder = None if ctx.state_dir is None else ctx.state_dir.parent / "genmem_memory"
        return self._caches.setdefault(str(folder), MemoryCache(folder))

    async def _feed(self, agent: GenmemHost, sessions: Iterable[Session]) -> tuple[int, int, int]:
        counts = [0, 0, 0]
        for session in sessions:
            seen = observations(session)
            await agent.observe_many(seen)
            counts[0] += 1
            counts[1] += len(seen)
            counts[2] += sum(count_tokens(o.text) for o in seen)
        return counts[0], counts[1], counts[2]

    async def _ingest(
        self, agent: GenmemHost, asked: Question, reading: Reading, ctx: TrialContext
    ) -> tuple[IngestCost, bool, tuple[int, int, int]]:
        cost = IngestCost()
        if reading == "none":
            return cost, False, (0, 0, 0)
        if reading == "oracle":
            meter, start = Meter(), time.perf_counter()
            with meter.active():
                sizes = await self._feed(agent, self.conversation.oracle(asked))
            cost.add(meter, time.perf_counter() - start)
            return cost, False, sizes
        cache = self._cache(ctx) if self.params.cache_memory else None
        key = None
        if cache is not None:
            provider = ctx.agent_provider
            model = ctx.models(provider).model if provider else None
            key = MemoryCache.key(self.conversation.digest(), agent.save_state(), str(model))
        async with cache.lock(key) if cache is not None and key else nullcontext():
            if cache is not None and key is not None:
                saved = cache.get(key)
                if saved is not None:
                    state = {k: v for k, v in saved.items() if k != "genmem_sizes"}
                    fresh = agent.save_state()
                    if "agent" in fresh:
                        state["agent"] = fresh["agent"]
                    try:
                        agent.load_state(state)
                        sizes = saved.get("genmem_sizes", (0, 0, 0))
                        return cost, True, (int(sizes[0]), int(sizes[1]), int(sizes[2]))
                    except (StateError, CogarchError, KeyError, TypeError, ValueError):
                        agent.load_state(fresh)
                        cache.forget(key)
            meter, start = Meter(), time.perf_counter()
            with meter.active():
                sizes = await self._feed(agent, self.conversation.sessions())
            cost.add(meter, time.perf_counter() - start)
            if cache is not None and key is not None:
                cache.put(key, {**agent.save_state(), "genmem_sizes": list(sizes)})
        return cost, False, sizes

    def _corpus(self, asked: Question, reading: Reading) -> tuple[list[str], list[str]]:
        if reading == "oracle":
            turns = list(asked.evidence_turns)
            return list(dict.fromkeys(t.rsplit("_", 1)[0] for t in turns)), turns
        c = self.conversation
        per = c.params.turns_per_session
        sessions = [session_id(s) for s in range(c.session_count)]
        return sessions, [turn_id(s, j) for s in range(c.session_count) for j in range(per)]

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        asked = self.question(ctx.trial)
        reading = self.reading_of(ctx.agent_name, ctx.control)
        agent: GenmemHost = ctx.make_agent()
        cost, reused, (n_sessions, n_turns, n_tokens) = await self._ingest(
            agent, asked, reading, ctx
        )
        trim_history(agent, self.params.history_tokens)
        meter, start = Meter(), time.perf_counter()
        with meter.active():
            reply = await agent.respond(question_message(asked.question, asked.question_date))
        latency = time.perf_counter() - start
        report = agent.last_reply()
        ranked = retrieved_ids(report)
        ranking, complete = await full_ranking(agent, ranked)
        retrieval = None
        sessions, turns = self._corpus(asked, reading)
        if ranking is not None and not asked.abstention and reading != "none":
            retrieval = answer_retrieval(
                ranking,
                correct_turns=list(asked.evidence_turns),
                correct_sessions=list(asked.answer_session_ids),
                turn_corpus=turns,
                session_corpus=sessions,
                complete=complete,
            )
        payload = GenmemPayload(
            question_id=asked.question_id,
            ability=asked.ability,
            question_type=asked.question_type,
            abstention=asked.abstention,
            question=asked.question,
            question_date=asked.question_date,
            gold=asked.answer,
            variants=list(asked.variants),
            rivals=list(asked.rivals),
            hypothesis=reply,
            correct=is_correct(reply, asked.variants, asked.rivals, asked.abstention),
            reading=reading,
            sessions_ingested=n_sessions,
            turns_ingested=n_turns,
            history_tokens=n_tokens,
            memory_reused=reused,
            ingest=cost.data,
            ranked=ranked,
            answer_session_ids=list(asked.answer_session_ids),
            evidence_turns=list(asked.evidence_turns),
            session_corpus_size=len(sessions),
            turn_corpus_size=len(turns),
            retrieval=retrieval,
            prompt_tokens=int(meter.summary()["prompt_tokens"]),
            memory_tokens=report.memory_tokens,
            latency_s=round(latency, 4),
        )
        return TrialOutput(evaluation=evaluate(payload), payload=payload)

    @classmethod
    def report_tables(cls, records: Sequence[TrialRecord]) -> list[Table]:
        return report_tables(records)

    @classmethod
    def trial_sections(cls, record: TrialRecord) -> list[Section]:
        p = record.payload
        if not isinstance(p, GenmemPayload):
            return []
        lines = [
            f"{p.question_id} ({p.ability}), asked {p.question_date}, reading {p.reading}",
            f"Question: {p.question}",
            f"Gold: {p.gold}" + (f" (accepted: {', '.join(p.variants)})" if p.variants else ""),
            f"Scored: {'correct' if p.correct else 'wrong'}",
            f"Evidence turns: {', '.join(p.evidence_turns) or 'none'}",
            f"Ingested {p.sessions_ingested} sessions, {p.turns_ingested} turns, "
            f"{p.history_tokens} tokens" + (" (memory reused)" if p.memory_reused else ""),
        ]
        return [Section("Question", lines=lines, preformatted=[p.hypothesis])]

    @classmethod
    def tidy_columns(cls, record: TrialRecord) -> dict[str, Scalar]:
        p = record.payload
        if not isinstance(p, GenmemPayload):
            return {}
        return {
            "question_id": p.question_id,
            "ability": p.ability,
            "reading": p.reading,
            "correct": p.correct,
        }


def _knobs(params: GenmemParams) -> dict[str, object]:
    return {k: getattr(params, k) for k in GeneratorParams.model_fields}
