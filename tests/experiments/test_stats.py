"""Statistics behind the report and the leaderboard: the Hangman paper's Table 1, exact
McNemar, and intervals over clustered items, checked by hand."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from scipy.stats import fisher_exact

from cogarch.core.leaderboard import LeaderboardMetric
from cogarch.errors import ConfigError
from cogarch.experiments.estimates.clusters import Interval, interval, wilson
from cogarch.experiments.estimates.paired import compare, estimate
from cogarch.experiments.estimates.significance import (
    FAMILIES,
    Family,
    compare_to_baselines,
    fisher_greater,
    holm,
    markers_from,
    mcnemar_exact,
)
from cogarch.experiments.tables.summary import wilson_interval

COLUMNS = (
    "hangman/gpt-oss-20b",
    "hangman/gpt-oss-120b",
    "hangman/qwen3-32b",
    "hangman/qwen3-235b",
    "diagnosis/gpt-oss-20b",
    "diagnosis/gpt-oss-120b",
    "diagnosis/qwen3-32b",
    "diagnosis/qwen3-235b",
)
# Table 1 as printed: self-consistency in % of 50 trials, "*" where the paper marks superiority.
TABLE_1 = """
Vanilla LLM               |  2  | 12  |  4  | 12   |  2  | 26  | 12 | 14
Mem0                      |  2  |  6  |  4  |  8   |  2  | 50  | 20 | 18
A-Mem                     |  6  |  6  |  2  |  2   |  4  | 32  | 12 | 28
LightMem                  |  0  |  6  |  6  |  8   |  0  | 38  | 10 | 10
MemoryOS                  |  0  | 14  |  4  |  4   |  0  |  2  |  8 |  6
Private CoT               | 94* | 82* | 94* | 98*  | 66* | 54  | 16 | 82*
Autonomous Overwrite      | 50* | 72* | 12  | 78*  | 46* | 50  | 14 | 26
Autonomous Patch/Replace  | 34* | 46* |  6  | 92*  | 42* | 68  | 10 | 34
Autonomous Append/Delete  | 26* | 42* |  8  | 74*  | 56* | 56  | 10 | 30
Workflow Overwrite        | 76* | 98* | 92* | 100* | 70* | 96* | 18 | 56*
Workflow Patch/Replace    | 30* | 94* | 76* | 100* | 64* | 92* | 20 | 56*
Workflow Append/Delete    | 56* | 84* | 82* | 100* | 44* | 90* | 16 | 52*
"""
BASELINES = ("Vanilla LLM", "Mem0", "A-Mem", "LightMem", "MemoryOS")
N = 50


def parse_table() -> tuple[dict[str, dict[str, int]], set[tuple[str, str]]]:
    counts: dict[str, dict[str, int]] = {}
    starred: set[tuple[str, str]] = set()
    for line in TABLE_1.strip().splitlines():
        name, *cells = (c.strip() for c in line.split("|"))
        counts[name] = {}
        for column, cell in zip(COLUMNS, cells, strict=True):
            if cell.endswith("*"):
                starred.add((name, column))
            percent = int(cell.rstrip("*"))
            assert percent % 2 == 0  # percentages of 50 trials
            counts[name][column] = percent // 2
    return counts, starred


def superiority_markers(
    counts: dict[str, dict[str, int]],
    n: int,
    baselines: Sequence[str],
    family: Family = "agent_column",
) -> set[tuple[str, str]]:
    """Table 1's asterisks: each agent against every baseline, ``n`` trials per cell."""
    table = {a: {c: (s, n) for c, s in cells.items()} for a, cells in counts.items()}
    return markers_from(compare_to_baselines(table, baselines, family=family))


def test_table_1_is_parsed_completely() -> None:
    counts, starred = parse_table()
    assert len(counts) == 12 and all(len(c) == 8 for c in counts.values())
    assert len(starred) == 39
    assert counts["Workflow Overwrite"]["hangman/qwen3-235b"] == 50


@pytest.mark.parametrize("family", ["agent_column", "none"])
def test_markers_reproduce_table_1_exactly(family: str) -> None:
    counts, starred = parse_table()
    markers = superiority_markers(counts, N, BASELINES, family=family)  # type: ignore[arg-type]
    assert markers == starred


