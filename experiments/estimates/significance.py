"""Significance of self-consistency: one-sided exact tests against baselines, Holm's correction.

The Hangman paper (section 5, Table 1) marks a proposed method with an asterisk in a column when
it is significantly better than *every* baseline there: a one-sided Fisher exact test of the
method against each baseline (H1: the method's success rate is higher), Holm-Bonferroni
corrected at alpha = 0.05.

Which comparisons form one Holm family decides the markers. Recomputed from Table 1's counts
(50 trials per cell), only the family of one method in one column, i.e. the method against the
five baselines of that column (``family="agent_column"``), reproduces all the asterisks
exactly; testing without any correction (``family="none"``) happens to give the same markers on
that table. Pooling the family per column (35 tests), per method (40 tests) or over the whole
table (280 tests) loses asterisks the paper prints (for instance the three workflow agents on
Diagnosis / Qwen3 235B with ``"column"``). ``"agent_column"`` is therefore the default.

Table 1's counts pair nothing, so they are tested by Fisher. A run's agents play the same trial
seeds, so a run report gives each trial's outcome and the test is the paired one, an exact
McNemar test over the trials both agents ran (``mcnemar_exact``).
(A different reading, one intersection-union p-value per method and column, the largest of its
five, Holm-corrected over the methods of a column or over the columns of a method, also
reproduces the table; it is not implemented here.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scipy.stats import binomtest, fisher_exact

from cogarch.errors import ConfigError

Family = Literal["agent_column", "column", "agent", "all", "none"]
FAMILIES: tuple[Family, ...] = ("agent_column", "column", "agent", "all", "none")


@dataclass(frozen=True)
class Comparison:
    """One one-sided test: ``agent`` beats ``baseline`` in ``column``."""

    agent: str
    baseline: str
    column: str
    agent_successes: int
    agent_n: int
    baseline_successes: int
    baseline_n: int
    p_value: float
    p_adjusted: float
    significant: bool
    test: str = "fisher"
    """``fisher`` on the two counts, or ``mcnemar`` over the trials both ran (``shared``)."""
    shared: int | None = None


def fisher_greater(successes_a: int, n_a: int, successes_b: int, n_b: int) -> float:
    """One-sided Fisher exact p-value for "the success rate of A is higher than that of B"."""
    for name, s, n in (("A", successes_a, n_a), ("B", successes_b, n_b)):
        if n < 0 or not 0 <= s <= n:
            raise ConfigError(
                f"group {name} has {s} successes out of {n} trials; successes must lie "
                "between 0 and the (non-negative) number of trials"
            )
    if n_a == 0 or n_b == 0:
        return 1.0  # nothing observed: no evidence either way
    table = [[successes_a, n_a - successes_a], [successes_b, n_b - successes_b]]
    _, p = fisher_exact(table, alternative="greater")
    return float(p)


def mcnemar_exact(
    b: int, c: int, alternative: Literal["two-sided", "greater"] = "two-sided"
) -> float:
    """Exact McNemar test of paired 0/1 outcomes: a binomial test of ``b`` (items only the
    first got right) among the ``b + c`` discordant items, at one half. Two-sided: twice the
    smaller tail, capped at 1; ``greater``: the chance of ``b`` or more (the first is better).
    No discordant item gives p = 1."""
    if b < 0 or c < 0:
        raise ConfigError(f"discordant counts must be non-negative, got {b} and {c}")
    if b + c == 0:
        return 1.0
    if alternative == "greater":
        return float(binomtest(b, b + c, 0.5, alternative="greater").pvalue)
    return min(1.0, 2 * float(binomtest(min(b, c), b + c, 0.5, alternative="less").pvalue))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> tuple[list[float], list[bool]]:
    """Holm-Bonferroni step-down: adjusted p-values and which hypotheses are rejected.

    The adjusted p-value of the i-th smallest of m p-values is the running maximum of
    ``(m - j) * p_(j)`` for j <= i, capped at 1; a hypothesis is rejected when its adjusted
    p-value is at most ``alpha`` (the same decisions as the classical step-down procedure).
    """
    if not 0 < alpha < 1:
        raise ConfigError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted, [a <= alpha for a in adjusted]


def _family_key(family: Family, agent: str, column: str, index: int) -> tuple[str, ...]:
    if family == "agent_column":
        return (agent, column)
    if family == "column":
        return (column,)
    if family == "agent":
        return (agent,)
    if family == "all":
        return ()
    return (str(index),)  # "none": every test is its own family, i.e. no correction


Outcomes = Mapping[str, Mapping[str, Mapping[str, float]]]
"""Each agent's 0/1 outcome per column and item key (trial): what pairs two agents' items."""


def _one_sided(
    agent: str,
    baseline: str,
    column: str,
    table: Mapping[str, Mapping[str, tuple[int, int]]],
    outcomes: Outcomes | None,
) -> tuple[float, str, int | None]:
    """The one-sided p-value of ``agent`` beating ``baseline`` in ``column``: exact McNemar
    over the items both have when ``outcomes`` pairs them, else Fisher on the counts."""
    if outcomes is not None:
        mine = outcomes.get(agent, {}).get(column, {})
        theirs = outcomes.get(baseline, {}).get(column, {})
        shared = sorted(set(mine) & set(theirs))
        if shared:
            only_agent = sum(mine[k] > theirs[k] for k in shared)
            only_base = sum(theirs[k] > mine[k] for k in shared)
            return mcnemar_exact(only_agent, only_base, "greater"), "mcnemar", len(shared)
    (s_a, n_a), (s_b, n_b) = table[agent][column], table[baseline][column]
    return fisher_greater(s_a, n_a, s_b, n_b), "fisher", None


def compare_to_baselines(
    table: Mapping[str, Mapping[str, tuple[int, int]]],
    baselines: Iterable[str],
    *,
    alpha: float = 0.05,
    family: Family = "agent_column",
    outcomes: Outcomes | None = None,
) -> list[Comparison]:
    """Test every non-baseline agent against every baseline, column by column.

    ``table[agent][column]`` is ``(successes, trials)``. A comparison is made where both the
    agent and the baseline have the column: a one-sided exact McNemar test over the items
    both have when ``outcomes`` gives them (paired: same trial seed), else a one-sided Fisher
    exact test of the counts (Table 1's counts pair nothing); p-values are Holm-corrected
    within ``family``.
    """
    if family not in FAMILIES:
        raise ConfigError(f"unknown Holm family '{family}'; valid: {', '.join(FAMILIES)}")
    base = list(dict.fromkeys(baselines))
    unknown = [b for b in base if b not in table]
    if unknown:
        raise ConfigError(
            f"baselines not in the table: {', '.join(unknown)}; valid agent names: "
            f"{', '.join(table)}"
        )
    raw: list[tuple[str, str, str, float, str, int | None]] = []
    for agent, cells in table.items():
        if agent in base:
            continue
        for column in cells:
            for baseline in base:
                if column in table[baseline]:
                    raw.append(
                        (
                            agent,
                            baseline,
                            column,
                            *_one_sided(agent, baseline, column, table, outcomes),
                        )
                    )
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, row in enumerate(raw):
        groups.setdefault(_family_key(family, row[0], row[2], i), []).append(i)
    adjusted = [1.0] * len(raw)
    rejected = [False] * len(raw)
    for members in groups.values():
        adj, rej = holm([raw[i][3] for i in members], alpha)
        for i, a, r in zip(members, adj, rej, strict=True):
            adjusted[i], rejected[i] = a, r
    out = []
    for i, (agent, baseline, column, p, test, shared) in enumerate(raw):
        (s_a, n_a), (s_b, n_b) = table[agent][column], table[baseline][column]
        out.append(
            Comparison(
                agent,
                baseline,
                column,
                s_a,
                n_a,
                s_b,
                n_b,
                p,
                adjusted[i],
                rejected[i],
                test=test,
                shared=shared,
            )
        )
    return out


def markers_from(comparisons: Iterable[Comparison]) -> set[tuple[str, str]]:
    """The (agent, column) pairs whose every comparison is significant."""
    verdicts: dict[tuple[str, str], bool] = {}
    for c in comparisons:
        key = (c.agent, c.column)
        verdicts[key] = verdicts.get(key, True) and c.significant
    return {key for key, ok in verdicts.items() if ok}
