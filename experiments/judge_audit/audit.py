"""Running the judge audit of a run: every probe judged by the run's judge and, when named, a
second judge; the verdicts logged as they come (``log``), the measures written atomically to
``judge_audit.json`` in the run folder.

The audit's model calls go through the run's providers, so they are cached like every call
(the response cache under the run folder), and are metered apart: their usage is in the
audit's file, never in a trial's.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cogarch.core.judge_audit import AuditedJudge, AuditQuestion
from cogarch.core.records import TrialRecord
from cogarch.core.task import JointContext, Task
from cogarch.core.usage import CallRecord, usage_totals
from cogarch.errors import ConfigError, one_line
from cogarch.io import atomic_write_json
from cogarch.models.metering import Meter

from ..running.worker import RunSetup, check_provider
from .log import LoggedVerdict, VerdictLog, verdict_key
from .measures import INTERVAL, Agreement, Rate, agreement, error_rates
from .probes import Probe, make_probes
from .settings import JudgeAuditConfig

AUDIT_FILE = "judge_audit.json"
Role = Literal["primary", "second"]


class JudgeResult(BaseModel):
    """One judge's verdicts on the probes and its error rates."""

    model_config = ConfigDict(extra="forbid")

    role: Role
    provider: str
    model: str
    false_positive: Rate
    """Wrong answers accepted, of the wrong answers judged."""
    false_negative: Rate
    """Rephrasings of the gold answer rejected, of those judged."""
    by_kind: dict[str, Rate]
    """The error rate of each kind of probe."""
    verdicts: dict[str, bool]
    """Accepted or not, by probe id."""
    replies: dict[str, str] = Field(default_factory=dict)
    unjudged: list[str] = Field(default_factory=list)
    """Probes whose call failed (asked again by a rerun)."""
    error: str | None = None
    """The first failure, when any."""
    usage: dict[str, Any] = Field(default_factory=dict)
    """The judge's audit calls: counts and tokens (see ``cogarch.core.usage.usage_totals``);
    a verdict kept from an interrupted audit counts its calls as cache hits."""


class JudgeAuditResult(BaseModel):
    """What ``judge_audit.json`` holds."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = 1
    task: str
    metric: str
    interval: str = INTERVAL
    settings: JudgeAuditConfig
    eligible: int
    """The run's judged questions the audit can perturb (the sample is drawn from them)."""
    questions: list[str]
    """The sampled questions' keys."""
    probes: list[Probe]
    judges: list[JudgeResult]
    agreement: Agreement | None = None


def audited_judge_of(task: Task, kind: str) -> AuditedJudge:
    """The judge ``task`` declares for the audit; a ``ConfigError`` when it has none."""
    judge = task.audited_judge()
    if judge is None:
        raise ConfigError(
            f"the {kind} task has no judge of answers to audit (the judge audit tests a "
            "judge that compares answers with a gold answer: longmemeval, or locomo with "
            "judge: true); turn it on in the task, or leave out --audit-judge and the "
            "config's audit_judge"
        )
    return judge


def audit_plan(task: Task | None, kind: str, settings: JudgeAuditConfig) -> str:
    """The audit in one line of a dry run's plan (checked as the run will check it)."""
    metric = "its judged metric" if task is None else audited_judge_of(task, kind).metric
    count = "all" if settings.questions is None else f"{settings.questions}"
    second = f", then by {settings.second_judge}" if settings.second_judge else ""
    return (
        f"judge audit: {metric}, on {count} of the judged questions (seed {settings.seed}), "
        f"judged by the helper provider{second}"
    )