def test_default_family_is_the_one_that_reproduces_table_1() -> None:
    counts, starred = parse_table()
    assert superiority_markers(counts, N, BASELINES) == starred


@pytest.mark.parametrize(
    ("family", "lost"),
    [
        (
            "column",
            {
                ("Workflow Overwrite", "diagnosis/qwen3-235b"),
                ("Workflow Patch/Replace", "diagnosis/qwen3-235b"),
                ("Workflow Append/Delete", "diagnosis/qwen3-235b"),
            },
        ),
        (
            "agent",
            {
                ("Autonomous Append/Delete", "hangman/gpt-oss-20b"),
                ("Workflow Append/Delete", "diagnosis/qwen3-235b"),
            },
        ),
        (
            "all",
            {
                ("Autonomous Append/Delete", "hangman/gpt-oss-20b"),
                ("Autonomous Append/Delete", "hangman/gpt-oss-120b"),
                ("Workflow Patch/Replace", "hangman/gpt-oss-20b"),
                ("Workflow Overwrite", "diagnosis/qwen3-235b"),
                ("Workflow Patch/Replace", "diagnosis/qwen3-235b"),
                ("Workflow Append/Delete", "diagnosis/qwen3-235b"),
            },
        ),
    ],
)
def test_larger_families_lose_printed_asterisks(family: str, lost: set[tuple[str, str]]) -> None:
    counts, starred = parse_table()
    markers = superiority_markers(counts, N, BASELINES, family=family)  # type: ignore[arg-type]
    assert markers == starred - lost


def test_unknown_baseline_is_rejected() -> None:
    with pytest.raises(ConfigError, match="Mem1"):
        superiority_markers({"a": {"c": 3}, "b": {"c": 1}}, 5, ["Mem1"])


def test_agent_needs_every_baseline() -> None:
    counts = {"ours": {"c": 20}, "weak": {"c": 0}, "strong": {"c": 19}}
    assert superiority_markers(counts, 20, ["weak"]) == {("ours", "c"), ("strong", "c")}
    assert superiority_markers(counts, 20, ["weak", "strong"]) == set()


def test_fisher_greater_matches_scipy_and_is_one_sided() -> None:
    expected = fisher_exact([[13, 37], [3, 47]], alternative="greater")[1]
    assert fisher_greater(13, 50, 3, 50) == pytest.approx(expected)
    assert fisher_greater(13, 50, 3, 50) < 0.01 < 0.99 < fisher_greater(3, 50, 13, 50)
    assert fisher_greater(0, 0, 3, 5) == 1.0
    with pytest.raises(ConfigError, match="between 0"):
        fisher_greater(6, 5, 0, 5)


def test_holm_step_down() -> None:
    adjusted, rejected = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1 -> max(0.06, 0.04)=0.06
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert rejected == [True, False, False, True]
    assert holm([]) == ([], [])
    with pytest.raises(ConfigError, match="alpha"):
        holm([0.1], alpha=1.5)


def test_comparisons_carry_counts_and_family() -> None:
    table = {"ours": {"c": (9, 10)}, "base1": {"c": (1, 10)}, "base2": {"c": (2, 10)}}
    result = compare_to_baselines(table, ["base1", "base2"])
    assert [(c.agent, c.baseline) for c in result] == [("ours", "base1"), ("ours", "base2")]
    assert all(c.p_adjusted >= c.p_value and c.significant for c in result)
    assert result[0].agent_successes == 9 and result[0].baseline_n == 10
    with pytest.raises(ConfigError, match="Holm family"):
        compare_to_baselines(table, ["base1"], family="rows")  # type: ignore[arg-type]
    assert set(FAMILIES) == {"agent_column", "column", "agent", "all", "none"}


def test_wilson_interval_is_reexported() -> None:
    low, high = wilson_interval(25, 50)
    assert low == pytest.approx(0.3664, abs=1e-3) and high == pytest.approx(0.6336, abs=1e-3)


