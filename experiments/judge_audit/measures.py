"""The audit's numbers: a judge's error rates with their Wilson intervals, and how far two
judges agree (raw agreement and Cohen's kappa)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from ..tables.summary import wilson_interval
from .probes import Probe

INTERVAL = "Wilson score interval, 95%"


class Rate(BaseModel):
    """``count`` of ``n`` items, as a share with its 95% Wilson interval (None when n is 0)."""

    model_config = ConfigDict(extra="forbid")

    count: int
    n: int
    rate: float | None = None
    low: float | None = None
    high: float | None = None

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        if n == 0:
            return cls(count=0, n=0)
        low, high = wilson_interval(count, n)
        return cls(count=count, n=n, rate=count / n, low=low, high=high)

    def text(self) -> str:
        """``"3/20 = 15.0% (5.2-36.0)"``, or ``"-"`` for no items."""
        if self.rate is None or self.low is None or self.high is None:
            return "- (no items)"
        return (
            f"{self.count}/{self.n} = {100 * self.rate:.1f}% "
            f"({100 * self.low:.1f}-{100 * self.high:.1f})"
        )


def error_rates(
    probes: Sequence[Probe], verdicts: Mapping[str, bool]
) -> tuple[Rate, Rate, dict[str, Rate]]:
    """The false positive rate (wrong answers accepted), the false negative rate (rephrasings
    rejected) and the error rate of each kind, over the probes with a verdict."""
    judged = [p for p in probes if p.id in verdicts]

    def errors(group: Sequence[Probe]) -> Rate:
        return Rate.of(sum(verdicts[p.id] != (p.expected == "accept") for p in group), len(group))

    kinds: dict[str, Rate] = {}
    for kind in dict.fromkeys(p.kind for p in judged):
        kinds[kind] = errors([p for p in judged if p.kind == kind])
    wrong = [p for p in judged if p.expected == "reject"]
    same = [p for p in judged if p.expected == "accept"]
    return errors(wrong), errors(same), kinds


class Agreement(BaseModel):
    """How two judges' verdicts on the same items agree.

    ``table`` counts items by verdicts ``[[both accept, first only], [second only, both
    reject]]``; ``kappa`` is Cohen's (observed minus chance agreement, over one minus chance
    agreement, chance from each judge's own share of acceptances), None when chance agreement
    is 1 (both judges gave every item the same one verdict)."""

    model_config = ConfigDict(extra="forbid")

    items: int
    agree: int
    raw: float | None
    kappa: float | None
    table: list[list[int]]
    disagreements: list[str]
    """The probe ids the two judges disagree on."""


def agreement(first: Mapping[str, bool], second: Mapping[str, bool]) -> Agreement:
    """The agreement of two judges over the items both judged."""
    shared = [k for k in first if k in second]
    both = sum(first[k] and second[k] for k in shared)
    first_only = sum(first[k] and not second[k] for k in shared)
    second_only = sum(second[k] and not first[k] for k in shared)
    neither = len(shared) - both - first_only - second_only
    n = len(shared)
    agree = both + neither
    kappa = None
    if n:
        observed = agree / n
        p1, p2 = (both + first_only) / n, (both + second_only) / n
        chance = p1 * p2 + (1 - p1) * (1 - p2)
        kappa = None if chance >= 1 else (observed - chance) / (1 - chance)
    return Agreement(
        items=n,
        agree=agree,
        raw=agree / n if n else None,
        kappa=kappa,
        table=[[both, first_only], [second_only, neither]],
        disagreements=[k for k in shared if first[k] != second[k]],
    )
