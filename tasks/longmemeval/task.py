"""LongMemEval as a runnable task: one question per trial.

A trial builds a fresh agent and lets it take in the question's haystack (every session, or
with ``haystack: oracle`` only the evidence sessions, as ``longmemeval_oracle`` holds them)
in date order and in one batch, each turn as ``[date] role: content`` with its turn id and
its session's date, through the ingestion path LoCoMo uses (so every memory module plays).
It asks the question at its ``question_date`` (``Current Date: D\\nQuestion: Q\\nAnswer:``,
the official prompt's ending), keeps the reply and the ranked ids the agent's memory
retrieved, and has the run's helper provider judge the reply with the official prompt of the
question's type. An ingested memory is kept by the haystack's digest and the memory's spec
(see ``memory_cache``), so a rerun, or another agent with the same memory, loads it instead
of ingesting again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.controls import ControlAgent, ControlRole
from cogarch.core.evaluation import Scalar
from cogarch.core.host import Observation
from cogarch.core.judge_audit import AuditedJudge
from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.core.records import Scoring, TrialOutput, TrialRecord
from cogarch.core.state import StateError
from cogarch.core.task import Task, TrialContext
from cogarch.core.views import Cell, Section, Table
from cogarch.errors import CogarchError
from cogarch.memory.retrieval.reader_budget import reader_counter
from cogarch.models.fakes import PairsFn
from cogarch.models.metering import Meter
from cogarch.tasks.longmemeval.question import question_message
from cogarch.tasks.memory_bench.ingest import IngestCost, trim_history
from cogarch.tasks.memory_bench.judging import judge_model
from cogarch.tasks.memory_bench.retrieved import full_ranking, retrieved_ids

from .corpus import official_corpus
from .data import QUESTION_TYPES, Question, Session, load_longmemeval
from .fakes import FAKES
from .judge import judge
from .judge_audit import LongMemEvalAuditedJudge
from .memory_cache import MemoryCache
from .metrics import report_tables
from .records import LongMemEvalEvaluation, LongMemEvalHost, LongMemEvalPayload
from .retrieval import answer_retrieval
from .selection import select_questions


class LongMemEvalParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: str = Field(
        description="Path of a file in LongMemEval's format (longmemeval_s.json, _m or "
        "_oracle, from Hugging Face xiaowu0162/longmemeval)."
    )
    questions: list[str] = Field(
        default_factory=list, description="Question ids to ask (default all, file order)."
    )
    types: list[str] = Field(
        default_factory=list,
        description="Question types to ask (default all): " + ", ".join(QUESTION_TYPES),
    )
    count: int | None = Field(
        default=None, ge=1, description="Ask only this many of the chosen questions."
    )
    proportional: bool = Field(
        default=False,
        description="With count, draw a sample that keeps the types' proportions (seeded by "
        "sample_seed) instead of taking the first ones.",
    )
    sample_seed: int = Field(default=0, description="The seed of the proportional sample.")
    haystack: Literal["full", "oracle"] = Field(
        default="full",
        description="'full': every session of the haystack; 'oracle': only the evidence "
        "sessions (answer_session_ids), as longmemeval_oracle holds them.",
    )
    cot: bool = Field(
        default=False,
        description="Ask for the answer step by step (the official prompt's CoT ending).",
    )
    history_tokens: int | None = Field(
        default=6000,
        ge=1,
        description="The public history the question's prompt keeps, latest first, in tokens "
        "(for agents that read the transcript; the official readers read their memory).",
    )
    judge: bool = Field(
        default=True,
        description="Have the run's helper_provider judge each reply with the official "
        "prompts (accuracy needs it).",
    )
    cache_memory: bool = Field(
        default=True,
        description="Keep each ingested memory by haystack and memory spec and reuse it.",
    )


def observations(session: Session) -> list[Observation]:
    """A session's turns as the agent takes them in: dated lines with their turn ids."""
    return [
        Observation(f"[{session.date}] {t.role}: {t.content}", (t.turn_id,), session.time)
        for t in session.turns
    ]


def haystack_observations(question: Question) -> list[Observation]:
    """The whole haystack as the agent takes it in, sessions in date order, in one batch (a
    module embeds all its turns in one call; the turns keep their order and their dates)."""
    return [o for session in question.in_date_order() for o in observations(session)]


