"""What frames a leaderboard cell's score: the headroom it captured between its column's
no-memory and oracle controls on its reader (``headrooms``, from ``headroom``), and its
column's judge audit as the leaderboard shows it (``ColumnAudit``, from the suite's
``judge_audit/<task>/judge_audit.json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel

from cogarch.core.metric import Metric

from ..estimates.clusters import MIN_CLUSTERS
from ..judge_audit.audit import JudgeAuditResult
from ..judge_audit.measures import Rate
from ..suites.files import SuiteManifest
from .cells import CellData
from .headroom import headroom


class HeadroomValue(BaseModel):
    """Headroom captured by a cell: (score - no memory) / (oracle - no memory) on the items
    the cell and its two controls share, with its 95% paired-bootstrap interval."""

    value: float | None = None
    """None when the oracle scores the same as no memory on the shared items."""
    low: float | None = None
    high: float | None = None
    interval_note: str | None = None
    """Why there is no interval: as for a mean, fewer than ``MIN_CLUSTERS`` items (or
    clusters) to draw, or draws without spread, are 'not estimable'."""
    items: int = 0
    clusters: int | None = None
    """The clusters the bootstrap drew, when the task's items hang together."""
    score: float | None = None
    no_memory: float | None = None
    oracle: float | None = None
    no_memory_agent: str
    """The no-memory control's row it is measured against (the same reader)."""
    oracle_agent: str


class ColumnAudit(BaseModel):
    """A column's judge audit as the leaderboard shows it (the whole audit is in the suite's
    ``judge_audit/<task>/judge_audit.json``)."""

    metric: str
    provider: str
    model: str
    false_positive: Rate
    """Wrong answers the judge accepted, of those shown, with the Wilson interval."""
    false_negative: Rate
    """Rephrasings of the gold answer it rejected, of those shown."""
    questions: int
    probes: int
    unjudged: int = 0
    second: str | None = None
    """The second judge's provider, when one re-judged the items."""
    second_false_positive: Rate | None = None
    second_false_negative: Rate | None = None
    kappa: float | None = None
    agreement: float | None = None
    calls: int = 0
    """The audit's model calls (metered apart from the cells')."""
    tokens: int = 0
    file: str
    """The audit's file, relative to the suite's folder."""

    @classmethod
    def of(cls, audit: JudgeAuditResult, file: str) -> ColumnAudit:
        first = audit.judges[0]
        second = audit.judges[1] if len(audit.judges) > 1 else None
        usage = [j.usage for j in audit.judges]
        return cls(
            metric=audit.metric,
            provider=first.provider,
            model=first.model,
            false_positive=first.false_positive,
            false_negative=first.false_negative,
            questions=len(audit.questions),
            probes=len(audit.probes),
            unjudged=sum(len(j.unjudged) for j in audit.judges),
            second=second.provider if second else None,
            second_false_positive=second.false_positive if second else None,
            second_false_negative=second.false_negative if second else None,
            kappa=audit.agreement.kappa if audit.agreement else None,
            agreement=audit.agreement.raw if audit.agreement else None,
            calls=sum(int(u.get("model_calls", 0)) for u in usage),
            tokens=sum(
                int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0)) for u in usage
            ),
            file=file,
        )


class Framed(Protocol):
    """A leaderboard cell as headroom reads and sets it."""

    agent: str
    control: str | None
    headroom: HeadroomValue | None


def _control_of(
    role: str, agent: str, cells: Sequence[Framed], manifest: SuiteManifest
) -> Framed | None:
    """The column's control cell of ``role`` on ``agent``'s reader (its provider), or the
    column's only one of that role when the suite names no providers."""
    found = [c for c in cells if c.control == role]
    mine = manifest.providers.get(agent)
    same = [c for c in found if mine is not None and manifest.providers.get(c.agent) == mine]
    if same:
        return same[0]
    return found[0] if len(found) == 1 and mine is None else None


def headrooms(
    main: Metric,
    cells: Sequence[Framed],
    data: dict[str, CellData],
    manifest: SuiteManifest,
) -> None:
    """Set the headroom of every compared cell of a column (``cells``, each with its
    ``agent``, ``control`` and ``headroom``) whose no-memory and oracle controls are there."""
    items = {agent: d.items.get(main.name, {}) for agent, d in data.items()}
    for cell in cells:
        if cell.control is not None:
            continue
        none = _control_of("no_memory", cell.agent, cells, manifest)
        oracle = _control_of("oracle", cell.agent, cells, manifest)
        if none is None or oracle is None or not items[cell.agent]:
            continue
        clusters = data[cell.agent].clusters.get(main.name) if main.cluster else None
        found = headroom(
            items[cell.agent], items[none.agent], items[oracle.agent], clusters=clusters
        )
        units = found.items if found.clusters is None else found.clusters
        low, high, note = found.low, found.high, None
        if found.value is None:
            note = "the oracle scores as no memory on the shared items"
        elif units < MIN_CLUSTERS:
            what = "items" if found.clusters is None else "clusters"
            low, high, note = None, None, f"{units} {what}, fewer than {MIN_CLUSTERS}"
        elif low is None or high is None or high - low < 1e-12:
            low, high, note = None, None, "no spread across the draws"
        cell.headroom = HeadroomValue(
            value=found.value,
            low=low,
            high=high,
            interval_note=note,
            items=found.items,
            clusters=found.clusters,
            score=found.score,
            no_memory=found.no_memory,
            oracle=found.oracle,
            no_memory_agent=none.agent,
            oracle_agent=oracle.agent,
        )