def test_exact_mcnemar_is_a_binomial_test_on_the_discordant_pairs() -> None:
    assert mcnemar_exact(10, 0) == mcnemar_exact(0, 10) == pytest.approx(0.001953125)
    assert mcnemar_exact(1, 11) == pytest.approx(2 * (1 + 12) / 2**12)  # 2 * P(X <= 1)
    assert mcnemar_exact(10, 0, "greater") == pytest.approx(0.5**10)
    assert mcnemar_exact(4, 4) == 1.0 and mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ConfigError, match="non-negative"):
        mcnemar_exact(-1, 3)


def test_paired_rates_over_shared_items_use_mcnemar_never_pooled_counts() -> None:
    rate = LeaderboardMetric(name="r", value="ok", interval="wilson")
    a = {str(i): float(i < 20) for i in range(30)}
    b = {str(i): float(i < 10) for i in range(30)}
    p, name = compare(rate, b, a)
    assert name == "mcnemar" and p == pytest.approx(0.001953125)
    unpaired = rate.model_copy(update={"paired": False})
    assert compare(unpaired, b, a) == (fisher_exact([[10, 20], [20, 10]])[1], "fisher")


def test_a_rate_of_unclustered_items_gets_wilson_at_any_n() -> None:
    rate = LeaderboardMetric(name="r", value="ok", interval="wilson")
    found = estimate(rate, {"0": 0.0, "1": 0.0, "2": 0.0})
    assert found is not None and found.method == "wilson" and found.low == 0.0
    assert found.high == pytest.approx(wilson_interval(0, 3)[1]) and found.high > 0.5


def test_too_few_clusters_or_no_spread_give_no_interval() -> None:
    two = {f"{t}/{i}": float(i % 2) for t in range(2) for i in range(5)}
    clusters = {k: f"conversation {k[0]}" for k in two}
    assert interval(two, clusters, rate=True) == Interval(
        None, None, "not estimable", "2 clusters, fewer than 10"
    )
    mean = LeaderboardMetric(name="m", value="v")
    found = estimate(mean, {"0": 0.0, "1": 0.0, "2": 0.0})  # was "0 (0-0) n=3"
    assert found is not None and (found.low, found.high, found.clusters) == (None, None, 3)
    same = {str(i): 0.5 for i in range(12)}
    assert interval(same, {}, rate=False).note == "every cluster has the same mean"


def test_a_clustered_mean_resamples_whole_clusters() -> None:
    values, clusters = {}, {}
    for c in range(10):
        for i in range(c % 3 + 1):  # clusters of 1, 2 or 3 items
            values[f"{c}/{i}"] = float(c * 0.1 + i * 0.05)
            clusters[f"{c}/{i}"] = f"c{c}"
    sums = np.array(
        [sum(v for k, v in values.items() if clusters[k] == f"c{c}") for c in range(10)]
    )
    counts = np.array([c % 3 + 1 for c in range(10)], dtype=float)
    chosen = np.random.default_rng(0).integers(0, 10, size=(2000, 10))
    means = sums[chosen].sum(axis=1) / counts[chosen].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    found = interval(values, clusters, rate=False)
    assert found.method == "cluster bootstrap"
    assert (found.low, found.high) == (pytest.approx(low), pytest.approx(high))


def test_a_clustered_rate_gets_wilson_at_the_effective_sample_size() -> None:
    # 10 conversations of 4 questions, each conversation all right or all wrong (deff 4)
    values = {f"{c}/{i}": float(c < 6) for c in range(10) for i in range(4)}
    clusters = {k: k.split("/")[0] for k in values}
    chosen = np.random.default_rng(0).integers(0, 10, size=(2000, 10))
    sums = np.array([4.0 * (c < 6) for c in range(10)])
    spread = (sums[chosen].sum(axis=1) / 40).var() * 10 / 9
    effective = 40 / max(1.0, spread / (0.6 * 0.4 / 40))
    found = interval(values, clusters, rate=True)
    assert found.method == "wilson at effective n"
    assert (found.low, found.high) == pytest.approx(wilson(0.6, effective))
    assert found.high - found.low > np.subtract(*wilson_interval(24, 40)[::-1])  # wider
    every = {f"{c}/{i}": 1.0 for c in range(10) for i in range(4)}
    assert interval(every, clusters, rate=True).low == pytest.approx(wilson(1.0, 10)[0])