def _seed(seed: int, probe: Probe) -> int:
    digest = hashlib.sha256(f"{seed}:{probe.id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & ((1 << 63) - 1)


class JudgeAudit:
    """The judge audit of one run, checked when made (before any trial runs): the task must
    declare a judge and judge with it, and every judge must be a provider of the run."""

    def __init__(self, setup: RunSetup, settings: JudgeAuditConfig, folder: Path) -> None:
        self.setup, self.settings, self.folder = setup, settings, folder
        self.judge = audited_judge_of(setup.task, setup.config.task.kind)
        providers = setup.providers
        primary = setup.task.judge_provider(
            JointContext(providers.get, setup.config.helper_provider)
        )
        self.judges: list[tuple[Role, str]] = [("primary", primary)]
        if settings.second_judge is not None:
            check_provider(providers, settings.second_judge)
            self.judges.append(("second", settings.second_judge))

    def _judge_id(self, provider: str) -> dict[str, Any]:
        config = self.setup.providers.config(provider)
        settings = config.model_dump(mode="json", exclude={"api_key_env"})
        return {"provider": provider, "settings": settings, "metric": self.judge.metric}

    async def run(self, records: Iterable[TrialRecord]) -> JudgeAuditResult:
        """Judge every probe of the run's complete ``records`` not judged yet, then write and
        return the audit."""
        complete = [r for r in records if r.status == "complete"]
        eligible = self.judge.questions(complete)
        chosen, probes = make_probes(eligible, self.settings.questions, self.settings.seed)
        by_key = {q.key: q for q in chosen}
        log = VerdictLog(self.folder)
        kept = log.read()
        gate = asyncio.Semaphore(self.settings.concurrency)
        results: list[JudgeResult] = []
        try:
            for role, provider in self.judges:
                results.append(await self._judged(role, provider, probes, by_key, kept, log, gate))
        finally:
            log.close()
        first = results[0].verdicts
        audit = JudgeAuditResult(
            task=self.setup.config.task.kind,
            metric=self.judge.metric,
            settings=self.settings,
            eligible=len(eligible),
            questions=[q.key for q in chosen],
            probes=probes,
            judges=results,
            agreement=agreement(first, results[1].verdicts) if len(results) > 1 else None,
        )
        atomic_write_json(self.folder / AUDIT_FILE, audit.model_dump(mode="json"))
        return audit

    async def _judged(
        self,
        role: Role,
        provider: str,
        probes: Sequence[Probe],
        questions: dict[str, AuditQuestion],
        kept: dict[str, LoggedVerdict],
        log: VerdictLog,
        gate: asyncio.Semaphore,
    ) -> JudgeResult:
        judge_id = self._judge_id(provider)
        calls: list[CallRecord] = []
        verdicts: dict[str, LoggedVerdict] = {}
        failures: dict[str, str] = {}

        async def one(probe: Probe) -> None:
            seed = _seed(self.settings.seed, probe)
            q = questions[probe.question_key]
            key = verdict_key(judge_id, seed, q.kind, q.question, q.gold, probe.answer)
            if key in kept:
                verdicts[probe.id] = kept[key]
                calls.extend(
                    c.model_copy(update={"cached": True, "attempts": 0}) for c in kept[key].calls
                )
                return
            model = self.setup.providers.get(provider, seed)
            meter = Meter()
            async with gate:
                try:
                    with meter.active():
                        accepted, reply = await self.judge.verdict(model, q, probe.answer, seed)
                except Exception as exc:  # a failed call: left unjudged, asked again by a rerun
                    failures[probe.id] = one_line(exc, 300)
                    calls.extend(meter.records)
                    return
            line = LoggedVerdict(
                key=key, accepted=bool(accepted), reply=str(reply), calls=meter.records
            )
            log.append(line)
            verdicts[probe.id] = line
            calls.extend(meter.records)

        async with asyncio.TaskGroup() as group:  # a stop cancels the calls still going
            for probe in probes:
                group.create_task(one(probe))
        ordered = {p.id: verdicts[p.id].accepted for p in probes if p.id in verdicts}
        fp, fn, kinds = error_rates(probes, ordered)
        unjudged = [p.id for p in probes if p.id in failures]
        return JudgeResult(
            role=role,
            provider=provider,
            model=self.setup.providers.provider(provider).served,
            false_positive=fp,
            false_negative=fn,
            by_kind=kinds,
            verdicts=ordered,
            replies={p.id: verdicts[p.id].reply for p in probes if p.id in verdicts},
            unjudged=unjudged,
            error=failures[unjudged[0]] if unjudged else None,
            usage=usage_totals(calls),
        )
