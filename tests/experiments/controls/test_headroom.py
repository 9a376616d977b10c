"""Headroom captured, (score - no_memory) / (oracle - no_memory) on the shared items, with its
paired-bootstrap interval: against hand computations, and from a suite of fakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cogarch.experiments.leaderboard.headroom import headroom
from cogarch.experiments.suites.config import load_suite_config
from cogarch.experiments.suites.runner import run_suite

REPO = Path(__file__).resolve().parents[3]


def test_headroom_on_the_items_the_three_cells_share() -> None:
    score = {"q1": 1.0, "q2": 1.0, "q3": 0.0, "q4": 1.0, "q9": 0.0}  # q9: not in the others
    none = {"q1": 0.0, "q2": 0.0, "q3": 0.0, "q4": 1.0, "q8": 1.0}
    oracle = {"q1": 1.0, "q2": 1.0, "q3": 1.0, "q4": 1.0}
    found = headroom(score, none, oracle, seed=5)
    # shared q1-q4: score 3/4, none 1/4, oracle 4/4 -> (0.75 - 0.25) / (1 - 0.25) = 2/3
    assert found.items == 4 and found.clusters is None
    assert (found.score, found.no_memory, found.oracle) == (0.75, 0.25, 1.0)
    assert found.value == pytest.approx(2 / 3)
    assert found.low is not None and found.high is not None
    assert found.low <= found.value <= found.high
    assert headroom(score, none, oracle, seed=5) == found  # the draws are seeded


def test_a_memory_as_good_as_the_oracle_on_every_item_has_headroom_one_on_every_draw() -> None:
    none = {i: 0.2 * (i % 3) for i in range(12)}
    oracle = {i: 1.0 for i in range(12)}
    found = headroom(dict(oracle), none, oracle, resamples=500)
    assert (found.value, found.low, found.high) == (1.0, 1.0, 1.0)


def test_by_cluster_the_draws_take_whole_clusters() -> None:
    # two conversations; in each the memory closes exactly half of every question's gap
    score = {(c, q): 0.5 for c in "ab" for q in range(3)}
    none = dict.fromkeys(score, 0.0)
    oracle = dict.fromkeys(score, 1.0)
    found = headroom(score, none, oracle, clusters={k: k[0] for k in score}, resamples=300)
    assert found.clusters == 2 and found.items == 6
    assert (found.value, found.low, found.high) == (0.5, 0.5, 0.5)


def test_no_gap_between_the_controls_leaves_headroom_undefined() -> None:
    same = {1: 1.0, 2: 0.0}
    found = headroom({1: 1.0, 2: 1.0}, same, same)
    assert found.value is None and found.low is None and found.undefined_draws == 2000
    empty = headroom({1: 1.0}, {2: 0.0}, {3: 1.0})
    assert empty.items == 0 and empty.value is None


@pytest.mark.parametrize(("level", "resamples"), [(0.0, 10), (1.0, 10), (0.9, 0)])
def test_bad_levels_and_resample_counts_are_refused(level: float, resamples: int) -> None:
    with pytest.raises(ValueError, match=r"level|resamples"):
        headroom({1: 1.0}, {1: 0.0}, {1: 1.0}, level=level, resamples=resamples)


async def test_headroom_from_a_suite_of_fakes_equals_the_hand_computation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    text = f"""\
name: lme_suite
trials: 7
cache: false
controls: [no_memory, oracle]
results_dir: {tmp_path / "out"}
providers:
  reader: {{kind: fake, fake: longmemeval.reader}}
  judge: {{kind: fake, fake: longmemeval.judge}}
helper_provider: judge
tasks:
  - {{kind: longmemeval, data: tests/tasks/longmemeval/data/small.json}}
agents:
  - {{name: rounds, agent: longmemeval_rounds, provider: reader,
      params: {{embedder: hash, top_k: 1}}}}
"""
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    ran = await run_suite(load_suite_config(path), progress=False, reports=False)
    assert [c.agent for c in ran.cells] == ["rounds", "no_memory", "oracle"]

    def verdicts(agent: str) -> dict[int, float]:
        folder = tmp_path / "out" / "longmemeval" / agent / agent
        found = {}
        for i in range(7):
            trial = json.loads((folder / f"trial_{i:04d}.json").read_text(encoding="utf-8"))
            found[trial["payload"]["question_id"]] = float(trial["payload"]["verdict"])
        return found

    score, none, oracle = verdicts("rounds"), verdicts("no_memory"), verdicts("oracle")
    found = headroom(score, none, oracle)
    # by hand: the means over the seven questions, then the ratio
    s, n, o = (sum(v.values()) / 7 for v in (score, none, oracle))
    assert found.items == 7 and found.value == pytest.approx((s - n) / (o - n))
    assert (found.score, found.no_memory, found.oracle) == (s, n, o)