def evaluate(payload: LongMemEvalPayload) -> LongMemEvalEvaluation:
    outcome = None if payload.verdict is None else ("correct" if payload.verdict else "wrong")
    return LongMemEvalEvaluation(
        outcome=outcome,
        question_type=payload.question_type,
        abstention=payload.abstention,
        accuracy=None if payload.verdict is None else float(payload.verdict),
        retrieval=payload.retrieval,
    )


class LongMemEvalTask(Task):
    """Long-term memory of a chat assistant on LongMemEval (Wu et al., ICLR 2025).

    Args:
        params: The task's parameters, a ``LongMemEvalParams`` (a run config's ``task:`` keys,
            validated): the data file, the questions asked, the haystack and the judge.
    """

    kind: ClassVar[str] = "longmemeval"
    fakes: ClassVar[Mapping[str, PairsFn]] = FAKES
    """The scripted reader and judge, as ``longmemeval.reader`` and ``longmemeval.judge``."""
    Params: ClassVar[type[BaseModel]] = LongMemEvalParams
    Payload = LongMemEvalPayload
    Evaluation = LongMemEvalEvaluation
    scoring: ClassVar[Scoring] = Scoring(classes=("correct", "wrong"), success="correct")
    clusters: ClassVar[str | None] = "question_id"  # trials past the questions ask them again
    leaderboard: ClassVar[tuple[LeaderboardMetric, ...]] = (
        LeaderboardMetric(
            name="accuracy",
            value="accuracy",
            interval="wilson",
            description="share of questions the official judge marks correct",
        ),
    )
    controls: ClassVar[Mapping[ControlRole, ControlAgent]] = {
        "no_memory": ControlAgent(agent="no_memory", description="the question alone"),
        "full_history": ControlAgent(
            agent="longmemeval_full",
            description="every session, its head cut to the reader's window (for the "
            "models of the official table; others: give history_tokens to a control entry)",
        ),
        "oracle": ControlAgent(
            agent="longmemeval_full", description="only the evidence sessions of the question"
        ),
    }
    params: LongMemEvalParams

    def __init__(self, params: BaseModel) -> None:
        super().__init__(params)
        p = self.params
        chosen = select_questions(
            load_longmemeval(p.data),
            ids=p.questions,
            types=p.types,
            count=p.count,
            proportional=p.proportional,
            seed=p.sample_seed,
        )  # trial i asks the i-th by id, so reordering the file moves no trial's question
        self.questions = sorted(chosen, key=lambda q: q.question_id)
        self._caches: dict[str, MemoryCache] = {}

    @property
    def needs_helper(self) -> bool:
        return self.params.judge

    def audited_judge(self) -> AuditedJudge | None:
        return LongMemEvalAuditedJudge(self.questions) if self.params.judge else None

    def plan(self) -> list[str]:
        counts = {t: sum(q.question_type == t for q in self.questions) for t in QUESTION_TYPES}
        shown = ", ".join(f"{t} {n}" for t, n in counts.items() if n)
        return [f"{len(self.questions)} questions ({shown}); trial i asks the i-th by id, cycling"]

    def question(self, trial: int) -> Question:
        return self.questions[trial % len(self.questions)]

    def data_item(self, trial: int) -> tuple[str, str]:
        asked = self.question(trial)
        return asked.question_id, asked.item_digest()

    def _cache(self, ctx: TrialContext) -> MemoryCache:
        folder = None if ctx.state_dir is None else ctx.state_dir.parent / "longmemeval_memory"
        key = str(folder)
        if key not in self._caches:
            self._caches[key] = MemoryCache(folder)
        return self._caches[key]

    @staticmethod
    def _reader_model(ctx: TrialContext) -> str | None:
        provider = ctx.agent_provider
        return str(ctx.models(provider).model) if provider else None

    async def _ingest(
        self, agent: LongMemEvalHost, played: Question, ctx: TrialContext
    ) -> tuple[IngestCost, bool]:
        """Ingest ``played``'s haystack into ``agent``, or load it from the memory cache."""
        cost = IngestCost()
        cache = self._cache(ctx) if self.params.cache_memory else None
        key = None
        if cache is not None:
            key = MemoryCache.key(played.digest(), agent.save_state(), str(self._reader_model(ctx)))
        async with cache.lock(key) if cache is not None and key else nullcontext():
            if cache is not None and key is not None:
                saved = cache.get(key)
                if saved is not None:
                    state = dict(saved)
                    fresh = agent.save_state()
                    if "agent" in fresh:
                        state["agent"] = fresh["agent"]
                    try:
                        agent.load_state(state)
                        return cost, True
                    except (StateError, CogarchError, KeyError, TypeError, ValueError):
                        agent.load_state(fresh)
                        cache.forget(key)
            meter, start = Meter(), time.perf_counter()
            with meter.active():
                await agent.observe_many(haystack_observations(played))
            cost.add(meter, time.perf_counter() - start)
            if cache is not None and key is not None:
                cache.put(key, agent.save_state())
        return cost, False

    async def run_trial(self, ctx: TrialContext) -> TrialOutput:
        p = self.params
        asked = self.question(ctx.trial)
        evidence_only = p.haystack == "oracle" or ctx.control == "oracle"
        played = asked.oracle() if evidence_only else asked
        agent: LongMemEvalHost = ctx.make_agent()
        cost, reused = await self._ingest(agent, played, ctx)
        trim_history(agent, p.history_tokens)
        meter, start = Meter(), time.perf_counter()
        with meter.active():
            reply = await agent.respond(
                question_message(asked.question, asked.question_date, p.cot)
            )
        latency = time.perf_counter() - start
        report = agent.last_reply()
        ranked = retrieved_ids(report)
        corpus = official_corpus(played)
        ranking, complete = await full_ranking(agent, ranked)
        retrieval = None
        if ranking is not None and corpus.left_out is None:
            retrieval = answer_retrieval(corpus, ranking, complete)
        verdict, judge_reply, judge_name = None, None, None
        model = judge_model(self, ctx, p.judge)
        if model is not None:
            verdict, judge_reply = await judge(model, asked, reply, ctx.seed)
            judge_name = model.model
        payload = LongMemEvalPayload(
            question_id=asked.question_id,
            question_type=asked.question_type,
            abstention=asked.abstention,
            question=asked.question,
            question_date=asked.question_date,
            gold=asked.gold,
            hypothesis=reply,
            verdict=verdict,
            judge_reply=judge_reply,
            judge_model=judge_name,
            haystack="oracle" if evidence_only else p.haystack,
            sessions_ingested=len(played.sessions),
            turns_ingested=sum(len(s.turns) for s in played.sessions),
            memory_reused=reused,
            ingest=cost.data,
            ranked=ranked,
            ranking=ranking if ranking is not ranked else None,
            ranking_complete=None if ranking is None else complete,
            answer_session_ids=list(asked.answer_session_ids),
            evidence_turns=played.evidence_turns(),
            session_corpus=list(corpus.sessions.values()),
            turn_corpus=list(corpus.turns.values()),
            answer_sessions_by=corpus.answer_sessions_by,
            retrieval_left_out=corpus.left_out,
            retrieval=retrieval,
            token_counter=reader_counter(self._reader_model(ctx)).name,
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
        payload = record.payload
        if not isinstance(payload, LongMemEvalPayload):
            return []
        verdict = {None: "not judged", True: "correct", False: "wrong"}[payload.verdict]
        lines = [
            f"{payload.question_id} ({payload.question_type}"
            + (", abstention" if payload.abstention else "")
            + f"), asked {payload.question_date}",
            f"Question: {payload.question}",
            f"Gold: {payload.gold}",
            f"Judge ({payload.judge_model or 'none'}): {verdict}"
            + (f" ({payload.judge_reply!r})" if payload.judge_reply is not None else ""),
            f"Ingested {payload.sessions_ingested} sessions, {payload.turns_ingested} turns"
            + (" (memory reused)" if payload.memory_reused else ""),
        ]
        sections = [Section("Question", lines=lines, preformatted=[payload.hypothesis])]
        if payload.ranked is not None:
            evidence = set(payload.evidence_turns)
            rows: list[list[Cell]] = [
                [str(rank), ", ".join(ids), any(i in evidence for i in ids)]
                for rank, ids in enumerate(payload.ranked[:50], start=1)
            ]
            sections.append(
                Section(
                    "Retrieved",
                    table=Table("Ranked entries", ["rank", "turn ids", "evidence"], rows),
                )
            )
        return sections

    @classmethod
    def context_tokens(cls, record: TrialRecord) -> list[int]:
        payload = record.payload
        return [payload.prompt_tokens] if isinstance(payload, LongMemEvalPayload) else []

    @classmethod
    def tidy_columns(cls, record: TrialRecord) -> dict[str, Scalar]:
        payload = record.payload
        if not isinstance(payload, LongMemEvalPayload):
            return {}
        return {
            "question_id": payload.question_id,
            "question_type": payload.question_type,
            "abstention": payload.abstention,
            "verdict": payload.verdict,
        }
